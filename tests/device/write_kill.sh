#!/bin/bash
# Tests that a --write run killed with SIGKILL (while journaling, in the write grid, in the sequential stream, while restoring; and a killed `ssdprobe restore`) blocks new write runs and is restored bit-exactly by `ssdprobe restore JOURNAL`.
#
# Usage: write_kill.sh SSDPROBE EMUDRIVE
#
# The device is an emudrive behind a loop device: its latency model stretches
# every phase to a few hundred milliseconds, and its --trace shows which phase
# a run is in (grid: random writes of up to 256 KiB; stream: sequential 64 KiB
# writes; restore: the journal's 4 MiB records, which reach the drive as
# pieces of 512 KiB). Each kill is aimed by polling the trace (or the journal's
# size), then checked afterwards from the trace; a kill that landed in another
# phase is restored and retried.
set -u
# --cache-bytes 0: the phases aimed at here are the write grid, stream and restore,
# told apart by their writes; the SLC cache probe has its own kill test
# (slc_cache_kill.sh, next session) and would be mistaken for them.
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq b2sum
require_root_loop_fuse

traced_window_layout

# writes_outside: prints every traced write that is not inside the window.
writes_outside() {
  awk -v lo="$WIN_OFF" -v hi=$((WIN_OFF + WIN_LEN)) '$1 == "W" && ($2 < lo || $2 + $3 > hi)' "$TRACE"
}

# last_writes_phase: the phase of the last traced writes: none, grid, stream
# or restore.
last_writes_phase() {
  grep '^W' "$TRACE" | tail -n 16 | awk '
    { n++; off[n] = $2; len[n] = $3; if ($3 > 262144) big = 1 }
    END {
      if (n == 0) { print "none"; exit }
      if (big) { print "restore"; exit }
      seq = n >= 16
      for (i = 1; i <= n && seq; i++) if (len[i] != 65536 || (i > 1 && off[i] != off[i-1] + len[i-1])) seq = 0
      print seq ? "stream" : "grid"
    }'
}

start_run() {
  : > "$TRACE"
  "$SSDPROBE" --write --yes --cache-bytes 0 --journal "$J" --budget 5 --region "$REGION" "$DEV" < /dev/null > "$1" 2>&1 &
  RUN_PID=$!
}

# kill_when PID CONDITION: SIGKILLs PID as soon as CONDITION holds; returns
# the exit status of PID (137 when killed).
kill_when() {
  local pid="$1" cond="$2"
  while kill -0 "$pid" 2>/dev/null; do
    if "$cond"; then
      kill -9 "$pid" 2>/dev/null
      break
    fi
    sleep 0.002
  done
  wait "$pid"
}

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# check_recovery TAG COMMITTED: after a kill, (a) a new --write run refuses
# with exit 7, names the restore command and changes nothing, (b) restore
# exits 0 and the device is bit-identical to H0, (c) no journal is left.
check_recovery() {
  local tag="$1" committed="$2" journal before rc failures_before=$failures
  journal=$(journals)
  [ "$(wc -l <<< "$journal")" = 1 ] && [ -n "$journal" ] || { bad "$tag: expected one journal in $J, found: '$journal'"; return; }
  before=$(dev_hash "$DEV")
  if [ "$committed" = yes ] && [ "$before" = "$H0" ]; then
    bad "$tag: the device is unchanged after the kill, so the kill tested nothing"
  fi
  if [ "$committed" = no ] && [ "$before" != "$H0" ]; then
    bad "$tag: the device changed although the run was killed before its journal was committed"
  fi

  "$SSDPROBE" --write --yes --cache-bytes 0 --journal "$J" --budget 5 --region "$REGION" "$DEV" < /dev/null > "$SCRATCH/$tag.rerun.log" 2>&1
  rc=$?
  [ "$rc" = 7 ] || bad "$tag: a new --write run exited $rc, want 7: $(tail -n 3 "$SCRATCH/$tag.rerun.log")"
  grep -qF "ssdprobe restore $journal" "$SCRATCH/$tag.rerun.log" ||
    bad "$tag: the refusal does not name 'ssdprobe restore $journal': $(tail -n 3 "$SCRATCH/$tag.rerun.log")"
  [ "$(dev_hash "$DEV")" = "$before" ] || bad "$tag: the refused run changed the device"

  : > "$TRACE"
  "$SSDPROBE" restore --yes "$journal" > "$SCRATCH/$tag.restore.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || bad "$tag: ssdprobe restore exited $rc: $(tail -n 3 "$SCRATCH/$tag.restore.log")"
  if [ "$committed" = yes ]; then
    grep -q "restored and verified $WIN_LEN bytes" "$SCRATCH/$tag.restore.log" ||
      bad "$tag: restore did not report $WIN_LEN bytes restored: $(cat "$SCRATCH/$tag.restore.log")"
  else
    grep -q "nothing to restore" "$SCRATCH/$tag.restore.log" ||
      bad "$tag: restore of an uncommitted journal does not say 'nothing to restore': $(cat "$SCRATCH/$tag.restore.log")"
    grep -q '^W' "$TRACE" && bad "$tag: restore of an uncommitted journal wrote to the device"
  fi
  [ -n "$(writes_outside)" ] && bad "$tag: restore wrote outside the window: $(writes_outside | head -n 3)"
  [ "$(dev_hash "$DEV")" = "$H0" ] || bad "$tag: the device differs from its original content after restore"
  [ -z "$(journals)" ] || bad "$tag: journal left behind after restore: $(journals)"
  [ "$failures" = "$failures_before" ] &&
    note "ok   $tag: rerun refused, restore: $(head -n 1 "$SCRATCH/$tag.restore.log")"
}

