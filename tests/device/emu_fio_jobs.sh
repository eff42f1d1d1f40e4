#!/bin/bash
# `ssdprobe fio-jobs` against fio on the emulated drive: ssdprobe (read-only)
# characterizes emudrive (16 KiB read page, 4 parallel units of 16 KiB, a
# 200 us read plus 200 us per page touched: the page step stands well above
# the loop + FUSE overhead, and the units give a knee) behind a loop
# device with direct IO, its document is exported as a fio job file, and fio
# runs the job file's read jobs on the same device. Checked:
#  - the straddling / aligned median latency ratio fio measures (lat, from
#    submission: what ssdprobe times) is within TOLERANCE_PCT of the ratio
#    ssdprobe measured for the same cells (the job file's comment);
#  - fio's IOPS at the knee depth (the deepest depth measured when no knee
#    was found: the job is then qd-deepest, and the test says so) is within
#    TOLERANCE_PCT of ssdprobe's at that depth.
# Both numbers and their ratios are printed, so a run's spread can be read
# from the log. A comparison outside the tolerance measures once more (the
# page ratio: ssdprobe and fio both; the knee: fio) and fails only when that
# misses too: on this 2-core host shared with other builds a burst of load
# hits single runs. First
# fio runs measured here (docs/usage.md "Reproducing a run with fio"): load
# 3.5-4: page ratio +1.2, +2.8, +4.8 %, knee IOPS -3.0, -1.6, +3.6 %; load
# 6-8: page -2.8, -3.6, -1.5, +14.0 %, knee/deepest IOPS -7.5, +10.8, -33.0,
# +19.4 %. FIO_TOLERANCE_PCT overrides the 10 %.
# ~25-30 s: ssdprobe --budget 15 (--max-qd 64), then five fio jobs of 3 s.
#
# Usage: emu_fio_jobs.sh SSDPROBE EMUDRIVE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq
require_cmd fio
require_root_loop_fuse
# As in emu_parallelism.sh: the emulated medium must not wait for a CPU
# behind unrelated load.
renice -n -10 -p $$ > /dev/null 2>&1 || note "could not raise the priority; timing may suffer under load"

TOLERANCE_PCT=${FIO_TOLERANCE_PCT:-10}
PAGE=16384
mp="$SCRATCH/mnt"
start_emudrive "$mp" --size 1G --read-page "$PAGE" --base-us 200 --page-us 200 --noise-pct 5 --seed 7 \
  --units 4 --interleave "$PAGE"
dev=$(make_loop "$mp/disk" 4096) || exit 1
echo 2 > "/sys/block/${dev#/dev/}/queue/nomerges" 2>/dev/null || true

# characterize N: ssdprobe's run N ($SCRATCH/run.N.json) and its job file
# ($SCRATCH/run.N.fio).
characterize() {
  local json="$SCRATCH/run.$1.json" t0=$SECONDS
  run_logged "$SCRATCH/run.$1.log" "$SSDPROBE" -q --budget 15 --max-qd 64 --region 0:256M --json "$json" "$dev" ||
    fail "ssdprobe exited $?"
  [ "$(jget "$json" .detected.read_page.bytes)" = "$PAGE" ] ||
    fail "ssdprobe found read page $(jget "$json" .detected.read_page.bytes), not $PAGE: nothing to compare"
  note "ssdprobe: $((SECONDS - t0)) s, knee $(jq -c '.detected.parallelism.queue_depth_knee | [.value, .state]' "$json"), sweep $(jq -c '[.parallelism_probe.queue_depths[]? | [.queue_depth, (.iops | floor)]]' "$json")"
  "$SSDPROBE" -q fio-jobs "$json" --runtime 3 -o "$SCRATCH/run.$1.fio" || fail "fio-jobs exited $?"
}
characterize 1
jobs="$SCRATCH/run.1.fio"
t0=$SECONDS
fio --readonly --output-format=json "$jobs" > "$SCRATCH/fio.json" 2> "$SCRATCH/fio.err" ||
  { cat "$SCRATCH/fio.err" >&2; fail "fio exited $?"; }
note "fio: $((SECONDS - t0)) s"

