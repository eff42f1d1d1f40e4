#!/bin/bash
# Tests that ssdprobe detects the read page of an emulated drive (emudrive behind a real loop device with direct IO), and reports none when there is no page step.
#
# Usage: emu_read_page.sh SSDPROBE EMUDRIVE
#
# No parallelism probe (--max-qd 1): it measures nothing this test checks,
# and it would take what the read grid leaves of --budget.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq
require_root_loop_fuse

failures=0

# case_run SECTOR READ_PAGE ENGINE: expects detected.read_page.bytes to be
# READ_PAGE, or null when READ_PAGE is 0.
case_run() {
  local sector="$1" page="$2" engine="$3"
  local tag="s$sector-p$page-$engine"
  local mp="$SCRATCH/mnt-$tag" json="$SCRATCH/$tag.json"
  start_emudrive "$mp" --size 1G --read-page "$page" --base-us 60 --page-us 60 \
    --noise-pct 5 --seed 7
  local dev
  dev=$(make_loop "$mp/disk" "$sector") || exit 1

  local t0=$SECONDS
  run_logged "$SCRATCH/$tag.log" "$SSDPROBE" -q --budget 60 --max-qd 1 --engine "$engine" --json "$json" "$dev"
  local rc=$?
  [ "$rc" = 0 ] || fail "$tag: ssdprobe exited with $rc"

  local want=$page got
  [ "$page" = 0 ] && want=null
  got=$(jget "$json" .detected.read_page.bytes)
  if [ "$got" = "$want" ]; then
    note "ok   $tag: read_page $got ($((SECONDS - t0)) s): $(jget "$json" .detected.read_page.evidence)"
  else
    echo "FAIL: $tag: detected.read_page.bytes = $got, want $want" >&2
    jq -c .detected.read_page "$json" >&2
    grep -A3 '^Evidence' "$SCRATCH/$tag.log" >&2
    failures=$((failures + 1))
  fi
}

case_run 512 8192 uring
case_run 4096 16384 uring
case_run 512 0 uring
case_run 4096 16384 psync

[ "$failures" = 0 ] || fail "$failures of 4 cases wrong"
echo "PASS"
