#!/bin/bash
# Tests that a --write run killed with SIGKILL at random points of its slc_cache phase (the window written over and over, sequentially, in 1 MiB writes) is put back bit-exactly by `ssdprobe restore JOURNAL`, on a plain loop device over a file the test made.
#
# Usage: slc_cache_kill.sh SSDPROBE [EMUDRIVE]   (EMUDRIVE is not used)
#
# The run's standard error is a terminal (script(1)), so it shows its
# progress line; the phase's line reads "SLC cache probe: fill N MiB of at
# most M written" after every 16 writes. Each kill comes a random time after
# the first such line, and counts only if that line was still the last one
# shown when the run died; otherwise the run is restored and the aim retried.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq sha256sum script
require_root_loop_fuse

MIB=$((1 << 20))
FILE="$SCRATCH/disk.img"
J="$SCRATCH/j"
# A 64 MiB window, rewritten many times over before the kill (the journal
# must hold the content from before the first pass, not from a later one).
REGION="64M:64M"
# --budget 16: the read grid takes at most ~7 s of it, the slc_cache phase
# ~2.2 s (1 s of idling, then ~1.2 s of writing); --cache-bytes keeps the
# fill from ending at the default cap before the budget does.
RUN_ARGS=(--write --yes --journal "$J" --budget 16 --cache-bytes 64G --region "$REGION")

file_sha() { dd if="$FILE" bs=4M iflag=direct status=none | sha256sum | cut -d' ' -f1; }

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# last_progress LOG: the last progress text the run showed (the line is
# rewritten in place: after the last carriage return).
last_progress() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g' | grep -v '^[[:space:]]*$' | tail -n 1; }
in_slc_phase() { last_progress "$1" | grep -q '^SLC cache probe: fill '; }

# start_run LOG: the --write run behind a terminal; sets RUN_PID (script's)
# and PROBE_PID (ssdprobe's: the shell script(1) starts execs it).
start_run() {
  : > "$1"
  read -r WRITES0_COUNT WRITES0_SECTORS <<< "$(writes_done)"
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

# kill_in_slc_phase LOG DELAY: SIGKILLs ssdprobe DELAY seconds after its
# first SLC cache progress line; returns 0 if it died in that phase.
kill_in_slc_phase() {
  local log="$1" delay="$2"
  while kill -0 "$PROBE_PID" 2>/dev/null && ! in_slc_phase "$log"; do sleep 0.005; done
  sleep "$delay"
  # The kill and the look at the log must see the same moment: stop it
  # first, and give script(1) a moment to copy what it printed last.
  kill -STOP "$PROBE_PID" 2>/dev/null
  sleep 0.05
  local landed=no
  in_slc_phase "$log" && only_large_writes && landed=yes
  kill -9 "$PROBE_PID" 2>/dev/null
  wait "$RUN_PID" 2>/dev/null
  [ "$landed" = yes ]
}

# Writes the loop device completed: "COUNT SECTORS" (/sys/block/loopN/stat).
writes_done() { awk '{print $5, $7}' "/sys/block/${DEV#/dev/}/stat"; }
# only_large_writes: since start_run, the run wrote and wrote only in pieces
# of 256 KiB or more on average (the fill's 1 MiB writes, which the loop
# queue may split; the write grid that comes next writes 4-256 KiB).
only_large_writes() {
  local count sectors
  read -r count sectors <<< "$(writes_done)"
  count=$((count - WRITES0_COUNT))
  sectors=$((sectors - WRITES0_SECTORS))
  [ "$count" -gt 0 ] && [ $((sectors * 512 / count)) -ge $((256 * 1024)) ]
}

put_back() {
  local journal
  journal=$(journals)
  if [ -n "$journal" ]; then "$SSDPROBE" restore --yes "$journal" > /dev/null 2>&1 || fail "cannot restore $journal after a missed aim"; fi
  [ "$(file_sha)" = "$H0" ] || fail "the file is not back to its original content after a missed aim"
}

# check_restore TAG: one journal; the device differs from H0; `ssdprobe
# restore` exits 0 and puts it back bit-exactly; no journal left.
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
  [ "$failures" = "$f0" ] && note "ok   $tag: $(head -n 1 "$SCRATCH/$tag.restore.log")"
}

# kill_at TAG DELAY: a run killed DELAY s into its SLC cache fill (up to 3
# attempts), then restored.
kill_at() {
  local tag="$1" delay="$2" attempt log
  for attempt in 1 2 3; do
    log="$SCRATCH/$tag.$attempt.log"
    start_run "$log"
    if kill_in_slc_phase "$log" "$delay"; then
      note "$tag: killed $delay s after the first SLC cache progress line (attempt $attempt): '$(last_progress "$log")'"
      check_restore "$tag"
      return
    fi
    note "$tag: aim missed (attempt $attempt): last progress '$(last_progress "$log")'; restoring and retrying"
    put_back
  done
  bad "$tag: could not SIGKILL the run in its slc_cache phase in 3 attempts"
}

# ---------------------------------------------------------------------------

random_file "$FILE" $((256 * MIB))
DEV=$(make_loop "$FILE" 512) || exit 1
H0=$(file_sha)

# Random points: at once, and two random times in the first 0.8 s of writing
# (at ~400 MB/s the 64 MiB window goes round every ~0.2 s).
kill_at kill-first 0
kill_at kill-random-1 "0.$(printf '%03d' $((RANDOM % 400)))"
kill_at kill-random-2 "0.$(printf '%03d' $((400 + RANDOM % 400)))"

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
