#!/bin/bash
# Tests that a characterization run never writes to a real block device (loop, both sector sizes, both engines) and only issues sector-aligned sizes and offsets.
#
# Usage: loop_readonly.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq sha256sum
require_root_loop_fuse

# mtime with nanoseconds: a write through the loop device would update it.
mtime_of() { stat -c %y "$1"; }

# check_grids JSON SECTOR: every grid's sizes and offsets are multiples of the
# sector size and no size is below it.
check_grids() {
  local json="$1" sector="$2"
  [ "$(jget "$json" '.grids | length')" -ge 1 ] || fail "$json: no grid"
  local bad
  bad=$(jq --argjson s "$sector" '[.grids[] | (.sizes[] | select(. < $s or . % $s != 0)),
                                               (.offsets[] | select(. % $s != 0))]' "$json")
  [ "$(jq length <<< "$bad")" = 0 ] || fail "$json: sizes/offsets not multiples of $sector (or below it): $bad"
  note "grids: sizes $(jq -c '[.grids[].sizes] | add | unique' "$json")"
}

# run_once DEV FILE SECTOR ENGINE
run_once() {
  local dev="$1" file="$2" sector="$3" engine="$4"
  local json="$SCRATCH/ro-$sector-$engine.json"
  local sum_before sum_after mtime_before
  sum_before=$(sha256sum < "$dev")
  mtime_before=$(mtime_of "$file")
  run_logged "$SCRATCH/ro-$sector-$engine.log" \
    "$SSDPROBE" -q --budget 5 --engine "$engine" --json "$json" "$dev"
  local rc=$?
  [ "$rc" = 0 ] || fail "ssdprobe --engine $engine $dev (sector $sector) exited with $rc"
  sum_after=$(sha256sum < "$dev")
  [ "$sum_before" = "$sum_after" ] || fail "content of $dev changed (sector $sector, engine $engine)"
  [ "$(mtime_of "$file")" = "$mtime_before" ] || fail "backing file mtime changed (sector $sector, engine $engine)"
  check_grids "$json" "$sector"
  note "ok   sector $sector engine $engine: content and mtime unchanged"
}

for sector in 512 4096; do
  file="$SCRATCH/ro-$sector.img"
  random_file "$file" $((64 << 20))
  dev=$(make_loop "$file" "$sector") || exit 1
  for engine in uring psync; do
    run_once "$dev" "$file" "$sector" "$engine"
  done
done
echo "PASS"
