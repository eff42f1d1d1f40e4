#!/bin/bash
# The alerting rules shipped in share/prometheus/ssdprobe-rules.yml:
#  - `promtool check rules` accepts them;
#  - `promtool test rules` runs tests/monitoring/ssdprobe_rules_test.yml
#    (a unit that changes size across a firmware update alerts for a day,
#    one no longer found likewise, an unchanged drive never);
#  - the series and labels those rules and tests use are the ones ssdprobe
#    writes: a sim run's --prometheus file has ssdprobe_unit_bytes and
#    ssdprobe_unit_state with serial, command, unit (and state) labels.
# Needs promtool; skips (77) without.
#
# Usage: prometheus_rules.sh SSDPROBE SOURCE_DIR
set -u
SSDPROBE=$(realpath "${1:-}")
SOURCE=$(realpath "${2:-}")
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$SSDPROBE" ] && [ -d "$SOURCE" ] || fail "usage: $0 SSDPROBE SOURCE_DIR"
command -v promtool > /dev/null ||
  { echo "SKIP: promtool is not installed (scripts/install-deps --tests installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rules="$SOURCE/share/prometheus/ssdprobe-rules.yml"
promtool check rules "$rules" > "$work/check.log" 2>&1 || fail "promtool check rules: $(cat "$work/check.log")"
promtool test rules "$SOURCE/tests/monitoring/ssdprobe_rules_test.yml" > "$work/test.log" 2>&1 ||
  fail "promtool test rules: $(cat "$work/test.log")"

"$SSDPROBE" -q --budget 2 sim:nvme-tlc-16k --prometheus "$work/run.prom" > /dev/null || fail "the sim run failed"
grep -qE '^ssdprobe_unit_bytes\{[^}]*serial="SIM-nvme-tlc-16k"[^}]*command="run"[^}]*unit="read_page"\} 16384$' \
  "$work/run.prom" || fail "no ssdprobe_unit_bytes with the labels the rules use: $(grep unit_bytes "$work/run.prom")"
grep -qE '^ssdprobe_unit_state\{[^}]*serial="SIM-nvme-tlc-16k"[^}]*command="run"[^}]*unit="read_page",state="found"\} 1$' \
  "$work/run.prom" || fail "no ssdprobe_unit_state with the labels the rules use: $(grep unit_state "$work/run.prom")"
# Every label the rules group or select by is one ssdprobe writes.
for name in $(grep -oE '(by|on) \([a-z_, ]+\)|[a-z_]+(=|!=)"' "$rules" | grep -oE '[a-z_]+' | grep -vx 'by\|on' | sort -u); do
  grep -q "[{,]$name=\"" "$work/run.prom" || fail "the rules use a label ssdprobe does not write: $name"
done
echo "PASS"
