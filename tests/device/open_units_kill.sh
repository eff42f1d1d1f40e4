#!/bin/bash
# Tests that a --write run killed with SIGKILL inside its open_units phase
# (N interleaved streams written round-robin in the window) is put back
# bit-exactly by `ssdprobe restore JOURNAL`, on a plain loop device over a
# file the test made.
#
# Usage: open_units_kill.sh SSDPROBE [EMUDRIVE]   (EMUDRIVE is not used)
#
# The run's standard error is a terminal (script(1)), so it shows its
# progress line; the phase's reads "open-units probe: N interleaved
# streams, SIZE written" after every step. A kill comes a random time after
# the first such line and counts only if that line was still the last one
# shown when the run died (the restore after it shows "restoring the
# original content"). A kill that missed is restored and the aim retried.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq sha256sum script
require_root_loop_fuse

MIB=$((1 << 20))
FILE="$SCRATCH/disk.img"
J="$SCRATCH/j"
# A 64 MiB window: 16 stretches of the 4 MiB stand-in (a file's loop device
# shows no erase block). No SLC cache probe and no parallelism probes: they
# only delay the phase.
RUN_ARGS=(--write --yes --journal "$J" --budget 20 --cache-bytes 0 --max-qd 1 --region 64M:64M)

file_sha() { dd if="$FILE" bs=4M iflag=direct status=none | sha256sum | cut -d' ' -f1; }

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

last_progress() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g' | grep -Ev '^[[:space:]]*$|^Script (started|done) ' | tail -n 1; }
in_phase() { last_progress "$1" | grep -q '^open-units probe: '; }

# start_run LOG: the --write run behind a terminal; sets RUN_PID (script's)
# and PROBE_PID (ssdprobe's).
start_run() {
  : > "$1"
  script -qfec "exec $(printf '%q ' "$SSDPROBE" "${RUN_ARGS[@]}" "$DEV")" "$1" < /dev/null > /dev/null 2>&1 &
  RUN_PID=$!
  PROBE_PID=""
  local _
  for _ in $(seq 200); do
    PROBE_PID=$(cat "/proc/$RUN_PID/task/$RUN_PID/children" 2>/dev/null | awk '{print $1}')
    [ -n "$PROBE_PID" ] && [ "$(readlink "/proc/$PROBE_PID/exe")" = "$(readlink -f "$SSDPROBE")" ] && return 0
    sleep 0.01
  done
  fail "could not find the ssdprobe process under script(1) (pid $RUN_PID)"
}

# kill_in_phase LOG DELAY: SIGKILLs ssdprobe DELAY s after the phase's first line.
kill_in_phase() {
  while kill -0 "$PROBE_PID" 2>/dev/null && ! in_phase "$1"; do sleep 0.002; done
  sleep "$2"
  kill -9 "$PROBE_PID" 2>/dev/null
  wait "$RUN_PID" 2>/dev/null
}

put_back() {
  local journal
  journal=$(journals)
  if [ -n "$journal" ]; then "$SSDPROBE" restore --yes "$journal" > /dev/null 2>&1 || fail "cannot restore $journal after a missed aim"; fi
  [ "$(file_sha)" = "$H0" ] || fail "the file is not back to its original content after a missed aim"
}

# check_restore TAG: one journal; the file changed; `ssdprobe restore`
# exits 0, says it restored the 64 MiB window and puts it back bit-exactly.
check_restore() {
  local tag="$1" journal rc f0=$failures
  journal=$(journals)
  [ -n "$journal" ] && [ "$(wc -l <<< "$journal")" = 1 ] || { bad "$tag: expected one journal in $J, found '$journal'"; return; }
  [ "$(file_sha)" != "$H0" ] || bad "$tag: the file is unchanged after the kill: the kill tested nothing"
  "$SSDPROBE" restore --yes "$journal" > "$SCRATCH/$tag.restore.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || bad "$tag: ssdprobe restore exited $rc: $(tail -n 3 "$SCRATCH/$tag.restore.log")"
  grep -q "restored and verified $((64 * MIB)) bytes" "$SCRATCH/$tag.restore.log" ||
    bad "$tag: restore did not report the 64 MiB window restored: $(cat "$SCRATCH/$tag.restore.log")"
  [ "$(file_sha)" = "$H0" ] || bad "$tag: THE FILE DIFFERS FROM ITS ORIGINAL CONTENT after restore"
  [ -z "$(journals)" ] || bad "$tag: journal left behind after restore: $(journals)"
  [ "$failures" = "$f0" ] && note "ok   $tag: $(grep -m 1 'restored and verified' "$SCRATCH/$tag.restore.log")"
}

kill_at() {
  local tag="$1" delay="$2" attempt
  for attempt in 1 2 3; do
    LOG="$SCRATCH/$tag.$attempt.log"
    start_run "$LOG"
    kill_in_phase "$LOG" "$delay"
    if in_phase "$LOG"; then
      note "$tag: killed $delay s into the phase (attempt $attempt), last shown: '$(last_progress "$LOG")'"
      check_restore "$tag"
      return
    fi
    note "$tag: aim missed (attempt $attempt): last shown '$(last_progress "$LOG")'; restoring and retrying"
    put_back
  done
  bad "$tag: could not SIGKILL the run inside the open_units phase in 3 attempts"
}

# ---------------------------------------------------------------------------

random_file "$FILE" $((192 * MIB))
DEV=$(make_loop "$FILE" 512) || exit 1
H0=$(file_sha)

# A whole run first: the phase runs here (else the kills test nothing) and
# says what it wrote, and the window comes back.
"$SSDPROBE" "${RUN_ARGS[@]}" --json "$SCRATCH/whole.json" "$DEV" > /dev/null 2>&1 || fail "the whole run exited $?"
[ "$(jq -r '.phases[] | select(.name == "open_units") | .state' "$SCRATCH/whole.json")" = done ] ||
  fail "the open_units phase did not run: $(jq -c '.phases[] | select(.name == "open_units")' "$SCRATCH/whole.json")"
note "whole run: open units $(jq -c '.detected.open_units | {state, streams, at_most, searched_up_to_streams, stretch_from, io_from, written_bytes, device_time_s}' "$SCRATCH/whole.json")"
[ "$(file_sha)" = "$H0" ] || fail "the whole run did not put the window back"

# The phase lasts about 0.2 s on a loop device over a file (16 KiB writes,
# 15 MiB in all): kills at its first line and at random times inside it.
kill_at kill-first 0
kill_at kill-random-1 "0.0$(printf '%02d' $((RANDOM % 50)))"
kill_at kill-random-2 "0.$(printf '%03d' $((50 + RANDOM % 70)))"

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
