#!/usr/bin/env bash
# file_extents.sh SSDPROBE: `ssdprobe audit FILE|DIR` on mounted
# filesystems (issue 39): ext4 with 4 KiB blocks on a partition that starts
# at an odd sector and on an aligned one, ext4 bigalloc with 64 KiB
# clusters, xfs with extent size hints, f2fs; files written to be
# misaligned on purpose (a 4 KiB-interleaved pair), a file with holes, an
# unwritten preallocation and a punched hole. Against units saved in a
# document (read page 16 KiB, write unit 64 KiB), each file's misaligned
# bytes must equal what `filefrag -v` (e2fsprogs' own FIEMAP reader) says
# was built, the designed cases their designed shares, the exit code the
# audit's rules, and the xfs fix, run as printed on a file, must give it the
# hint and keep its bytes. A disk image file stays a disk image.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
SSDPROBE="$1"
require_executable "$SSDPROBE"
require_cmd jq filefrag mkfs.ext4 mkfs.xfs mkfs.f2fs xfs_io addpart delpart fallocate sfdisk mount umount sha256sum
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mount)"
make_scratch

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
KiB=1024
MNT="$SCRATCH/mnt"
mkdir -p "$MNT"
MOUNTED=""
unmount_all() { [ -n "$MOUNTED" ] && umount "$MOUNTED" 2>/dev/null; MOUNTED=""; return 0; }
trap 'rc=$?; unmount_all; (exit "$rc"); cleanup' EXIT  # cleanup exits with the test's code

# Saved units: a sim run's 16 KiB read page, and a 64 KiB write unit set
# in its document (a shape --units-from accepts).
"$SSDPROBE" -q --budget 10 --json "$SCRATCH/sim.json" sim:nvme-tlc-16k >/dev/null || fail "sim run exited $?"
jq '.detected.write_unit = (.detected.read_page | .bytes = 65536 | .evidence = "set by file_extents.sh")' \
  "$SCRATCH/sim.json" > "$SCRATCH/units.json"
UNITS="$SCRATCH/units.json"
[ "$(jq .detected.read_page.bytes "$UNITS")" = 16384 ] || fail "the sim run found no 16 KiB read page"

# oracle FILE DISK_START UNIT: "DATA MISALIGNED" bytes from filefrag -v in
# 512 B blocks: extents that continue one another in the file and on the
# disk merged, unwritten/delalloc/inline/unknown/encoded ones left out, the
# file's last extent held only to its starts.
oracle() {
  local size
  size=$(stat -c %s "$1")
  filefrag -v -b512 "$1" | awk -v start="$2" -v U="$3" -v size="$size" '
    /^ *[0-9]+:/ {
      split($0, f, ":"); split(f[2], l, "\\.\\."); split(f[3], p, "\\.\\.")
      lo = l[1] * 512; ph = p[1] * 512; len = f[4] * 512
      data = $0 !~ /unwritten|delalloc|inline|unknown|encoded|not_aligned/
      if (n > 0 && data && D[n] && L[n] + N[n] == lo && P[n] + N[n] == ph) { N[n] += len; next }
      n++; L[n] = lo; P[n] = ph; N[n] = len; D[n] = data
    }
    END {
      for (i = 1; i <= n; i++) {
        if (!D[i]) continue
        total += N[i]
        last = (i == n) || (L[i] + N[i] >= size)
        if (L[i] % U || (start + P[i]) % U || (!last && N[i] % U)) bad += N[i]
      }
      printf "%d %d\n", total, bad
    }'
}

