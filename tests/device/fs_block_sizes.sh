#!/bin/bash
# Block sizes above 4 KiB (recommendations.block_size_advice): for a drive
# whose write unit is a power of two above 4 KiB (sim:sata-mlc-8k, 16 KiB) and
# one whose unit is not (sim:nvme-tlc-16k, 48 KiB), every advised command that
# the running kernel and tools allow is run on a partition of a scratch loop
# device: mkfs, mount, files written, sync, remount, checksums compared, the
# block or cluster size checked, and `ssdprobe audit` finds the layout aligned.
# Advice that cannot run here (ZFS; XFS blocks above the page size before
# Linux 6.12) must say so: applies false and a "(not usable here)" note.
# And blocks below 4 KiB (ext4 -b 1024) are a warning against those units,
# with what a lone block IO costs, and a note without units.
#
# Usage: fs_block_sizes.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq sfdisk partx mkfs.xfs mkfs.ext4 mkfs.f2fs xfs_info dumpe2fs sha256sum wipefs mount umount
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mount)"

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

scratch_mount_point

# The running kernel mounts XFS blocks above the page size from 6.12.
read -r kmajor kminor < <(uname -r | sed -E 's/^([0-9]+)\.([0-9]+).*/\1 \2/')
page=$(getconf PAGESIZE)
xfs_large_ok=false
if [ "$kmajor" -gt 6 ] || { [ "$kmajor" = 6 ] && [ "$kminor" -ge 12 ]; }; then xfs_large_ok=true; fi
note "kernel $(uname -r), page $page B: XFS blocks above the page expected usable: $xfs_large_ok"

file="$SCRATCH/disk.img"
truncate -s 2G "$file"
dev=$(losetup --find --show "$file") || fail "losetup"
echo "$dev" >> "$SCRATCH/.loops"
part="${dev}p1"

# write_files: three files of different sizes; their checksums in $SCRATCH/sums.
write_files() {
  head -c 1000 /dev/urandom > "$MNT/small" && head -c 100000 /dev/urandom > "$MNT/medium" &&
    head -c 3000000 /dev/urandom > "$MNT/large" && sync || return 1
  (cd "$MNT" && sha256sum small medium large) > "$SCRATCH/sums"
}

# block_check J COMMAND: the filesystem made has the size the command asked for.
block_check() {
  local cmd="$2" want got
  if [[ "$cmd" =~ mkfs\.xfs.*-b\ size=([0-9]+)k ]]; then
    want=$((BASH_REMATCH[1] * 1024))
    got=$(xfs_info "$MNT" | sed -nE 's/^data +=.*bsize=([0-9]+).*/\1/p')
  elif [[ "$cmd" =~ -O\ bigalloc\ -C\ ([0-9]+) ]]; then
    want=${BASH_REMATCH[1]}
    got=$(dumpe2fs -h "$part" 2>/dev/null | sed -nE 's/^Cluster size: +([0-9]+)/\1/p')
  else
    return 0
  fi
  [ "$got" = "$want" ] || { bad "$cmd: made size $got, wanted $want"; return 1; }
  note "     size $got as asked"
}

# try_command J COMMAND: mkfs on a fresh aligned partition, files round-trip a
# remount, then the audit against the same units is all OK with no errors.
try_command() {
  local j="$1" cmd sfdisk_cmd out
  cmd=$(sed -e "s#PARTITION#$part#g" <<<"$2")
  sfdisk_cmd=$(jq -r '.recommendations.steps[] | select(.key == "sfdisk") | .command' "$j" | sed -e "s#DISK#$dev#g")
  drop_partitions "$dev"
  wipefs -a -q "$dev" 2>/dev/null
  bash -c "$sfdisk_cmd" >/dev/null 2>&1 || { bad "sfdisk: $sfdisk_cmd"; return; }
  [ -e "$part" ] || partx -a "$dev" 2>/dev/null
  if ! bash -c "$cmd" > "$SCRATCH/mkfs.log" 2>&1; then bad "$cmd failed: $(tail -3 "$SCRATCH/mkfs.log")"; return; fi
  if ! mount "$part" "$MNT" 2> "$SCRATCH/mount.log"; then
    # Some test kernels are built without F2FS (Debian's have it as a module):
    # mkfs ran, the mount cannot, and that is the kernel's, not the advice's.
    if [[ "$cmd" == mkfs.f2fs* ]] && ! grep -qw f2fs /proc/filesystems && ! modprobe f2fs 2>/dev/null; then
      note "ran  $cmd: mkfs succeeded; this kernel has no F2FS, so it was not mounted"
      return
    fi
    bad "$cmd: mount failed: $(cat "$SCRATCH/mount.log")"; return
  fi
  note "ran  $cmd: mkfs and mount succeeded"
  block_check "$j" "$cmd"
  write_files || bad "$cmd: writing files failed"
  umount "$MNT" && mount "$part" "$MNT" || { bad "$cmd: remount failed"; return; }
  (cd "$MNT" && sha256sum --quiet -c "$SCRATCH/sums") || bad "$cmd: files differ after remount"
  umount "$MNT"
  out=$("$SSDPROBE" -q audit "$dev" --units-from "$j" --json -) || { bad "$cmd: audit exited $?"; return; }
  [ "$(jq -r .audit.all_ok <<<"$out")" = true ] ||
    bad "$cmd: audit not all OK: $(jq -c '[.audit.checks[] | select(.ok == false)]' <<<"$out")"
  [ "$(jq '[.mismatches[]? | select(.severity == "error")] | length' <<<"$out")" = 0 ] ||
    bad "$cmd: audit error lines: $(jq -c '[.mismatches[] | select(.severity == "error")]' <<<"$out")"
  note "ok   $cmd: files intact after remount, audit all OK"
}

