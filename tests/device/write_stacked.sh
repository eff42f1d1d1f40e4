#!/bin/bash
# Tests issue 18's write-path third pass on real loop devices: storage stacked
# on the target (a loop device over it, mounted or not) makes it in use; two
# loop devices over one backing file are the same storage (a concurrent run
# on an overlapping range is refused, one on a disjoint range is not, and a
# killed run's journal blocks the other name); the index of pending journals
# blocks a run with another --journal and is named by info, audit and
# read-only runs; `ssdprobe restore` refuses bytes someone wrote since the
# run (unless --force), asks unless --yes, refuses a file another process
# holds open; and a run under `ulimit -v 30000`, and a restore in that limit,
# put the window back.
#
# Usage: write_stacked.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"
# The --write runs here cap the SLC cache probe at 64M (--cache-bytes): it is
# not what these cases test (slc_cache_kill.sh is), and on a loop device over a
# file its default 16 GiB would be written through the page cache to disk.

use_binaries "$@"
require_cmd jq b2sum mkfs.ext4 e2fsck mount umount od python3
require_root_loop_fuse

MIB=$((1 << 20))
J="$SCRATCH/j"
J2="$SCRATCH/j2"
mkdir -p "$J" "$J2"

MOUNTS=() STACKED=() RAMDIRS=()
teardown() {
  local rc=$? x
  set +e
  for x in "${MOUNTS[@]}"; do mountpoint -q "$x" && umount "$x"; done
  for x in "${STACKED[@]}"; do losetup -d "$x" 2>/dev/null; done
  for x in "${RAMDIRS[@]}"; do rm -rf -- "$x"; done
  (exit "$rc")
  cleanup
}
trap teardown EXIT

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect WANT_RC LOG NEEDLE TAG: checks the last command's exit code (in $rc)
# and that LOG contains NEEDLE.
expect() {
  local want="$1" log="$2" needle="$3" tag="$4"
  if [ "$rc" != "$want" ]; then bad "$tag: exit $rc, expected $want: $(tail -n 3 "$log")"; return; fi
  if ! grep -qF -- "$needle" "$log"; then bad "$tag: output lacks '$needle': $(tail -n 3 "$log")"; return; fi
  note "ok   $tag"
}

write_run() {  # LOG JOURNAL_DIR REGION TARGET [ARGS...]
  local log="$1" journal="$2" region="$3" target="$4"; shift 4
  timeout 300 "$SSDPROBE" --write --yes --cache-bytes 64M --budget 3 -q --journal "$journal" --region "$region" "$@" "$target" \
    < /dev/null > "$log" 2>&1
}