# check_file JSON PATH DISK_START: ssdprobe's data and misaligned bytes for
# PATH equal the oracle's, for each unit; prints the shares.
check_file() {
  local json="$1" path="$2" start="$3" unit data want got
  for unit in 4096 16384 65536; do
    read -r data want < <(oracle "$path" "$start" "$unit")
    got=$(jq --arg p "$path" --argjson u "$unit" \
      '.audit.files.files[] | select(.path == $p) | "\(.data_bytes) \(.misaligned[] | select(.unit_bytes == $u) | .bytes)"' \
      -r <<<"$json")
    [ "$got" = "$data $want" ] || bad "$path, unit $unit: ssdprobe says data/misaligned $got, filefrag $data $want"
  done
  note "$(jq -r --arg p "$path" '.audit.files.files[] | select(.path == $p) |
    "\(.path | split("/") | last): \(.data_bytes) B data in \(.merged_extents) extents, holes \(.hole_bytes) B, " +
    "not judged \([.not_judged[] | "\(.kind) \(.bytes)"] | join(",")); misaligned " +
    ([.misaligned[] | "\(.unit) \(.share * 100 | round) %"] | join(", "))' <<<"$json")"
}

share_of() {  # JSON PATH UNIT_BYTES
  jq -r --arg p "$2" --argjson u "$3" '.audit.files.files[] | select(.path == $p) | .misaligned[] |
    select(.unit_bytes == $u) | .share' <<<"$1"
}

audit_json() { "$SSDPROBE" -q audit --units-from "$UNITS" --json - "$@" 2>/dev/null; }

# new_fs SECTOR SECTORS MKFS...: a loop device over a new sparse file with
# one partition (addpart) at SECTOR, the filesystem made and mounted on
# $MNT; sets DEV.
new_fs() {
  local sector="$1" sectors="$2"; shift 2
  unmount_all
  DEV=$(sparse_loop 2G)
  addpart "$DEV" 1 "$sector" "$sectors" || fail "addpart $DEV 1 $sector $sectors"
  "$@" "${DEV}p1" >/dev/null 2>&1 || fail "$* ${DEV}p1"
  mount "${DEV}p1" "$MNT" || fail "mount ${DEV}p1"
  MOUNTED="$MNT"
}

# interleaved A B COUNT: A and B grow by 4 KiB in turn, each write synced,
# so each file's extents are 4 KiB pieces between the other's.
interleaved() {
  local i
  for ((i = 0; i < $3; i++)); do
    dd if=/dev/urandom of="$1" bs=4k count=1 oflag=append,sync conv=notrunc status=none
    dd if=/dev/urandom of="$2" bs=4k count=1 oflag=append,sync conv=notrunc status=none
  done
}

# 1. ext4, 4 KiB blocks, partition at sector 2049: 512 B past every 4 KiB,
#    so all data misses every unit (error: exit 8).
note "== ext4, 4 KiB blocks, partition at sector 2049"
new_fs 2049 1000000 mkfs.ext4 -q -F -b 4096
head -c 3000000 /dev/urandom > "$MNT/whole" && sync
j=$(audit_json "$MNT/whole"); rc=$?
[ "$rc" = 8 ] || bad "ext4 at sector 2049: exit $rc, want 8"
check_file "$j" "$MNT/whole" $((2049 * 512))
for u in 4096 16384 65536; do
  [ "$(share_of "$j" "$MNT/whole" $u)" = 1 ] || bad "ext4 at sector 2049: unit $u share $(share_of "$j" "$MNT/whole" $u), want 1"
done
[ "$(jq -r '.audit.files.filesystem.disk_start_bytes' <<<"$j")" = $((2049 * 512)) ] || bad "partition start not read"
jq -e '.audit.checks[0].fix[0].command | startswith("ssdprobe audit /dev/loop")' <<<"$j" >/dev/null ||
  bad "a misaligned partition's files are not sent to the disk's audit: $(jq -c '.audit.checks[0].fix' <<<"$j")"
