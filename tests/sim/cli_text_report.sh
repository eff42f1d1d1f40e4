#!/bin/bash
# The text report as a reader checks it: a one-line verdict first (the JSON's
# verdict.summary, never folded); sizes and
# ranges in human units (no raw byte counts outside the commands); reported
# values beside the unit they should describe; confidence as in the JSON,
# named; steps numbered in the order they run; folded to COLUMNS; info says
# its recommendations are defaults; a missed erase block says how to widen the
# window; a read page found on freshly written space says so; "1 round";
# the first look.
#
# Usage: cli_text_report.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-text.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT
commands='^     (parted|sfdisk|sgdisk|mdadm|pvcreate|vgcreate|lvcreate|mkfs_[a-z0-9_]+) '

# sim:qlc-16k-iu: a 48 MiB erase block, beyond what the default 256 MiB window can show.
COLUMNS=72 "$SSDPROBE" -q --write --yes --json "$T/q.json" sim:qlc-16k-iu > "$T/q.txt" 2> "$T/q.err" ||
  fail "qlc run exited $?"
first=$(head -n 1 "$T/q.txt")
[ "$first" = "OK: nothing to change" ] || fail "status line: $first"
# The first line is the JSON's verdict.summary, word for word (never folded),
# and the lines under it verdict.lines: at most three, none past 100 columns.
[ "$first" = "$(jq -r .verdict.summary "$T/q.json")" ] || fail "first line is not verdict.summary: $first"
lines=$(jq -r '.verdict.lines | length' "$T/q.json")
[ "$lines" -le 3 ] || fail "$lines lines under the status line"
[ "$(sed -n "2,$((lines + 1))p" "$T/q.txt")" = "$(jq -r '.verdict.lines[] | "  " + .' "$T/q.json")" ] ||
  fail "the lines under the status line are not verdict.lines: $(head -n 4 "$T/q.txt")"
head -n "$((lines + 1))" "$T/q.txt" | awk 'length > 100 { bad = 1; print } END { exit bad }' || fail "a summary line past 100 columns"
sed -n 2p "$T/q.txt" | grep -qx "  advice: partitions at multiples of 1 MiB, 128 KiB blocks (ZFS ashift 16, the largest it takes)" ||
  fail "the advice does not say what blocks a 128 KiB write unit wants: $(sed -n 2p "$T/q.txt")"
sed -n 3p "$T/q.txt" | grep -Eqx "  units: read page 32 KiB, write unit 128 KiB, no erase block up to [0-9.]+ MiB(, no SLC cache up to [0-9.]+ GiB)?" ||
  fail "units line: $(sed -n 3p "$T/q.txt")"
# A fill that saw no drop is a lower bound, not a hedge on the write unit.
grep -q "may be the cache.s unit" "$T/q.txt" && fail "a cache-less write unit is hedged: $(grep -m1 'cache.s unit' "$T/q.txt")"
tr "\n" " " < "$T/q.txt" | tr -s " " | grep -q "the kernel under-reports minimum_io_size: 4 KiB against 128 KiB measured" ||
  fail "the verdict's detail does not say what the kernel under-reports"
grep -q "suit this drive" "$T/q.txt" && fail "the verdict calls the defaults right with a 128 KiB write unit"
# Open units need the erase block: with none found, not determined.
states=$(jq -r '.verdict.units | map(.unit + "=" + .state) | join(",")' "$T/q.json")
[ "$states" = "read_page=found,write_unit=found,erase_block=ruled_out,slc_cache=ruled_out,open_units=not_determined" ] ||
  fail "verdict.units states: $states"
# Running text folds (tables keep their columns): the verdict's detail lines,
# evidence, mismatches, recommendation notes, run summary.
long=$(awk '/^$/ {past = 1} past && /^(  - |Evidence|Mismatches|Recommendation|Run:|Writes:)/ {on = 1} /^$/ {on = 0} on' "$T/q.txt" |
       grep -Ev "$commands" | awk 'length($0) > 72')
[ -z "$long" ] || fail "COLUMNS=72: lines over 72 columns: $long"
grep -q "^Evidence" "$T/q.txt" && grep -q "^Mismatches" "$T/q.txt" || fail "no Evidence or Mismatches section"
raw=$(grep -Ev "$commands" "$T/q.txt" | grep -E '[0-9]{8,}')
[ -z "$raw" ] || fail "raw byte counts in the text: $raw"
grep -Eq '^Writes: [0-9.]+ [MG]iB written inside 32640 to 32896 MiB \(256 MiB\)' "$T/q.txt" ||
  fail "the write range is not readable: $(grep -A1 '^Writes' "$T/q.txt")"
