#!/bin/bash
# A version 1 journal (made before ssdprobe bound a journal to the device's
# numbers, backing file and WWID) binds only the size and the serial, and a
# loop device has no serial (issue 36): such a journal used to restore onto a
# loop device re-attached to another file of the same size ("restored and
# verified"), overwriting that file. Checks that `ssdprobe restore` refuses
# it without --force (exit 7, saying what is missing and that --force
# overrides), the other file untouched and the journal kept, and that with
# --force the journal's content is written back and verified.
#
# The journal is built here byte by byte in the version 1 format
# (src/safety/journal.h; tests/fuzz/make_journal_seeds.cc derives one the
# same way): no state field, and an identity of path, rdev, size, logical
# block, model, serial and window only.
#
# Usage: restore_v1_journal.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
require_cmd b2sum python3 stat
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH; set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
SIZE=$((64 * MIB))
WIN_OFF=$((16 * MIB))
WIN_LEN=$((2 * MIB))
J="$SCRATCH/j"
mkdir -p "$J" && chmod 700 "$J"
JOURNAL="$J/v1.ssdpj"
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

A="$SCRATCH/a.img"
B="$SCRATCH/b.img"
random_file "$A" "$SIZE"
random_file "$B" "$SIZE"
# Its own loop number: DEV is detached and attached to B below.
private_loop "$A" 512
DEV=$PRIVATE_LOOP
rdev=$(( $(stat -c '0x%t' "$DEV") << 8 | $(stat -c '0x%T' "$DEV") ))
head -c "$WIN_LEN" < /dev/zero > "$SCRATCH/zero"
# window FILE: the journal's window of FILE.
window() { dd if="$1" bs=1M skip=$((WIN_OFF / MIB)) count=$((WIN_LEN / MIB)) status=none; }
window "$A" > "$SCRATCH/saved"
saved_sum=$(b2sum < "$SCRATCH/saved" | cut -d' ' -f1)

# The version 1 journal of DEV's window as it is now (2 records of 1 MiB).
python3 - "$JOURNAL" "$SCRATCH/saved" "$DEV" "$rdev" "$SIZE" "$WIN_OFF" "$WIN_LEN" <<'EOF' || fail "cannot build the journal"
import json, struct, sys
out, saved, path, rdev, size, offset, length = sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:])
table = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ (0x82F63B78 & -(c & 1))
    table.append(c)
def crc(data):
    c = 0xFFFFFFFF
    for x in data:
        c = table[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
u32 = lambda v: struct.pack('<I', v)
u64 = lambda v: struct.pack('<Q', v)
identity = json.dumps({"path": path, "rdev": rdev, "size_bytes": size, "logical_block": 512, "model": "",
                       "serial": "", "window_offset": offset, "window_length": length,
                       "created_at": "20240101T000000Z"}).encode()
header = b"SSDPJRN1" + u32(1) + u32(len(identity)) + identity
body = bytearray(header + u32(crc(header)))
data = open(saved, 'rb').read()
records = 0
for at in range(0, length, 1 << 20):
    piece = data[at:at + (1 << 20)]
    head = u32(0x31434552) + u64(offset + at) + u32(len(piece)) + u32(crc(piece))
    body += head + u32(crc(head)) + piece
    records += 1
commit = u32(0x31544d43) + u64(records) + u64(length)
body += commit + u32(crc(commit))
with open(out, 'wb') as f:
    f.write(body)
EOF
chmod 600 "$JOURNAL"

# The probes' test data in the window, then the loop device re-attached, same
# name, to another file of the same size.
dd if=/dev/urandom of="$DEV" bs=1M seek=$((WIN_OFF / MIB)) count=$((WIN_LEN / MIB)) oflag=direct status=none ||
  fail "cannot write the window"
losetup -d "$DEV" || fail "losetup -d $DEV failed"
losetup --direct-io=on "$DEV" "$B" || fail "cannot attach $B to $DEV"
b_before=$(b2sum < "$B")

"$SSDPROBE" restore --yes "$JOURNAL" > "$SCRATCH/refused.log" 2>&1
rc=$?
problems=""
[ "$rc" = 7 ] || problems+=" exit $rc, want 7;"
grep -q "journal version 1" "$SCRATCH/refused.log" || problems+=" the refusal does not say the journal is version 1;"
grep -q "neither the journal nor the device has a serial" "$SCRATCH/refused.log" ||
  problems+=" the refusal does not say the serial is missing;"
grep -q "give --force" "$SCRATCH/refused.log" || problems+=" the refusal does not name --force;"
[ "$(b2sum < "$B")" = "$b_before" ] || problems+=" THE OTHER FILE WAS WRITTEN;"
[ -f "$JOURNAL" ] || problems+=" the journal is gone;"
if [ -z "$problems" ]; then
  note "ok   refused without --force: $(grep -m 1 error "$SCRATCH/refused.log" | cut -c 1-240)"
else
  bad "a version 1 journal on a re-attached loop device:$problems $(cat "$SCRATCH/refused.log")"
fi

"$SSDPROBE" restore --yes --force "$JOURNAL" > "$SCRATCH/forced.log" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "restored and verified $WIN_LEN bytes" "$SCRATCH/forced.log" &&
   [ "$(window "$B" | b2sum | cut -d' ' -f1)" = "$saved_sum" ]; then
  note "ok   --force writes the journal's content back: $(tail -n 1 "$SCRATCH/forced.log" | cut -c 1-200)"
else
  bad "restore --force: exit $rc, window of $B $( [ "$(window "$B" | b2sum | cut -d' ' -f1)" = "$saved_sum" ] &&
       echo restored || echo 'not restored'): $(cat "$SCRATCH/forced.log")"
fi

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
