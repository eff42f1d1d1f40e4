#!/bin/bash
# Tests that `ssdprobe info` reports a loop device's topology exactly as sysfs and blockdev do (sector sizes 512 and 4096).
#
# Usage: loop_topology.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq blockdev
require_root_loop_fuse

errors=0
check_eq() {  # WHAT GOT WANT
  if [ "$2" = "$3" ]; then
    note "ok   $1 = $2"
  else
    echo "FAIL: $1: ssdprobe says '$2', kernel says '$3'" >&2
    errors=$((errors + 1))
  fi
}

# check_device SECTOR: one loop device over a 64 MiB random file.
check_device() {
  local sector="$1"
  local file="$SCRATCH/topo-$sector.img" json="$SCRATCH/topo-$sector.json"
  random_file "$file" $((64 << 20))
  local dev
  dev=$(make_loop "$file" "$sector") || exit 1
  local name="${dev#/dev/}" q="/sys/block/${dev#/dev/}/queue"
  note "sector $sector: $dev"

  run_logged "$SCRATCH/topo-$sector.log" "$SSDPROBE" info --json "$json" "$dev" ||
    fail "ssdprobe info $dev exited with $?"
  [ -s "$json" ] || fail "ssdprobe info did not write $json"

  local field
  for field in logical_block_size physical_block_size minimum_io_size optimal_io_size discard_granularity; do
    check_eq "$name reported.$field" "$(jget "$json" ".reported.$field")" "$(cat "$q/$field")"
  done
  check_eq "$name reported.alignment_offset" "$(jget "$json" .reported.alignment_offset)" \
    "$(cat "/sys/block/$name/alignment_offset")"
  local rot=false
  [ "$(cat "$q/rotational")" = 1 ] && rot=true
  check_eq "$name reported.rotational" "$(jget "$json" .reported.rotational)" "$rot"
  check_eq "$name target.size_bytes" "$(jget "$json" .target.size_bytes)" "$(blockdev --getsize64 "$dev")"
  # Contract of `info` (spec/result-json.md): a block device, no timing IO.
  check_eq "$name target.kind" "$(jget "$json" .target.kind)" block
  check_eq "$name grids (count)" "$(jget "$json" '.grids | length')" 0
  check_eq "$name detected.read_page.bytes" "$(jget "$json" .detected.read_page.bytes)" null
}

check_device 512
check_device 4096

[ "$errors" = 0 ] || fail "$errors mismatches"
echo "PASS"
