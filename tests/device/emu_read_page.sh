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

# page_picture JSON PAGE: the heatmap of a real run shows its page: the
# straddling and aligned cells in different colour bands of the picture
# drawn (tests/plots/bands.py says how that is measured), in the full grid
# and folded at the page. Real timings have outlier cells: this is where a
# colour scale they set would hide the page. No extra run: the case's JSON.
page_picture() {
  local json="$1" page="$2" view
  if ! command -v gnuplot >/dev/null || ! command -v python3 >/dev/null; then
    note "picture check skipped: gnuplot or python3 not installed"
    return 0
  fi
  for view in grid fold; do
    local png="$SCRATCH/picture-$view.png" flag=""
    [ "$view" = fold ] && flag=--fold
    if ! "$SSDPROBE" plot "$json" $flag -o "$png" > /dev/null 2> "$SCRATCH/plot.err"; then
      echo "FAIL: plot $view of $json: $(cat "$SCRATCH/plot.err")" >&2
      failures=$((failures + 1))
    elif python3 "$(dirname "$0")/../plots/bands.py" "$png.dat" "$page" > "$SCRATCH/bands.out"; then
      note "ok   picture ($view) shows the $page B page: $(grep -c '^  ok' "$SCRATCH/bands.out") rows apart," \
        "smallest distance $(grep -o 'distance [0-9.]*' "$SCRATCH/bands.out" | sort -k2 -n | head -1 | cut -d' ' -f2)"
    else
      echo "FAIL: the $view picture does not show the $page B page:" >&2
      cat "$SCRATCH/bands.out" >&2
      failures=$((failures + 1))
    fi
  done
}

case_run 512 8192 uring
case_run 4096 16384 uring
[ "$(jget "$SCRATCH/s4096-p16384-uring.json" .detected.read_page.bytes 2>/dev/null)" = 16384 ] &&
  page_picture "$SCRATCH/s4096-p16384-uring.json" 16384
case_run 512 0 uring
case_run 4096 16384 psync

[ "$failures" = 0 ] || fail "$failures of the 4 cases and 2 pictures wrong"
echo "PASS"