# window_has_test_data TARGET OFFSET_M:LENGTH_M: a sector of the window starts
# with the probes' tag.
window_has_test_data() {
  local off=${2%%M:*} len=${2#*:}
  dd if="$1" bs=1M skip="$off" count="${len%M}" iflag=direct status=none 2>/dev/null | grep -qa 'ssdprobe-test-io'
}

# killed_run JOURNAL_DIR REGION TARGET [ARGS...]: a --write run SIGKILLed once
# its journal says "writes may have started" and tagged test data
# (core/probe_data.h) reads back from the window, so one committed journal
# is left in JOURNAL_DIR and the window holds test data. --budget 10: the
# read grid, which runs before the journal, takes at most 4.5 s of it; the
# write phases that follow (several seconds, the window holding test data
# until the restore) leave the poll, one read of the window per try, ample
# time.
killed_run() {
  local dir="$1" region="$2" target="$3" f pid
  shift 3
  "$SSDPROBE" --write --yes --cache-bytes 64M --budget 10 -q --journal "$dir" --region "$region" "$@" "$target" < /dev/null \
    > "$SCRATCH/killed.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    f=$(find "$dir" -maxdepth 1 -name '*.ssdpj' | head -n 1)
    if [ -n "$f" ] && [ "$(journal_state "$f")" = 54495257 ] && window_has_test_data "$target" "$region"; then
      kill -9 "$pid"
      break
    fi
    sleep 0.002
  done
  wait "$pid" 2>/dev/null
  KILLED_JOURNAL=$(find "$dir" -maxdepth 1 -name '*.ssdpj' | head -n 1)
  [ -n "$KILLED_JOURNAL" ] || fail "no journal was left by the killed run: $(tail -n 3 "$SCRATCH/killed.log")"
}

# ---------------------------------------------------------------------------
# 1. Storage stacked on the target: a loop device over it, at an offset, with
#    a mounted filesystem holding the journal directory (the repro), then the
#    same loop unmounted.

img="$SCRATCH/disk.img"
random_file "$img" $((512 * MIB))
DEV=$(make_loop "$img" 512) || exit 1
# The filesystem below changes bytes 128..428 MiB of DEV: the first 128 MiB
# (where the second refused run aims) are compared, and the filesystem's file.
head_hash() { dd if="$DEV" bs=1M count=128 iflag=direct status=none | b2sum; }
HEAD0=$(head_hash)
over=$(losetup --find --show -o $((128 * MIB)) --sizelimit $((300 * MIB)) "$DEV") || fail "losetup over $DEV failed"
STACKED+=("$over")
mkfs.ext4 -q -F "$over" || fail "mkfs.ext4 $over failed"
mnt="$SCRATCH/mnt"
mkdir -p "$mnt"
mount "$over" "$mnt" || fail "cannot mount $over"
MOUNTS+=("$mnt")
mkdir -p "$mnt/journal"
head -c $((8 * MIB)) /dev/urandom > "$mnt/data"
sync
data_sum=$(b2sum < "$mnt/data")

write_run "$SCRATCH/stacked.log" "$mnt/journal" 200M:64M "$DEV"; rc=$?
expect 7 "$SCRATCH/stacked.log" "backs loop device $over" "a loop device over the target with the journal on it: refused"
write_run "$SCRATCH/stacked2.log" "$J" 16M:16M "$DEV"; rc=$?
expect 7 "$SCRATCH/stacked2.log" "backs loop device $over" "a loop device over the target (journal elsewhere): refused"
umount "$mnt"
[ "$(head_hash)" = "$HEAD0" ] || bad "the device changed under refused runs"
e2fsck -fn "$over" > "$SCRATCH/fsck.txt" 2>&1 || bad "e2fsck of the stacked filesystem: $(tail -n 3 "$SCRATCH/fsck.txt")"
mount -o ro "$over" "$mnt" && { [ "$(b2sum < "$mnt/data")" = "$data_sum" ] || bad "the file on the stacked filesystem changed"; umount "$mnt"; }
# The other way round: a run on the loop over DEV while something holds DEV
# exclusively (here a process with O_EXCL; another run on DEV would too).
# The claim is retried for a few seconds: the unmount just before can leave
# the device briefly busy (EBUSY) on a loaded machine.
python3 -c "
import os, time
for attempt in range(50):
    try:
        fd = os.open('$DEV', os.O_RDONLY | os.O_EXCL)
        break
    except OSError:
        time.sleep(0.1)
open('$SCRATCH/held', 'w').close()
time.sleep(60)" &
holder=$!
for _ in $(seq 60); do [ -e "$SCRATCH/held" ] && break; sleep 0.1; done
write_run "$SCRATCH/held-backing.log" "$J" 16M:16M "$over"; rc=$?
kill "$holder"; wait "$holder" 2>/dev/null
expect 7 "$SCRATCH/held-backing.log" "cannot be claimed exclusively" "a loop over a device someone holds exclusively: refused"
losetup -d "$over"
STACKED=()
H0=$(dev_hash "$DEV")
write_run "$SCRATCH/unstacked.log" "$J" 16M:16M "$DEV"; rc=$?
expect 0 "$SCRATCH/unstacked.log" "restored and verified" "the same target once the loop over it is gone: written and restored"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "the device differs after the restored run"

# ---------------------------------------------------------------------------
# 2. Two names for one file: two loop devices over the same backing file.

shared="$SCRATCH/shared.img"
random_file "$shared" $((256 * MIB))
S0=$(b2sum < "$shared")
L1=$(make_loop "$shared" 512) || exit 1
L2=$(losetup --find --show --direct-io=on -o $((64 * MIB)) "$shared") || fail "second loop over $shared failed"
echo "$L2" >> "$SCRATCH/.loops"

# A run on L1 (file bytes 80..144 MiB) and, meanwhile, one on L2 over file
# bytes 96..112 MiB (L2's 32..48 MiB): refused while the first holds them.
"$SSDPROBE" --write --yes --cache-bytes 64M --budget 8 -q --journal "$J" --region 80M:64M "$L1" < /dev/null > "$SCRATCH/first.log" 2>&1 &
first=$!
for _ in $(seq 500); do [ -n "$(journals)" ] && break; sleep 0.01; done
[ -n "$(journals)" ] || fail "the first run made no journal in 5 s: $(tail -n 3 "$SCRATCH/first.log")"
write_run "$SCRATCH/second.log" "$J2" 32M:16M "$L2"; rc=$?
expect 7 "$SCRATCH/second.log" "another process holds a lock on bytes" "a concurrent run on an overlapping range through the other loop device: refused"
# Disjoint in the file (L2's 150..166 MiB = file bytes 214..230 MiB): allowed.
write_run "$SCRATCH/disjoint.log" "$J2" 150M:16M "$L2"; rc=$?
expect 0 "$SCRATCH/disjoint.log" "restored and verified" "a concurrent run on a disjoint range through the other loop device: written and restored"
wait "$first"; rc=$?
expect 0 "$SCRATCH/first.log" "restored and verified" "the first run finished and restored"
[ "$(b2sum < "$shared")" = "$S0" ] || bad "the shared file differs after both runs"

# A killed run on L1 leaves test data and a journal; a run on L2 over the
# same file bytes is refused, with this --journal and with another one.
killed_run "$J" 80M:64M "$L1"
write_run "$SCRATCH/other-name.log" "$J" 32M:16M "$L2"; rc=$?
expect 7 "$SCRATCH/other-name.log" "ssdprobe restore $KILLED_JOURNAL" "the killed run's journal blocks the other loop device over the same bytes"
write_run "$SCRATCH/other-dir.log" "$J2" 32M:16M "$L2"; rc=$?
expect 7 "$SCRATCH/other-dir.log" "ssdprobe restore $KILLED_JOURNAL" "... and a run with another --journal (the index of pending journals)"
write_run "$SCRATCH/other-dir-l1.log" "$J2" 90M:16M "$L1"; rc=$?
expect 7 "$SCRATCH/other-dir-l1.log" "ssdprobe restore $KILLED_JOURNAL" "... and one on the same loop device with another --journal"

# ---------------------------------------------------------------------------
# 3. Pending journals are named by info, audit and a read-only run.

"$SSDPROBE" info "$L1" > "$SCRATCH/info.txt" 2>&1; rc=$?
expect 0 "$SCRATCH/info.txt" "pending journal $KILLED_JOURNAL" "info names the pending journal"
"$SSDPROBE" audit "$L2" > "$SCRATCH/audit.txt" 2>&1; rc=$?
grep -qF "pending journal $KILLED_JOURNAL" "$SCRATCH/audit.txt" || bad "audit of the other loop device does not name the journal: $(tail -n 3 "$SCRATCH/audit.txt")"
"$SSDPROBE" --budget 2 --json "$SCRATCH/ro.json" "$L1" > "$SCRATCH/ro.txt" 2>&1; rc=$?
expect 0 "$SCRATCH/ro.txt" "ssdprobe restore $KILLED_JOURNAL" "a read-only run names the pending journal"
jq -e --arg j "$KILLED_JOURNAL" '[.notes[] | select(contains($j))] | length == 1' "$SCRATCH/ro.json" > /dev/null ||
  bad "the read-only run's document does not carry the pending journal in its notes"

# ---------------------------------------------------------------------------
# 4. restore asks, and refuses bytes written since the run.

"$SSDPROBE" restore "$KILLED_JOURNAL" < /dev/null > "$SCRATCH/ask.log" 2>&1; rc=$?
expect 7 "$SCRATCH/ask.log" "without confirmation" "restore without --yes and without a terminal: refused"
grep -qE "[1-9][0-9]* bytes of ssdprobe test data" "$SCRATCH/ask.log" || bad "restore did not show what the window holds: $(cat "$SCRATCH/ask.log")"
# Someone reuses the disk: 1 MiB of new data inside the window (file bytes 100..101 MiB).
head -c "$MIB" /dev/urandom | dd of="$L1" bs=1M seek=100 oflag=direct conv=notrunc status=none
reused=$(dd if="$shared" bs=1M skip=100 count=1 status=none | b2sum)
"$SSDPROBE" restore --yes "$KILLED_JOURNAL" < /dev/null > "$SCRATCH/reused.log" 2>&1; rc=$?
expect 7 "$SCRATCH/reused.log" "neither the content the journal saved nor ssdprobe's test data" "restore onto a window written since: refused"
[ "$(dd if="$shared" bs=1M skip=100 count=1 status=none | b2sum)" = "$reused" ] || bad "the refused restore changed the new data"
"$SSDPROBE" restore --yes --force "$KILLED_JOURNAL" < /dev/null > "$SCRATCH/forced.log" 2>&1; rc=$?
expect 0 "$SCRATCH/forced.log" "restored and verified" "restore --force puts the saved content back"
[ "$(b2sum < "$shared")" = "$S0" ] || bad "the shared file differs after the forced restore"
[ -z "$(ls "$SSDPROBE_STATE_DIR/pending" 2>/dev/null)" ] || bad "the index still lists a journal: $(ls "$SSDPROBE_STATE_DIR/pending")"
write_run "$SCRATCH/after.log" "$J2" 32M:16M "$L2"; rc=$?
expect 0 "$SCRATCH/after.log" "restored and verified" "with the journal restored, the other loop device can be written again"

# ---------------------------------------------------------------------------
# 5. A restore onto a file another process holds open is refused.

file="$SCRATCH/file.img"
random_file "$file" $((64 * MIB))
F0=$(b2sum < "$file")
# A file target's journal must be on another filesystem: RAM here (a test).
JR=$(mktemp -d /dev/shm/ssdprobe-stacked.XXXXXX) || fail "cannot create a directory in /dev/shm"
RAMDIRS+=("$JR")
killed_run "$JR" 8M:32M "$file" --allow-ram-journal
fj="$KILLED_JOURNAL"
exec {held}< "$file"  # (not fd 9: lib.sh holds the device-test lock on it)
"$SSDPROBE" restore --yes "$fj" < /dev/null > "$SCRATCH/held.log" 2>&1; rc=$?
exec {held}<&-
expect 7 "$SCRATCH/held.log" "another process has it open" "restore onto a file another process holds open: refused"
"$SSDPROBE" restore --yes "$fj" < /dev/null > "$SCRATCH/file-restore.log" 2>&1; rc=$?
expect 0 "$SCRATCH/file-restore.log" "restored and verified" "the same restore once the file is closed"
[ "$(b2sum < "$file")" = "$F0" ] || bad "the file differs after its restore"

# ---------------------------------------------------------------------------
# 6. Memory: a run under `ulimit -v 30000` restores its window (the restore's
#    buffers are allocated before the first write), and so does a restore.

(ulimit -v 30000; write_run "$SCRATCH/ulimit.log" "$J" 16M:64M "$DEV"); rc=$?
expect 0 "$SCRATCH/ulimit.log" "restored and verified" "a --write run under ulimit -v 30000 restores its window"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "the device differs after the run under ulimit -v"
killed_run "$J" 16M:64M "$DEV"
(ulimit -v 30000; "$SSDPROBE" restore --yes "$KILLED_JOURNAL" < /dev/null > "$SCRATCH/ulimit-restore.log" 2>&1); rc=$?
expect 0 "$SCRATCH/ulimit-restore.log" "restored and verified" "ssdprobe restore under ulimit -v 30000"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "the device differs after the restore under ulimit -v"

[ "$failures" = 0 ] || fail "$failures check(s) failed"
note "all checks passed"
