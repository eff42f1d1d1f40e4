#!/bin/bash
# Tests that `ssdprobe restore` refuses truncated, corrupted, padded or forged copies of a real journal (from a --write run SIGKILLed in the write grid) without writing a byte, and that the intact journal restores bit-exactly.
#
# Usage: journal_corrupt.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq b2sum od python3
require_root_loop_fuse

MIB=$((1 << 20))
WIN_OFF=$((32 * MIB))
WIN_LEN=$((32 * MIB))
RECORD=$((24 + 4 * MIB))   # record header + 4 MiB of data
J="$SCRATCH/j"
COPIES="$SCRATCH/copies"
mkdir -p "$COPIES"

writes_completed() { awk '{print $5}' "/sys/block/${DEV#/dev/}/stat"; }

# flip FILE POSITION: inverts the byte at POSITION.
flip() {
  local b
  b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((b ^ 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect_refused NAME NEEDLE: `ssdprobe restore` of copy NAME exits non-zero,
# says NEEDLE, and leaves the device as it was after the kill.
# expect_nothing NAME: exits 0 and says "nothing to restore"; device unchanged.
try_restore() {
  local name="$1" want="$2" needle="$3" rc out
  out="$SCRATCH/restore-$name.log"
  "$SSDPROBE" restore --yes "$COPIES/$name" > "$out" 2>&1
  rc=$?
  local problems=""
  if [ "$want" = refused ]; then
    [ "$rc" != 0 ] || problems+=" exit 0, want non-zero;"
  else
    [ "$rc" = 0 ] || problems+=" exit $rc, want 0;"
  fi
  grep -qiF -- "$needle" "$out" || problems+=" message lacks '$needle';"
  [ "$(dev_hash "$DEV")" = "$H_KILLED" ] || problems+=" THE DEVICE CHANGED;"
  if [ -z "$problems" ]; then
    note "ok   $name: exit $rc: $(head -c 200 "$out")"
  else
    bad "$name:$problems output: $(head -c 300 "$out")"
    # Put the device back into its post-kill state for the next case.
    [ -n "${KILLED_IMAGE:-}" ] && dd if="$KILLED_IMAGE" of="$DEV" bs=4M oflag=direct status=none
  fi
}
expect_refused() { try_restore "$1" refused "$2"; }
expect_nothing() { try_restore "$1" nothing "nothing to restore"; }

# copy NAME: a fresh copy of the intact journal.
copy() { cp "$JOURNAL" "$COPIES/$1"; }

# forge NAME SCRIPT: a copy rewritten by a python snippet that sees the
# journal as `b` (bytearray), `H` (header length), `crc` (CRC-32C) and
# `u32`/`u64` (little-endian packers); checksums are recomputed by the
# snippet, so only the semantic checks can catch it.
forge() {
  python3 - "$JOURNAL" "$COPIES/$1" "$HEADER" "$2" <<'EOF'
import struct, sys
src, dst, H, script = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
def crc(data, c=0):
    c ^= 0xFFFFFFFF
    for x in data:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 & -(c & 1))
    return c ^ 0xFFFFFFFF
u32 = lambda v: struct.pack('<I', v)
u64 = lambda v: struct.pack('<Q', v)
b = bytearray(open(src, 'rb').read())
exec(script)
open(dst, 'wb').write(b)
EOF
}

# ---------------------------------------------------------------------------
# A real journal: a --write run SIGKILLed in the middle of its write grid.

IMG="$SCRATCH/disk.img"
random_file "$IMG" $((128 * MIB))
DEV=$(make_loop "$IMG" 512) || exit 1
H0=$(dev_hash "$DEV")

# --cache-bytes 0: no SLC cache fill before the grid, so the first writes
# after the save are the write grid's.
"$SSDPROBE" --write --yes --cache-bytes 0 --journal "$J" --budget 10 --region "32M:32M" "$DEV" < /dev/null \
  > "$SCRATCH/run.log" 2>&1 &
pid=$!
# kill_in_grid: SIGKILLs the run once 50 writes reached the device (with no
# cache probe, nothing but the write grid writes before the stream); returns
# the run's status.
kill_in_grid() {
  local w0
  w0=$(writes_completed)
  while kill -0 "$pid" 2>/dev/null; do
    if [ $(($(writes_completed) - w0)) -ge 50 ]; then
      kill -9 "$pid"
      break
    fi
    sleep 0.005
  done
  wait "$pid"
}
kill_in_grid 2>/dev/null  # no "Killed" job notice
rc=$?
[ "$rc" = 137 ] || fail "could not SIGKILL the run during its write grid (exit $rc): $(tail -n 5 "$SCRATCH/run.log")"
JOURNAL=$(find "$J" -name '*.ssdpj')
[ -n "$JOURNAL" ] && [ "$(wc -l <<< "$JOURNAL")" = 1 ] || fail "expected one journal in $J, found '$JOURNAL'"
H_KILLED=$(dev_hash "$DEV")
[ "$H_KILLED" != "$H0" ] || fail "the device did not change before the kill: the journal would test nothing"
# The post-kill image, to repair the device if a case wrongly writes to it.
KILLED_IMAGE="$SCRATCH/killed.img"
dd if="$DEV" of="$KILLED_IMAGE" bs=4M iflag=direct status=none

SIZE=$(stat -c %s "$JOURNAL")
HEADER=$((20 + $(od -An -tu4 -j 16 -N 4 "$JOURNAL" | tr -d ' ') + 4))  # magic, version, state, length
RECORDS=$((WIN_LEN / (4 * MIB)))
[ "$SIZE" = $((HEADER + RECORDS * RECORD + 24)) ] ||
  fail "journal $JOURNAL has $SIZE bytes, want header $HEADER + $RECORDS records + commit: layout not as in src/safety/journal.h"
LAST=$((HEADER + (RECORDS - 1) * RECORD))   # the last record
COMMIT=$((SIZE - 24))
note "journal: $SIZE bytes, header $HEADER, $RECORDS records, commit at $COMMIT"

# Truncated.
copy empty; truncate -s 0 "$COPIES/empty"
expect_refused empty "not an ssdprobe journal"
copy trunc-magic; truncate -s 10 "$COPIES/trunc-magic"
expect_refused trunc-magic "not an ssdprobe journal"
copy trunc-header; truncate -s $((HEADER - 2)) "$COPIES/trunc-header"
expect_refused trunc-header "corrupt"
# Cut short after the header. The journal's state says the run had begun
# writing (it was killed in its write grid), so a lost tail is not "never
# committed": the journal is refused and kept, with what to do.
copy trunc-record-header; truncate -s $((HEADER + RECORD + 10)) "$COPIES/trunc-record-header"
expect_refused trunc-record-header "has lost its end"
copy trunc-record-data; truncate -s $((LAST + 24 + 1000)) "$COPIES/trunc-record-data"
expect_refused trunc-record-data "has lost its end"
copy trunc-before-commit; truncate -s "$COMMIT" "$COPIES/trunc-before-commit"
expect_refused trunc-before-commit "has lost its end"
# The same cuts of a journal still in its journaling state (a run killed
# while copying the window): nothing was written, nothing to restore.
forge journaling-cut "
b[12:16] = u32(0)
del b[$((HEADER + RECORD + 10)):]
" || fail "python3 forge failed"
expect_nothing journaling-cut
copy trunc-commit; truncate -s $((SIZE - 10)) "$COPIES/trunc-commit"
expect_refused trunc-commit "corrupt"

# One byte flipped.
copy flip-magic; flip "$COPIES/flip-magic" 0
expect_refused flip-magic "not an ssdprobe journal"
copy flip-version; flip "$COPIES/flip-version" 8
expect_refused flip-version "corrupt"
copy flip-state; flip "$COPIES/flip-state" 13
expect_refused flip-state "corrupt"
copy flip-identity; flip "$COPIES/flip-identity" 30
expect_refused flip-identity "corrupt"
copy flip-header-crc; flip "$COPIES/flip-header-crc" $((HEADER - 1))
expect_refused flip-header-crc "corrupt"
copy flip-record-magic; flip "$COPIES/flip-record-magic" $((HEADER + 2 * RECORD))
expect_refused flip-record-magic "corrupt"
copy flip-record-offset; flip "$COPIES/flip-record-offset" $((HEADER + 2 * RECORD + 6))
expect_refused flip-record-offset "corrupt"
copy flip-record-length; flip "$COPIES/flip-record-length" $((LAST + 13))
expect_refused flip-record-length "corrupt"
# Data of the last record: nothing may have been restored before it is seen.
copy flip-record-data; flip "$COPIES/flip-record-data" $((LAST + 24 + 2 * MIB + 7))
expect_refused flip-record-data "corrupt"
copy flip-commit-count; flip "$COPIES/flip-commit-count" $((COMMIT + 4))
expect_refused flip-commit-count "corrupt"
copy flip-commit-crc; flip "$COPIES/flip-commit-crc" $((SIZE - 1))
expect_refused flip-commit-crc "corrupt"

# Trailing junk after the commit.
copy trailing-byte; printf 'x' >> "$COPIES/trailing-byte"
expect_refused trailing-byte "corrupt"
copy trailing-record; head -c 4120 /dev/urandom >> "$COPIES/trailing-record"
expect_refused trailing-record "corrupt"

# Forged with valid checksums: only the semantic checks can refuse these.
# The last record moved to just past the window (header crc recomputed).
forge forged-outside "
p = $LAST
b[p+4:p+12] = u64($((WIN_OFF + WIN_LEN)))
b[p+20:p+24] = u32(crc(bytes(b[p:p+20])))
" || fail "python3 forge failed"
expect_refused forged-outside "corrupt"
# An identity length of 4 GiB - 1.
forge forged-identity-length "b[16:20] = u32(0xFFFFFFFF)" || fail "python3 forge failed"
expect_refused forged-identity-length "corrupt"
# The commit claims one record fewer (its crc recomputed).
forge forged-commit-count "
p = $COMMIT
b[p+4:p+12] = u64($((RECORDS - 1)))
b[p+20:p+24] = u32(crc(bytes(b[p:p+20])))
" || fail "python3 forge failed"
expect_refused forged-commit-count "corrupt"

# The intact journal aimed at another device (--device) of another size.
OTHER_IMG="$SCRATCH/other.img"
random_file "$OTHER_IMG" $((96 * MIB))
OTHER=$(make_loop "$OTHER_IMG" 512) || exit 1
other_before=$(dev_hash "$OTHER")
"$SSDPROBE" restore --yes "$JOURNAL" --device "$OTHER" > "$SCRATCH/restore-other.log" 2>&1
rc=$?
if [ "$rc" = 7 ] && [ "$(dev_hash "$OTHER")" = "$other_before" ] && [ "$(dev_hash "$DEV")" = "$H_KILLED" ] &&
   [ -e "$JOURNAL" ]; then
  note "ok   --device of another size: exit 7: $(head -c 200 "$SCRATCH/restore-other.log")"
else
  bad "restore --device $OTHER (96 MiB, journal made for 128 MiB): exit $rc (want 7), devices unchanged and journal kept: $(cat "$SCRATCH/restore-other.log")"
fi

# Finally the intact journal: restored bit-exactly, then removed.
"$SSDPROBE" restore --yes "$JOURNAL" > "$SCRATCH/restore-intact.log" 2>&1
rc=$?
[ "$rc" = 0 ] || bad "intact journal: restore exited $rc: $(cat "$SCRATCH/restore-intact.log")"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "intact journal: the device is not bit-identical to its original content"
[ -e "$JOURNAL" ] && bad "intact journal: not removed after the restore"
note "intact: $(cat "$SCRATCH/restore-intact.log")"

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
