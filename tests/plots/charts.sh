#!/bin/bash
# Tests `ssdprobe plot --picture NAME` on real result documents: each picture
# (queue-depth, erase-block, misalignment, slc-cache) is a real PNG and SVG of
# sensible size whose SVG <title> is the picture's title, the numbers file next
# to it holds the document's numbers (knee and plateau, stall positions, cost
# ratios, the cache curve, the reach of a cache ruled out), each reads at its
# own size in a 1280 px Chromium window (text >= 10 px, none cut or
# overlapping; skipped without Chromium), and documents without the data are
# refused with exit 3 naming the file and what is missing.
#
# Usage: charts.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
for c in gnuplot python3 sfdisk jq; do command -v "$c" >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$SSDPROBE" -q --write --yes --json "$T/tlc.json" sim:nvme-tlc-16k > /dev/null 2>&1 || fail "--write run failed"
"$SSDPROBE" -q --write --yes --json "$T/slc.json" sim:tlc-slc-128m > /dev/null 2>&1 || fail "SLC --write run failed"
# A fill capped at 256 MiB that shows no drop: no cache up to 213 MiB.
"$SSDPROBE" -q --write --yes --cache-bytes 256M --json "$T/nocache.json" sim:qlc-slc-2g > /dev/null 2>&1 ||
  fail "capped SLC --write run failed"
"$SSDPROBE" -q --json "$T/read.json" sim:nvme-tlc-16k > /dev/null 2>&1 || fail "read run failed"
"$SSDPROBE" -q info --json "$T/info.json" sim:nvme-tlc-16k > /dev/null 2>&1 || fail "info failed"
# An image file with a DOS partition at sector 63: the run audits its start
# and times what misalignment costs there (no root needed).
truncate -s 64M "$T/disk.img"
printf 'label: dos\nstart=63, size=50000, type=83\nstart=51200, size=50000, type=83\n' | sfdisk -q "$T/disk.img" \
  > /dev/null 2>&1 || fail "sfdisk failed"
"$SSDPROBE" -q --budget 2 --json "$T/disk.json" "$T/disk.img" > /dev/null 2>&1 || fail "run on the image failed"

# check_png FILE MIN_WIDTH MIN_HEIGHT
. "$(dirname "$0")/png_check.sh"
# SVG: parses as XML, its <title> starts with TITLE, at least N drawn shapes.
check_svg() {  # FILE TITLE_PREFIX MIN_SHAPES
  python3 - "$@" <<'PY' || fail "$1: not a proper SVG"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
titles = [e.text for e in root.iter() if e.tag.split("}")[-1] == "title"]
assert titles and titles[0].startswith(sys.argv[2]), f"title {titles[:1]} does not start with {sys.argv[2]!r}"
shapes = [e for e in root.iter() if e.tag.split("}")[-1] in ("path", "use", "circle", "polyline")]
assert len(shapes) >= int(sys.argv[3]), f"only {len(shapes)} shapes"
PY
}
# A picture read at 1280 px in Chromium (../html/page_readable.py): shown at
# its size (at most 1200 px wide), its text at least 10 px, none cut at its
# edge or over another. Skipped without Chromium (the sanitizer build).
CHROMIUM=$(command -v chromium || command -v chromium-browser)
check_readable() {  # SVG
  [ -n "$CHROMIUM" ] || { echo "# no chromium: $1 not read"; return 0; }
  HOME="$T" timeout 300 python3 "$(dirname "$0")/../html/page_readable.py" "$1" "$CHROMIUM" --headless --no-sandbox \
    --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$T/profile" > "$T/readable.txt" 2>/dev/null ||
    fail "$1 does not read at 1280 px: $(grep PROBLEM "$T/readable.txt" | head -3)"
}
# A PNG no wider than 1200 px: a 1280 px window shows it at its size, not shrunk.
check_png_fits() {  # PNG
  python3 -c 'import struct, sys; w = struct.unpack(">I", open(sys.argv[1], "rb").read()[16:20])[0]
assert w <= 1200, f"{sys.argv[1]}: {w} px wide"' "$1" || fail "$1 is wider than a 1280 px window shows at its size"
}
draw() {  # PICTURE OUT DOC...
  local picture=$1 out=$2; shift 2
  "$SSDPROBE" -q plot --picture "$picture" -o "$out" "$@" || fail "plot --picture $picture $* exited $?"
}
# Python that checks an .dat against a document: `dat` holds the numbers file
# as {panel number: {"series": {name: rows}, "lines": [(label, value)]}}.
check_dat() {  # DAT DOC... -- PYTHON
  python3 - "$@" <<'PY' || fail "$1: numbers do not hold the document's values"
import json, re, sys
args = sys.argv[1:]
cut = args.index("--")
dat_file, docs, code = args[0], [json.load(open(f)) for f in args[1:cut]], args[cut + 1]
dat, panel, series = {}, None, None
for line in open(dat_file):
    line = line.rstrip("\n")
    if m := re.match(r"# panel (\d+): (.*)", line):
        panel = dat.setdefault(int(m[1]), {"title": m[2], "series": {}, "lines": []}); series = None
    elif panel is None:
        continue
    elif m := re.match(r"# series (.*)", line):
        series = panel["series"].setdefault(m[1], [])
    elif m := re.match(r"# line (.*) (?:at|y=) (\S+)$", line):
        panel["lines"].append((m[1], float(m[2]))); series = None
    elif line and not line.startswith("#") and series is not None:
        series.append([float(v) for v in line.split()])
exec(code)
PY
}

