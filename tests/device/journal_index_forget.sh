#!/bin/bash
# The index of pending journals (src/safety/journal_index.h) never blocks
# write runs for good (issue 36):
#   kept     a run whose journal was restored and marked but could not be
#            deleted (an append-only directory, chattr +a) used to stay in
#            the index; once the journal's filesystem was unmounted, every
#            later write run was refused as if an unrestored journal might be
#            there. Now the entry goes with the mark: the index is empty, and
#            with the filesystem unmounted a write run and `info` go on.
#   forget   a killed run's journal on a filesystem that is then unmounted
#            blocks write runs (the refusal names `restore --forget`);
#            `ssdprobe restore --forget JOURNAL` refuses while the journal is
#            there, asks (refused without --yes and a terminal), says what it
#            forgets, drops the entry, and the journal itself is untouched:
#            mounted again, `ssdprobe restore` puts the window back.
#
# Usage: journal_index_forget.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mount, chattr)"
command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
require_cmd b2sum od mkfs.ext4 mount umount chattr
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH; set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
J="$SCRATCH/j"          # the journal directory of the runs that check the index
mkdir -p "$J" && chmod 700 "$J"
JFS="$SCRATCH/jfs"      # a filesystem of its own for the journals the index lists
JD="$JFS/journal"
INDEX="$SSDPROBE_STATE_DIR/pending"
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

teardown() {
  local rc=$?
  set +e
  [ -d "$JD" ] && chattr -a "$JD" 2>/dev/null
  mountpoint -q "$JFS" && umount "$JFS"
  (exit "$rc")
  cleanup
}
trap teardown EXIT

index_entries() { ls -A "$INDEX" 2>/dev/null; }

# expect RC LOG WORDS TAG: the last command exited RC and LOG contains WORDS.
expect() {
  local want="$1" got="$2" log="$3" words="$4" tag="$5"
  [ "$got" = "$want" ] || { bad "$tag: exit $got, expected $want: $(tail -n 3 "$log")"; return; }
  grep -qF -- "$words" "$log" || { bad "$tag: output lacks '$words': $(tail -n 3 "$log")"; return; }
  note "ok   $tag"
}

# write_run LOG JOURNAL_DIR: a short --write run on $DEV.
write_run() {
  timeout 120 "$SSDPROBE" --write --yes --cache-bytes 64M --budget 1 -q --journal "$2" --region 8M:16M "$DEV" \
    < /dev/null > "$1" 2>&1
}

IMG="$SCRATCH/disk.img"
random_file "$IMG" $((64 * MIB))
DEV=$(make_loop "$IMG" 512) || exit 1
H0=$(dev_hash "$DEV")
JFS_DEV=$(sparse_loop $((64 * MIB)))
mkfs.ext4 -q -F "$JFS_DEV" || fail "mkfs.ext4 $JFS_DEV failed"
mkdir -p "$JFS"
mount "$JFS_DEV" "$JFS" || fail "cannot mount $JFS_DEV"
mkdir -m 700 "$JD"

# --- kept: restored and marked, not deletable ------------------------------
chattr +a "$JD" || fail "chattr +a $JD failed"
write_run "$SCRATCH/kept.log" "$JD"
expect 0 $? "$SCRATCH/kept.log" "marked restored" "kept: the run restores, and says the journal is marked restored"
KEPT=$(find "$JD" -name '*.ssdpj')
[ -n "$KEPT" ] && [ "$(journal_state "$KEPT")" = 54534552 ] || bad "kept: no journal marked restored in $JD"
[ "$(dev_hash "$DEV")" = "$H0" ] || bad "kept: the device was not restored"
[ -z "$(index_entries)" ] || bad "kept: the index still lists the restored journal: $(index_entries)"
umount "$JFS" || fail "cannot unmount $JFS"
write_run "$SCRATCH/after-kept.log" "$J"
expect 0 $? "$SCRATCH/after-kept.log" "restored and verified" \
  "kept: with its filesystem unmounted, the restored journal blocks no write run"
"$SSDPROBE" info "$DEV" > "$SCRATCH/info-kept.log" 2>&1
grep -q "pending journal" "$SCRATCH/info-kept.log" && bad "kept: info names a pending journal: $(cat "$SCRATCH/info-kept.log")"
mount "$JFS_DEV" "$JFS" || fail "cannot mount $JFS_DEV again"
chattr -a "$JD"
rm -f "$KEPT"

# --- forget: a killed run's journal on an unmounted filesystem -------------
J="$JD" leave_committed_journal "$DEV" 8M:16M
JOURNAL=$(find "$JD" -name '*.ssdpj' | head -n 1)
[ -n "$(index_entries)" ] || fail "the killed run's journal is not in the index"

"$SSDPROBE" restore --forget --yes "$JOURNAL" > "$SCRATCH/forget-there.log" 2>&1
expect 7 $? "$SCRATCH/forget-there.log" "ssdprobe restore $JOURNAL" "forget: refused while the journal is there"
[ -n "$(index_entries)" ] || bad "forget: the refused --forget dropped the entry"

umount "$JFS" || fail "cannot unmount $JFS"
write_run "$SCRATCH/blocked.log" "$J"
expect 7 $? "$SCRATCH/blocked.log" "ssdprobe restore --forget $JOURNAL" \
  "forget: the unreachable journal blocks a write run, and the refusal names restore --forget"
"$SSDPROBE" restore --forget "$JOURNAL" < /dev/null > "$SCRATCH/forget-unasked.log" 2>&1
expect 7 $? "$SCRATCH/forget-unasked.log" "--yes" "forget: not confirmed without --yes or a terminal"
[ -n "$(index_entries)" ] || bad "forget: the unconfirmed --forget dropped the entry"
"$SSDPROBE" restore --forget --yes "$JOURNAL" > "$SCRATCH/forget.log" 2>&1
expect 0 $? "$SCRATCH/forget.log" "ssdprobe will FORGET the journal $JOURNAL" "forget: says what it forgets"
grep -q "its directory is not there" "$SCRATCH/forget.log" || bad "forget: does not say why the journal counts as gone"
grep -q "^forgot the journal $JOURNAL" "$SCRATCH/forget.log" || bad "forget: no 'forgot the journal': $(cat "$SCRATCH/forget.log")"
[ -z "$(index_entries)" ] || bad "forget: the entry is still there: $(index_entries)"
"$SSDPROBE" info "$DEV" > "$SCRATCH/info-forgot.log" 2>&1
grep -q "pending journal" "$SCRATCH/info-forgot.log" && bad "forget: info still names a pending journal"
"$SSDPROBE" restore --forget --yes "$JOURNAL" > "$SCRATCH/forget-again.log" 2>&1
expect 3 $? "$SCRATCH/forget-again.log" "nothing to forget" "forget: an entry is forgotten once"

# The journal itself was not touched: mounted again, it restores the window.
mount "$JFS_DEV" "$JFS" || fail "cannot mount $JFS_DEV again"
"$SSDPROBE" restore --yes "$JOURNAL" > "$SCRATCH/restore.log" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(dev_hash "$DEV")" = "$H0" ] && [ ! -e "$JOURNAL" ]; then
  note "ok   forget: the forgotten journal still restores: $(tail -n 1 "$SCRATCH/restore.log" | cut -c 1-160)"
else
  bad "forget: restoring the forgotten journal: exit $rc: $(cat "$SCRATCH/restore.log")"
fi

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
