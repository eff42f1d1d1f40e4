#!/bin/bash
# The audit's fixes are proven: each in-place fix that can run on this kernel
# is run as `ssdprobe audit --json` printed it, its steps in order in one
# shell as a person pastes them, nothing replaced, on a bad layout built with
# the real tools on a loop device over a file this test creates, filled with
# files first; then the re-audit must be clean for that layer and every
# file's sha256 must still match.
#
# Cases: ext4 with a stride on a plain partition (tune2fs -E), xfs su=12k on
# a plain partition (one mount with sunit/swidth on a directory of its own:
# the fix's first step, and the verdict's, does the work, and nothing is
# written under /mnt), an ext4 partition at sector 63 (sfdisk --move-data,
# partx --update, e2fsck -n), an empty volume group on a misaligned PV (made
# again aligned: no pvmove of nothing), and a disk image file: audited as a
# file and through a loop device it gives the same findings, and its fix
# attaches it to a loop device first and names the partitions through it.
# The md fixes and pvmove cannot run here (no md, no device-mapper):
# tests/layout/audit_fix_test.cc checks their strings.
#
# Usage: audit_fixes.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq sfdisk partx addpart delpart mkfs.xfs mkfs.ext4 tune2fs e2fsck xfs_repair sha256sum mount umount \
  pvcreate vgcreate vgremove pvremove vgs
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
scratch_mount_point

# partitioned SIZE START SECTORS: a DOS disk with one partition the kernel knows.
partitioned() {
  local dev
  dev=$(sparse_loop "$1")
  printf 'label: dos\nstart=%s, size=%s, type=83\n' "$2" "$3" |
    sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk"
  addpart "$dev" 1 "$2" "$3" || fail "addpart"
  echo "$dev"
}

# fill NODE: some files of random content on it, their sums kept.
fill() {
  mount "$1" "$MNT" || fail "mount $1"
  for i in 1 2 3 4; do random_file "$MNT/f$i" $((i * 3 << 20)); done
  mkdir "$MNT/d" && random_file "$MNT/d/small" 5000
  (cd "$MNT" && find . -type f -exec sha256sum {} + | sort -k2 > "$SCRATCH/sums")
  umount "$MNT"
}

verify() {
  mount "$1" "$MNT" || { bad "$2: mount $1 after the fix"; return; }
  (cd "$MNT" && sha256sum --quiet -c "$SCRATCH/sums") || bad "$2: files changed"
  [ "$(cd "$MNT" && find . -type f | wc -l)" = "$(wc -l < "$SCRATCH/sums")" ] || bad "$2: files missing"
  umount "$MNT"
}

# run_fix TARGET FIELD [PRELUDE]: runs the fix the audit printed for FIELD
# as printed: its steps in order, in one bash (set -e), after PRELUDE (the
# stand-in for what this kernel lacks, if any). Every step has a command,
# none writes under /mnt, and each names TARGET, what an earlier step made
# of it ($loop) or $also_named (a volume group).
also_named=""
run_fix() {
  local j cmds cmd n=0
  j=$("$SSDPROBE" -q audit --fail-on never "$1" --json -) || { bad "$2: audit exited $?"; return 1; }
  cmds=$(jq -r --arg f "$2" '.audit.checks[] | select(.field == $f) | .fix[].command' <<<"$j")
  [ -n "$cmds" ] || { bad "$2: no fix printed: $(jq -c --arg f "$2" '.audit.checks[] | select(.field == $f)' <<<"$j")"; return 1; }
  jq -e --arg f "$2" '.audit.checks[] | select(.field == $f) | .severity != "info" and .ok == false' <<<"$j" >/dev/null ||
    bad "$2: not a warning or error"
  printf '%s\nset -e\n' "${3:-}" > "$SCRATCH/steps.sh"
  while IFS= read -r cmd; do
    n=$((n + 1))
    [ -n "$cmd" ] || { bad "$2: step $n has no command (an in-place fix was expected)"; return 1; }
    case "$cmd" in *"/mnt"*) bad "$2: step $n writes under /mnt: $cmd"; return 1 ;; esac
    case "$cmd" in *"$1"*|*'$loop'*|*'${loop:?}'*|*"${also_named:-$1}"*) ;;
      *) bad "$2: step $n names no node of $1: $cmd"; return 1 ;;
    esac
    printf '%s\n' "$cmd" >> "$SCRATCH/steps.sh"
    note "step $n: $cmd"
  done <<<"$cmds"
  local started=$SECONDS
  bash "$SCRATCH/steps.sh" >"$SCRATCH/step.log" 2>&1 || { bad "$2: the steps failed: $(tail -3 "$SCRATCH/step.log")"; return 1; }
  note "ran  $n step(s) of $2 in one shell ($((SECONDS - started)) s)"
}

