#!/bin/bash
# `ssdprobe compare --html` opened in a real browser (headless Chromium): the
# DOM it builds has the summary table's group rows and one section per group,
# each with an inline <svg> heatmap (or the note saying gnuplot is missing);
# the header says when, by which version, from which hosts and runs; the
# summary has the reported / measured column; a drive without a model is its
# own group; nothing is fetched; a hostile model string stays text; five
# groups stay well under 1 MB; --shared-scale gives every heatmap the same
# colour bar (and without it they differ); the page reads at 1280 px (nothing
# wider than the window, legible heatmaps) and fills a wide window; and a
# screenshot of the page is produced and is not blank.
#
# Usage: compare_html.sh SSDPROBE [SCREENSHOT_COPY]
#   SCREENSHOT_COPY: also keep the screenshot there (for docs/images).
set -u
SSDPROBE="${1:-}"
KEEP="${2:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
for tool in jq python3; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
  { echo "SKIP: chromium not installed (scripts/install-deps --tests installs it)"; exit 77; }
# shellcheck source=make_fleet.sh
source "$(dirname "$0")/make_fleet.sh"

start_checks

F="$T/fleet"
make_fleet "$SSDPROBE" "$F" 2 || exit 1
# A drive whose model string is markup: must show as text, never run.
jq '.target.model = "<script>document.title=\"pwned\"</script><img src=x onerror=alert(1)>" |
    .target.serial = "EVIL-1"' "$F/host1/clean-4k-1.json" > "$F/host1/evil.json"
# A virtio-like disk without a model: a fifth group, named by its serial.
jq '.target.model = null | .target.serial = "VIRTIO-7"' "$F/host2/clean-4k-2.json" > "$F/host2/virtio.json"

"$SSDPROBE" compare --html "$T/report.html" "$F" > /dev/null 2> "$T/err"
rc=$?
check "compare --html exits 0" '[ $rc = 0 ]'
check "the report is one file with no external reference" '! grep -Eq "(src|href)=\"(https?:)?//" "$T/report.html"'
size=$(stat -c %s "$T/report.html")
echo "# report: $size bytes for 5 groups"
check "five groups with heatmaps stay well under 1 MB (< 700 KB; 580 KB when written)" '[ "$size" -lt 700000 ]'

# Chromium wants a writable home and crash directory; headless, no GPU.
export HOME="$T/home"
mkdir -p "$HOME"
browser() { timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --no-first-run --user-data-dir="$T/profile" "$@" 2>> "$T/chromium.err"; }
browser --dump-dom "file://$T/report.html" > "$T/dom.html"
check "chromium dumped a DOM" '[ -s "$T/dom.html" ]'
python3 - "$T/dom.html" > "$T/dom.txt" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.rows = 0; self.sections = 0; self.svgs = 0; self.missing = 0
        self.scripts = 0; self.imgs = 0; self.title = ""; self.in_title = False; self.in_row = 0; self.cells = []; self.row = []
        self.models = []; self.cov = None; self.coverage = {}; self.heads = []; self.in_th = False
        self.in_rm = False; self.rm = []; self.note = False; self.scale_note = ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and (a.get("id") or "").startswith("coverage-"): self.cov = a["id"][9:]; self.coverage[self.cov] = ""
        if tag == "th": self.in_th = True; self.heads.append("")
        if tag == "td" and a.get("class") == "rm": self.in_rm = True; self.rm.append("")
        if tag == "br" and self.in_rm: self.rm[-1] += " "
        if tag == "p" and a.get("id") == "colour-scale": self.note = True
        if tag == "tr" and a.get("class") == "group": self.rows += 1; self.in_row = True; self.row = []
        if tag == "section" and a.get("class") == "group": self.sections += 1
        if tag == "svg": self.svgs += 1
        if tag == "p" and "heatmap-missing" in (a.get("class") or ""): self.missing += 1
        if tag == "script": self.scripts += 1
        if tag == "img": self.imgs += 1
        if tag == "title" and not self.title: self.in_title = True  # the page's, not the SVG's <title>s
    def handle_endtag(self, tag):
        if tag == "tr": self.cov = None
        if tag == "th": self.in_th = False
        if tag == "td": self.in_rm = False
        if tag == "p": self.note = False
        if tag == "tr" and self.in_row:
            self.in_row = False; self.models.append(self.row[0] if self.row else "")
        if tag == "title": self.in_title = False
    def handle_data(self, d):
        if self.cov and not self.in_th: self.coverage[self.cov] += d
        if self.in_th: self.heads[-1] += d
        if self.in_rm: self.rm[-1] += d
        if self.note: self.scale_note += d
        if self.in_title: self.title += d
        if self.in_row and d.strip(): self.row.append(d.strip())
