#!/bin/bash
# A full drive whose writes wait for garbage collection (sim:full-gc-48k):
# the write grid's stalls are named with their counts in the text and the
# JSON (write_probe.grid.stalls, verdict.cautions), and a write unit left
# open asks for a rerun after idling or over other space, never for a
# doubled --budget, which only meets more stalls; the erase block the
# stalls hide is never called ruled out; the SLC cache probe's flat fill
# stops at a third of the 1 GiB drive (issue 38). A drive without stalls
# gets no such line. Seeds 1 to 3, so one lucky draw cannot pass.
#
# Usage: cli_gc_stalls.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-gc.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT

for seed in 1 2 3; do
  doc="$T/gc$seed.json" txt="$T/gc$seed.txt"
  "$SSDPROBE" -q --write --yes --budget 30 --seed "$seed" --json "$doc" sim:full-gc-48k > "$txt" 2> "$T/err" ||
    fail "seed $seed: exited $?"
  jq -e '.write_probe.grid.stalls | .heavy and .stalled >= 20 and .stalled <= .writes
         and .stalled_median_us > 4 * .median_us' "$doc" > /dev/null ||
    fail "seed $seed: stalls not recorded as heavy: $(jq -c .write_probe.grid.stalls "$doc")"
  stalled=$(jq -r .write_probe.grid.stalls.stalled "$doc") writes=$(jq -r .write_probe.grid.stalls.writes "$doc")
  line="the write grid's writes stalled as on a full drive's garbage collection: $stalled of $writes slower than"
  jq -e --arg l "$line" 'any(.verdict.cautions[]; startswith($l))' "$doc" > /dev/null ||
    fail "seed $seed: no stall caution with its counts: $(jq -c .verdict.cautions "$doc")"
  # The text wraps its lines: read it as one line.
  tr -s '\n ' '  ' < "$txt" | grep -qF "$line" || fail "seed $seed: the text does not name the stalls"
  state=$(jq -r .detected.write_unit.state "$doc")
  case "$state" in
    found) jq -e '.detected.write_unit.bytes == 49152' "$doc" > /dev/null ||
             fail "seed $seed: a wrong write unit: $(jq -c .detected.write_unit "$doc")" ;;
    undetermined)
      hint=$(jq -r .detected.write_unit.to_determine "$doc")
      [[ $hint == "rerun after the drive has idled"*"$stalled of $writes"* ]] ||
        fail "seed $seed: the write unit's hint is not the stalls': $hint"
      [[ $hint == *"--budget "[0-9]* ]] && fail "seed $seed: the write unit's hint asks for a budget: $hint"
      grep -E "write unit not determined.*--budget [0-9]" "$txt" && fail "seed $seed: a --budget rerun in the text"
      jq -e '.verdict.first_action.command // "" | test("--budget") | not' "$doc" > /dev/null ||
        fail "seed $seed: the first thing to do asks for a budget: $(jq -c .verdict.first_action "$doc")" ;;
    *) fail "seed $seed: write unit in state $state" ;;
  esac
  # The drive has a 24 MiB erase block its GC waits hide: never ruled out.
  erase=$(jq -c '.detected.erase_block | {state, bytes}' "$doc")
  [[ $erase == '{"state":"undetermined","bytes":null}' || $erase == '{"state":"found","bytes":25165824}' ]] ||
    fail "seed $seed: the erase block the stalls hide: $erase"
  grep -q "no erase block up to" "$txt" && fail "seed $seed: an erase block ruled out among the stalls"
  # A 1 GiB drive: the SLC cache probe's cap is 1.2 GiB (no cache holds more
  # than the drive), but a fill at a flat speed ends once a cache of a third
  # of the drive would have shown (1/3 + 1/15 of 1 GiB, 429,496,729 bytes;
  # it looks every 16 writes or 3 %, whichever is more: 3 % here, of 1 MiB
  # writes); it answers "absent" up to a third, and no rerun asks for more.
  jq -e '.detected.slc_cache | .cap_bytes == 1288490188 and .flat_stop_bytes == 429496729
         and .ended_by == "flat_speed" and .written_bytes >= .flat_stop_bytes
         and .written_bytes <= .flat_stop_bytes * 1.04 and .state == "absent"
         and .searched_up_to_bytes >= 357913941 - 1048576' "$doc" > /dev/null ||
    fail "seed $seed: the SLC fill of a 1 GiB drive: $(jq -c '.detected.slc_cache | del(.curve)' "$doc")"
  jq -e '.detected.slc_cache.evidence | test("at a flat speed past 1/3 of the drive")' "$doc" > /dev/null ||
    fail "seed $seed: the SLC evidence does not say why the fill ended: $(jq -r .detected.slc_cache.evidence "$doc")"
  grep -qE "SLC cache.*--budget [0-9]" "$txt" && fail "seed $seed: an SLC cache rerun with more budget"
done

# The same geometry without stalls: the counts are there, no diagnosis.
"$SSDPROBE" -q --write --yes --budget 30 --json "$T/clean.json" sim:nvme-tlc-16k > "$T/clean.txt" 2> "$T/err" ||
  fail "nvme-tlc-16k exited $?"
jq -e '.write_probe.grid.stalls | .heavy == false and .writes > 0' "$T/clean.json" > /dev/null ||
  fail "stalls on a drive without them: $(jq -c .write_probe.grid.stalls "$T/clean.json")"
grep -q "garbage collection" "$T/clean.txt" && fail "a stall line on a drive without stalls"
echo "ok"
