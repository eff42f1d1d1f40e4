#!/bin/bash
# A restore writes back only what does not already hold the saved content
# (issue 36). On a sparse backing file whose filesystem filled up, the in-run
# restore used to rewrite ranges the probes never wrote, which needed blocks
# the filesystem no longer had, and stopped with "the window was NOT
# restored ... No space left on device" (exit 6) although every byte was
# intact. Checks:
#   changed   `ssdprobe restore` of a journal whose window holds test data in
#             three small ranges writes exactly those bytes (the loop
#             device's write counter) and the device reads as before
#   full      a --write run on a loop device over a sparse file in a nearly
#             full ext4: the SLC cache probe's writes fail with ENOSPC, and
#             the restore puts the window back ("restored and verified"),
#             the journal gone and the device as before
#
# Usage: restore_changed_only.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mount)"
command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
require_cmd b2sum od python3 mkfs.ext4 mount umount
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH; set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
J="$SCRATCH/j"
mkdir -p "$J" && chmod 700 "$J"
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

MOUNTED="" SPARSE=""
# The loop device over a file on the mounted filesystem goes first: it keeps
# the filesystem busy.
teardown() {
  local rc=$? _
  set +e
  [ -n "$SPARSE" ] && losetup -d "$SPARSE" 2>/dev/null
  if [ -n "$MOUNTED" ]; then
    for _ in $(seq 50); do mountpoint -q "$MOUNTED" || break; umount "$MOUNTED" 2>/dev/null || sleep 0.1; done
  fi
  (exit "$rc")
  cleanup
}
trap teardown EXIT

sectors_written() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }

# tag DEV OFFSET LENGTH: ssdprobe's test data (every 512-byte sector starts
# with the tag, core/probe_data.h) written at OFFSET of DEV.
tag() {
  python3 -c '
import os, sys
sectors = int(sys.argv[2]) // 512
sys.stdout.buffer.write(b"".join(b"ssdprobe-test-io" + os.urandom(496) for _ in range(sectors)))' "$1" "$3" |
    dd of="$1" bs=512 seek=$(($2 / 512)) oflag=direct conv=notrunc status=none || fail "cannot write test data to $1"
}

# --- changed: only the ranges holding test data are written ----------------
IMG="$SCRATCH/disk.img"
random_file "$IMG" $((64 * MIB))
cp "$IMG" "$SCRATCH/original.img"
DEV=$(make_loop "$IMG" 512) || exit 1
H0=$(dev_hash "$DEV")
leave_committed_journal "$DEV" 16M:16M
JOURNAL=$(journals)
# Whatever the killed run wrote goes back by hand; then test data in three ranges.
dd if="$SCRATCH/original.img" of="$DEV" bs=1M skip=16 seek=16 count=16 oflag=direct conv=notrunc status=none
[ "$(dev_hash "$DEV")" = "$H0" ] || fail "the window could not be put back by hand"
tag "$DEV" $((16 * MIB + 8192)) 4096
tag "$DEV" $((20 * MIB)) "$MIB"
tag "$DEV" $((32 * MIB - 512)) 512
planted=$((4096 + MIB + 512))
before=$(sectors_written "$DEV")
"$SSDPROBE" restore --yes "$JOURNAL" > "$SCRATCH/changed.log" 2>&1
rc=$?
written=$(( ($(sectors_written "$DEV") - before) * 512 ))
if [ "$rc" = 0 ] && [ "$written" = "$planted" ] && [ "$(dev_hash "$DEV")" = "$H0" ] && [ ! -e "$JOURNAL" ] &&
   grep -q "restored and verified $((16 * MIB)) bytes" "$SCRATCH/changed.log"; then
  note "ok   changed: $written bytes written for $planted bytes of test data: $(tail -n 1 "$SCRATCH/changed.log")"
else
  bad "changed: exit $rc, $written bytes written (want $planted), device $( [ "$(dev_hash "$DEV")" = "$H0" ] &&
       echo restored || echo 'NOT restored'): $(cat "$SCRATCH/changed.log")"
fi

# --- full: a sparse backing file on a filesystem that fills up --------------
FS_DEV=$(sparse_loop $((48 * MIB)))
mkfs.ext4 -q -F -m 0 "$FS_DEV" || fail "mkfs.ext4 $FS_DEV failed"
MOUNTED="$SCRATCH/fs"
mkdir -p "$MOUNTED"
mount "$FS_DEV" "$MOUNTED" || fail "cannot mount $FS_DEV"
truncate -s $((64 * MIB)) "$MOUNTED/sparse.img"
# Fill the filesystem, then free 4 MiB: a 16 MiB window cannot all be written.
dd if=/dev/zero of="$MOUNTED/filler" bs=1M status=none 2>/dev/null
sync
truncate -s $(( $(stat -c %s "$MOUNTED/filler") - 4 * MIB )) "$MOUNTED/filler"
sync
SPARSE=$(make_loop "$MOUNTED/sparse.img" 512) || exit 1
H_SPARSE=$(dev_hash "$SPARSE")
"$SSDPROBE" --write --yes --cache-bytes 64M --budget 3 --journal "$J" --region 16M:16M "$SPARSE" < /dev/null \
  > "$SCRATCH/full.log" 2>&1
rc=$?
problems=""
grep -q "No space left on device\|Input/output error" "$SCRATCH/full.log" ||
  problems+=" the probes' writes did not fail (the filesystem did not fill: the case is not what it should be);"
grep -q "restored and verified $((16 * MIB)) bytes" "$SCRATCH/full.log" || problems+=" no 'restored and verified';"
grep -q "NOT restored" "$SCRATCH/full.log" && problems+=" 'NOT restored';"
[ -z "$(journals)" ] || problems+=" a journal was left: $(journals);"
[ "$(dev_hash "$SPARSE")" = "$H_SPARSE" ] || problems+=" THE DEVICE DIFFERS FROM BEFORE THE RUN;"
if [ -z "$problems" ]; then
  note "ok   full: exit $rc (the probes' error), $(grep -m 1 -o 'restored and verified[^;]*' "$SCRATCH/full.log")"
else
  bad "full: exit $rc:$problems $(tail -n 6 "$SCRATCH/full.log")"
fi

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