# check_advice J UNIT BLOCK: the advice names BLOCK and marks what cannot run here.
check_advice() {
  local j="$1" unit="$2" block="$3" n xfs_applies
  n=$(jq '.recommendations.block_size_advice | length' "$j")
  [ "$n" -gt 1 ] || { bad "unit $unit: no block size advice (got $n items)"; return 1; }
  jq -r '.recommendations.block_size_advice[] | "#   [\(.applies)] \(.what): \(.command // "-")"' "$j"
  [ "$(jget "$j" '.recommendations.block_size_advice[0].what')" = "$((block / 1024)) KiB blocks" ] ||
    bad "unit $unit: first advice is '$(jget "$j" '.recommendations.block_size_advice[0].what')'"
  jq -e --arg b "size=$((block / 1024))k" \
    '.recommendations.block_size_advice[] | select(.what | startswith("XFS")) | .command | contains($b)' "$j" \
    >/dev/null || bad "unit $unit: no XFS command with -b $block"
  xfs_applies=$(jq -r '.recommendations.block_size_advice[] | select(.what | startswith("XFS")) | .applies' "$j")
  if [ "$block" -gt "$page" ]; then
    [ "$xfs_applies" = "$xfs_large_ok" ] || bad "unit $unit: XFS applies=$xfs_applies on $(uname -r)"
  fi
  [ "$(jq -r '.recommendations.block_size_advice[] | select(.what | startswith("ZFS")) | .applies' "$j")" = false ] ||
    bad "unit $unit: ZFS is not marked as not usable here"
  local what
  while IFS= read -r what; do
    jq -e --arg w "$what (not usable here)" 'any(.recommendations.notes[]; startswith($w))' "$j" >/dev/null ||
      bad "unit $unit: '$what' does not apply but no note says so"
  done < <(jq -r '.recommendations.block_size_advice[] | select(.applies == false) | .what' "$j")
  jq -e 'any(.recommendations.block_size_advice[]; (.command // "") | test("48k|49152")) | not' "$j" >/dev/null ||
    bad "unit $unit: a command uses 48 KiB, which no tool accepts as a block size"
}

for sim in sata-mlc-8k:16384:16384 nvme-tlc-16k:49152:16384; do
  IFS=: read -r name unit block <<<"$sim"
  j="$SCRATCH/$name.json"
  "$SSDPROBE" -q --write --yes --budget 20 --json "$j" "sim:$name" >/dev/null || fail "sim:$name exited $?"
  got=$(jget "$j" .detected.write_unit.bytes)
  [ "$got" = "$unit" ] || { bad "sim:$name: write unit $got, expected $unit"; continue; }
  note "sim:$name: read page $(jget "$j" .detected.read_page.bytes), write unit $got"
  check_advice "$j" "$unit" "$block" || continue
  while IFS= read -r cmd; do
    try_command "$j" "$cmd"
  done < <(jq -r '.recommendations.block_size_advice[] | select(.applies and .command != null) | .command' "$j")
done

# Blocks below 4 KiB (mkfs.ext4 -b 1024): against the units of sim:nvme-tlc-16k
# (16 KiB read page, 48 KiB write unit) a warning saying what a lone block
# IO costs; without units OK by the 512 B physical block, with a note.
j="$SCRATCH/nvme-tlc-16k.json"
drop_partitions "$dev"
wipefs -a -q "$dev" 2>/dev/null
printf 'label: dos\nstart=2048, type=83\n' | sfdisk -q "$dev" >/dev/null 2>&1 || fail "sfdisk for the 1 KiB ext4"
[ -e "$part" ] || partx -a "$dev" 2>/dev/null
mkfs.ext4 -q -F -b 1024 "$part" >/dev/null 2>&1 || fail "mkfs.ext4 -b 1024"
out=$("$SSDPROBE" -q audit --fail-on never "$dev" --units-from "$j" --json -) || bad "1 KiB ext4: audit exited $?"
line=$(jq -c '.audit.checks[] | select(.field == "partition[1].ext4.block_size")' <<<"$out")
jq -e '.ok == false and .severity == "warning"' <<<"$line" >/dev/null || bad "1 KiB ext4 blocks are not a warning: $line"
want="block 1 KiB is smaller than the drive's read page and write unit: a lone block read senses a whole read page (16 KiB, 16x its size); a lone block write programs a whole write unit (48 KiB, 48x its size)"
[ "$(jq -r .message <<<"$line")" = "$want" ] || bad "1 KiB ext4: message: $(jq -r .message <<<"$line")"
jq -e '.fix | any(.command == "mkfs.ext4 -F -b 4096 '"$part"'")' <<<"$line" >/dev/null || bad "1 KiB ext4: no mkfs with 4 KiB blocks: $line"
note "ok   1 KiB ext4 with units: $(jq -r .message <<<"$line")"
out=$("$SSDPROBE" -q audit --fail-on never "$dev" --json -) || bad "1 KiB ext4: audit without units exited $?"
jq -e '.audit.checks[] | select(.field == "partition[1].ext4.block_size") | .ok' <<<"$out" >/dev/null ||
  bad "1 KiB ext4 without units: not OK by the physical block"
jq -e '.audit.notes | any(test("1 KiB blocks are below 4 KiB"))' <<<"$out" >/dev/null ||
  bad "1 KiB ext4 without units: no note that the blocks are below 4 KiB: $(jq -c .audit.notes <<<"$out")"
note "ok   1 KiB ext4 without units: $(jq -r '.audit.notes[] | select(test("below 4 KiB"))' <<<"$out")"

[ "$failures" = 0 ] || fail "$failures checks failed"
echo "PASS"
