#!/bin/bash
# Tests `ssdprobe plot` on result documents from simulated-drive runs: every
# kind of picture (read latency, --relative, the write grid's categorical
# columns, --throughput, drives side by side, the re-read grid, --fold,
# --range, --size, PNG and SVG) comes out as a real image of sensible size,
# the matrix file next to it holds the document's medians, the picture shows
# the 16 KiB read page the document found as two colour bands (bands.py) even
# with outlier cells planted, and unusable input is refused with the
# documented exit code and a message naming the problem.
#
# Usage: plot.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
for c in gnuplot python3; do command -v "$c" >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
BANDS="$(dirname "$0")/bands.py"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$SSDPROBE" -q --json "$T/multiplane.json" sim:multiplane-16k > /dev/null || fail "read run failed"
"$SSDPROBE" -q --write --yes --json "$T/tlc.json" sim:nvme-tlc-16k > /dev/null 2>&1 || fail "--write run failed"
"$SSDPROBE" -q --write --yes --json "$T/fresh.json" sim:fresh-16k > /dev/null 2>&1 || fail "fresh --write run failed"

# check_png FILE MIN_WIDTH MIN_HEIGHT: magic, at least WxH pixels, not a near-empty image.
. "$(dirname "$0")/png_check.sh"
# SVG: parses as XML and has at least N filled shapes (the cells).
check_svg() {  # FILE MIN_SHAPES
  python3 - "$@" <<'PY' || fail "$1: not a proper SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
shapes = [e for e in root.iter() if e.tag.split("}")[-1] in ("rect", "path", "polygon")]
assert len(shapes) >= int(sys.argv[2]), f"only {len(shapes)} rect/path elements"
PY
}
# The .dat cell for size row R, offset column C (0-based) of panel P (1-based)
# equals the document's value (median_us, or what the scale derives from it).
check_cell() {  # DAT PANEL DOC GRID ROW COL KIND
  python3 - "$@" <<'PY' || fail "$1: matrix does not hold the document's numbers"
import json, math, sys
dat, panel, doc, grid, row, col, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
g = next(g for g in json.load(open(doc))["grids"] if g["name"] == grid)
blocks, current = [], None
for line in open(dat):
    if line.startswith("# panel"):
        current = []; blocks.append(current)
    elif current is not None and line.strip() and not line.startswith("#"):
        current.append(line.split())
m = blocks[panel - 1]
assert [int(x) for x in m[0][1:]] == g["offsets"], "columns are not the grid's offsets"
assert [int(r[0]) for r in m[1:]] == g["sizes"], "rows are not the grid's sizes"
got = float(m[1 + row][1 + col])
median = g["median_us"][row][col]
if kind == "absolute":
    want = median
elif kind == "throughput":
    want = g["sizes"][row] / median
else:  # relative
    want = median - min(v for v in g["median_us"][row] if v is not None)
assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), f"cell [{row}][{col}]: got {got}, want {want}"
PY
}
plot() {  # NAME ARGS...: runs ssdprobe plot, must succeed
  local name=$1; shift
  "$SSDPROBE" plot "$@" > "$T/$name.out" 2> "$T/$name.err" || fail "plot $* exited $?: $(cat "$T/$name.err")"
}

plot read "$T/multiplane.json" -o "$T/read.png"
check_png "$T/read.png" 500 400
check_cell "$T/read.png.dat" 1 "$T/multiplane.json" read 1 16 absolute
check_cell "$T/read.png.dat" 1 "$T/multiplane.json" read 3 5 absolute
grep -q "read.png" "$T/read.out" || fail "plot did not say what it wrote"

plot relative "$T/multiplane.json" -o "$T/relative.svg" --relative
check_svg "$T/relative.svg" 500
grep -q "above the fastest offset" "$T/relative.svg" || fail "--relative: the colour bar does not say what it shows"
check_cell "$T/relative.svg.dat" 1 "$T/multiplane.json" read 2 7 relative