p = P(); p.feed(open(sys.argv[1]).read())
# nested <svg> elements are counted: report sections with at least one
print("rows", p.rows); print("sections", p.sections); print("figures", min(p.svgs, p.sections) if p.svgs else 0)
print("missing", p.missing); print("scripts", p.scripts); print("imgs", p.imgs); print("title", p.title)
for m in p.models: print("model", m)
for k, v in p.coverage.items(): print("coverage-" + k, v)
print("heads", "|".join(p.heads))
for r in p.rm: print("rm", r.strip())
print("scale", p.scale_note)
PY
v() { awk -v k="$1" '$1 == k { sub(/^[^ ]+ /, ""); print; exit }' "$T/dom.txt"; }
check "DOM: 5 group rows in the summary table" '[ "$(v rows)" = 5 ]'
check "DOM: 5 group sections" '[ "$(v sections)" = 5 ]'
if command -v gnuplot > /dev/null; then
  check "DOM: every section with a timed run has its heatmap svg" '[ "$(v figures)" = 5 ] && [ "$(v missing)" = 0 ]'
else
  check "DOM: without gnuplot every section says so" '[ "$(v missing)" = 5 ]'
fi
version=$("$SSDPROBE" --version | awk '{print $2}')
first=$(jq -rs 'map(.started_at) | min' "$F"/host*/*.json)
last=$(jq -rs 'map(.started_at) | max' "$F"/host*/*.json)
check "DOM: made today by this ssdprobe" \
  'v coverage-made | grep -Eq "^$(date -u +%Y-%m-%d)T[0-9:]{8}Z by ssdprobe $version$"'
check "DOM: written by this version, 9 documents" '[ "$(v coverage-versions)" = "ssdprobe $version (9 documents)" ]'
check "DOM: hosts named" '[ "$(v coverage-hosts)" = "2: host1, host2" ]'
check "DOM: runs and their first and last start" \
  '[ "$(v coverage-runs)" = "8 timed runs and 1 info document, started $first to $last" ]'
check "DOM: the summary has a reported / measured column" 'v heads | grep -q "|alignment|reported / measured|"'
check "DOM: sata-mlc-8k: min_io against read page and write unit, opt_io against erase block" \
  'grep -q "^rm min_io 512 B / read page 8 KiB, write unit 16 KiB opt_io 0 B / erase block 4 MiB$" "$T/dom.txt"'
check "DOM: p10 and p90 carry their unit" '[ "$(grep -o "<td class=\"n\">[0-9.]* µs</td>" "$T/dom.html" | wc -l)" -ge 30 ]'
check "DOM: the drive without a model is its own group, named by its serial" \
  'grep -q "^model (no model, serial VIRTIO-7)$" "$T/dom.txt"'
check "DOM: the page says each group has its own colour scale" 'v scale | grep -q "the heatmap of each group has its own"'
check "DOM: the hostile model ran nothing and made no element" '[ "$(v scripts)" = 0 ] && [ "$(v imgs)" = 0 ] && [ "$(v title)" = "ssdprobe compare" ]'
check "DOM: the hostile model shows as text" 'grep -q "^model <script>document.title" "$T/dom.txt"'
for m in nvme-tlc-16k clean-4k sata-mlc-8k; do
  check "DOM: a row for $m" 'grep -q "^model ssdprobe simulated drive $m$" "$T/dom.txt"'