# clean_after DEV PATTERN WHAT: no warning or error line whose field matches.
clean_after() {
  local j
  j=$("$SSDPROBE" -q audit --fail-on never "$1" --json -) || { bad "$3: re-audit exited $?"; return; }
  local left
  left=$(jq -c --arg p "$2" '[.audit.checks[] | select((.field | test($p)) and .ok == false)]' <<<"$j")
  [ "$left" = "[]" ] || bad "$3: still flagged after the fix: $left"
  note "ok   $3: $(jq -r --arg p "$2" '[.audit.checks[] | select(.field | test($p)) | .message] | join(" | ")' <<<"$j")"
}

# 1. ext4 with a RAID stride on a plain partition: tune2fs clears it.
dev=$(partitioned 256M 2048 262144)
mkfs.ext4 -q -F -b 4096 -E stride=4,stripe_width=12 "${dev}p1" >/dev/null 2>&1 || fail "mkfs.ext4 -E stride"
fill "${dev}p1"
"$SSDPROBE" -q audit "$dev" | grep -A3 'ext4.stride' | sed 's/^/# /'
run_fix "$dev" "partition[1].ext4.stride" && clean_after "$dev" 'ext4\.' "ext4 stride"
verify "${dev}p1" "ext4 stride"

# 2. xfs su=12k on a plain partition: a mount with sunit/swidth of one block,
# in one step that is also the verdict's first: it makes its own directory.
# (xfs wants >= 300 MB, and a 4 KiB log stripe unit with su=12k.)
dev=$(partitioned 2G 2048 3145728)
mkfs.xfs -q -f -d su=12k,sw=1 -l su=4096,size=64m "${dev}p1" >/dev/null 2>&1 || fail "mkfs.xfs su=12k"
fill "${dev}p1"
j=$("$SSDPROBE" -q audit --fail-on never "$dev" --json -) || bad "xfs sunit: audit exited $?"
first_step=$(jq -r '.audit.checks[] | select(.field == "partition[1].xfs.sunit") | .fix[0].command' <<<"$j")
[ "$(jq -r '.verdict.first_action.command' <<<"$j")" = "$first_step" ] ||
  bad "xfs sunit: the verdict's first command is not the fix's first step: $(jq -r '.verdict.first_action.command' <<<"$j") vs $first_step"
run_fix "$dev" "partition[1].xfs.sunit" && clean_after "$dev" 'xfs\.' "xfs sunit"
verify "${dev}p1" "xfs sunit"

