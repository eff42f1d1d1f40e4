#!/bin/bash
# `ssdprobe compare --html` opened in a real browser (headless Chromium): the
# DOM it builds has the summary table's group rows and one section per group,
# each with an inline <svg> heatmap (or the note saying gnuplot is missing);
# nothing is fetched; a hostile model string stays text; and a screenshot of
# the page is produced and is not blank.
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
  { echo "SKIP: chromium not installed (scripts/install-deps installs it)"; exit 77; }
# shellcheck source=make_fleet.sh
source "$(dirname "$0")/make_fleet.sh"

start_checks

F="$T/fleet"
make_fleet "$SSDPROBE" "$F" 2 || exit 1
# A drive whose model string is markup: must show as text, never run.
jq '.target.model = "<script>document.title=\"pwned\"</script><img src=x onerror=alert(1)>" |
    .target.serial = "EVIL-1"' "$F/host1/clean-4k-1.json" > "$F/host1/evil.json"

"$SSDPROBE" compare --html "$T/report.html" "$F" > /dev/null 2> "$T/err"
rc=$?
check "compare --html exits 0" '[ $rc = 0 ]'
check "the report is one file with no external reference" '! grep -Eq "(src|href)=\"(https?:)?//" "$T/report.html"'

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
        self.models = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("class") == "group": self.rows += 1; self.in_row = True; self.row = []
        if tag == "section" and a.get("class") == "group": self.sections += 1
        if tag == "svg": self.svgs += 1
        if tag == "p" and "heatmap-missing" in (a.get("class") or ""): self.missing += 1
        if tag == "script": self.scripts += 1
        if tag == "img": self.imgs += 1
        if tag == "title" and not self.title: self.in_title = True  # the page's, not the SVG's <title>s
    def handle_endtag(self, tag):
        if tag == "tr" and self.in_row:
            self.in_row = False; self.models.append(self.row[0] if self.row else "")
        if tag == "title": self.in_title = False
    def handle_data(self, d):
        if self.in_title: self.title += d
        if self.in_row and d.strip(): self.row.append(d.strip())
p = P(); p.feed(open(sys.argv[1]).read())
# nested <svg> elements are counted: report sections with at least one
print("rows", p.rows); print("sections", p.sections); print("figures", min(p.svgs, p.sections) if p.svgs else 0)
print("missing", p.missing); print("scripts", p.scripts); print("imgs", p.imgs); print("title", p.title)
for m in p.models: print("model", m)
PY
v() { awk -v k="$1" '$1 == k { sub(/^[^ ]+ /, ""); print; exit }' "$T/dom.txt"; }
check "DOM: 4 group rows in the summary table" '[ "$(v rows)" = 4 ]'
check "DOM: 4 group sections" '[ "$(v sections)" = 4 ]'
if command -v gnuplot > /dev/null; then
  check "DOM: every section with a timed run has its heatmap svg" '[ "$(v figures)" = 4 ] && [ "$(v missing)" = 0 ]'
else
  check "DOM: without gnuplot every section says so" '[ "$(v missing)" = 4 ]'
fi
check "DOM: the hostile model ran nothing and made no element" '[ "$(v scripts)" = 0 ] && [ "$(v imgs)" = 0 ] && [ "$(v title)" = "ssdprobe compare" ]'
check "DOM: the hostile model shows as text" 'grep -q "^model <script>document.title" "$T/dom.txt"'
for m in nvme-tlc-16k clean-4k sata-mlc-8k; do
  check "DOM: a row for $m" 'grep -q "^model ssdprobe simulated drive $m$" "$T/dom.txt"'
done

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

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  [ -s "$T/chromium.err" ] && tail -5 "$T/chromium.err" >&2
  exit 1
fi
echo "all compare HTML checks passed"