plot write "$T/tlc.json" --grid write -o "$T/write.png"
check_png "$T/write.png" 500 400
check_cell "$T/write.png.dat" 1 "$T/tlc.json" write 2 3 absolute
plot write_svg "$T/tlc.json" --grid write -o "$T/write.svg"
grep -q "not to scale" "$T/write.svg" || fail "write grid: the axis does not say its columns are categorical"
grep -q "write unit" "$T/write.svg" || fail "write grid: the title lacks the write unit verdict"

plot throughput "$T/tlc.json" --throughput -o "$T/throughput.png"
check_png "$T/throughput.png" 500 400
check_cell "$T/throughput.png.dat" 1 "$T/tlc.json" read 4 9 throughput

plot reread "$T/fresh.json" --grid read-written -o "$T/reread.png"
check_png "$T/reread.png" 500 400

# Drives side by side, one colour scale: panels in the given order, wider image.
plot side "$T/multiplane.json" "$T/tlc.json" -o "$T/side.png"
check_png "$T/side.png" 1000 400
check_cell "$T/side.png.dat" 2 "$T/tlc.json" read 1 3 absolute
plot side_svg "$T/multiplane.json" "$T/tlc.json" "$T/fresh.json" -o "$T/side.svg"
check_svg "$T/side.svg" 1500
# A model name from the document is text, never markup, in the SVG (the
# comparison's HTML report inlines these pictures).
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["target"]["model"] = "<script>x</script> & \x1b[31m"; json.dump(d, open(sys.argv[2], "w"))' \
  "$T/multiplane.json" "$T/evil.json" || fail "could not make the evil document"
plot evil "$T/evil.json" -o "$T/evil.svg"
check_svg "$T/evil.svg" 500
! grep -q "<script" "$T/evil.svg" || fail "a model name became SVG markup"
# gnuplot runs `...` inside a double-quoted string as a shell command: text
# from a document (the model, what would determine a unit) must stay text,
# in the heatmap and in the charts.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); p = sys.argv[2]
d["target"]["model"] = "`touch " + p + ".model`"
d["detected"]["read_page"].update(state="undetermined", bytes=None, confidence=0, to_determine="`touch " + p + ".why`")
json.dump(d, open(sys.argv[3], "w"))' "$T/multiplane.json" "$T/pwned" "$T/backquote.json" || fail "could not make the backquote document"
plot backquote "$T/backquote.json" -o "$T/backquote.svg"
plot backquote_chart "$T/backquote.json" --picture queue-depth -o "$T/backquote-qd.svg"
! ls "$T"/pwned* > /dev/null 2>&1 || fail "text from a document ran as a shell command in gnuplot"
grep -q "touch $T/pwned.model" "$T/backquote.svg" || fail "the backquoted model is not shown as text"
# --format overrides the extension; --data puts the matrix elsewhere.
plot format "$T/multiplane.json" -o "$T/odd.img" --format svg --data "$T/m.txt"
check_svg "$T/odd.img" 500
[ -s "$T/m.txt" ] && [ ! -e "$T/odd.img.dat" ] || fail "--data did not move the matrix file"
# -q (after plot, or before it): the image and matrix, no "plot: wrote" line.
plot quiet "$T/multiplane.json" -o "$T/quiet.svg" -q
check_svg "$T/quiet.svg" 500
[ -s "$T/quiet.svg.dat" ] && [ ! -s "$T/quiet.out" ] || fail "plot -q: printed '$(cat "$T/quiet.out")' or wrote no matrix"
"$SSDPROBE" -q plot "$T/multiplane.json" -o "$T/quiet2.svg" > "$T/quiet2.out" 2>&1 || fail "ssdprobe -q plot failed"
[ -s "$T/quiet2.svg" ] && [ ! -s "$T/quiet2.out" ] || fail "-q before plot was not carried into it"

