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
WINDOW_BYTES=$((64 * MIB))  # check_restore (lib.sh)
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The phase's progress line is the last one shown: the run is (or died) in it.
in_phase() { last_progress "$LOG" | grep -q '^open-units probe: '; }
start_run() { start_behind_terminal "$1" "${RUN_ARGS[@]}" "$DEV"; }

# ---------------------------------------------------------------------------

random_file "$FILE" $((192 * MIB))
DEV=$(make_loop "$FILE" 512) || exit 1
H0=$(file_sha)

# A whole run first: the phase runs here (else the kills test nothing) and
# says what it wrote, and the window comes back.
"$SSDPROBE" "${RUN_ARGS[@]}" --json "$SCRATCH/whole.json" "$DEV" > /dev/null 2>&1 || fail "the whole run exited $?"
# (On a busy host its 5 % of --budget may end the ladder early: "budget".)
[[ "$(jq -r '.phases[] | select(.name == "open_units") | .state' "$SCRATCH/whole.json")" == @(done|budget) ]] ||
  fail "the open_units phase did not run: $(jq -c '.phases[] | select(.name == "open_units")' "$SCRATCH/whole.json")"
note "whole run: open units $(jq -c '.detected.open_units | {state, streams, at_most, searched_up_to_streams, stretch_from, io_from, written_bytes, device_time_s}' "$SCRATCH/whole.json")"
[ "$(file_sha)" = "$H0" ] || fail "the whole run did not put the window back"

# The phase lasts about 0.2-0.4 s on a loop device over a file (16 KiB
# writes, 15 MiB in all), less when a busy host makes its share of --budget
# end the ladder early: kills at its first line and at random times inside
# it, as shares of how long it took in the whole run (fixed delays of 50-120
# ms missed three times in a row beside three other tests).
phase_s=$(jq -r '.phases[] | select(.name == "open_units") | .wall_s' "$SCRATCH/whole.json")
# into_phase FROM TO: a random delay between those shares of phase_s,
# times $scale.
into_phase() {
  awk -v s="$phase_s" -v k="$scale" -v a="$1" -v b="$2" -v r="$RANDOM" \
    'BEGIN { printf "%.3f", s * k * (a + (b - a) * r / 32767) }'
}
# kill_into_phase FROM TO: one attempt's kill, at a fresh random delay; each
# retry halves the shares, since a busy host can end the phase's --budget
# share sooner than it did in the whole run (CI: three aims at 25-60 % all
# came after a 0.4 s phase had ended).
kill_into_phase() {
  kill_after in_phase "$(into_phase "$1" "$2")"
  scale=$(awk -v k="$scale" 'BEGIN { print k / 2 }')
}
note "the phase took $phase_s s in the whole run"
kill_where_aimed kill-first yes in_phase kill_after in_phase 0
scale=1
kill_where_aimed kill-random-1 yes in_phase kill_into_phase 0.05 0.25
scale=1
kill_where_aimed kill-random-2 yes in_phase kill_into_phase 0.25 0.6

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