# fio's median latency (µs, from submission) and IOPS of one job in a fio JSON file.
fio_p50() { jq -r --arg j "$2" '.jobs[] | select(.jobname == $j) | .read.lat_ns.percentile["50.000000"] / 1000' "$1"; }
fio_iops() { jq -r --arg j "$2" '.jobs[] | select(.jobname == $j) | .read.iops' "$1"; }
# within A B: |A / B - 1| <= TOLERANCE_PCT %, and the deviation in %.
within() { awk -v a="$1" -v b="$2" -v t="$TOLERANCE_PCT" 'BEGIN { d = (a / b - 1) * 100; printf "%+.1f %%\n", d; exit !(d <= t && d >= -t) }'; }
# rerun OUT JOBS SECTION...: fio again, only those jobs of the job file JOBS.
rerun() {
  local out="$1" jobfile="$2" args=() s; shift 2
  for s in "$@"; do args+=(--section="$s"); done
  fio --readonly --output-format=json "${args[@]}" "$jobfile" > "$out" 2> "$SCRATCH/fio.err" ||
    { cat "$SCRATCH/fio.err" >&2; fail "fio exited $?"; }
}

failures=0
# ssd_ratio_of JOBS: the straddling / aligned ratio ssdprobe measured, from the job file's comment.
ssd_ratio_of() {
  local r
  r=$(sed -n 's/^# ssdprobe.s straddling \/ aligned median ratio: \([0-9.]*\)$/\1/p' "$1")
  [ -n "$r" ] || fail "the job file names no straddling / aligned ratio: $(cat "$1")"
  echo "$r"
}
ssd_ratio=$(ssd_ratio_of "$jobs") || exit 1
# page FIO_JSON: compares the ratio with ssd_ratio; says how it went.
page() {
  local aligned straddle fio_ratio dev_pct
  aligned=$(fio_p50 "$1" read-aligned) straddle=$(fio_p50 "$1" read-straddle)
  fio_ratio=$(awk -v s="$straddle" -v a="$aligned" 'BEGIN { printf "%.3f", s / a }')
  dev_pct=$(within "$fio_ratio" "$ssd_ratio")
  local rc=$?
  note "$([ $rc = 0 ] && echo ok || echo miss) page: fio straddle/aligned $straddle/$aligned us = $fio_ratio," \
    "ssdprobe $ssd_ratio ($dev_pct)"
  return $rc
}
# Both latencies carry the host's loop + FUSE overhead, which load changes:
# a burst during either run moves the ratio (stop 46's CI: fio 1.19 twice
# against ssdprobe's 1.377). The second chance measures both again.
if ! page "$SCRATCH/fio.json"; then
  note "     outside $TOLERANCE_PCT %: ssdprobe and fio's two page jobs once more (a burst of host load hits one run)"
  characterize 2
  ssd_ratio=$(ssd_ratio_of "$SCRATCH/run.2.fio") || exit 1
  rerun "$SCRATCH/fio-page.json" "$SCRATCH/run.2.fio" read-aligned read-straddle
  page "$SCRATCH/fio-page.json" || failures=$((failures + 1))
fi

centre=qd-knee
grep -q '^\[qd-knee\]$' "$jobs" || centre=qd-deepest
grep -q "^\[$centre\]$" "$jobs" || fail "the job file has no queue-depth job: $(grep '^# left out' "$jobs")"
[ "$centre" = qd-knee ] || note "no knee found: comparing the deepest depth measured instead"
depth_of() { awk -v j="[$1]" '$0 == j { on = 1 } on && /^iodepth=/ { sub("iodepth=", ""); print; exit }' "$jobs"; }
ssd_iops_at() { jq -r --argjson d "$1" '.parallelism_probe.queue_depths[] | select(.queue_depth == $d) | .iops' "$SCRATCH/run.1.json"; }
depth=$(depth_of "$centre")
ssd_iops=$(ssd_iops_at "$depth")
# knee FIO_JSON: compares the IOPS at the centre depth.
knee() {
  local got dev_pct
  got=$(fio_iops "$1" "$centre")
  dev_pct=$(within "$got" "$ssd_iops")
  local rc=$?
  note "$([ $rc = 0 ] && echo ok || echo miss) $centre (depth $depth): fio $got IOPS, ssdprobe $ssd_iops ($dev_pct)"
  return $rc
}
if ! knee "$SCRATCH/fio.json"; then
  note "     outside $TOLERANCE_PCT %: fio once more for this job"
  rerun "$SCRATCH/fio-knee.json" "$jobs" "$centre"
  knee "$SCRATCH/fio-knee.json" || failures=$((failures + 1))
fi
for j in qd-below qd-above; do
  grep -q "^\[$j\]$" "$jobs" || continue
  d=$(depth_of "$j")
  note "     $j (depth $d): fio $(fio_iops "$SCRATCH/fio.json" "$j") IOPS, ssdprobe $(ssd_iops_at "$d") (not checked)"
done

[ "$failures" = 0 ] || fail "$failures of 2 comparisons outside $TOLERANCE_PCT % twice"
echo "PASS"
