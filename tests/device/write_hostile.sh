#!/bin/bash
# The write path under hostile and unlucky conditions (issue: "no restore onto
# the wrong disk, no lost journal"). Each case sets up what real machines
# produce and checks that ssdprobe refuses, or restores exactly, and never
# writes where it should not:
#   parents   journal directories are created 0700 whatever the umask
#   ram       a journal on tmpfs is refused; so is a journal without room
#   fifo      a FIFO named *.ssdpj in the journal directory neither hangs nor blocks a run
#   back-to-back  a second run right after the first is not refused as busy (the ring gives the device back)
#   planted   a journal owned by another user, or in a world-writable non-sticky directory, is refused
#   renumber  losetup -d + a different file of the same size on the same loop device: restore refuses
#   tail      a committed journal whose tail was lost is kept, and --partial restores what it holds
#   overlap   a pending journal of a partition blocks an overlapping run on its whole disk, and the reverse
#   busy      a file target that backs a loop device, or that another process has open, is refused
#   swap      a file swapped in at the journal's name during a run is neither trusted nor deleted
#
# Usage: write_hostile.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"
# The --write runs here cap the SLC cache probe at 64M (--cache-bytes): it is
# not what these cases test (slc_cache_kill.sh is), and on a loop device over a
# file its default 16 GiB would be written through the page cache to disk.

use_binaries "$@"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, chown, mount)"
command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
require_cmd b2sum addpart delpart od
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH; set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
IMG="$SCRATCH/disk.img"
random_file "$IMG" $((64 * MIB))
# Its own loop number: the renumber case detaches it and attaches another file.
private_loop "$IMG" 512
DEV=$PRIVATE_LOOP
H0=$(dev_hash "$DEV")
J="$SCRATCH/j"
REGION="8M:16M"
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# write_run LOG JOURNAL_DIR REGION TARGET [OPTIONS...]: a short --write run;
# returns its exit status (124: it hung).
write_run() {
  local log="$1" journal="$2" region="$3" target="$4"; shift 4
  timeout 120 "$SSDPROBE" --write --yes --cache-bytes 64M --budget 1 -q --journal "$journal" --region "$region" "$@" "$target" \
    < /dev/null > "$log" 2>&1
}

# expect RC LOG WORDS TAG: the last command exited RC and LOG contains WORDS.
expect() {
  local want="$1" got="$2" log="$3" words="$4" tag="$5"
  [ "$got" = "$want" ] || { bad "$tag: exit $got, expected $want"; tail -n 5 "$log" >&2; return; }
  grep -qF -- "$words" "$log" || { bad "$tag: message lacks '$words'"; tail -n 5 "$log" >&2; return; }
  note "ok: $tag"
}


# leave_journal [TARGET [REGION]]: leave_committed_journal (lib.sh) on $DEV
# and $REGION unless told otherwise.
leave_journal() { leave_committed_journal "${1:-$DEV}" "${2:-$REGION}"; }

restore_clean() {
  local f
  for f in $(journals); do "$SSDPROBE" restore --yes "$f" > /dev/null 2>&1 || fail "cleanup: restore $f failed"; done
  [ "$(dev_hash "$DEV")" = "$H0" ] || fail "cleanup: the device differs from its original content"
}

# --- parents: 0700 whatever the umask -------------------------------------
(umask 000; write_run "$SCRATCH/parents.log" "$SCRATCH/new/a/b" "$REGION" "$DEV")
rc=$?
[ "$rc" = 0 ] || bad "parents: exit $rc"
for d in "$SCRATCH/new" "$SCRATCH/new/a" "$SCRATCH/new/a/b"; do
  [ "$(stat -c %a "$d")" = 700 ] || bad "parents: $d has mode $(stat -c %a "$d"), expected 700"
done
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "parents: the device was not restored"

