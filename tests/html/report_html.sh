#!/bin/bash
# The one-run report: `--html` on a sim --write run and `ssdprobe report` of
# the document it wrote make the same page; the page opened in a real
# browser (headless Chromium) has the verdict word for word, every section
# and every picture, fetches nothing and runs nothing, also when the model
# and the command line hold markup; it reads at 1280 px (page_readable.py:
# nothing wider than the window, every picture's text >= 10 px, none cut or
# overlapping) for a --write run, a cache ruled out and an image file's
# misalignment; the pictures say the report's words (the SLC cache's bound, a
# re-read read grid's answer) and a byte range has one unit; the refusals
# exit as the other commands'.
#
# Usage: report_html.sh SSDPROBE [SCREENSHOT_COPY]
set -u
SSDPROBE="${1:-}"
KEEP="${2:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
for tool in jq python3; do
  command -v "$tool" > /dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
  { echo "SKIP: chromium not installed (scripts/install-deps --tests installs it)"; exit 77; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
check() {  # check DESCRIPTION TEST-EXPRESSION
  if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1" >&2; failures=$((failures + 1)); fi
}

# One fast sim run writes both outputs; the report reads the document back.
"$SSDPROBE" -q --write --yes --json "$T/run.json" --html "$T/run.html" sim:nvme-tlc-16k > /dev/null 2> "$T/run.err"
rc=$?
check "the run with --json and --html exits 0" '[ $rc = 0 ] && [ -s "$T/run.json" ] && [ -s "$T/run.html" ]'
"$SSDPROBE" report "$T/run.json" --html "$T/report.html" > "$T/out" 2> "$T/err"
rc=$?
check "report exits 0 and says where it wrote" '[ $rc = 0 ] && grep -q "^report: wrote $T/report.html$" "$T/out"'
check "the run's page and the report's page are identical" 'cmp -s "$T/run.html" "$T/report.html"'
check "the page has no external reference and no script" \
  '! grep -Eiq "(src|href)=\"(https?:)?//|<script" "$T/report.html"'

# Markup planted where a drive or a shell puts text: it must stay text.
jq '.target.model = "<script>document.title=\"pwned\"</script><img src=x onerror=alert(1)>" |
    .command_line += ["</code><script>alert(2)</script>"] |
    .detected.read_page.evidence += " <script>alert(3)</script>"' "$T/run.json" > "$T/evil.json"
"$SSDPROBE" -q report "$T/evil.json" --html "$T/evil.html" 2> "$T/evil.err"
check "report of the planted document exits 0" '[ $? = 0 ] && [ -s "$T/evil.html" ]'

export HOME="$T/home"
mkdir -p "$HOME"
browser() { timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
  --no-first-run --user-data-dir="$T/profile" "$@" 2>> "$T/chromium.err"; }
# What the DOM holds: sections by id, svgs per figure, scripts, images,
# external references, the verdict's text, the page title.
dom_facts() {
  python3 - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []; self.sections = []; self.figures = {}; self.figure = None
        self.scripts = 0; self.imgs = 0; self.external = 0; self.title = ""; self.in_title = False
        self.summary = ""; self.in_summary = False; self.missing = 0; self.text = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section": self.sections.append(a.get("id"))
        if tag == "figure": self.figure = a.get("id"); self.figures[self.figure] = 0
        if tag == "svg" and self.figure: self.figures[self.figure] += 1
        if tag == "script": self.scripts += 1
        if tag == "img": self.imgs += 1
        for k in ("src", "href"):
            v = a.get(k) or ""
            if v and not v.startswith("#"): self.external += 1
        if tag == "title" and not self.title and not self.figure: self.in_title = True
        if a.get("id") == "verdict-summary": self.in_summary = True
        if "picture-missing" in (a.get("class") or ""): self.missing += 1
    def handle_endtag(self, tag):
        if tag == "figure": self.figure = None
        if tag == "title": self.in_title = False
        if tag == "p": self.in_summary = False
    def handle_data(self, d):
        if self.in_title: self.title += d
        if self.in_summary: self.summary += d
        self.text.append(d)
p = P(); p.feed(open(sys.argv[1]).read())
print("sections", " ".join(s or "" for s in p.sections))
print("figures", " ".join(f"{k}={v}" for k, v in p.figures.items()))
print("missing", p.missing); print("scripts", p.scripts); print("imgs", p.imgs); print("external", p.external)
print("title", p.title); print("summary", p.summary)
print("hostile_text", int("<script>document.title" in "".join(p.text)))
PY
}
v() { awk -v k="$1" '$1 == k { sub(/^[^ ]+ ?/, ""); print; exit }' "$2"; }

browser --dump-dom "file://$T/report.html" > "$T/dom.html"
check "chromium dumped a DOM" '[ -s "$T/dom.html" ]'
dom_facts "$T/dom.html" > "$T/dom.txt"
check "DOM: the seven sections, in order" \
  '[ "$(v sections "$T/dom.txt")" = "verdict reported audit recommendations pictures evidence context" ]'
check "DOM: the verdict is verdict.summary word for word" \
  '[ "$(v summary "$T/dom.txt")" = "$(jq -r .verdict.summary "$T/run.json")" ]'
# The pictures the document has data for: the read grid folded, every grid,
# then each chart whose probe ran (an audit only on a real disk).
figures=$(jq -r '["picture-read-folded"] + [.grids[].name | "picture-" + .]
  + [if .parallelism_probe then "picture-queue-depth" else empty end,
     if .write_probe.stream then "picture-erase-block" else empty end,
     if (.detected.slc_cache.curve // []) | length > 0 then "picture-slc-cache" else empty end,
     if .audit.available then "picture-misalignment" else empty end] | join(" ")' "$T/run.json")
n_figures=$(wc -w <<< "$figures")
check "a --write run has the queue-depth and erase-stream pictures ($figures)" \
  'grep -q "picture-queue-depth picture-erase-block" <<< "$figures"'
check "DOM: one figure per picture the document has data for" \
  '[ "$(v figures "$T/dom.txt" | sed "s/=[0-9]*//g")" = "$figures" ]'
check "DOM: a picture without data says why in its place" \
  'grep -q "What each audited start costs: not available: " "$T/dom.html"'
if command -v gnuplot > /dev/null; then
  check "DOM: every figure has its svg" '! v figures "$T/dom.txt" | grep -q "=0" && [ "$(v missing "$T/dom.txt")" = 0 ]'
fi
check "DOM: nothing external, no script, no image" \
  '[ "$(v external "$T/dom.txt")" = 0 ] && [ "$(v scripts "$T/dom.txt")" = 0 ] && [ "$(v imgs "$T/dom.txt")" = 0 ]'
check "DOM: the audit section says why there is none" \
  'grep -q "no audit: sim:nvme-tlc-16k is a simulated drive" "$T/dom.html"'

browser --dump-dom "file://$T/evil.html" > "$T/evil-dom.html"
dom_facts "$T/evil-dom.html" > "$T/evil.txt"
check "DOM (planted markup): no script, no image, the title untouched" \
  '[ "$(v scripts "$T/evil.txt")" = 0 ] && [ "$(v imgs "$T/evil.txt")" = 0 ] &&
   [ "$(v title "$T/evil.txt")" = "ssdprobe report: <script>document.title=\"pwned\"</script><img src=x onerror=alert(1)>" ]'
check "DOM (planted markup): the model shows as text" '[ "$(v hostile_text "$T/evil.txt")" = 1 ]'

browser --screenshot="$T/shot.png" --window-size=1280,4000 --hide-scrollbars "file://$T/report.html" > /dev/null
bytes=$(stat -c %s "$T/shot.png" 2> /dev/null || echo 0)
echo "# screenshot: $bytes bytes"
check "a screenshot was written and is not blank (> 100 KB of PNG)" '[ "$bytes" -gt 100000 ]'
[ -n "$KEEP" ] && cp "$T/shot.png" "$KEEP"

# Read at 1280 px (page_readable.py): nothing wider than the window, every
# picture shown at a size where its text is at least 10 px, no text cut at a
# picture's edge or over another. And the pictures say what the report says.
readable() {  # PAGE: page_readable.py's verdict, its lines printed
  timeout 300 python3 "$(dirname "$0")/page_readable.py" "$1" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
    --disable-dev-shm-usage --no-first-run --user-data-dir="$T/profile" \
    > "$T/readable.txt" 2>> "$T/chromium.err"
  local rc=$?
  sed 's/^/  /' "$T/readable.txt"
  return $rc
}
# The text of one figure (its heading, picture and caption), spaces squeezed.
figure_text() {  # PAGE FIGURE_ID
  python3 - "$@" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.depth = 0; self.text = []
    def handle_starttag(self, tag, attrs):
        if self.depth: self.depth += tag == "figure"
        elif tag == "figure" and dict(attrs).get("id") == sys.argv[2]: self.depth = 1
    def handle_endtag(self, tag):
        if self.depth and tag == "figure": self.depth -= 1
    def handle_data(self, d):
        if self.depth: self.text.append(d)
p = P(); p.feed(open(sys.argv[1]).read()); print(" ".join(" ".join(p.text).split()))
PY
}
if command -v gnuplot > /dev/null; then
  check "the --write run's page reads at 1280 px (queue depth, erase stream, SLC cache, heatmaps)" \
    'readable "$T/report.html"'
  # The erase stream's window, cut short by --budget, in one unit (it read
  # "window 32640 MiB to 33685440 KiB").
  check "a byte range is written in one unit" \
    '! grep -Eq "[0-9] (B|[KMGT]iB) to [0-9.]+ (B|[KMGT]iB) \(" "$T/report.html" &&
     grep -Eq "window [0-9]+ to [0-9.]+ (B|[KMGT]iB) \([0-9.]+ [KMGT]iB\) written sequentially" "$T/report.html"'

  # A cache ruled out: the picture says the verdict's bound and marks it,
  # though the fill it draws ran on past it (--cache-bytes 256M: 256 MiB drawn,
  # no cache up to 213 MiB).
  "$SSDPROBE" -q --write --yes --cache-bytes 256M --json "$T/nocache.json" --html "$T/nocache.html" \
    sim:qlc-slc-2g > /dev/null 2>> "$T/run.err"
  reach=$(jq -r '.detected.slc_cache | select(.state == "absent") | .searched_up_to_bytes / 1048576 | floor' \
    "$T/nocache.json")
  drawn=$(jq -r '.detected.slc_cache.curve[-1].written_bytes / 1048576 | floor' "$T/nocache.json")
  echo "# no SLC cache up to ${reach:-?} MiB, fill drawn to $drawn MiB"
  check "the verdict says no SLC cache up to its reach, short of the fill drawn" \
    '[ -n "$reach" ] && [ "$reach" -lt "$drawn" ] &&
     jq -r ".verdict.units[] | select(.unit == \"slc_cache\") | .text" "$T/nocache.json" | grep -qF "no SLC cache up to $reach MiB"'
  figure_text "$T/nocache.html" picture-slc-cache > "$T/slc-words"
  check "the SLC cache picture says the verdict's words and marks the reach it states" \
    'grep -qF "first fill: no SLC cache up to $reach MiB" "$T/slc-words" &&
     grep -qF "$reach MiB: the largest cache this fill could show" "$T/slc-words"'
  check "the page of a run without a cache found reads at 1280 px" 'readable "$T/nocache.html"'

  # The read grids of a run that re-read its written window: the first
  # grid's picture says where the page was found, and with no page in either
  # grid, the run's answer in the report's words ("not determined" is not
  # "no read page": a loop device's picture said so).
  "$SSDPROBE" -q --write --yes --json "$T/fresh.json" --html "$T/fresh.html" sim:fresh-16k > /dev/null 2>> "$T/run.err"
  page=$(jq -r '.detected.read_page | "read page \(.bytes / 1024) KiB"' "$T/fresh.json")
  confidence=$(jq -r .detected.read_page.confidence "$T/fresh.json")
  check "sim:fresh-16k: the page is found by the re-read, and the verdict says it ($page)" \
    'jq -e ".grids | any(.name == \"read-written\")" "$T/fresh.json" > /dev/null &&
     jq -r ".verdict.units[0].text" "$T/fresh.json" | grep -qF "$page"'
  check "sim:fresh-16k: the first read grid's picture draws the page found in the re-read" \
    'figure_text "$T/fresh.html" picture-read |
       grep -qF "Answer drawn: $page (confidence $confidence), found in the read-written grid."'
  jq '.grids += [.grids[] | select(.name == "read") | .name = "read-written"] |
      .detected.read_page = {"bytes": null, "state": "undetermined", "confidence": 0, "evidence": "no step",
                             "to_determine": "rerun with --budget 40"}' "$T/run.json" > "$T/reread.json"
  "$SSDPROBE" -q report "$T/reread.json" --html "$T/reread.html" 2>> "$T/run.err"
  for id in picture-read picture-read-written; do
    check "not determined in both read grids: $id draws it in the report's words" \
      'figure_text "$T/reread.html" $id | grep -qF "Answer drawn: read page not determined (rerun with --budget 40)." &&
       ! figure_text "$T/reread.html" $id | grep -Eq "no read page (in|up to)"'
  done

  # The misalignment picture of an image file with two partitions (one
  # aligned): its panels side by side at their size, titles folded to fit,
  # also with a layer name as long as a /dev/disk/by-id path.
  if command -v sfdisk > /dev/null; then
    truncate -s 64M "$T/disk.img"
    printf 'label: dos\nstart=63, size=40000, type=83\nstart=40960, size=40000, type=83\n' |
      sfdisk -q "$T/disk.img" > /dev/null 2>&1
    "$SSDPROBE" -q --budget 2 --json "$T/disk.json" "$T/disk.img" > /dev/null 2>> "$T/run.err"
    jq '(.audit.checks[] | select(.costs) | .layer) |=
        "partition (/dev/disk/by-id/nvme-Samsung_SSD_980_PRO_with_Heatsink_2TB_S6WSNJ0T123456X_1-part1)"' \
      "$T/disk.json" > "$T/longname.json"
    "$SSDPROBE" -q report "$T/longname.json" --html "$T/disk.html" 2>> "$T/run.err"
    check "an image file's page has the misalignment picture of its two partitions" \
      '[ "$(jq "[.audit.checks[] | select(.costs)] | length" "$T/disk.json")" = 2 ] &&
       grep -q "<figure id=\"picture-misalignment\">" "$T/disk.html"'
    check "the misalignment page reads at 1280 px" 'readable "$T/disk.html"'
  else
    echo "# sfdisk not installed: the misalignment page is not checked"
  fi
fi

# Without gnuplot the page still renders; each picture says why, with a warning.
mkdir -p "$T/bin"
for tool in jq python3; do ln -sf "$(command -v "$tool")" "$T/bin/"; done
PATH="$T/bin" "$SSDPROBE" -q report "$T/run.json" --html "$T/nognuplot.html" 2> "$T/nognuplot.err"
rc=$?
check "without gnuplot: exit 0 and a warning per picture" \
  '[ $rc = 0 ] && [ "$(grep -c "a picture is missing" "$T/nognuplot.err")" = "$n_figures" ]'
check "without gnuplot: each picture's place says why" \
  '[ "$(grep -o "picture-missing" "$T/nognuplot.html" | wc -l)" = "$n_figures" ]'

# Refusals: a document that cannot be used is exit 3 naming it; an output
# over an input or over a result document, or --html onto --json, exit 2.
"$SSDPROBE" report "$T/none.json" --html "$T/x.html" 2> "$T/e1"
check "a missing document: exit 3 naming it" '[ $? = 3 ] && grep -q "none.json" "$T/e1" && [ ! -e "$T/x.html" ]'
echo '{"schema": "other/1"}' > "$T/foreign.json"
"$SSDPROBE" report "$T/foreign.json" --html "$T/x.html" 2> "$T/e2"
check "a foreign document: exit 3 naming it" '[ $? = 3 ] && grep -q "foreign.json" "$T/e2" && [ ! -e "$T/x.html" ]'
"$SSDPROBE" report "$T/run.json" --html "$T/run.json" 2> "$T/e3"
check "--html over the document: exit 2, document kept" '[ $? = 2 ] && jq -e .schema "$T/run.json" > /dev/null'
"$SSDPROBE" report "$T/run.json" --html "$T/evil.json" 2> "$T/e4"
check "--html over another result document: exit 2" '[ $? = 2 ] && jq -e .schema "$T/evil.json" > /dev/null'
"$SSDPROBE" -q --json "$T/same" --html "$T/./same" sim:nvme-tlc-16k > /dev/null 2> "$T/e5"
check "a run's --html onto its --json: exit 2 before any work" '[ $? = 2 ] && [ ! -e "$T/same" ] && grep -q -- "--html" "$T/e5"'
"$SSDPROBE" -q --html "$T/no/such/dir/p.html" sim:nvme-tlc-16k > /dev/null 2> "$T/e6"
check "a run's --html into a missing directory: exit 2 naming it" '[ $? = 2 ] && grep -q "does not exist" "$T/e6"'

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  [ -s "$T/chromium.err" ] && tail -5 "$T/chromium.err" >&2
  exit 1
fi
echo "all report HTML checks passed"
