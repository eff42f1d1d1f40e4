#!/bin/bash
# `ssdprobe fio-jobs` against fio on the emulated drive: ssdprobe (read-only)
# characterizes emudrive (16 KiB read page, 4 parallel units) behind a loop
# device with direct IO, its document is exported as a fio job file, and fio
# runs the job file's read jobs on the same device. Checked:
#  - the straddling / aligned median latency ratio fio measures (lat, from
#    submission: what ssdprobe times) is within TOLERANCE_PCT of the ratio
#    ssdprobe measured for the same cells (the job file's comment);
#  - fio's IOPS at the knee depth (the deepest depth measured when no knee
#    was found: the job is then qd-deepest, and the test says so) is within
#    TOLERANCE_PCT of ssdprobe's at that depth.
# Both numbers and their ratios are printed, so a run's spread can be read
# from the log (docs/usage.md "Reproducing a run with fio" has the spread of
# three runs on a 2-core machine). FIO_TOLERANCE_PCT overrides the 10 %.
# ~40 s: ssdprobe --budget 12, then five fio jobs of 3 s.
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

t0=$SECONDS
run_logged "$SCRATCH/run.log" "$SSDPROBE" -q --budget 15 --max-qd 64 --region 0:256M --json "$SCRATCH/run.json" "$dev" ||
  fail "ssdprobe exited $?"
[ "$(jget "$SCRATCH/run.json" .detected.read_page.bytes)" = "$PAGE" ] ||
  fail "ssdprobe found read page $(jget "$SCRATCH/run.json" .detected.read_page.bytes), not $PAGE: nothing to compare"
note "ssdprobe: $((SECONDS - t0)) s, knee $(jq -c '.detected.parallelism.queue_depth_knee | [.value, .state]' "$SCRATCH/run.json"), sweep $(jq -c '[.parallelism_probe.queue_depths[]? | [.queue_depth, (.iops | floor)]]' "$SCRATCH/run.json")"

jobs="$SCRATCH/run.fio"
"$SSDPROBE" -q fio-jobs "$SCRATCH/run.json" --runtime 3 -o "$jobs" || fail "fio-jobs exited $?"
t0=$SECONDS
fio --readonly --output-format=json "$jobs" > "$SCRATCH/fio.json" 2> "$SCRATCH/fio.err" ||
  { cat "$SCRATCH/fio.err" >&2; fail "fio exited $?"; }
note "fio: $((SECONDS - t0)) s"

# fio's median latency (µs, from submission) and IOPS of one job.
fio_p50() { jq -r --arg j "$1" '.jobs[] | select(.jobname == $j) | .read.lat_ns.percentile["50.000000"] / 1000' "$SCRATCH/fio.json"; }
fio_iops() { jq -r --arg j "$1" '.jobs[] | select(.jobname == $j) | .read.iops' "$SCRATCH/fio.json"; }
# within A B: |A / B - 1| <= TOLERANCE_PCT %, and the deviation in %.
within() { awk -v a="$1" -v b="$2" -v t="$TOLERANCE_PCT" 'BEGIN { d = (a / b - 1) * 100; printf "%+.1f %%\n", d; exit !(d <= t && d >= -t) }'; }

failures=0
ssd_ratio=$(sed -n 's/^# ssdprobe.s straddling \/ aligned median ratio: \([0-9.]*\)$/\1/p' "$jobs")
[ -n "$ssd_ratio" ] || fail "the job file names no straddling / aligned ratio: $(cat "$jobs")"
aligned=$(fio_p50 read-aligned) straddle=$(fio_p50 read-straddle)
fio_ratio=$(awk -v s="$straddle" -v a="$aligned" 'BEGIN { printf "%.3f", s / a }')
if dev_pct=$(within "$fio_ratio" "$ssd_ratio"); then
  note "ok   page: fio straddle/aligned $straddle/$aligned us = $fio_ratio, ssdprobe $ssd_ratio ($dev_pct)"
else
  echo "FAIL: page: fio straddle/aligned $straddle/$aligned us = $fio_ratio, ssdprobe $ssd_ratio ($dev_pct, more than $TOLERANCE_PCT %)"
  failures=$((failures + 1))
fi

centre=qd-knee
grep -q '^\[qd-knee\]$' "$jobs" || centre=qd-deepest
grep -q "^\[$centre\]$" "$jobs" || fail "the job file has no queue-depth job: $(grep '^# left out' "$jobs")"
[ "$centre" = qd-knee ] || note "no knee found: comparing the deepest depth measured instead"
depth=$(awk -v j="[$centre]" '$0 == j { on = 1 } on && /^iodepth=/ { sub("iodepth=", ""); print; exit }' "$jobs")
ssd_iops=$(jq -r --argjson d "$depth" '.parallelism_probe.queue_depths[] | select(.queue_depth == $d) | .iops' "$SCRATCH/run.json")
got_iops=$(fio_iops "$centre")
if dev_pct=$(within "$got_iops" "$ssd_iops"); then
  note "ok   $centre (depth $depth): fio $got_iops IOPS, ssdprobe $ssd_iops ($dev_pct)"
else
  echo "FAIL: $centre (depth $depth): fio $got_iops IOPS, ssdprobe $ssd_iops ($dev_pct, more than $TOLERANCE_PCT %)"
  failures=$((failures + 1))
fi
for j in qd-below qd-above; do
  grep -q "^\[$j\]$" "$jobs" || continue
  d=$(awk -v j="[$j]" '$0 == j { on = 1 } on && /^iodepth=/ { sub("iodepth=", ""); print; exit }' "$jobs")
  note "     $j (depth $d): fio $(fio_iops "$j") IOPS, ssdprobe $(jq -r --argjson d "$d" '.parallelism_probe.queue_depths[] | select(.queue_depth == $d) | .iops' "$SCRATCH/run.json") (not checked)"
done

[ "$failures" = 0 ] || fail "$failures of 2 comparisons outside $TOLERANCE_PCT %"
echo "PASS"
