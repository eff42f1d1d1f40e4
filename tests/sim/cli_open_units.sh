#!/bin/bash
# How many write streams a drive keeps open, through a whole --write run:
# the sims that keep 2, 4 and 7 erase blocks open get detected.open_units
# found at exactly that, with the f2fs active logs and the files to write at
# once in the recommendations and the answer in the text; drives without
# the limit (nvme-tlc-16k, sata-mlc-8k) get "none up to N" and no advice.
# The question states the probe's byte bound, --max-write-bytes too small
# for it skips the phase with the reason, and a read-only run says it was
# not measured. Prints each run's truth, answer, wall time and bytes.
#
# Usage: cli_open_units.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-open.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT

# One --write run; prints "NAME truth TRUTH: answer ..., wall S s, written B".
run() {
  local sim=$1 seed=$2 truth=$3
  doc="$T/$sim-$seed.json" txt="$T/$sim-$seed.txt"
  "$SSDPROBE" -q --write --yes --budget 30 --seed "$seed" --json "$doc" "sim:$sim" > "$txt" 2> "$T/err" ||
    fail "$sim seed $seed: exited $?: $(cat "$T/err")"
  jq -e '.phases[] | select(.name == "open_units") | .state == "done"' "$doc" > /dev/null ||
    fail "$sim seed $seed: open_units phase: $(jq -c '.phases[] | select(.name == "open_units")' "$doc")"
  echo "$sim seed $seed truth $truth: $(jq -r '.detected.open_units | "\(.state) \(.streams)..\(.at_most)
    up to \(.searched_up_to_streams), \(.written_bytes) B written, \(.device_time_s) s device"' "$doc" | tr -s '\n ' '  '),
    run wall $(jq -r .duration_s "$doc") s, write_probe.bytes_written $(jq -r .write_probe.bytes_written "$doc")"
}

for sim_open in sd-open2:2 usb-open4:4 emmc-open7:7; do
  sim=${sim_open%:*} open=${sim_open#*:}
  for seed in 1 2; do
    run "$sim" "$seed" "$open"
    jq -e --argjson k "$open" '.detected.open_units | .state == "found" and .streams == $k and .at_most == $k
                               and .stretch_from == "erase_block" and .confidence > 0.99' "$doc" > /dev/null ||
      fail "$sim seed $seed: not $open: $(jq -c '.detected.open_units | del(.steps)' "$doc")"
    jq -e --argjson k "$open" 'any(.recommendations.notes[]; test("write at most \($k) files"))' "$doc" > /dev/null ||
      fail "$sim seed $seed: no advice on files at once: $(jq -c .recommendations.notes "$doc")"
    logs=$(( open >= 6 ? 6 : open >= 4 ? 4 : 2 ))
    jq -e --arg m "mount -t f2fs -o active_logs=$logs PARTITION MOUNTPOINT" \
      'any(.recommendations.notes[]; contains($m))' "$doc" > /dev/null ||
      fail "$sim seed $seed: no f2fs active_logs=$logs: $(jq -c .recommendations.notes "$doc")"
    tr -s '\n ' '  ' < "$txt" | grep -qF "open units: $open streams:" || fail "$sim seed $seed: the text has no answer"
  done
done

for sim in nvme-tlc-16k sata-mlc-8k; do
  run "$sim" 1 none
  jq -e '.detected.open_units | .state == "absent" and .streams == null and .searched_up_to_streams >= 8' "$doc" \
    > /dev/null || fail "$sim: a limit where there is none: $(jq -c '.detected.open_units | del(.steps)' "$doc")"
  jq -e 'all(.recommendations.notes[]; test("active_logs") | not)' "$doc" > /dev/null || fail "$sim: f2fs advice"
  tr -s '\n ' '  ' < "$txt" | grep -qF "open units: none up to" || fail "$sim: the text has no bound"
done

# The question names the probe's bound; a cap without room for it skips it.
"$SSDPROBE" --write --yes --budget 10 --json "$T/q.json" sim:sd-open2 > /dev/null 2> "$T/question" ||
  fail "question run exited $?"
grep -qF "open-units probe <= 128 MiB" "$T/question" || fail "the question does not state the bound: $(cat "$T/question")"
# Before the open-units probe (no cache probe, no restore on a sim): 1 GiB grid + 512 MiB stream + 384 MiB
# parallelism = 1920 MiB, leaving 80 MiB of 2000M: less than the probe's 128 MiB.
"$SSDPROBE" -q --write --yes --budget 10 --cache-bytes 0 --max-write-bytes 2000M --json "$T/cap.json" sim:sd-open2 \
  > /dev/null 2>&1 || fail "capped run exited $?"
jq -e '.phases[] | select(.name == "open_units") | .state == "skipped" and (.reason | test("open-units probe skipped"))' \
  "$T/cap.json" > /dev/null || fail "the cap did not skip the phase: $(jq -c '.phases[] | select(.name == "open_units")' "$T/cap.json")"
jq -e '.detected.open_units.state == "not_measured" and .detected.open_units.written_bytes == null' "$T/cap.json" \
  > /dev/null || fail "a skipped phase left an answer: $(jq -c .detected.open_units "$T/cap.json")"

"$SSDPROBE" -q --budget 5 --json "$T/ro.json" sim:sd-open2 > /dev/null 2>&1 || fail "read-only run exited $?"
jq -e '.detected.open_units | .state == "not_measured" and (.evidence | test("--write"))' "$T/ro.json" > /dev/null ||
  fail "read-only: $(jq -c .detected.open_units "$T/ro.json")"
echo "PASS"
