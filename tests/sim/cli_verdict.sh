#!/bin/bash
# The verdict as a reader and a script use it: the text's first line is the
# JSON's verdict.summary; it names the worst audit finding first, with its
# measured cost and first fix, and never calls the defaults right while the
# disk holds a misaligned layer; each unit is found, ruled out ("none up to
# X"), not determined (with what would tell) or not measured, in the text,
# the JSON, compare and plot titles; `audit` exits 8 on an error finding
# and `--fail-on` sets the level for runs and audits.
#
# Usage: cli_verdict.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
for c in jq sfdisk; do command -v $c >/dev/null || { echo "SKIP: $c not installed"; exit 77; }; done
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-verdict.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT
same_first_line() {  # TEXT JSON: the text's first line is verdict.summary
  [ "$(head -n 1 "$1")" = "$(jq -r .verdict.summary "$2")" ] || fail "$1: first line '$(head -n 1 "$1")' is not verdict.summary '$(jq -r .verdict.summary "$2")'"
}

# A clean simulated drive, read-only: the page found, the write units not
# measured with what would measure them, the defaults judged.
"$SSDPROBE" -q --json "$T/clean.json" sim:nvme-tlc-16k > "$T/clean.txt" || fail "clean run exited $?"
same_first_line "$T/clean.txt" "$T/clean.json"
jq -e '.verdict.units[0] | .state == "found" and .bytes == 16384' "$T/clean.json" >/dev/null ||
  fail "read page: $(jq -c '.verdict.units[0]' "$T/clean.json")"
jq -e '.verdict.units[1] | .state == "not_measured" and (.to_determine | test("--write"))' "$T/clean.json" >/dev/null ||
  fail "write unit: $(jq -c '.verdict.units[1]' "$T/clean.json")"
jq -e '.verdict.findings == [] and .verdict.findings_by_severity.error == 0' "$T/clean.json" >/dev/null ||
  fail "findings on a sim: $(jq -c '.verdict.findings' "$T/clean.json")"
grep -q "write unit: not measured (no --write)" "$T/clean.txt" && fail "old wording"

# A read page not determined: --budget cut the grid; the verdict says what
# would tell, in the text and the JSON.
"$SSDPROBE" -q --budget 0.05 --json "$T/short.json" sim:nvme-tlc-16k > "$T/short.txt" || fail "short run exited $?"
same_first_line "$T/short.txt" "$T/short.json"
state=$(jq -r '.verdict.units[0].state' "$T/short.json")
if [ "$state" = not_determined ]; then
  jq -r '.verdict.units[0].to_determine' "$T/short.json" | grep -q -- "--budget [0-9]" ||
    fail "not determined without what would tell: $(jq -c '.verdict.units[0]' "$T/short.json")"
  head -n 1 "$T/short.txt" | grep -q "^INCONCLUSIVE: read page not determined" ||
    fail "first line: $(head -n 1 "$T/short.txt")"
  # The one rerun that would tell, as a command keeping the run's options.
  sed -n 2p "$T/short.txt" | grep -Eqx "  first: ssdprobe --budget [0-9]+ sim:nvme-tlc-16k" ||
    fail "first: $(sed -n 2p "$T/short.txt")"
  [ "$(jq -r .detected.read_page.to_determine "$T/short.json")" = "$(jq -r '.verdict.units[0].to_determine' "$T/short.json")" ] ||
    fail "detected.read_page.to_determine differs from the verdict's"
  grep -q "no unit found" "$T/short.txt" && fail "'no unit found' for a page that was not determined"
else
  echo "# --budget 0.05 gave a read page in state $state (nothing to check for not determined)"
fi

# A disk image with a partition at sector 63 and one at 1 MiB.
img="$T/disk.img"
truncate -s 256M "$img"
printf 'start=63, size=200000, type=83\nstart=204800, size=200000, type=83\n' |
  sfdisk -q --label dos --no-reread "$img" >/dev/null 2>&1 || fail "sfdisk failed"
