#!/bin/bash
# The audit's fixes are proven: each in-place fix that can run on this kernel
# is run as `ssdprobe audit --json` printed it, on a bad layout built with
# the real tools on a loop device over a file this test creates, filled with
# files first; then the re-audit must be clean for that layer and every
# file's sha256 must still match.
#
# Cases: ext4 with a stride on a plain partition (tune2fs -E), xfs su=12k on
# a plain partition (a mount with sunit/swidth), an ext4 partition at sector
# 63 (sfdisk --move-data, partx --update, e2fsck -n). The md and LVM fixes
# cannot run here (no md, no device-mapper): tests/layout/audit_fix_test.cc
# checks their strings.
#
# Usage: audit_fixes.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq sfdisk partx addpart delpart mkfs.xfs mkfs.ext4 tune2fs e2fsck xfs_repair sha256sum mount umount
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

# run_fix DEV FIELD: runs the fix the audit printed for FIELD, step by step
# (the one-off mount point replaced by the test's own). Prints the text
# report's lines for it first.
run_fix() {
  local j cmds cmd n=0
  j=$("$SSDPROBE" -q audit --fail-on never "$1" --json -) || { bad "$2: audit exited $?"; return 1; }
  cmds=$(jq -r --arg f "$2" '.audit.checks[] | select(.field == $f) | .fix[].command' <<<"$j")
  [ -n "$cmds" ] || { bad "$2: no fix printed: $(jq -c --arg f "$2" '.audit.checks[] | select(.field == $f)' <<<"$j")"; return 1; }
  jq -e --arg f "$2" '.audit.checks[] | select(.field == $f) | .severity != "info" and .ok == false' <<<"$j" >/dev/null ||
    bad "$2: not a warning or error"
  while IFS= read -r cmd; do
    n=$((n + 1))
    [ -n "$cmd" ] || { bad "$2: step $n has no command (an in-place fix was expected)"; return 1; }
    cmd=${cmd//\/mnt\/ssdprobe-fix/$MNT}
    case "$cmd" in *"$1"*|mkdir*|umount*) ;; *) bad "$2: step $n names no node of $1: $cmd"; return 1 ;; esac
    local started=$SECONDS
    bash -c "$cmd" >"$SCRATCH/step.log" 2>&1 || { bad "$2: step $n failed: $cmd: $(tail -3 "$SCRATCH/step.log")"; return 1; }
    note "ran  $cmd ($((SECONDS - started)) s)"
  done <<<"$cmds"
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

# 2. xfs su=12k on a plain partition: a mount with sunit/swidth of one block.
# (xfs wants >= 300 MB, and a 4 KiB log stripe unit with su=12k.)
dev=$(partitioned 2G 2048 3145728)
mkfs.xfs -q -f -d su=12k,sw=1 -l su=4096,size=64m "${dev}p1" >/dev/null 2>&1 || fail "mkfs.xfs su=12k"
fill "${dev}p1"
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

[ "$failures" = 0 ] || fail "$failures check(s) failed"
echo "PASS"
