#!/bin/bash
# vm_lib.sh's rerun of a stalled guest, with stand-in attempts (no QEMU): a
# failed attempt in a guest that stalled (or never powered off) runs once
# more and the second outcome stands; a failure without stall evidence, or
# in a guest whose kernel only said harmless things, is never rerun.
# Exit: 0 pass, 1 fail.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tests/vm/vm_lib.sh
. "$HERE/vm_lib.sh"
BASE=$(mktemp -d) || exit 1
trap 'rm -rf -- "$BASE"' EXIT

RUNS=0
CASE=0
HANG=""
VM_TIMEOUT=300
# fake_attempt: the Nth call (N = RUNS) fails its checks when FAIL_ON has N,
# leaving EVIDENCE's text as DEST (results/stalls.txt, results/dmesg.txt or
# serial.log); with HANG_ON, the guest gives no results (status 1), and
# never powered off when HANG_ON is "timeout".
fake_attempt() {
  RUNS=$((RUNS + 1))
  SCRATCH="$BASE/case$CASE-run$RUNS"
  mkdir -p "$SCRATCH/results"
  if [[ " $FAIL_ON " == *" $RUNS "* ]]; then
    [ -n "$EVIDENCE" ] && printf '%s\n' "$EVIDENCE" > "$SCRATCH/$DEST"
    case "$HANG" in
      timeout) guest_never_finished; return 1 ;;
      no-results) return 1 ;;
    esac
    ERRORS=$((ERRORS + 1))
  fi
  return 0
}

# vm_lib's ERRORS counts the stand-in guests' failed checks; this test's
# own go in FAILED.
FAILED=0
expect() {  # WHAT GOT WANT
  if [ "$2" = "$3" ]; then note "ok   $1 = $2"; else echo "FAIL: $1: got '$2', expected '$3'" >&2; FAILED=$((FAILED + 1)); fi
}

# case_ NAME FAIL_ON DEST EVIDENCE WANT_STATUS WANT_RUNS: with_one_rerun's
# outcome (0 when it returned 0 with no failed check) and how many guests ran.
case_() {
  local name="$1" status
  FAIL_ON="$2" DEST="$3" EVIDENCE="$4" RUNS=0 ERRORS=0 CASE=$((CASE + 1))
  with_one_rerun fake_attempt > "$BASE/out.txt" 2>&1
  status=$?
  [ "$ERRORS" = 0 ] || status=1
  expect "$name: outcome" "$status" "$5"
  expect "$name: guests" "$RUNS" "$6"
}

case_ "passes first time" "" results/stalls.txt "" 0 1
case_ "stalled step, then passes" "1" results/stalls.txt "[131] ran into its 120 s limit (exit 130): ssdprobe" 0 2
expect "the evidence is shown" "$(grep -c '^#   stall: \[131\] ran into its 120 s limit' "$BASE/out.txt")" 1
case_ "nvme timeout in dmesg, then passes" "1" results/dmesg.txt \
  "[  95.1] nvme nvme0: I/O 12 QID 1 timeout, aborting" 0 2
case_ "hung task on the console of a guest that never powered off" "1" serial.log \
  "[ 242.0] INFO: task ssdprobe:151 blocked for more than 120 seconds." 0 2
case_ "stalled twice" "1 2" results/stalls.txt "[131] ran into its 120 s limit (exit 130): ssdprobe" 1 2
case_ "failed without a stall: no rerun" "1" results/stalls.txt "" 1 1
case_ "harmless kernel warning: no rerun" "1" results/dmesg.txt \
  "[   3.3] nvme nvme0: Ignoring bogus Namespace Identifiers" 1 1
case_ "a heartbeat naming a task is not a kernel complaint: no rerun" "1" serial.log \
  "vmtest: [60] alive, load 1.00 0.50 0.20; 151 (nvme-timeout-x) in io_schedule" 1 1
HANG=timeout
case_ "a guest that never powered off, then passes" "1" serial.log "" 0 2
HANG=no-results
case_ "no results and no stall: no rerun" "1" serial.log "" 1 1
HANG=""

[ "$FAILED" = 0 ] || fail "$FAILED checks failed"
echo PASS
