#!/bin/bash
# Every set-up refusal of a --write run comes before the question and before
# the first write (issue 36): `--write --yes --region 100M:7M` used to be
# refused ("too small for the grid") only by the write_grid phase, after the
# SLC cache probe had rewritten the 7 MiB window for its whole budget. Checks,
# on a loop device, that such a run exits 3 with the write grid's message,
# writes not one sector (the loop device's write counter, the backing file's
# checksum and mtime), leaves no journal and no journal directory, and never
# shows the question: with --yes, without it (stdin closed), and on a
# terminal answering "n". A device too small for the grid in the default
# window is refused the same way.
#
# Usage: write_setup_first.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
require_cmd b2sum
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH; set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
J="$SCRATCH/journal"   # not created: a refused run must not leave it behind
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Sectors written to DEV since it was attached (/sys/block/loopN/stat, field 7).
sectors_written() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }

# refused TAG DEV FILE CMD...: CMD (an ssdprobe --write run on DEV, backed by
# FILE) must exit 3 with the write grid's message, before the question, with
# nothing written and nothing left behind.
refused() {
  local tag="$1" dev="$2" file="$3"; shift 3
  local log="$SCRATCH/$tag.log" problems="" hash mtime written rc
  hash=$(b2sum < "$file")
  mtime=$(stat -c %Y.%y "$file")
  written=$(sectors_written "$dev")
  "$@" > "$log" 2>&1
  rc=$?
  [ "$rc" = 3 ] || problems+=" exit $rc, want 3;"
  grep -q "too small for the grid" "$log" || problems+=" no 'too small for the grid';"
  grep -q "ssdprobe will WRITE\|Type 'yes'" "$log" && problems+=" the question was shown before the refusal;"
  [ "$(sectors_written "$dev")" = "$written" ] ||
    problems+=" $(( ($(sectors_written "$dev") - written) * 512 )) bytes were written to $dev;"
  [ "$(b2sum < "$file")" = "$hash" ] || problems+=" the backing file's content changed;"
  [ "$(stat -c %Y.%y "$file")" = "$mtime" ] || problems+=" the backing file's mtime changed;"
  [ ! -e "$J" ] || problems+=" the journal directory was left: $(find "$J" | tr '\n' ' ');"
  [ -z "$(ls -A "$SSDPROBE_STATE_DIR/pending" 2>/dev/null)" ] || problems+=" an index entry was left;"
  if [ -z "$problems" ]; then
    note "ok   $tag: exit 3: $(grep -m 1 'error' "$log")"
  else
    bad "$tag:$problems output: $(tail -n 3 "$log")"
  fi
}

IMG="$SCRATCH/disk.img"
random_file "$IMG" $((128 * MIB))
DEV=$(make_loop "$IMG" 512) || exit 1

refused yes "$DEV" "$IMG" \
  "$SSDPROBE" --write --yes --region 100M:7M --cache-bytes 64M --budget 5 --journal "$J" "$DEV" < /dev/null
refused no-terminal "$DEV" "$IMG" \
  "$SSDPROBE" --write --region 100M:7M --cache-bytes 64M --budget 5 --journal "$J" "$DEV" < /dev/null
if command -v script > /dev/null 2>&1; then
  refused terminal-n "$DEV" "$IMG" bash -c "printf 'n\n' | script -qec \"'$SSDPROBE' --write --region 100M:7M \
--cache-bytes 64M --budget 5 --journal '$J' '$DEV'\" /dev/null"
else
  note "skip the terminal case: no script(1)"
fi

# A 12 MiB device: its default window (10 MiB from the first MiB) is too
# small for the write grid too.
SMALL_IMG="$SCRATCH/small.img"
random_file "$SMALL_IMG" $((12 * MIB))
SMALL=$(make_loop "$SMALL_IMG" 512) || exit 1
refused default-window "$SMALL" "$SMALL_IMG" \
  "$SSDPROBE" --write --yes --cache-bytes 64M --budget 5 --journal "$J" "$SMALL" < /dev/null

# The check refuses only what the write grid cannot plan: 16 MiB is enough,
# and the run writes, restores and leaves the file as it was.
before=$(b2sum < "$IMG")
"$SSDPROBE" --write --yes --region 100M:16M --cache-bytes 64M --budget 2 -q --journal "$J" "$DEV" < /dev/null \
  > "$SCRATCH/fits.log" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "restored and verified" "$SCRATCH/fits.log" && [ "$(b2sum < "$IMG")" = "$before" ]; then
  note "ok   a 16 MiB window is written and restored"
else
  bad "a 16 MiB window: exit $rc: $(tail -n 3 "$SCRATCH/fits.log")"
fi

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
