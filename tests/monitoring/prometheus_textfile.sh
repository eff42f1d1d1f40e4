#!/bin/bash
# --prometheus with the real consumers: Debian's prometheus-node-exporter
# reads the files through its textfile collector (on 127.0.0.1, a free port,
# only that collector), curl scrapes it, and `promtool check metrics` lints
# every file. The documents come from runs this test makes:
#  - a sim run (sim:nvme-tlc-16k: a 16 KiB read page the kernel under-reports
#    as 512 B) with --at 32256,4096,4096,4k: read page, mismatches, unit
#    states, the measured cost of a start at sector 63, and 4096 priced once
#    however often it is given;
#  - `report --prometheus` of a saved document whose audit.at holds each
#    start twice: each series still once (node_exporter logs a repeated one
#    as "was collected before" and drops it);
#  - `audit` of a disk image with a partition at sector 63 (an error), whose
#    file name holds a double quote and a newline (label escaping), and its
#    wall time as the duration (the daily audit's, once always 0);
#  - `report --prometheus` of a saved document with no serial, and of one
#    from an older writer (ssdprobe/1.0 without verdict.findings_by_severity,
#    without detected.slc_cache): the series it has fields for;
#  - `info` of a missing file: exit 3 and ssdprobe_up 0;
#  - a document of another major version: refused, nothing written.
# Needs node_exporter, promtool, curl, jq and sfdisk; skips (77) without.
#
# Usage: prometheus_textfile.sh SSDPROBE
set -u
SSDPROBE=$(realpath "${1:-}")
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ -x "$SSDPROBE" ] || fail "usage: $0 SSDPROBE"
for tool in prometheus-node-exporter promtool curl jq sfdisk python3; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (scripts/install-deps --tests installs it)"
done