for pair in "physical_block_size:read page" "minimum_io_size:write unit" "optimal_io_size:erase block"; do
  grep -q "^  ${pair%%:*} .*${pair#*:}" "$T/q.txt" || fail "${pair%%:*} is not beside the ${pair#*:}"
done
want=$(jq -r '.detected.read_page.confidence' "$T/q.json" | xargs printf '%.3f')
grep -q "read page 32 KiB (confidence $want, bootstrap support)" "$T/q.txt" ||
  fail "read page confidence is not the JSON's $want, named: $(grep -m1 'read page 32 KiB' "$T/q.txt")"
text_keys=$(grep -Eo "$commands" "$T/q.txt" | awk '{print $1}' | paste -sd,)
json_keys=$(jq -r '.recommendations.steps | map(.key) | join(",")' "$T/q.json")
[ "$text_keys" = "$json_keys" ] || fail "steps shown as $text_keys, run order $json_keys"
grep -q '^  1\. ' "$T/q.txt" && grep -q '^  2\. ' "$T/q.txt" || fail "steps are not numbered"
hint=$(tr '\n' ' ' < "$T/q.txt" | tr -s ' ' | grep -o -- '--write --region [0-9A-Z]*:[0-9A-Z]*') || fail "no --region hint for the missed erase block"
length=$(jq -r '.write_probe.region.length' "$T/q.json")
[ "${hint##*:}" = "$((4 * length / 1073741824))G" ] || fail "hint $hint is not 4x the $length B window"

# sim:fresh-16k: the page shows only on the space --write wrote.
"$SSDPROBE" -q --write --yes sim:fresh-16k > "$T/f.txt" 2> "$T/f.err" || fail "fresh run exited $?"
grep -q "read page: measured on freshly written space (grid read-written)" "$T/f.txt" ||
  fail "the re-read on written space is not shown: $(grep -A2 '^Evidence' "$T/f.txt")"
grep -q "^  - read page 16 KiB (on freshly written space) (found" "$T/f.txt" || fail "verdict: $(head -n 8 "$T/f.txt")"

# info measures nothing: its recommendation is the defaults, said so.
"$SSDPROBE" -q info sim:clean-4k > "$T/i.txt" || fail "info exited $?"
head -n 1 "$T/i.txt" | grep -q "^INCONCLUSIVE: nothing measured" || fail "info verdict: $(head -n 1 "$T/i.txt")"
grep -A1 "^Recommendation" "$T/i.txt" | grep -q "^  defaults, not measurements" ||
  fail "info does not say its recommendation is the defaults"
grep -q "suit this drive" "$T/i.txt" && fail "info, which measured nothing, calls the defaults right for the drive"
COLUMNS=80 "$SSDPROBE" -q info sim:clean-4k | awk 'NR > 1 && length > 80 && !/^     [a-z_]+ +[a-z]/ { bad = 1; print } END { exit bad }' ||
  fail "info folds no line past 80 columns except commands and the verdict line"

# A budget too small for a second round stops after the first: "1 round"
# (at --qd 2, where there is no first look).
"$SSDPROBE" -q --qd 2 --budget 0.001 sim:clean-4k > "$T/r.txt" || fail "one-round run exited $?"
grep -q "read grid: 1 round (budget)" "$T/r.txt" || fail "one round: $(grep -A1 '^Run' "$T/r.txt")"
# At queue depth 1 the first look's round comes first, and the grid still
# gets its first round over every cell, past the budget: the heat map has
# no empty cell, and a look that confirmed nothing settles nothing.
"$SSDPROBE" -q --budget 0.001 --json "$T/r.json" sim:clean-4k > "$T/r.txt" || fail "look-and-round run exited $?"
grep -q "read grid: 2 rounds (budget)" "$T/r.txt" || fail "look and round: $(grep -A1 '^Run' "$T/r.txt")"
[ "$(jq '[.grids[0].samples[][] | select(. < 3)] | length' "$T/r.json")" = 0 ] ||
  fail "a cell of the budget-starved grid has fewer than 3 samples"
# A page named by the first look says after how many reads.
"$SSDPROBE" -q sim:nvme-4kn-32k > "$T/r.txt" || fail "nvme-4kn-32k exited $?"
grep -A1 "^Run" "$T/r.txt" | tr '\n' ' ' | tr -s ' ' | grep -q "a first look named 32 KiB after 90 reads of 8 KiB" ||
  fail "no first look in the run line: $(grep -A1 '^Run' "$T/r.txt")"
echo "PASS"
