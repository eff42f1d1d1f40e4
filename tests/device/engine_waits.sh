#!/bin/bash
# Tests how the io_uring engine waits for completions (--spin-us): by default
# it polls at shallow queues while a CPU is free and says so in the engine
# line and in the read grid's phases[].waits, every sleep under its reason;
# --spin-us 0 makes it sleep for every completion (waits: asleep, none
# polled, every sleep "with polling off"); both time the same grid with
# every latency a real, positive number; an out-of-range value is refused
# by name. Then a run with the parallelism probe records the engine's
# ceiling at its busiest depth, and a loop device's plateau is far below it
# (the drive's, not the host's).
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
read -r waited polled slept busy < <(jq -r '.phases[] | select(.name == "read_grid") | .waits |
  "\(.waited) \(.polled) \(.asleep) \(.asleep_because.cpus_busy)"' "$SCRATCH/polled.json")
# Where other work filled the CPUs the engine sleeps, as it must; while a
# CPU was free it polled (on a host busy throughout, every sleep says so).
[ "$polled" -gt $((slept - busy)) ] || { [ "$polled" = 0 ] && [ "$slept" = "$busy" ]; } ||
  fail "default: the read grid polled $polled and slept $slept completions, $busy with the CPUs busy (waited: $waited)"
[ "$(jget "$SCRATCH/polled.json" '.run.engine_waited')" != null ] || fail "default: run.engine_waited is null"
note "ok   default: $engine; read grid waits: $waited ($polled polled, $slept asleep, $busy with the CPUs busy)"
# Every sleep has one reason, in every phase that counted waits.
unexplained=$(jq '[.phases[] | select(.waits != null) | .waits |
  select(.asleep != ([.asleep_because[]] | add))] | length' "$SCRATCH/polled.json")
[ "$unexplained" = 0 ] || fail "default: $unexplained phases whose sleeps do not add up to asleep_because"

run_waiting asleep --spin-us 0
engine=$(jget "$SCRATCH/asleep.json" '.run.engine')
grep -q "completions waited for asleep" <<< "$engine" || fail "--spin-us 0 engine line: $engine"
read -r waited polled < <(jq -r '.phases[] | select(.name == "read_grid") | .waits | "\(.waited) \(.polled)"' \
  "$SCRATCH/asleep.json")
[ "$waited" = asleep ] && [ "$polled" = 0 ] || fail "--spin-us 0: read grid waits $waited, $polled polled"
read -r slept off < <(jq -r '.phases[] | select(.name == "read_grid") | .waits |
  "\(.asleep) \(.asleep_because.spin_off)"' "$SCRATCH/asleep.json")
[ "$slept" = "$off" ] || fail "--spin-us 0: $slept sleeps, $off of them with polling off"
[ "$(jget "$SCRATCH/asleep.json" '.run.engine_waited')" = asleep ] || fail "--spin-us 0: run.engine_waited is not asleep"
note "ok   --spin-us 0: $engine; waits asleep"
# The report a person reads says it too, with the counts.
"$SSDPROBE" --budget 1 --max-qd 1 --engine uring --spin-us 0 "$dev" > "$SCRATCH/asleep.txt" 2> /dev/null ||
  fail "the text run exited with $?"
tr '\n' ' ' < "$SCRATCH/asleep.txt" | tr -s ' ' |
  grep -q "completions waited for asleep (0 polled, \([0-9]*\) asleep (\1 with polling off)" ||
  fail "the report's Run line does not say the completions were waited for asleep: $(grep -A3 '^Run:' "$SCRATCH/asleep.txt")"
note "ok   the report says: completions waited for asleep"

run_logged "$SCRATCH/ceiling.log" "$SSDPROBE" -q --budget 3 --engine uring --json "$SCRATCH/ceiling.json" "$dev" ||
  fail "ssdprobe with the parallelism probe exited with $?"
read -r share bound ceiling depth < <(jq -r '.parallelism_probe.engine_ceiling |
  "\(.plateau_share) \(.host_bound) \(.iops) \(.queue_depth)"' "$SCRATCH/ceiling.json")
best=$(jq '[.parallelism_probe.queue_depths[].iops] | max' "$SCRATCH/ceiling.json")
awk -v s="$share" -v b="$best" -v c="$ceiling" 'BEGIN { exit !(s < 0.7 && c > b && (b / c - s) ^ 2 < 1e-4) }' ||
  fail "engine ceiling $ceiling IOPS at depth $depth, busiest depth $best IOPS, share $share"
[ "$bound" = false ] || fail "a loop device's plateau was called host-bound (share $share)"
[ "$(jget "$SCRATCH/ceiling.json" '.detected.parallelism.plateau_iops.evidence' | grep -c host-bound)" = 0 ] ||
  fail "the plateau's evidence says host-bound"
note "ok   engine ceiling at depth $depth: $ceiling IOPS; the busiest depth reached $best ($share of it): the drive's"

"$SSDPROBE" -q --spin-us 10001 "$dev" > /dev/null 2> "$SCRATCH/range.err"
rc=$?
[ "$rc" = 2 ] || fail "--spin-us 10001 exited $rc, expected 2"
grep -q -- "--spin-us" "$SCRATCH/range.err" || fail "the refusal does not name --spin-us: $(cat "$SCRATCH/range.err")"
note "ok   --spin-us 10001 refused: $(head -1 "$SCRATCH/range.err")"
echo "PASS"