# 3. ext4 on a partition at sector 63: moved with its data to 1 MiB.
dev=$(partitioned 256M 63 196608)
mkfs.ext4 -q -F "${dev}p1" >/dev/null 2>&1 || fail "mkfs.ext4"
fill "${dev}p1"
"$SSDPROBE" -q audit "$dev" | grep -A7 'partition\[1\].start' | sed 's/^/# /'
run_fix "$dev" "partition[1].start" && clean_after "$dev" '^partition\[1\]\.(start|kernel_start)$' "sector 63"
[ "$(cat "/sys/block/${dev#/dev/}/${dev#/dev/}p1/start")" = 2048 ] || bad "sector 63: the kernel's partition 1 is not at 2048"
verify "${dev}p1" "sector 63"

# 4. An empty volume group on a PV whose data area is misaligned (its
# partition starts at sector 63): nothing is allocated, so nothing is moved;
# the PV is made again with its data area aligned, in the same group.
vg="ssdprobe_test_$$"
dev=$(partitioned 256M 63 196608)
pvcreate -q -ff -y "${dev}p1" >/dev/null 2>&1 || fail "pvcreate"
vgcreate -q "$vg" "${dev}p1" >/dev/null 2>&1 || fail "vgcreate"
j=$("$SSDPROBE" -q audit --fail-on never "$dev" --json -) || bad "empty VG: audit exited $?"
jq -e '[.audit.checks[] | select(.field == "partition[1].lvm.pe_start") | .fix[].command] | any(test("pvmove|NEWDEV")) | not' \
  <<<"$j" >/dev/null || bad "empty VG: the fix moves nothing with pvmove: $(jq -c '.audit.checks[] | select(.field == "partition[1].lvm.pe_start") | .fix' <<<"$j")"
also_named=$vg
run_fix "$dev" "partition[1].lvm.pe_start" && clean_after "$dev" '^partition\[1\]\.lvm\.pe_start$' "empty VG pe_start"
[ "$(vgs --noheadings -o pv_count "$vg" 2>/dev/null | tr -d ' ')" = 1 ] || bad "empty VG: the group $vg is not back with its PV"
also_named=""
vgremove -q -f "$vg" >/dev/null 2>&1
pvremove -q -ff -y "${dev}p1" >/dev/null 2>&1

# 5. A disk image file: a DOS table with an ext4 of 1 KiB blocks and a RAID
# stride at sector 63. Audited as the file and through a loop device over it
# (partition added with addpart) the findings are the same; the file's
# fixes attach it to a loop device first and never name the file after
# that (no partx, fsck, mkfs or tune2fs on it, no FILE1); and its stride fix,
# run as printed, clears the stride. This kernel does not scan loop devices
# for partitions: the stand-in losetup adds the partition --partscan would.
img="$SCRATCH/disk image.img"
truncate -s 256M "$img"
printf 'label: dos\nstart=63, size=196608, type=83\n' | sfdisk -q "$img" >/dev/null 2>&1 || fail "sfdisk on the image"
mkfs.ext4 -q -F -b 1024 -E offset=32256,stride=4,stripe_width=4 "$img" 98304 >/dev/null 2>&1 || fail "mkfs.ext4 in the image"
findings() { jq -c '[.audit.checks[] | {field, ok, severity, value_bytes, misses, message}]'; }
as_file=$("$SSDPROBE" -q audit --fail-on never "$img" --json -) || bad "image: audit of the file exited $?"
dev=$(losetup --find --show "$img") || fail "losetup $img"
echo "$dev" >> "$SCRATCH/.loops"
drop_partitions "$dev"
addpart "$dev" 1 63 196608 || fail "addpart on $dev"
as_loop=$("$SSDPROBE" -q audit --fail-on never "$dev" --json -) || bad "image: audit of $dev exited $?"
drop_partitions "$dev"
losetup -d "$dev"
[ "$(findings <<<"$as_file")" = "$(findings <<<"$as_loop")" ] ||
  bad "image: the file and its loop device get different findings: $(diff <(findings <<<"$as_file" | jq .) <(findings <<<"$as_loop" | jq .))"
note "image: $(jq '.audit.checks | length' <<<"$as_file") checks, the same as a file and as $dev"
while IFS= read -r cmd; do
  case "$cmd" in
    'loop=$(losetup --find --show --partscan '*) ;;
    *"disk image.img"*) bad "image: a step names the file itself: $cmd" ;;
  esac
done < <(jq -r '.audit.checks[].fix[].command' <<<"$as_file")
partscan_stand_in='losetup() {
  local dev
  case " $* " in *" --detach "*) delpart "$2" 1 2>/dev/null ;; esac
  dev=$(command losetup "$@") || return
  case " $* " in
    *" --partscan "*) echo "$dev" >> "$SCRATCH/.loops"; delpart "$dev" 1 2>/dev/null; addpart "$dev" 1 63 196608 ;;
  esac
  [ -z "$dev" ] || echo "$dev"
}'
export SCRATCH
run_fix "$img" "partition[1].ext4.stride" "$partscan_stand_in" && clean_after "$img" 'ext4\.(stride|stripe_width)' "image stride"

[ "$failures" = 0 ] || fail "$failures check(s) failed"
echo "PASS"