"$SSDPROBE" -q audit --json "$T/a.json" "$img" > "$T/a.txt"; rc=$?
[ "$rc" = 8 ] || fail "audit of a sector-63 partition exited $rc, want 8"
same_first_line "$T/a.txt" "$T/a.json"
head -n 1 "$T/a.txt" | grep -q "^ACTION: partition 1 " || fail "audit verdict: $(head -n 1 "$T/a.txt")"
jq -e '.verdict.findings_by_severity.error >= 1 and .verdict.findings[0].severity == "error"' "$T/a.json" >/dev/null ||
  fail "findings: $(jq -c .verdict.findings "$T/a.json")"
"$SSDPROBE" -q audit --fail-on never "$img" >/dev/null; rc=$?
[ "$rc" = 0 ] || fail "audit --fail-on never exited $rc"

# The timed run on the same disk: the finding comes first, with its cost,
# and the defaults are not called right; runs exit 0 unless --fail-on.
"$SSDPROBE" -q --budget 3 --json "$T/r.json" "$img" > "$T/r.txt"; rc=$?
[ "$rc" = 0 ] || fail "run on the image exited $rc"
same_first_line "$T/r.txt" "$T/r.json"
first=$(head -n 1 "$T/r.txt")
echo "$first" | grep -q "^ACTION: partition 1 " || fail "run verdict: $first"
echo "$first" | grep -q "suit this drive" && fail "the defaults are called right on a misaligned disk: $first"
jq -e '.verdict.defaults_right == false and .verdict.first_action.text != null' "$T/r.json" >/dev/null ||
  fail "verdict: $(jq -c '.verdict | {defaults_right, first_action}' "$T/r.json")"
grep -q "To rebuild the disk from scratch instead" "$T/r.txt" ||
  fail "the new-disk commands are not under their own heading on a disk that holds partitions"
"$SSDPROBE" -q --budget 1 --fail-on error "$img" >/dev/null; rc=$?
[ "$rc" = 8 ] || fail "run --fail-on error exited $rc, want 8"

# A clean disk: audit exits 0 and its verdict names no finding.
truncate -s 256M "$T/ok.img"
printf 'start=2048, size=200000, type=83\n' | sfdisk -q --label dos --no-reread "$T/ok.img" >/dev/null 2>&1 ||
  fail "sfdisk failed"
"$SSDPROBE" -q audit --json "$T/ok.json" "$T/ok.img" > "$T/ok.txt"; rc=$?
[ "$rc" = 0 ] || fail "audit of an aligned disk exited $rc"
jq -e '.verdict.findings == []' "$T/ok.json" >/dev/null || fail "findings: $(jq -c .verdict.findings "$T/ok.json")"
"$SSDPROBE" -q audit --fail-on bogus "$T/ok.img" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "--fail-on bogus exited $rc, want 2"

# Compare and plot titles use the same words: a ruled-out unit is "ruled out".
"$SSDPROBE" -q --json "$T/flat1.json" sim:flat-dram >/dev/null || fail "flat run exited $?"
"$SSDPROBE" -q --seed 2 --json "$T/flat2.json" sim:flat-dram >/dev/null || fail "flat run exited $?"
if [ "$(jq -r .detected.read_page.state "$T/flat1.json")" = absent ]; then
  jq -e '.detected.read_page.searched_up_to_bytes > 0' "$T/flat1.json" >/dev/null || fail "no searched_up_to_bytes"
  "$SSDPROBE" compare "$T/flat1.json" "$T/flat2.json" > "$T/cmp.txt" || fail "compare exited $?"
  grep -q "ruled out" "$T/cmp.txt" || fail "compare does not say ruled out: $(cat "$T/cmp.txt")"
  "$SSDPROBE" compare --csv "$T/cmp.csv" "$T/flat1.json" "$T/flat2.json" >/dev/null || fail "compare --csv exited $?"
  head -n 1 "$T/cmp.csv" | grep -q "read_page_ruled_out" || fail "no ruled_out column"
  if command -v gnuplot >/dev/null; then
    "$SSDPROBE" -q plot "$T/flat1.json" --svg "$T/flat.svg" >/dev/null 2>&1 &&
      { grep -q "no read page up to" "$T/flat.svg" || fail "plot title does not say 'no read page up to'"; }
  fi
else
  fail "sim:flat-dram read page state $(jq -r .detected.read_page.state "$T/flat1.json"), want absent"
fi
echo "PASS"