# The picture shows the read page the document found: straddling and aligned
# cells in clearly different colour bands (bands.py says how that is measured).
bands() {  # DAT PAGE: the band check must pass
  python3 "$BANDS" "$1" "$2" > "$T/bands.out" || fail "$1 does not show the $2 B page: $(cat "$T/bands.out")"
}
bands "$T/read.png.dat" 16384
# Folded at the page: columns are offsets modulo 16 KiB, each the median of
# the 8 cells at that phase; the bands hold there too.
plot fold "$T/multiplane.json" --fold -o "$T/fold.svg"
check_svg "$T/fold.svg" 100
grep -q "^# folded_at 16384" "$T/fold.svg.dat" || fail "--fold: the matrix is not folded at the 16 KiB page"
[ "$(grep -A1 '^size' "$T/fold.svg.dat" | head -1 | wc -w)" = 33 ] || fail "--fold: not 32 phases of 512 B"
grep -q "folded at the read page, 16 KiB" "$T/fold.svg" || fail "--fold: the title does not say what it folded at"
bands "$T/fold.svg.dat" 16384
# Outliers planted in the document: four cells at 10-50x the grid's median
# latency from 4 samples, one at 30x from a single sample. They are drawn in
# the top colour, counted and marked on the colour bar, and the bands still
# show (the colour range of the largest cell would squeeze them together).
python3 - "$T/multiplane.json" "$T/planted.json" <<'PY' || fail "could not plant outliers"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
g = next(g for g in d["grids"] if g["name"] == "read")
median = statistics.median(v for row in g["median_us"] for v in row if v is not None)
for row, col, times, samples in [(1, 40, 10, 4), (3, 100, 20, 4), (5, 7, 35, 4), (6, 200, 50, 4), (2, 150, 30, 1)]:
    for key in ("median_us", "p10_us", "p90_us"):
        g[key][row][col] = times * median
    g["samples"][row][col] = samples
json.dump(d, open(sys.argv[2], "w"))
PY
plot planted "$T/planted.json" -o "$T/planted.svg"
bands "$T/planted.svg.dat" 16384
grep -q "^# cells outside it, drawn in the end colours: 5 above, 0 below" "$T/planted.svg.dat" ||
  fail "planted outliers: not the 5 cells counted above the range: $(grep '^# cells' "$T/planted.svg.dat")"
grep -q "≥ [0-9.]*: 5 of 1792 cells drawn in the top colour" "$T/planted.svg" || fail "planted outliers: no count beside the colour bar"
grep -q ">≥ [0-9.]*<" "$T/planted.svg" || fail "planted outliers: the colour bar's top tick is not marked ≥"
plot planted_fold "$T/planted.json" --fold -o "$T/planted_fold.png"
bands "$T/planted_fold.png.dat" 16384
plot planted_relative "$T/planted.json" --relative -o "$T/planted_relative.png"
bands "$T/planted_relative.png.dat" 16384
# Throughput: slow outliers land at the bottom of a scale from zero, where
# they need no clipping (nothing counted above it).
plot planted_throughput "$T/planted.json" --throughput -o "$T/planted_throughput.png"
grep -q "^# colour_range 0 " "$T/planted_throughput.png.dat" || fail "--throughput: the scale does not start at zero"
grep -q "^# cells outside it, drawn in the end colours: 0 above, 0 below" "$T/planted_throughput.png.dat" ||
  fail "--throughput: slow outliers clipped: $(grep '^# cells' "$T/planted_throughput.png.dat")"
# --range by hand: the .dat carries it, the colour bar says it does not start
# at zero and counts the cells below and above it.
plot range "$T/multiplane.json" --range 60:120 -o "$T/range.svg"
grep -q "^# colour_range 60 120$" "$T/range.svg.dat" || fail "--range: $(grep colour_range "$T/range.svg.dat")"
grep -q "scale from 60 µs, not zero" "$T/range.svg" || fail "--range: the colour bar does not say it starts at 60"
grep -q "≥ 120: [0-9]*, ≤ 60: [0-9]* of 1792 cells drawn in the end colours" "$T/range.svg" || fail "--range: no clipped counts"
# --size: the image is that size.
plot size "$T/multiplane.json" "$T/tlc.json" --size 1400x500 -o "$T/size.png"
python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(); sys.exit(struct.unpack(">II", d[16:24]) != (1400, 500))' \
  "$T/size.png" || fail "--size 1400x500: the PNG is another size"
# A read page not determined: folded at the best candidate the document
# names, and the title says it is one; no unit and no candidate: unfolded.
python3 - "$T/multiplane.json" "$T/candidate.json" "$T/nothing.json" <<'PY' || fail "could not edit the read page"
import json, sys
d = json.load(open(sys.argv[1]))
d["detected"]["read_page"].update(bytes=None, state="undetermined", confidence=0.0, best_candidate_bytes=16384,
                                  best_candidate_support=0.62)