# --- ram: tmpfs refused, and no room refused -------------------------------
mkdir -p "$SCRATCH/ram"
mount -t tmpfs -o size=4m tmpfs "$SCRATCH/ram" || fail "cannot mount tmpfs"
write_run "$SCRATCH/ram.log" "$SCRATCH/ram/j" "$REGION" "$DEV"
expect 7 $? "$SCRATCH/ram.log" "tmpfs" "ram: a journal on tmpfs is refused"
write_run "$SCRATCH/room.log" "$SCRATCH/ram/j" "$REGION" "$DEV" --allow-ram-journal
expect 7 $? "$SCRATCH/room.log" "bytes free but the journal needs" "ram: a journal without room is refused"
umount "$SCRATCH/ram"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "ram: the device changed"

# --- fifo: never opened, never blocks --------------------------------------
mkdir -p "$J" && chmod 700 "$J"
mkfifo "$J/planted.ssdpj"
write_run "$SCRATCH/fifo.log" "$J" "$REGION" "$DEV"
rc=$?
[ "$rc" = 0 ] || bad "fifo: exit $rc (124 = hung on the FIFO)"
rm -f "$J/planted.ssdpj"
note "ok: fifo"

# --- back-to-back: the claim ends with the run ------------------------------
# A run's io_uring must give the device back when the run exits: a ring
# closed with the device still registered is torn down later by a kernel
# worker, and the device stayed claimed (O_EXCL) for a moment after exit.
write_run "$SCRATCH/first.log" "$J" "$REGION" "$DEV"
write_run "$SCRATCH/second.log" "$J" "$REGION" "$DEV"
expect 0 $? "$SCRATCH/second.log" "restored and verified" "back-to-back: the next run is not refused as busy"

# --- tail: a committed journal whose end was lost --------------------------
leave_journal
f=$(journals)
truncate -s -24 "$f"
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/tail.log" 2>&1
expect 7 $? "$SCRATCH/tail.log" "has lost its end" "tail: refused, with what to do"
[ -f "$f" ] || bad "tail: the journal was deleted"
"$SSDPROBE" restore --yes --partial "$f" > "$SCRATCH/partial.log" 2>&1
expect 0 $? "$SCRATCH/partial.log" "restored and verified" "tail: --partial restores the records"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "tail: --partial did not bring the window back"
rm -f "$f"

# --- planted: owner and directory mode --------------------------------------
leave_journal
f=$(journals)
chown 65534 "$f"
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/planted.log" 2>&1
expect 7 $? "$SCRATCH/planted.log" "belongs to uid 65534" "planted: another user's journal"
chown 0 "$f"
chmod 777 "$J"
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/open-dir.log" 2>&1
expect 7 $? "$SCRATCH/open-dir.log" "writable by other users" "planted: a world-writable directory"
chmod 1777 "$J"  # sticky, like /tmp: others cannot replace our files
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/sticky.log" 2>&1
# (killed before its first write or after: restored, or nothing to write)
expect 0 $? "$SCRATCH/sticky.log" "removed" "planted: a sticky directory is fine"
chmod 700 "$J"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "planted: not restored"

# --- renumber: the same loop device, another file of the same size ---------
leave_journal
f=$(journals)
losetup -d "$DEV" || fail "losetup -d $DEV"
random_file "$SCRATCH/other.img" $((64 * MIB))
H_OTHER=$(b2sum "$SCRATCH/other.img" | cut -d' ' -f1)
losetup --direct-io=on "$DEV" "$SCRATCH/other.img" || fail "cannot attach other.img to $DEV"
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/renumber.log" 2>&1
expect 7 $? "$SCRATCH/renumber.log" "backing_ino" "renumber: refused, naming the field"
losetup -d "$DEV"
[ "$(b2sum "$SCRATCH/other.img" | cut -d' ' -f1)" = "$H_OTHER" ] || bad "renumber: the other file was written"
losetup --direct-io=on "$DEV" "$IMG" || fail "cannot re-attach $IMG to $DEV"
"$SSDPROBE" restore --yes "$f" > "$SCRATCH/renumber-ok.log" 2>&1
expect 0 $? "$SCRATCH/renumber-ok.log" "removed" "renumber: the right file restores"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "renumber: not restored"

