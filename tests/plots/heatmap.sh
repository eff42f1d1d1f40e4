#!/bin/bash
# Tests that plots/heatmap draws a real PNG from a result document's grid, that the matrix behind it holds the document's medians (sizes as rows, offsets as columns), and that unusable input is refused with exit 3.
#
# Usage: heatmap.sh SSDPROBE HEATMAP
set -u
SSDPROBE="${1:-}" HEATMAP="${2:-}"
[ -x "$SSDPROBE" ] && [ -x "$HEATMAP" ] || { echo "FAIL: usage: $0 SSDPROBE HEATMAP" >&2; exit 1; }
for c in gnuplot jq; do command -v "$c" >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$SSDPROBE" -q --json "$T/r.json" sim:multiplane-16k > /dev/null || fail "ssdprobe run failed"
"$HEATMAP" "$T/r.json" "$T/read.png" > /dev/null || fail "heatmap exited $?"
[ "$(head -c 8 "$T/read.png" | od -A n -t x1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "read.png is not a PNG"
[ "$(stat -c %s "$T/read.png")" -gt 10000 ] || fail "read.png is suspiciously small"

# The matrix: a header line, then one row per size, each with every offset.
rows=$(($(wc -l < "$T/read.png.dat") - 1))
[ "$rows" = "$(jq '.grids[0].sizes | length' "$T/r.json")" ] || fail "matrix has $rows rows"
cols=$(awk 'NR == 2 { print NF - 1 }' "$T/read.png.dat")
[ "$cols" = "$(jq '.grids[0].offsets | length' "$T/r.json")" ] || fail "matrix has $cols columns"
# Row 2 (the second size), column 17 (the 17th offset) is the document's cell.
want=$(jq -r '.grids[0] | "\(.sizes[1]) \(.median_us[1][16])"' "$T/r.json")
got=$(awk 'NR == 3 { print $1, $18 }' "$T/read.png.dat")
[ "$got" = "$want" ] || fail "matrix cell: got '$got', want '$want'"

# Refusals: not a result document, an info document (no grid), a missing grid.
echo '{"hello": 1}' > "$T/other.json"
"$HEATMAP" "$T/other.json" "$T/x.png" 2> /dev/null; [ $? = 3 ] || fail "a non-ssdprobe JSON was not refused with 3"
"$SSDPROBE" info --json "$T/info.json" sim:multiplane-16k > /dev/null
"$HEATMAP" "$T/info.json" "$T/x.png" 2> /dev/null; [ $? = 3 ] || fail "an info document was not refused with 3"
"$HEATMAP" "$T/r.json" "$T/x.png" write 2> /dev/null; [ $? = 3 ] || fail "a missing write grid was not refused with 3"
"$HEATMAP" "$T/r.json" 2> /dev/null; [ $? = 2 ] || fail "a missing argument was not a usage error"
[ ! -e "$T/x.png" ] || fail "a refused run left an image"
echo PASS
