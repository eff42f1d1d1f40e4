#!/bin/bash
# Tests whose plateau the parallelism probe reports on a target whose every
# read is work for the host's CPUs: a file on tmpfs, where an O_DIRECT read
# is a copy from memory done by the process's own threads. The process
# keeps a CPU busy at every depth, far below the engine's ceiling, so the
# plateau is suspect (engine_ceiling.host_busy >= 0.9) and the busiest depth
# is timed again over one ring per usable CPU. When those serve 10 % more,
# the knee and the plateau are withdrawn as the host's, with the numbers in
# their evidence and the report, and so they are when one ring's kernel
# workers already kept that many CPUs busy; otherwise the plateau stands
# and says so.
# Pinned to one CPU the rings cannot be tried, and the plateau is withdrawn.
#
# Usage: host_bound.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq taskset
[ "$(id -u)" = 0 ] || skip "needs root (mounts a tmpfs)"
scratch_mount_point
mount -t tmpfs -o size=80m ssdprobe-host-bound "$MNT" || skip "cannot mount a tmpfs"
file="$MNT/disk"
random_file "$file" $((64 << 20))
dd if="$file" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
  skip "tmpfs has no O_DIRECT on this kernel (Linux 6.6 added it)"

# run_on NAME [PREFIX...]: a read-only run of the file, its JSON in
# $SCRATCH/NAME.json and its report in $SCRATCH/NAME.txt.
run_on() {
  local name="$1"; shift
  "$@" "$SSDPROBE" --budget 3 --engine uring --json "$SCRATCH/$name.json" "$file" > "$SCRATCH/$name.txt" \
    2> "$SCRATCH/$name.err" || { cat "$SCRATCH/$name.err" >&2; fail "$name: ssdprobe exited with $?"; }
}

# check_withdrawn NAME WORDS: the knee and the plateau undetermined, their
# evidence saying host-bound and WORDS.
check_withdrawn() {
  local name="$1" words="$2" key
  for key in queue_depth_knee plateau_iops; do
    [ "$(jget "$SCRATCH/$name.json" ".detected.parallelism.$key.state")" = undetermined ] ||
      fail "$name: $key is $(jget "$SCRATCH/$name.json" ".detected.parallelism.$key.state"), not withdrawn"
    jget "$SCRATCH/$name.json" ".detected.parallelism.$key.evidence" | grep -q "host-bound: .*$words" ||
      fail "$name: $key evidence: $(jget "$SCRATCH/$name.json" ".detected.parallelism.$key.evidence")"
  done
  tr '\n' ' ' < "$SCRATCH/$name.txt" | tr -s ' ' | grep -q "host-bound" ||
    fail "$name: the report does not say host-bound"
}

run_on spread
ceiling=".parallelism_probe.engine_ceiling"
read -r busy suspected share depth < <(jq -r "$ceiling | \"\(.host_busy) \(.suspected) \(.plateau_share) \(.queue_depth)\"" \
  "$SCRATCH/spread.json")
awk -v b="$busy" 'BEGIN { exit !(b >= 0.9) }' || fail "the process was busy $busy of the time at depth $depth, not >= 0.9"
[ "$suspected" = true ] || fail "busy $busy at the busiest depth, but the plateau was not suspect"
note "ok   busiest depth $depth: the process kept a CPU busy $busy of the time, at $share of the engine's ceiling"

cpus=$(nproc)
if [ "$cpus" -ge 2 ]; then
  read -r timed rings gain one many bound < <(jq -r "$ceiling | \"\(.more_rings.timed) \(.more_rings.rings) \
\(.more_rings.gain) \(.more_rings.one_ring_iops) \(.more_rings.iops) \(.host_bound)\"" "$SCRATCH/spread.json")
  expected=$(( cpus < 8 ? cpus : 8 ))
  [ "$timed" = true ] && [ "$rings" = "$expected" ] || fail "more rings: timed $timed, $rings rings (expected $expected)"
  awk -v o="$one" -v m="$many" -v g="$gain" 'BEGIN { exit !(o > 0 && m > 0 && (m / o - 1 - g) ^ 2 < 1e-4) }' ||
    fail "more rings: one ring $one IOPS, $rings rings $many, gain $gain"
  if awk -v g="$gain" 'BEGIN { exit !(g >= 0.10) }'; then
    [ "$bound" = true ] || fail "$rings rings gained $gain, yet not host-bound"
    check_withdrawn spread "with $rings rings on $rings cores"
    note "ok   $rings rings: $many IOPS against $one on one ring (gain $gain): host-bound, knee and plateau withdrawn"
  elif awk -v b="$busy" -v r="$rings" 'BEGIN { exit !(b >= 0.9 * r) }'; then
    # The ring's kernel workers already kept every CPU the rings had busy.
    [ "$bound" = true ] || fail "one ring kept $busy CPUs busy and $rings rings gained $gain, yet not host-bound"
    check_withdrawn spread "one ring already kept [0-9.]* CPUs busy"
    note "ok   one ring kept $busy CPUs busy, $rings rings gained $gain: host-bound, knee and plateau withdrawn"
  else
    [ "$bound" = false ] || fail "$rings rings gained only $gain, yet host-bound"
    jget "$SCRATCH/spread.json" ".detected.parallelism.plateau_iops.evidence" | grep -q "not one core's limit" ||
      fail "the plateau stands without saying why"
    note "ok   $rings rings: $many IOPS against $one (gain $gain): the plateau is not one core's limit"
  fi
  # The rings' reads are the run's own, counted in the probe's IOs.
  swept=$(jq '[.parallelism_probe.queue_depths[].ios] | add' "$SCRATCH/spread.json")
  [ "$(jget "$SCRATCH/spread.json" '.parallelism_probe.ios')" -gt "$swept" ] ||
    fail "the probe's IOs do not include the rings' reads ($swept swept)"
else
  note "skip the many-ring run: this machine has one CPU"
fi

first_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[-,].*//')
run_on pinned taskset -c "$first_cpu"
[ "$(jget "$SCRATCH/pinned.json" "$ceiling.more_rings.not_timed_because")" = "this process may run on one CPU only" ] ||
  fail "pinned to CPU $first_cpu: more_rings is $(jq -c "$ceiling.more_rings" "$SCRATCH/pinned.json")"
[ "$(jget "$SCRATCH/pinned.json" "$ceiling.host_bound")" = true ] || fail "pinned: a suspect plateau stood untried"
check_withdrawn pinned "could not be tried"
note "ok   pinned to CPU $first_cpu: more rings not tried, plateau withdrawn"
echo "PASS"
