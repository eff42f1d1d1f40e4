#!/bin/bash
# --at on simulated drives (no layout on them, so the audit says why and
# only prices the starts asked about): a DOS start at sector 63 costs
# significantly more than an aligned start for 4 KiB reads on a 16 KiB-page
# drive and, with --write, for whole-write-unit writes; an aligned start
# costs exactly 1; a drive without a page shows no cost; bad --at is refused.
#
# Usage: cli_audit_at.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

j=$("$SSDPROBE" -q --write --yes --at 32256,1M --json - sim:nvme-tlc-16k) || fail "run exited $?"
[ "$(jq -r .audit.available <<<"$j")" = false ] || fail "a simulated drive has no layout to audit"
jq -r .audit.reason <<<"$j" | grep -q "simulated drive" || fail "no reason given: $(jq -c .audit <<<"$j")"
cost() { jq -c --argjson i "$1" --arg op "$2" --argjson n "$3" '.audit.at[$i].costs[] | select(.op == $op and .request_bytes == $n)' <<<"$j"; }
read63=$(cost 0 read 4096)
write63=$(cost 0 write 49152)
read1m=$(cost 1 read 4096)
echo "# sector 63, 4 KiB reads:    $(jq -c '{ratio, ratio_low, ratio_high, crossing_share}' <<<"$read63")"
echo "# sector 63, 48 KiB writes:  $(jq -c '{ratio, ratio_low, ratio_high}' <<<"$write63")"
jq -e '.significant and .ratio > 1.1 and .crossing_share == 0.25' <<<"$read63" >/dev/null || fail "4 KiB reads at sector 63: $read63"
jq -e '.significant and .ratio > 1.1' <<<"$write63" >/dev/null || fail "48 KiB writes at sector 63: $write63"
jq -e '.ratio == 1 and (.significant | not)' <<<"$read1m" >/dev/null || fail "4 KiB reads at 1 MiB: $read1m"
[ "$(jq -r '.options.at' <<<"$j")" = "32256,1M" ] || fail "options.at not echoed"

flat=$("$SSDPROBE" -q --at 32256 --json - sim:flat-dram) || fail "flat run exited $?"
jq -e '.audit.at[0].costs[] | select(.request_bytes == 4096) | (.significant | not)' <<<"$flat" >/dev/null ||
  fail "a drive without a page shows a cost: $(jq -c .audit.at[0].costs <<<"$flat")"

"$SSDPROBE" -q --at 1M,,2M sim:flat-dram >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "--at 1M,,2M: exit $rc, want 2"
echo "PASS"
