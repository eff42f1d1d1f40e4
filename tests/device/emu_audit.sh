#!/bin/bash
# What misalignment costs, measured on the emulated drive (emudrive behind a
# loop device with direct IO) whose read page is known to be 16 KiB: a DOS
# partition at sector 63 must show a significant cost for 4 KiB reads (a
# quarter of them cross a page), an aligned partition none, and --at states
# the cost of any start.
#
# Usage: emu_audit.sh SSDPROBE EMUDRIVE
#
# No parallelism probe (--max-qd 1): the costs come from the read grid, and
# the probe, which runs after it, would take what the grid leaves of --budget.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq sfdisk
require_root_loop_fuse

mp="$SCRATCH/mnt"
start_emudrive "$mp" --size 1G --read-page 16384 --base-us 60 --page-us 60 --noise-pct 5 --seed 11
dev=$(make_loop "$mp/disk" 512) || exit 1
printf 'label: dos\nstart=63, size=131072, type=83\nstart=262144, size=131072, type=83\n' |
  sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk"

json="$SCRATCH/run.json"
run_logged "$SCRATCH/run.log" "$SSDPROBE" -q --budget 60 --max-qd 1 --at 1536,128M --json "$json" "$dev" ||
  fail "ssdprobe exited $?"
[ "$(jget "$json" .detected.read_page.bytes)" = 16384 ] || fail "read page $(jget "$json" .detected.read_page.bytes), want 16384"

cost() { jq -c --arg f "$1" '.audit.checks[] | select(.field == $f) | .costs[] | select(.op == "read" and .request_bytes == 4096)' "$json"; }
c1=$(cost "partition[1].start")
c2=$(cost "partition[2].start")
note "partition 1 (sector 63): $c1"
note "partition 2 (128 MiB):   $c2"
failures=0
jq -e '.determined and .significant and .ratio_low > 1 and .crossing_share == 0.25 and .aligned_crossing_share == 0' <<<"$c1" >/dev/null ||
  { echo "FAIL: sector 63 shows no significant 4 KiB read cost: $c1" >&2; failures=$((failures + 1)); }
jq -e '.determined and (.significant | not) and .ratio == 1' <<<"$c2" >/dev/null ||
  { echo "FAIL: the aligned partition shows a cost: $c2" >&2; failures=$((failures + 1)); }
at=$(jq -c '[.audit.at[] | {ok, cost: (.costs[] | select(.request_bytes == 4096) | .ratio)}]' "$json")
note "--at 1536,128M: $at"
jq -e '.[0].ok == false and .[0].cost > 1 and .[1].ok == true and .[1].cost == 1' <<<"$at" >/dev/null ||
  { echo "FAIL: --at costs: $at" >&2; failures=$((failures + 1)); }
grep -q 'cost: 4 KiB reads cost' "$SCRATCH/run.log" || { echo "FAIL: the text report states no cost" >&2; failures=$((failures + 1)); }
grep -A2 'partition\[1\].start' "$SCRATCH/run.log" | sed 's/^/# /'

[ "$failures" = 0 ] || fail "$failures checks failed"
echo "PASS"