# put_back: after a missed aim, restores whatever the run left behind.
put_back() {
  local journal
  journal=$(journals)
  if [ -n "$journal" ]; then "$SSDPROBE" restore --yes "$journal" > /dev/null 2>&1 || fail "cannot restore $journal after a missed kill"; fi
  [ "$(dev_hash "$DEV")" = "$H0" ] || fail "device not back to its original content after a missed kill"
}

# kill_at PHASE CONDITION: runs --write, SIGKILLs it when CONDITION holds,
# checks that the kill landed in PHASE (retrying up to 3 times), then checks
# the recovery.
kill_at() {
  local phase="$1" cond="$2" attempt rc landed committed
  for attempt in 1 2 3; do
    start_run "$SCRATCH/kill-$phase.$attempt.log"
    local t0=$SECONDS
    kill_when "$RUN_PID" "$cond" 2>/dev/null
    rc=$?
    landed=$(last_writes_phase)
    if [ "$phase" = journal ]; then
      # No write yet, and the journal is not complete.
      [ "$landed" = none ] && [ -n "$(journals)" ] &&
        [ "$(stat -c %s "$(journals | head -n 1)")" -lt "$WIN_LEN" ] && landed=journal
    fi
    if [ "$rc" = 137 ] && [ "$landed" = "$phase" ] && [ -n "$(journals)" ]; then
      note "killed in $phase (attempt $attempt, after $((SECONDS - t0)) s, $(grep -c '^W' "$TRACE") writes traced)"
      [ -n "$(writes_outside)" ] && bad "$phase: the run wrote outside the window: $(writes_outside | head -n 3)"
      committed=yes
      [ "$phase" = journal ] && committed=no
      check_recovery "kill-$phase" "$committed"
      return
    fi
    note "aim missed for $phase (attempt $attempt): exit $rc, last writes look like '$landed'; restoring and retrying"
    put_back
  done
  bad "$phase: could not SIGKILL the run in that phase in 3 attempts"
}

# Kills `ssdprobe restore` itself while it writes, then restores again.
kill_restore_command() {
  start_run "$SCRATCH/kill-restorecmd.log"
  kill_when "$RUN_PID" stream_started 2>/dev/null
  local journal rc
  journal=$(journals)
  [ -n "$journal" ] || { bad "restore-command: no journal after the kill"; return; }
  : > "$TRACE"
  "$SSDPROBE" restore --yes "$journal" > "$SCRATCH/restorecmd.log" 2>&1 &
  kill_when $! restore_started 2>/dev/null
  rc=$?
  if [ "$rc" != 137 ]; then
    bad "restore-command: could not SIGKILL 'ssdprobe restore' while it wrote (exit $rc)"
    put_back
    return
  fi
  [ "$(journals)" = "$journal" ] || bad "restore-command: the journal disappeared when restore was killed"
  check_recovery "kill-restore-command" yes
}

# ---------------------------------------------------------------------------

start_emudrive "$MP" --size 256M --read-page 16k --base-us 40 --page-us 40 \
  --write-unit 16k --write-us 20 --erase-block 1M --erase-stall-us 3000 --trace "$TRACE"
dd if=/dev/urandom of="$MP/disk" bs=1M count=256 oflag=direct conv=notrunc status=none || fail "cannot fill $MP/disk"
DEV=$(make_loop "$MP/disk" 512) || exit 1
H0=$(dev_hash "$DEV")

kill_at journal journal_quarter_written
kill_at grid grid_started
kill_at stream stream_started
kill_at restore restore_started
kill_restore_command

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
