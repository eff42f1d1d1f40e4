#!/bin/bash
# Tests how the io_uring engine waits for completions (--spin-us): by default
# it polls at shallow queues and says so in the engine line; --spin-us 0
# makes it sleep for every completion; both time the same grid with every
# latency a real, positive number; an out-of-range value is refused by name.
#
# Usage: engine_waits.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq
require_root_loop_fuse

file="$SCRATCH/waits.img"
random_file "$file" $((64 << 20))
dev=$(make_loop "$file" 512) || exit 1

# run_waiting NAME OPTIONS...: a short read-only run, its JSON in $SCRATCH/NAME.json
run_waiting() {
  local name="$1"; shift
  run_logged "$SCRATCH/$name.log" "$SSDPROBE" -q --budget 2 --max-qd 1 --engine uring "$@" \
    --json "$SCRATCH/$name.json" "$dev" || fail "ssdprobe $* $dev exited with $?"
  local bad
  bad=$(jq '[.grids[] | .median_us[][] | select(. != null and . <= 0)] | length' "$SCRATCH/$name.json")
  [ "$bad" = 0 ] || fail "$name: $bad cells with a median latency <= 0"
  [ "$(jget "$SCRATCH/$name.json" '.run.ios')" -gt 0 ] || fail "$name: no timed IO"
}

run_waiting polled
engine=$(jget "$SCRATCH/polled.json" '.run.engine')
grep -q "completions polled up to 200 us" <<< "$engine" || fail "default engine line: $engine"
[ "$(jget "$SCRATCH/polled.json" '.options.spin_us')" = 200 ] || fail "options.spin_us is not 200 by default"
note "ok   default: $engine"

run_waiting asleep --spin-us 0
engine=$(jget "$SCRATCH/asleep.json" '.run.engine')
grep -q "completions waited for asleep" <<< "$engine" || fail "--spin-us 0 engine line: $engine"
note "ok   --spin-us 0: $engine"

"$SSDPROBE" -q --spin-us 10001 "$dev" > /dev/null 2> "$SCRATCH/range.err"
rc=$?
[ "$rc" = 2 ] || fail "--spin-us 10001 exited $rc, expected 2"
grep -q -- "--spin-us" "$SCRATCH/range.err" || fail "the refusal does not name --spin-us: $(cat "$SCRATCH/range.err")"
note "ok   --spin-us 10001 refused: $(head -1 "$SCRATCH/range.err")"
echo "PASS"
