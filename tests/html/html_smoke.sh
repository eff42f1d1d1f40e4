#!/bin/bash
# Every HTML writer once, fast: a run's --html, `report --html` and
# `compare --html` on sim documents, checked for what any page must be (made,
# identical from the run and the report, self-contained, every group
# present). report_html and compare_html (suite 'browser') check what a
# reader sees in Chromium; the sanitizer build runs this instead, so the same
# C++ still runs under ASan/UBSan without a browser's minutes.
#
# Usage: html_smoke.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
check() {  # check DESCRIPTION TEST-EXPRESSION
  if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1" >&2; failures=$((failures + 1)); fi
}

mkdir -p "$T/fleet"
"$SSDPROBE" -q --write --yes --seed 3 --json "$T/fleet/a.json" --html "$T/run.html" sim:nvme-tlc-16k > /dev/null 2> "$T/err"
check "a --write run with --json and --html exits 0" '[ $? = 0 ] && [ -s "$T/run.html" ]'
"$SSDPROBE" -q --seed 4 --json "$T/fleet/b.json" sim:sata-mlc-8k > /dev/null 2>> "$T/err"
check "a read-only run exits 0" '[ $? = 0 ] && [ -s "$T/fleet/b.json" ]'
"$SSDPROBE" -q report "$T/fleet/a.json" --html "$T/report.html" 2>> "$T/err"
check "report --html exits 0 and makes the run's page" '[ $? = 0 ] && cmp -s "$T/run.html" "$T/report.html"'
"$SSDPROBE" -q compare --html "$T/compare.html" "$T/fleet" > /dev/null 2>> "$T/err"
check "compare --html exits 0" '[ $? = 0 ] && [ -s "$T/compare.html" ]'
for page in report compare; do
  check "the $page page closes its html and loads nothing" \
    'grep -q "</html>" "$T/$page.html" && ! grep -Eiq "(src|href)=\"(https?:)?//|<script" "$T/$page.html"'
done
for doc in a b; do
  model=$(jq -r .target.model "$T/fleet/$doc.json")
  check "the compare page names $model" 'grep -qF "$model" "$T/compare.html"'
done

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  tail -5 "$T/err" >&2
  exit 1
fi
echo "all HTML smoke checks passed"
