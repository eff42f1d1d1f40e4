#!/bin/bash
# Tests that a --write run killed with SIGKILL at random points of its slc_cache phase (the window written over and over, sequentially, in 1 MiB writes) is put back bit-exactly by `ssdprobe restore JOURNAL`, on a plain loop device over a file the test made.
#
# Usage: slc_cache_kill.sh SSDPROBE [EMUDRIVE]   (EMUDRIVE is not used)
#
# The run's standard error is a terminal (script(1)), so it shows its
# progress line; the phase's line reads "SLC cache probe: fill N MiB of at
# most M written" after every 16 writes. A kill in the fill comes a random
# time after the first such line, and counts only if that line was still the
# last one shown when the run died and the loop device had seen only large
# writes (the write grid after the phase writes 4-256 KiB). A kill in the
# idle the phase begins with comes a random time after the journal is
# committed and says writes may begin, and counts only if the device saw no
# write yet. A kill that missed is restored and the aim retried.
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
# --budget 12: the read grid takes at most ~5.4 s of it, the slc_cache phase
# ~1.6 s (0.4 s of idling, then writing); --cache-bytes keeps the fill from
# ending at the default cap before the budget does, and --max-write-bytes
# lets that fill's bound in (the default 20 GiB would leave the phase out).
RUN_ARGS=(--write --yes --journal "$J" --budget 12 --cache-bytes 64G --max-write-bytes 80G --region "$REGION")


WINDOW_BYTES=$((64 * MIB))  # check_restore (lib.sh)
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

in_slc_phase() { last_progress "$1" | grep -q '^SLC cache probe: fill '; }

# start_run LOG: the --write run behind a terminal (lib.sh), the device's
# write counters noted first.
start_run() {
  read -r WRITES0_COUNT WRITES0_SECTORS <<< "$(writes_done)"
  start_behind_terminal "$1" "${RUN_ARGS[@]}" "$DEV"
}


# Where a run died is judged after it exited, from what it showed last
# (script(1) has copied all of it by then) and what the device saw. (No
# SIGSTOP to look first: script(1) stops itself when its child stops.)
#
# The fill: a "SLC cache probe: fill" line, and only large writes so far.
fill_shown() { in_slc_phase "$LOG"; }
died_in_fill() { in_slc_phase "$LOG" && only_large_writes; }
# The idle before the fill: the journal holds the whole window and says
# writes may begin (its state word "WRIT", set once the commit and its
# fsyncs are done; a journal killed before its commit is write_kill's case),
# the last line is the journal's, and nothing was written yet. Its size
# alone is not enough: on a slow host the fsyncs before the commit outlasted
# the kill's delay, and the restore rightly found no commit.
journal_complete() {
  local f
  f=$(journals | head -n 1)
  [ -n "$f" ] && [ "$(journal_state "$f")" = 54495257 ]
}
died_in_idle() { journal_complete && last_progress "$LOG" | grep -q '^saving ' && no_writes; }

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
no_writes() { [ "$(writes_done)" = "$WRITES0_COUNT $WRITES0_SECTORS" ]; }


# kill_at TAG WHEN DELAY: a run killed DELAY s after WHEN (fill_shown or
# journal_complete) first held, in the fill or in the idle before it (up to
# 3 attempts), then restored.
kill_at() {
  local tag="$1" when="$2" delay="$3"
  if [ "$when" = journal_complete ]; then
    kill_where_aimed "$tag" no died_in_idle kill_after "$when" "$delay"
  else
    kill_where_aimed "$tag" yes died_in_fill kill_after "$when" "$delay"
  fi
}

# ---------------------------------------------------------------------------

random_file "$FILE" $((192 * MIB))
DEV=$(make_loop "$FILE" 512) || exit 1
H0=$(file_sha)

# Random points: in the idle before the fill (min(1 s, a quarter of the
# phase's share of --budget): ~0.4 s here); at the fill's first progress
# line (16 MiB or more written); two random times in its first 0.5 s (at
# 0.4-1.5 GB/s the 64 MiB window goes round every 0.05-0.2 s).
kill_at kill-idle journal_complete "0.$(printf '%03d' $((20 + RANDOM % 180)))"
kill_at kill-first fill_shown 0
kill_at kill-random-1 fill_shown "0.$(printf '%03d' $((RANDOM % 250)))"
kill_at kill-random-2 fill_shown "0.$(printf '%03d' $((250 + RANDOM % 250)))"

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