# A read run on a file in one piece keeps its grid to that piece, in disk
# offsets: the partition's start plus where filefrag says the data is.
dd if=/dev/urandom of="$MNT/big" bs=1M count=16 oflag=direct status=none
first=$(filefrag -v -b512 "$MNT/big" | awk -F: '/^ *0:/ { split($3, p, "\\.\\."); print p[1] * 512 }')
"$SSDPROBE" -q --budget 3 --json "$SCRATCH/big.json" "$MNT/big" >/dev/null 2>&1 || bad "read run on a file exited $?"
got=$(jq -r '.run.file_mapping | "\(.file_offset) \(.disk_offset)"' "$SCRATCH/big.json")
[ "$got" = "0 $((2049 * 512 + first))" ] || bad "read run: file_mapping $got, want 0 $((2049 * 512 + first))"
[ "$(jq -r .run.read_region.source "$SCRATCH/big.json")" = file_extents ] || bad "read region not from the extents"
note "read run on big: grid at disk offset $(jq -r .run.file_mapping.disk_offset "$SCRATCH/big.json") ($(jq -r .run.file_mapping.length "$SCRATCH/big.json") B contiguous)"

# 2. ext4, 4 KiB blocks, aligned: an interleaved pair (4 KiB pieces: misses
#    the page and the unit, a warning: exit 0, 8 with --fail-on warning), a
#    file with holes, a preallocation and a punched hole.
note "== ext4, 4 KiB blocks, partition at sector 2048"
new_fs 2048 1000000 mkfs.ext4 -q -F -b 4096
interleaved "$MNT/a" "$MNT/b" 24
truncate -s 1M "$MNT/holes"
dd if=/dev/urandom of="$MNT/holes" bs=64k count=1 conv=notrunc,fsync status=none
dd if=/dev/urandom of="$MNT/holes" bs=64k count=2 seek=8 conv=notrunc,fsync status=none
fallocate -o $((768 * KiB)) -l $((64 * KiB)) "$MNT/holes"
fallocate --punch-hole -o $((576 * KiB)) -l $((64 * KiB)) "$MNT/holes"
j=$(audit_json "$MNT"); rc=$?
[ "$rc" = 0 ] || bad "aligned ext4 directory: exit $rc, want 0 (warnings only)"
"$SSDPROBE" -q audit --fail-on warning --units-from "$UNITS" "$MNT" >/dev/null 2>&1; rc=$?
[ "$rc" = 8 ] || bad "aligned ext4 directory, --fail-on warning: exit $rc, want 8"
for f in a b holes; do check_file "$j" "$MNT/$f" $((2048 * 512)); done
# A read run on a file big enough for the grid (8 MiB) whose data lies in
# 64 KiB pieces (every other 64 KiB punched out) says it is too fragmented
# instead of timing a grid across its pieces.
dd if=/dev/urandom of="$MNT/frag" bs=1M count=8 conv=fsync status=none
for ((off = 65536; off < 8 * 1048576; off += 131072)); do fallocate --punch-hole -o "$off" -l 65536 "$MNT/frag"; done
"$SSDPROBE" -q --budget 3 --json "$SCRATCH/a.json" "$MNT/frag" >/dev/null 2>&1 || bad "read run on a fragmented file exited $?"
jq -e '(.phases[] | select(.name == "read_grid") | .state == "skipped" and
        (.reason | startswith("the file'"'"'s extents are too fragmented for the grid: largest contiguous extent 64 KiB")))
       and .detected.read_page.bytes == null and .run.file_mapping == null' "$SCRATCH/a.json" >/dev/null ||
  bad "fragmented file: $(jq -c '[(.phases[] | select(.name == "read_grid")), .detected.read_page.state]' "$SCRATCH/a.json")"
awk -v s="$(share_of "$j" "$MNT/a" 16384)" 'BEGIN { exit !(s >= 0.5) }' ||
  bad "4 KiB-interleaved file: read page share $(share_of "$j" "$MNT/a" 16384), want at least 0.5"
# 1 MiB: 64 KiB written at 0, 128 KiB at 512 KiB of which 64 KiB punched
# out, 64 KiB preallocated at 768 KiB: 832 KiB of holes, 64 KiB unwritten.
got=$(jq -r --arg p "$MNT/holes" '.audit.files.files[] | select(.path == $p) |
  "\(.hole_bytes) \(.data_bytes) \([.not_judged[] | select(.kind == "unwritten") | .bytes] | add)"' <<<"$j")
[ "$got" = "$((832 * KiB)) $((128 * KiB)) $((64 * KiB))" ] || bad "holes file: holes/data/unwritten $got"
jq -e '[.audit.files.total.files, .audit.files.directory] == [3, true]' <<<"$j" >/dev/null || bad "directory total"
jq -e '.audit.notes | any(startswith("64 KiB in unwritten extents not judged"))' <<<"$j" >/dev/null ||
  bad "no note on the unwritten extent: $(jq -c .audit.notes <<<"$j")"
cmd=$(jq -r '.audit.checks[] | select(.ok == false) | .fix[] | select(.destroys_data) | .command' <<<"$j" | head -1)
[[ "$cmd" == "mkfs.ext4 -O bigalloc -C 65536 ${DEV}p1" ]] || bad "ext4 fix: '$cmd'"
bash -n -c "$cmd" || bad "ext4 fix does not parse: $cmd"

# 3. ext4 bigalloc, 64 KiB clusters: every allocation is a whole cluster,
#    so even the interleaved pair misses nothing (clean: exit 0 with
#    --fail-on warning); the cluster is read from the superblock.
note "== ext4 bigalloc, 64 KiB clusters"
new_fs 2048 1000000 mkfs.ext4 -q -F -b 4096 -O bigalloc -C 65536
interleaved "$MNT/a" "$MNT/b" 24
head -c 3000000 /dev/urandom > "$MNT/whole" && sync
j=$("$SSDPROBE" -q audit --fail-on warning --units-from "$UNITS" --json - "$MNT" 2>/dev/null); rc=$?
[ "$rc" = 0 ] || bad "bigalloc: exit $rc, want 0: $(jq -c '[.audit.checks[] | select(.ok == false) | .message]' <<<"$j")"
[ "$(jq -r .audit.files.filesystem.cluster_bytes <<<"$j")" = 65536 ] || bad "bigalloc cluster not read"
for f in a b whole; do
  check_file "$j" "$MNT/$f" $((2048 * 512))
  [ "$(share_of "$j" "$MNT/$f" 65536)" = 0 ] || bad "bigalloc $f: write unit share $(share_of "$j" "$MNT/$f" 65536), want 0"
done

# 4. xfs: made without a stripe unit, the fix is mkfs with one; then, on
#    one with a stripe unit of one block, a file with a 64 KiB hint and one with a 12 KiB hint, each
#    interleaved with a file without; then the fix as printed on the
#    unhinted one (the filesystem unmounted where it says so, the stripe
#    unit set, the hint, the copy): it gets the hint, keeps its bytes, and
#    its data now lies on the write unit.
new_fs 2048 2097152 mkfs.xfs -q -f
interleaved "$MNT/p" "$MNT/q" 4
j=$(audit_json "$MNT")
cmd=$(jq -r '.audit.checks[0].fix[] | select(.destroys_data) | .command' <<<"$j")
[ "$cmd" = "mkfs.xfs -f -d su=64k,sw=1 ${DEV}p1" ] || bad "xfs without a stripe unit: fix '$cmd'"
# 4 groups of 256 MiB, which a 64 KiB stripe unit divides, and a stripe
# unit of one block: a mount can change it (made without one, only mkfs can).
note "== xfs, stripe unit of one block"
new_fs 2048 2097152 mkfs.xfs -q -f -d su=4k,sw=1
xfs_io -f -c "extsize 64k" "$MNT/hint64"
xfs_io -f -c "extsize 12k" "$MNT/hint12"
interleaved "$MNT/hint64" "$MNT/plain" 12
interleaved "$MNT/hint12" "$MNT/plain" 12
j=$(audit_json "$MNT")
for f in hint64 hint12 plain; do check_file "$j" "$MNT/$f" $((2048 * 512)); done
hints=$(jq -r '[.audit.files.files[] | "\(.path | split("/") | last)=\(.extent_size_hint_bytes)"] | join(" ")' <<<"$j")
[ "$hints" = "hint12=12288 hint64=65536 plain=0" ] || bad "xfs hints: $hints"
sum=$(sha256sum < "$MNT/plain")
# The filesystem's stripe unit and the directory's hint come once, with the
# first misaligned file's fix (file[0]); plain's own fix points there for
# them and keeps its copy: run as a person would, those two, then its own.
commands_of() {
  jq -r --arg f "$1" '.audit.checks[] | select(.field == $f) | .fix[] | select(.command != "") | .command' <<<"$j"
}
mapfile -t first < <(commands_of "file[0].extents")
mapfile -t own < <(commands_of "file[2].extents")
[ "${#first[@]}" = 5 ] || bad "xfs fix of the first file: ${#first[@]} commands: ${first[*]}"
[ "${#own[@]}" = 3 ] || bad "xfs fix of plain: ${#own[@]} commands: ${own[*]}"
jq -e '[.audit.checks[] | select(.field == "file[2].extents") | .fix[] | select(.command == "") | .purpose |
  select(test("the fix of file\\[0\\].extents above"))] | length == 2' <<<"$j" >/dev/null ||
  bad "plain's fix does not point to the first file's for the stripe unit and the hint"
fix=("${first[0]}" "${first[1]}" "${own[@]}")
umount "$MNT"  # the by-hand step before the stripe unit's mount
bash -c "${fix[0]}" || bad "xfs fix step failed: ${fix[0]}"
mount "${DEV}p1" "$MNT" || fail "mounting the xfs again"
for cmd in "${fix[@]:1}"; do
  note "run  $cmd"
  bash -c "$cmd" || bad "xfs fix step failed: $cmd"
done
[ "$(sha256sum < "$MNT/plain")" = "$sum" ] || bad "xfs fix changed the file's bytes"
j=$(audit_json "$MNT/plain")
[ "$(jq -r '.audit.files.files[0].extent_size_hint_bytes' <<<"$j")" = 65536 ] || bad "xfs fix: no 64 KiB hint on the copy"
[ "$(jq -r '.audit.files.directory_extent_size_hint_bytes' <<<"$(audit_json "$MNT")")" = 65536 ] ||
  bad "xfs fix: the directory has no 64 KiB hint"
check_file "$j" "$MNT/plain" $((2048 * 512))
[ "$(share_of "$j" "$MNT/plain" 65536)" = 0 ] || bad "xfs fix: write unit share $(share_of "$j" "$MNT/plain" 65536), want 0"

# 5. f2fs: an interleaved pair and a whole file (where the kernel has f2fs:
#    said, not skipped, so the other filesystems' results still count).
grep -qw f2fs /proc/filesystems || modprobe f2fs 2>/dev/null
if grep -qw f2fs /proc/filesystems; then
  note "== f2fs"
  new_fs 2048 1000000 mkfs.f2fs -f
  interleaved "$MNT/a" "$MNT/b" 24
  head -c 3000000 /dev/urandom > "$MNT/whole" && sync
  j=$(audit_json "$MNT")
  [ "$(jq -r .audit.files.filesystem.type <<<"$j")" = f2fs ] || bad "f2fs not named"
  for f in a b whole; do check_file "$j" "$MNT/$f" $((2048 * 512)); done
else
  note "NOT TESTED: f2fs (kernel $(uname -r) has no f2fs and no module for it)"
fi
unmount_all

# 6. A disk image (a partition table at its start) stays a disk image;
#    --extents judges the file itself.
img="$SCRATCH/disk.img"
truncate -s 64M "$img"
printf 'label: dos\nstart=63, size=20000, type=83\n' | sfdisk -q "$img" >/dev/null 2>&1 || fail "sfdisk $img"
j=$(audit_json "$img")
jq -e '.audit.files == null and .audit.partition_table.scheme == "dos"' <<<"$j" >/dev/null ||
  bad "a disk image is no longer audited as one"
j=$(audit_json --extents "$img")
jq -e '.audit.files.files[0].size_bytes == 67108864' <<<"$j" >/dev/null || bad "--extents did not judge the image file"

[ "$failures" = 0 ] || fail "$failures check(s) failed"
echo "PASS"
