#!/bin/bash
# `ssdprobe compare --baseline`: runs of one drive, put in the order they
# ran, each compared with the one before:
#  - two runs of one simulated drive (different seeds): no change;
#  - a later run whose firmware, read page and aligned 4 KiB read latency
#    changed (the document edited as a firmware update would change it):
#    each named as changed, the latency with its ratio and standard errors,
#    a 2 % latency shift not called a change;
#  - a directory of three runs given in any order: two steps, in time order;
#  - --json: the same, as an ssdprobe-baseline/1 document;
#  - runs of two drives, one document, or --baseline with --csv: exit 2
#    naming the problem; a hostile model string is printed escaped.
#
# Usage: compare_baseline.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$T"' EXIT

for seed in 1 2; do
  "$SSDPROBE" -q --budget 3 --seed "$seed" --json "$T/run$seed.json" sim:nvme-tlc-16k > /dev/null ||
    fail "sim run $seed exited $?"
done
# The second run a day later.
jq '.started_at = "2099-01-02T00:00:00Z"' "$T/run2.json" > "$T/later.json"
out=$("$SSDPROBE" compare --baseline "$T/run1.json" "$T/later.json") || fail "compare --baseline exited $?"
grep -q "No change between the runs." <<< "$out" || fail "two runs of one drive differ: $out"

# A firmware update: new revision, a 32 KiB read page, 4 KiB reads at offset
# 0 half as slow again, 16 KiB reads 2 % slower (within what is no change).
cell='(.grids[0].sizes | index(S)) as $s | (.grids[0].offsets | index(0)) as $o'
jq ".started_at = \"2099-02-01T00:00:00Z\" | .target.firmware = \"NEWFW\"
    | .detected.read_page.bytes = 32768
    | ($(sed s/S/4096/g <<< "$cell") | .grids[0].median_us[\$s][\$o] *= 1.5
        | .grids[0].p10_us[\$s][\$o] *= 1.5 | .grids[0].p90_us[\$s][\$o] *= 1.5)
    | ($(sed s/S/16384/g <<< "$cell") | .grids[0].median_us[\$s][\$o] *= 1.02)" "$T/later.json" > "$T/updated.json" ||
  fail "editing the document failed"
out=$("$SSDPROBE" compare --baseline "$T/updated.json" "$T/run1.json") || fail "compare --baseline exited $?"
grep -q "changed: firmware: .* -> NEWFW" <<< "$out" || fail "the firmware change is not named: $out"
grep -q "changed: read page: 16 KiB (found, .*) -> 32 KiB (found" <<< "$out" || fail "the read page change: $out"
grep -qE "changed: 4 KiB read at offset 0 \(median\): [0-9.]+ us -> [0-9.]+ us \(1\.[45][0-9]x, [0-9.]+ standard errors\)" \
  <<< "$out" || fail "the 4 KiB latency change: $out"
grep -q "changed: 16 KiB read" <<< "$out" && fail "a 2 % shift called a change: $out"
grep -q "not compared: .*write unit (measured in neither run)" <<< "$out" || fail "read-only runs' write unit: $out"

# A directory of three runs, in any order: two steps, oldest first.
mkdir "$T/dir"
cp "$T/updated.json" "$T/dir/a.json"; cp "$T/run1.json" "$T/dir/b.json"; cp "$T/later.json" "$T/dir/c.json"
"$SSDPROBE" compare --baseline "$T/dir" --json "$T/baseline.json" -q || fail "--json exited $?"
[ "$(head -n 2 "$T/baseline.json" | tr -d ' \n')" = '{"schema":"ssdprobe-baseline/1",' ] ||
  fail "the JSON does not start with its schema: $(head -c 80 "$T/baseline.json")"
jq -e '(.steps | length) == 2 and .steps[0].old == "'"$T"'/dir/b.json" and .steps[1].new == "'"$T"'/dir/a.json"
       and ([.steps[1].items[] | select(.changed) | .what] | index("firmware") != null)
       and ([.steps[0].items[] | select(.changed)] | length) == 0' "$T/baseline.json" > /dev/null ||
  fail "the steps are not in time order with the changes in the last: $(jq -c '[.steps[] | [.old, .new, [.items[] | select(.changed) | .what]]]' "$T/baseline.json")"
# The door: --json again over its own kind of file is allowed; inside the
# directory it compares, it is skipped as no result document.
"$SSDPROBE" compare --baseline "$T/dir" --json "$T/baseline.json" -q || fail "--json over its own file exited $?"
"$SSDPROBE" compare --baseline "$T/dir" --json "$T/dir/own.json" -q 2> /dev/null || fail "--json into DIR exited $?"
"$SSDPROBE" compare --baseline "$T/dir" > /dev/null 2> "$T/err" || fail "DIR with its own --json exited $?"
grep -q "own.json: not a result document: skipped" "$T/err" || fail "its own output not skipped: $(cat "$T/err")"

# Refusals: two drives, one document, --csv.
jq '.target.serial = "OTHER"' "$T/run2.json" > "$T/other.json"
"$SSDPROBE" compare --baseline "$T/run1.json" "$T/other.json" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "runs of one drive" "$T/err" || fail "two drives: exit $rc, $(cat "$T/err")"
"$SSDPROBE" compare --baseline "$T/run1.json" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "two or more runs" "$T/err" || fail "one document: exit $rc, $(cat "$T/err")"
"$SSDPROBE" compare --baseline "$T/run1.json" "$T/missing.json" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q "missing.json" "$T/err" || fail "a missing run: exit $rc, $(cat "$T/err")"
"$SSDPROBE" compare --baseline --csv - "$T/run1.json" "$T/later.json" > /dev/null 2> "$T/err"
rc=$?
[ "$rc" = 2 ] && grep -q -- "--baseline is written as text or JSON" "$T/err" || fail "--csv: exit $rc, $(cat "$T/err")"

# A hostile model string: escaped in the text.
for f in run1 later; do jq '.target.model = "evil\u001b[2Jmodel"' "$T/$f.json" > "$T/hostile-$f.json"; done
out=$("$SSDPROBE" compare --baseline "$T/hostile-run1.json" "$T/hostile-later.json") || fail "hostile model: exit $?"
grep -q $'\x1b' <<< "$out" && fail "an escape character reached the terminal: $out"
echo "PASS"
