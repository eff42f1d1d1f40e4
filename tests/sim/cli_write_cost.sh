#!/bin/bash
# What a --write run costs, stated before the first write: the question gives
# the bound in the drive's terms (a sim reports no endurance estimate: a
# share of its capacity) and --max-write-bytes; a phase whose bound does not
# fit is left out whole, with the reason in the question, the document's
# phases and notes, and the text report. The cap holds what was written.
#
# Usage: cli_write_cost.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-cost.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT
REASON="SLC cache probe skipped: its fill needs up to 16 GiB, 2 GiB left of --max-write-bytes 2 GiB"

# The default: every phase fits under 20 GiB; the share of the 64 GiB sim.
"$SSDPROBE" --write --yes --budget 2 --json "$T/default.json" sim:nvme-tlc-16k < /dev/null > "$T/default.txt" \
  2> "$T/default.err" || fail "default --write run exited $?: $(tail -n 3 "$T/default.err")"
grep -q "writes at most 19327352832 bytes (18 GiB) in all" "$T/default.err" ||
  fail "the default bound (no restore on a sim) is not stated: $(cat "$T/default.err")"
grep -q "18 GiB is 28 % of this 64 GiB device's capacity (the drive reports no endurance estimate)" "$T/default.err" ||
  fail "the share of the drive is not stated: $(cat "$T/default.err")"
grep -q "capped by --max-write-bytes 20 GiB (21474836480 bytes)" "$T/default.err" || fail "the default cap is not stated"
grep -q "left out" "$T/default.err" && fail "the default cap left a phase out"
jq -e '.phases[] | select(.name == "slc_cache") | .state != "skipped"' "$T/default.json" > /dev/null ||
  fail "the SLC cache probe did not run under the default cap"

# A 2 GiB cap: the 16 GiB cache fill does not fit, the rest does.
"$SSDPROBE" --write --yes --budget 2 --max-write-bytes 2G --json "$T/capped.json" sim:nvme-tlc-16k < /dev/null \
  > "$T/capped.txt" 2> "$T/capped.err" || fail "capped --write run exited $?: $(tail -n 3 "$T/capped.err")"
grep -qF "left out: $REASON" "$T/capped.err" || fail "the question does not name the phase left out: $(cat "$T/capped.err")"
grep -q "writes at most 2147483648 bytes (2 GiB) in all: write grid" "$T/capped.err" ||
  fail "the capped bound is not stated: $(cat "$T/capped.err")"
grep -q "2 GiB is 3.1 % of this 64 GiB device's capacity" "$T/capped.err" || fail "the capped share is not stated"
for phase in slc_cache write_grid_in_cache; do
  jq -e --arg p "$phase" --arg r "$REASON" '.phases[] | select(.name == $p) | .state == "skipped" and .reason == $r' \
    "$T/capped.json" > /dev/null || fail "phase $phase is not skipped with the reason: $(jq -c '.phases' "$T/capped.json")"
done
jq -e '.phases[] | select(.name == "write_grid") | .state != "skipped"' "$T/capped.json" > /dev/null ||
  fail "the write grid was skipped though it fits"
jq -e --arg r "$REASON" '[.notes[] | select(. == $r)] | length == 1' "$T/capped.json" > /dev/null ||
  fail "the reason is not one note: $(jq -c '.notes' "$T/capped.json")"
jq -e '.write_probe.bytes_written <= 2147483648' "$T/capped.json" > /dev/null || fail "wrote more than the cap"
jq -e '.options.max_write_bytes == 2147483648' "$T/capped.json" > /dev/null || fail "the cap is not in the options echo"
grep -qF "$REASON" "$T/capped.txt" || fail "the text report does not say why the cache probe was skipped"

# Bad caps are usage errors naming the option and the value.
for bad in 0 -1G lots; do
  "$SSDPROBE" --write --yes --max-write-bytes="$bad" sim:nvme-tlc-16k < /dev/null > /dev/null 2> "$T/bad.err"; rc=$?
  [ "$rc" = 2 ] || fail "--max-write-bytes $bad: exit $rc, want 2"
  grep -q "invalid --max-write-bytes '$bad'" "$T/bad.err" || fail "--max-write-bytes $bad: $(cat "$T/bad.err")"
done
echo "PASS"