# --- overlap: a partition's journal and its whole disk ---------------------
addpart "$DEV" 1 16384 65536 || fail "addpart $DEV 1"   # 8 MiB..40 MiB of the disk
PART="${DEV}p1"
for _ in $(seq 50); do [ -b "$PART" ] && break; sleep 0.1; done
# Windows of 16 MiB: a smaller one is refused before anything starts, too
# small for the write grid (write_setup_first.sh).
leave_journal "$PART" "4M:16M"                           # disk bytes 12..28 MiB
write_run "$SCRATCH/overlap.log" "$J" "16M:16M" "$DEV"
expect 7 $? "$SCRATCH/overlap.log" "overlaps" "overlap: a whole-disk run over a partition's pending window"
write_run "$SCRATCH/apart.log" "$J" "44M:16M" "$DEV"
rc=$?
[ "$rc" = 0 ] || { bad "overlap: a whole-disk run that does not overlap exits $rc"; tail -n 3 "$SCRATCH/apart.log" >&2; }
restore_clean
leave_journal "$DEV" "16M:16M"                           # disk bytes 16..32 MiB
write_run "$SCRATCH/overlap2.log" "$J" "4M:16M" "$PART"  # disk bytes 12..28 MiB
expect 7 $? "$SCRATCH/overlap2.log" "overlaps" "overlap: a partition run over its disk's pending window"
restore_clean
delpart "$DEV" 1

# --- busy: file targets in use --------------------------------------------
FILE="$SCRATCH/target.img"
random_file "$FILE" $((64 * MIB))
HF=$(b2sum "$FILE" | cut -d' ' -f1)
LOOP2=$(make_loop "$FILE" 512)
write_run "$SCRATCH/busy-loop.log" "$J" "$REGION" "$FILE"
expect 7 $? "$SCRATCH/busy-loop.log" "backing file of $LOOP2" "busy: a loop device's backing file"
losetup -d "$LOOP2"
sleep 1000 3<> "$FILE" &
HOLDER=$!
write_run "$SCRATCH/busy-open.log" "$J" "$REGION" "$FILE"
expect 7 $? "$SCRATCH/busy-open.log" "another process has it open" "busy: a file open elsewhere"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
[ "$(b2sum "$FILE" | cut -d' ' -f1)" = "$HF" ] || bad "busy: the file changed"

# --- swap: a file put at the journal's name during the run -----------------
"$SSDPROBE" --write --yes --cache-bytes 64M --budget 4 -q --journal "$J" --region "$REGION" "$DEV" < /dev/null \
  > "$SCRATCH/swap.log" 2>&1 &
pid=$!
swapped=""
while kill -0 "$pid" 2>/dev/null; do
  f=$(journals | head -n 1)
  if [ -n "$f" ] && [ "$(journal_state "$f")" = 54495257 ]; then
    head -c 4096 /dev/urandom > "$SCRATCH/impostor"
    mv "$SCRATCH/impostor" "$f"
    swapped="$f"
    break
  fi
  sleep 0.002
done
wait "$pid"
rc=$?
[ -n "$swapped" ] || bad "swap: the run ended before its journal could be swapped"
[ "$rc" = 0 ] || { bad "swap: exit $rc"; tail -n 5 "$SCRATCH/swap.log" >&2; }
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "swap: the device was not restored from the real journal"
[ -z "$swapped" ] || [ -f "$swapped" ] || bad "swap: the impostor at the journal's name was deleted"
rm -f "$swapped"
note "ok: swap"

[ "$failures" = 0 ] || fail "$failures check(s) failed"
echo "PASS: write path under hostile conditions"