done

# The colour bar's tick labels of every heatmap (gnuplot writes them as the
# SVG's only start-anchored texts), as numbers: one line per heatmap.
colour_bars() {
  python3 - "$1" <<'PY'
import re, sys
for svg in re.findall(r"<svg.*?</svg>", open(sys.argv[1]).read(), re.S):
    labels = re.findall(r'text-anchor="start"[^>]*>\s*<text>(.*?)</text>', svg, re.S)
    print(" ".join(m for t in labels for m in re.findall(r"[0-9]+(?:\.[0-9]+)?", re.sub("<[^>]+>", "", t))))
PY
}
if command -v gnuplot > /dev/null; then
  colour_bars "$T/report.html" > "$T/bars-own"
  check "own scales: the heatmaps' colour bars differ" '[ "$(sort -u "$T/bars-own" | wc -l)" -gt 1 ]'
  "$SSDPROBE" compare --html "$T/shared.html" --shared-scale "$F" > /dev/null 2>&1
  colour_bars "$T/shared.html" > "$T/bars-shared"
  check "--shared-scale: 5 heatmaps, one colour bar (same ticks in every group)" \
    '[ "$(wc -l < "$T/bars-shared")" = 5 ] && [ "$(sort -u "$T/bars-shared" | wc -l)" = 1 ] && [ -n "$(head -1 "$T/bars-shared")" ]'
  check "--shared-scale: the page says the scale is shared, and its range" \
    'grep -Eq "<p id=\"colour-scale\">Colour scale: one for the heatmaps of every group \(--shared-scale\), [0-9.]+ to [0-9.]+ µs" "$T/shared.html"'
fi

browser --screenshot="$T/shot.png" --window-size=1280,1600 --hide-scrollbars "file://$T/report.html" > /dev/null
check "a screenshot was written" '[ -s "$T/shot.png" ]'
# Not blank: a white page of this size compresses to a few KB; text, tables
# and a heatmap's colours to far more.
read -r width height < <(python3 - "$T/shot.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read(32)
assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
print(*struct.unpack(">II", data[16:24]))
PY
)
bytes=$(stat -c %s "$T/shot.png")
echo "# screenshot: ${width}x${height}, $bytes bytes"
check "the screenshot is 1280x1600 and not blank (> 40 KB of PNG)" '[ "$width" = 1280 ] && [ "$height" = 1600 ] && [ "$bytes" -gt 40000 ]'
[ -n "$KEEP" ] && cp "$T/shot.png" "$KEEP"

# Read at 1280 px, with the window's scroll bar (page_readable.py): nothing
# wider than the window (the summary's columns used to need 15 px more than
# they had, with the planted model's long word), each heatmap's text at least
# 10 px, none cut or overlapping.
timeout 300 python3 "$(dirname "$0")/../html/page_readable.py" "$T/report.html" "$CHROMIUM" --headless --no-sandbox \
  --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$T/profile" \
  > "$T/readable.txt" 2>> "$T/chromium.err"
rc=$?
sed 's/^/  /' "$T/readable.txt"
check "the page reads at 1280 px: nothing wider than the window, the heatmaps' text >= 10 px" '[ $rc = 0 ]'

# The page takes the window's width: in a 1900 px window its content reaches
# past 1700 px (the header's opening line and the summary table span it),
# where a fixed-width page would stop at its width.
browser --screenshot="$T/wide.png" --window-size=1900,500 --hide-scrollbars "file://$T/report.html" > /dev/null
right=$(python3 "$(dirname "$0")/png_extent.py" "$T/wide.png")
echo "# 1900 px window: content reaches column $right"
check "the page fills a 1900 px window (content right of column 1700)" '[ "${right:-0}" -gt 1700 ]'

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  [ -s "$T/chromium.err" ] && tail -5 "$T/chromium.err" >&2
  exit 1
fi
echo "all compare HTML checks passed"