json.dump(d, open(sys.argv[2], "w"))
for key in ("best_candidate_bytes", "best_candidate_support"):
    del d["detected"]["read_page"][key]
json.dump(d, open(sys.argv[3], "w"))
PY
plot candidate "$T/candidate.json" --fold -o "$T/candidate.svg"
grep -q "folded at 16 KiB: the best candidate (support 0.62), not a found read page" "$T/candidate.svg" ||
  fail "--fold at a candidate: the title does not say so"
grep -q "^# folded_at 16384" "$T/candidate.svg.dat" || fail "--fold at a candidate: not folded at it"
plot nothing "$T/nothing.json" --fold -o "$T/nothing.svg"
grep -q "not folded: no read page found and no candidate to fold at" "$T/nothing.svg" || fail "--fold with no unit: the title does not say why"
! grep -q "^# folded_at" "$T/nothing.svg.dat" || fail "--fold with no unit: folded anyway"

# Refusals: exit code and a message naming the file or problem; no image left.
refused() {  # CODE PATTERN ARGS... (PLOT_PATH: the PATH ssdprobe gets)
  local code=$1 pattern=$2; shift 2
  env PATH="${PLOT_PATH:-$PATH}" "$SSDPROBE" plot "$@" > /dev/null 2> "$T/err"
  local got=$?
  [ "$got" = "$code" ] || fail "plot $*: exit $got, want $code ($(cat "$T/err"))"
  grep -q -- "$pattern" "$T/err" || fail "plot $*: message '$(cat "$T/err")' lacks '$pattern'"
}
echo '{"hello": 1}' > "$T/other.json"
echo '{"schema": "ssdprobe/1", "grids": [' > "$T/cut.json"
"$SSDPROBE" info --json "$T/info.json" sim:multiplane-16k > /dev/null || fail "info run failed"
refused 3 "$T/missing.json" "$T/missing.json" -o "$T/x.png"
refused 3 "other.json" "$T/other.json" -o "$T/x.png"
refused 3 "cut.json" "$T/cut.json" -o "$T/x.png"
refused 3 'info.json: has no "read" grid' "$T/info.json" -o "$T/x.png"
refused 3 'multiplane.json: has no "write" grid' "$T/multiplane.json" --grid write -o "$T/x.png"
refused 2 "unknown image format '.jpg'" "$T/multiplane.json" -o "$T/x.jpg"
refused 2 "give one" "$T/multiplane.json" -o "$T/x.png" --relative --throughput
refused 2 "output" "$T/multiplane.json"
refused 2 "invalid --range 'abc': expected MIN:MAX" "$T/multiplane.json" -o "$T/x.png" --range abc
refused 2 "MAX 'x' is not a number" "$T/multiplane.json" -o "$T/x.png" --range 0:x
refused 2 "MIN (300) must be below MAX (100)" "$T/multiplane.json" -o "$T/x.png" --range 300:100
refused 2 "invalid --size '800': expected WxH" "$T/multiplane.json" -o "$T/x.png" --size 800
refused 2 "too small for 2 panels: at least" "$T/multiplane.json" "$T/tlc.json" -o "$T/x.png" --size 400x200
# The option table's other options do not apply to plot, before or after it.
"$SSDPROBE" --seed 2 plot "$T/multiplane.json" -o "$T/x.png" > /dev/null 2> "$T/err"
[ $? = 2 ] && grep -q -- "--seed does not apply to \`ssdprobe plot\`" "$T/err" || fail "--seed before plot: $(cat "$T/err")"
refused 2 "seed" "$T/multiplane.json" -o "$T/x.png" --seed 2
# gnuplot not installed: a PATH without it.
mkdir "$T/nobin"
PLOT_PATH="$T/nobin" refused 5 "gnuplot is not installed" "$T/multiplane.json" -o "$T/x.png"
[ ! -e "$T/x.png" ] && [ ! -e "$T/x.jpg" ] || fail "a refused run left an image"
echo PASS