work=$(mktemp -d)
exporter=""
cleanup() {
  [ -n "$exporter" ] && kill "$exporter" 2>/dev/null && wait "$exporter" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
textfiles="$work/textfile"
mkdir "$textfiles"

# --- The documents and their metrics.
"$SSDPROBE" -q --budget 5 --at 32256,4096,4096,4k sim:nvme-tlc-16k --json "$work/run.json" \
  --prometheus "$textfiles/run.prom" > /dev/null ||
  fail "the sim run failed"
[ "$(jq -c '[.audit.at[].disk_offset]' "$work/run.json")" = "[32256,4096]" ] ||
  fail "--at 32256,4096,4096,4k did not audit each offset once: $(jq -c '[.audit.at[].disk_offset]' "$work/run.json")"
jq '.audit.at += .audit.at | .target.path = "/dev/repeats"' "$work/run.json" > "$work/repeats.json"
"$SSDPROBE" report "$work/repeats.json" -q --prometheus "$textfiles/repeats.prom" ||
  fail "report --prometheus of a document with repeated starts failed"
grep -q '^# ssdprobe: left out a repeated series (the first is kept): ssdprobe_misalignment_cost_ratio{' \
  "$textfiles/repeats.prom" || fail "the repeated starts are not named: $(cat "$textfiles/repeats.prom")"

image="$work/odd \"disk\"
name.img"
truncate -s 64M "$image"
printf 'start=63,size=20000\nstart=22528\n' | sfdisk -q "$image" > /dev/null 2>&1 || fail "sfdisk failed"
"$SSDPROBE" audit "$image" -q --fail-on never --json "$work/audit.json" --prometheus "$textfiles/audit.prom" \
  > /dev/null ||
  fail "the audit failed"

jq '.target.serial = null' "$work/run.json" > "$work/no-serial.json"
"$SSDPROBE" report "$work/no-serial.json" -q --prometheus "$textfiles/no-serial.prom" ||
  fail "report --prometheus of a document with no serial failed"
jq '.schema = "ssdprobe/1.0" | del(.verdict.findings_by_severity) | del(.detected.slc_cache)
    | .target.path = "/dev/older"' "$work/run.json" > "$work/older.json"
"$SSDPROBE" report "$work/older.json" -q --prometheus "$textfiles/older.prom" ||
  fail "report --prometheus of an ssdprobe/1.0 document failed"

"$SSDPROBE" info "$work/missing.img" -q --prometheus "$textfiles/failed.prom" > /dev/null 2>&1
rc=$?
[ "$rc" = 3 ] || fail "info of a missing file exited $rc, not 3"
grep -q '^ssdprobe_up{device="[^"]*missing.img",.*command="info"} 0$' "$textfiles/failed.prom" ||
  fail "no ssdprobe_up 0 for the missing file: $(cat "$textfiles/failed.prom")"

jq '.schema = "ssdprobe/2"' "$work/run.json" > "$work/v2.json"
"$SSDPROBE" report "$work/v2.json" -q --prometheus "$work/v2.prom" 2> "$work/v2.err"
rc=$?
[ "$rc" = 3 ] || fail "an ssdprobe/2 document gave exit $rc, not 3"
[ ! -e "$work/v2.prom" ] || fail "metrics were written for an ssdprobe/2 document"
grep -q 'ssdprobe/2' "$work/v2.err" || fail "the refusal does not name the version: $(cat "$work/v2.err")"

# No temporary file is left where the collector looks.
leftovers=$(find "$textfiles" -name '*.partial')
[ -z "$leftovers" ] || fail "temporary files left: $leftovers"

for f in "$textfiles"/*.prom; do
  problems=$(promtool check metrics < "$f" 2>&1) || fail "promtool rejects $(basename "$f"): $problems"
  [ -z "$problems" ] || fail "promtool on $(basename "$f"): $problems"
done

# --- node_exporter reads them.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
prometheus-node-exporter --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
  --collector.textfile --collector.textfile.directory="$textfiles" > "$work/exporter.log" 2>&1 &
exporter=$!
scrape="$work/scrape.txt"
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/metrics" > "$scrape" 2>/dev/null && break
  sleep 0.1
done
[ -s "$scrape" ] || fail "node_exporter did not answer: $(cat "$work/exporter.log")"
grep -q '^node_textfile_scrape_error 0$' "$scrape" ||
  fail "the textfile collector reports an error: $(grep -i 'textfile\|error' "$scrape" "$work/exporter.log" | head)"

# expect WHAT NAME VALUE [LABEL=VALUE...]: a scraped sample of NAME with
# these label values (others may be there too; node_exporter sorts labels)
# has VALUE ("*": any number). The label values are as the exposition text
# unescapes them.
expect() {
  python3 - "$scrape" "$@" <<'PY' || fail "$1: no sample $2 $3 with $(printf '%q ' "${@:4}")"
import re, sys
scrape, what, name, value, *wanted = sys.argv[1:]
wanted = dict(w.split("=", 1) for w in wanted)
label = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
def unescape(v):
    return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), v)
for line in open(scrape):
    m = re.match(r'(\w+)\{(.*)\} (\S+)$', line.rstrip("\n"))
    if not m or m.group(1) != name:
        continue
    labels = {k: unescape(v) for k, v in label.findall(m.group(2))}
    if all(labels.get(k) == v for k, v in wanted.items()) and (value == "*" or float(m.group(3)) == float(value)):
        sys.exit(0)
sys.exit(1)
PY
}
sim=(device=sim:nvme-tlc-16k "model=ssdprobe simulated drive nvme-tlc-16k" serial=SIM-nvme-tlc-16k firmware=sim
     command=run)
page=$(jq '.detected.read_page.bytes' "$work/run.json")
min_io=$(jq '.reported.minimum_io_size' "$work/run.json")
warnings=$(jq '[.mismatches[] | select(.severity == "warning")] | length' "$work/run.json")
[ "$warnings" -gt 0 ] || fail "the sim run found no mismatch to check"
expect "the run's ssdprobe_up" ssdprobe_up 1 "${sim[@]}"
expect "the read page" ssdprobe_unit_bytes "$page" "${sim[@]}" unit=read_page
expect "the read page's state" ssdprobe_unit_state 1 "${sim[@]}" unit=read_page state=found
expect "the erase block's state" ssdprobe_unit_state 1 "${sim[@]}" unit=erase_block state=not_measured
expect "minimum_io_size" ssdprobe_sysfs_bytes "$min_io" "${sim[@]}" attribute=minimum_io_size
expect "the mismatch count" ssdprobe_mismatches "$warnings" "${sim[@]}" severity=warning
expect "the run's timestamp" ssdprobe_last_run_timestamp_seconds "*" "${sim[@]}"
cost=$(jq '.audit.at[0].costs[] | select(.op == "read" and .request_bytes == 4096) | .ratio' "$work/run.json")
{ [ -n "$cost" ] && [ "$cost" != null ]; } || fail "the run measured no 4 KiB read cost at 32256"
expect "the cost at sector 63" ssdprobe_misalignment_cost_ratio "$cost" "${sim[@]}" offset_bytes=32256 op=read \
  request_bytes=4096

# The audit: its odd path (a quote and a newline) comes back whole; one error.
expect "the audit of the oddly named image" ssdprobe_up 1 "device=$image" command=audit
expect "the audit's error (sector 63)" ssdprobe_audit_findings 1 "device=$image" command=audit severity=error
audit_s=$(jq '.duration_s' "$work/audit.json")
jq -e '.duration_s > 0 and .duration_s < 60' "$work/audit.json" > /dev/null ||
  fail "the audit's duration_s is $audit_s, not its wall time"
expect "the audit's wall time" ssdprobe_last_run_duration_seconds "$audit_s" "device=$image" command=audit

expect "the cost at 4096" ssdprobe_misalignment_cost_ratio "*" "${sim[@]}" offset_bytes=4096 op=read \
  request_bytes=4096
expect "the document with repeated starts" ssdprobe_misalignment_cost_ratio "$cost" device=/dev/repeats \
  offset_bytes=32256 op=read request_bytes=4096
expect "the document with no serial" ssdprobe_up 1 device=sim:nvme-tlc-16k serial= command=run
expect "the older document" ssdprobe_up 1 device=/dev/older
expect "the older document's read page" ssdprobe_unit_bytes "$page" device=/dev/older unit=read_page
grep -Eq '^ssdprobe_audit_findings\{.*device="/dev/older"' "$scrape" &&
  fail "the older document has no findings_by_severity, yet its findings are exported"
expect "the failed info" ssdprobe_up 0 "device=$work/missing.img" model= serial= firmware= command=info
# node_exporter logs a series it saw twice (and drops it) while it answers the scrape.
if grep -q 'was collected before' "$work/exporter.log"; then
  fail "node_exporter dropped a repeated series: $(grep 'was collected before' "$work/exporter.log" | head -3)"
fi
echo "PASS: $(grep -c '^ssdprobe_' "$scrape") ssdprobe series scraped from $(ls "$textfiles" | wc -l) files"