# queue-depth: reads and writes of one document, then two documents.
draw queue-depth "$T/qd.png" "$T/tlc.json"
check_png "$T/qd.png" 900 800  # reads over writes
check_png_fits "$T/qd.png"
check_dat "$T/qd.png.dat" "$T/tlc.json" -- '
d = docs[0]
for p, probe, det in ((1, "parallelism_probe", "parallelism"), (2, "write_parallelism_probe", "write_parallelism")):
    rows = dat[p]["series"]["mean IOPS"]
    assert [r[0] for r in rows] == [q["queue_depth"] for q in d[probe]["queue_depths"]], "depths"
    assert all(abs(r[1] - q["iops"]) < 1e-6 for r, q in zip(rows, d[probe]["queue_depths"])), "IOPS"
    p99 = dat[p]["series"]["p99 latency (y2)"]
    assert all(abs(r[1] - q["p99_us"]) < 1e-6 for r, q in zip(p99, d[probe]["queue_depths"])), "p99"
    knee, plateau = d["detected"][det]["queue_depth_knee"], d["detected"][det]["plateau_iops"]
    assert knee["state"] == "found" and plateau["state"] == "found", "the sim finds both"
    lines = dict(dat[p]["lines"])
    assert lines["knee QD %d" % knee["value"]] == knee["value"], lines
    assert any(l.startswith("plateau") and abs(v - plateau["value"]) < 1e-6 for l, v in dat[p]["lines"]), lines
    assert "knee at QD %d" % knee["value"] in dat[p]["title"], dat[p]["title"]
'
draw queue-depth "$T/qd.svg" "$T/read.json" "$T/tlc.json"
check_svg "$T/qd.svg" "Queue depth:" 20
check_readable "$T/qd.svg"
grep -q "writes not measured (run with --write)" "$T/qd.svg.dat" || fail "a read-only document's write panel does not say why it is empty"

# erase-block: every write at its offset, the stalls (over 3x the median) apart.
draw erase-block "$T/eb.png" "$T/tlc.json"
check_png "$T/eb.png" 900 450
check_dat "$T/eb.png.dat" "$T/tlc.json" -- '
import statistics
s, eb = docs[0]["write_probe"]["stream"], docs[0]["detected"]["erase_block"]
lat, mib = s["latency_us"], s["chunk_bytes"] / 1048576
threshold = 3 * sorted(lat)[len(lat) // 2]
stalls = [[k * mib, v] for k, v in enumerate(lat) if v > threshold]
got = next(rows for name, rows in dat[1]["series"].items() if name.startswith("stall"))
assert len(stalls) >= 5 and [r[0] for r in got] == [r[0] for r in stalls], (stalls, got)
assert len(dat[1]["series"]["write"]) + len(got) == len(lat), "every write is drawn once"
assert eb["state"] == "found" and "erase block 24 MiB" in dat[1]["title"], dat[1]["title"]
period = [v for l, v in dat[1]["lines"] if not l.startswith("stall")]
assert all(abs((b - a) - eb["bytes"] / 1048576) < 1e-9 for a, b in zip(period, period[1:])), period
assert sum(1 for x, _ in stalls if any(abs(x - p) < 1e-9 for p in period)) >= len(stalls) // 2, "stalls on the period"
'
draw erase-block "$T/eb.svg" "$T/tlc.json" "$T/slc.json"
check_svg "$T/eb.svg" "Sequential write stream: write latency" 100
check_readable "$T/eb.svg"

# slc-cache: the curve in MiB and MiB/s, the cache size marked.
draw slc-cache "$T/slc.png" "$T/slc.json"
check_png "$T/slc.png" 900 450
check_dat "$T/slc.png.dat" "$T/slc.json" -- '
c = docs[0]["detected"]["slc_cache"]
rows = next(iter(dat[1]["series"].values()))
assert len(rows) == len(c["curve"]) > 10
assert all(abs(r[0] - p["written_bytes"] / 1048576) < 1e-6 and abs(r[1] - p["bytes_per_s"] / 1048576) < 1e-6
           for r, p in zip(rows, c["curve"])), "curve"
assert c["state"] == "found" and dict(dat[1]["lines"])["cache 128 MiB (drop)"] == c["bytes"] / 1048576
assert "SLC cache 128 MiB" in dat[1]["title"], dat[1]["title"]
'
draw slc-cache "$T/slc.svg" "$T/slc.json"
check_svg "$T/slc.svg" "SLC cache probe's first fill: SLC cache 128 MiB (confidence" 20
check_readable "$T/slc.svg"
# No cache found: the title has the verdict's bound, and a line marks it
# where the fill drawn runs on past it (the picture claims no more than that).
draw slc-cache "$T/nocache.svg" "$T/nocache.json"
check_dat "$T/nocache.svg.dat" "$T/nocache.json" -- '
c = docs[0]["detected"]["slc_cache"]
reach = c["searched_up_to_bytes"] / 1048576
end = c["curve"][-1]["written_bytes"] / 1048576
assert c["state"] == "absent" and reach < end, (c["state"], reach, end)
words = "no SLC cache up to %g MiB" % reach
said = [u["text"] for u in docs[0]["verdict"]["units"] if u["unit"] == "slc_cache"]
assert said and words in said[0] and dat[1]["title"].endswith(words), (said, dat[1]["title"])
assert dict(dat[1]["lines"])["%g MiB: the largest cache this fill could show" % reach] == reach, dat[1]["lines"]
'
check_readable "$T/nocache.svg"

# misalignment: the partition at sector 63 has read costs with intervals.
draw misalignment "$T/mis.png" "$T/disk.json"
check_png "$T/mis.png" 1200 400  # two partitions side by side
check_png_fits "$T/mis.png"
check_dat "$T/mis.png.dat" "$T/disk.json" -- '
checks = [c for c in docs[0]["audit"]["checks"] if c.get("costs")]
assert checks, "the image run timed no start"
costs = [c for c in checks[0]["costs"] if c["determined"]]
rows = [r for rows in dat[1]["series"].values() for r in rows]
assert len(rows) == len(costs) > 0, (rows, costs)
for r in rows:
    c = checks[0]["costs"][int(r[0]) - 1]
    assert [r[1], r[2], r[3]] == [c["ratio"], c["ratio_low"], c["ratio_high"]], (r, c)
assert dict(dat[1]["lines"])["aligned start (ratio 1)"] == 1
assert "disk byte 32256" in dat[1]["title"], dat[1]["title"]
'
draw misalignment "$T/mis.svg" "$T/disk.json"
check_svg "$T/mis.svg" "Misalignment:" 10
# A layer named by a /dev/disk/by-id path (an LVM volume's, longer than a
# line): its panel's title is folded to fit, the path cut where it must be.
jq '(.audit.checks[] | select(.costs) | .layer) |= "logical volume (/dev/disk/by-id/dm-uuid-LVM-" +
    "Wq3dX9Yk2lP8mN4bV6cZ1aS5eR7tU0iOWq3dX9Yk2lP8mN4bV6cZ1aS5eR7tU0iOAbCdEfGh)"' "$T/disk.json" > "$T/byid.json"
draw misalignment "$T/byid.svg" "$T/byid.json"
check_readable "$T/byid.svg"

# Refusals: exit 3 naming the file and what is missing; heatmap options: exit 2.
refused() {  # CODE MESSAGE ARGS...
  local code=$1 message=$2; shift 2
  "$SSDPROBE" -q plot -o "$T/x.png" "$@" > /dev/null 2> "$T/err"
  local got=$?
  [ "$got" = "$code" ] || fail "plot $*: exit $got, expected $code ($(cat "$T/err"))"
  grep -qF -- "$message" "$T/err" || fail "plot $*: message '$(cat "$T/err")' lacks '$message'"
}
refused 3 "read.json: has no write_probe.stream (run with --write)" --picture erase-block "$T/read.json"
refused 3 "read.json: has no SLC cache probe (run with --write" --picture slc-cache "$T/read.json"
refused 3 "info.json: is an \`info\` or \`audit\` document" --picture queue-depth "$T/info.json"
refused 3 "tlc.json: its audit is not available" --picture misalignment "$T/tlc.json"
refused 2 "--relative shapes the heatmap only" --picture queue-depth --relative "$T/tlc.json"
refused 2 "--grid shapes the heatmap only" --picture erase-block --grid write "$T/tlc.json"
refused 2 "--size shapes the heatmap only" --picture queue-depth --size 900x500 "$T/tlc.json"
refused 2 "--picture" --picture pie "$T/tlc.json"
[ ! -e "$T/x.png" ] || fail "a refused plot left an image"
echo "PASS: charts"
