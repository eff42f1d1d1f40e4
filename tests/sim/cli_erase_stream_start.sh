#!/bin/bash
# Tests that the erase stream starts on a boundary of the write unit found,
# inside the region, so that every write covers whole units:
#  - sim:nvme-tlc-16k (48 KiB write unit, 24 MiB erase block) with
#    --region 2G:512M, a start that is a multiple of 1 MiB but not of 48 KiB:
#    the erase block is found (24 MiB), not ruled out;
#  - sim:tlc-unit-fill (its erase blocks fill by the program units each
#    write touches, 12 MiB): a stream off the unit would stall every 8 MiB
#    and report 8 MiB confidently; it reports 12 MiB.
# In both, write_probe.stream.offset is the region's first byte on a 48 KiB
# boundary, and the timed writes are not slower than whole-unit writes.
#
# Usage: cli_erase_stream_start.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

KiB=1024; MiB=$((1024 * KiB)); GiB=$((1024 * MiB))
unit=$((48 * KiB))
first_on_unit=$(( (2 * GiB + unit - 1) / unit * unit ))  # 2 GiB + 16 KiB

check() {  # check SIM ERASE_BLOCK_BYTES
  local doc
  doc=$("$SSDPROBE" -q --write --yes --region 2G:512M --budget 20 --json - "sim:$1" 2>/dev/null) ||
    fail "$1: exited $?"
  [ "$(jq -r .detected.write_unit.bytes <<<"$doc")" = "$unit" ] ||
    fail "$1: write unit $(jq -c .detected.write_unit.bytes <<<"$doc")"
  [ "$(jq -r .write_probe.stream.offset <<<"$doc")" = "$first_on_unit" ] ||
    fail "$1: the stream starts at $(jq -r .write_probe.stream.offset <<<"$doc"), not $first_on_unit"
  [ "$(jq -r .detected.erase_block.state <<<"$doc")" = found ] ||
    fail "$1: erase block $(jq -r .detected.erase_block.evidence <<<"$doc")"
  [ "$(jq -r .detected.erase_block.bytes <<<"$doc")" = "$2" ] ||
    fail "$1: erase block $(jq -r .detected.erase_block.evidence <<<"$doc"), expected $2 bytes"
  # Whole-unit writes: the stream's median write costs what a 96 KiB write
  # of two whole units costs (about 156 us), not a partial unit's (295 us).
  median=$(jq '.write_probe.stream.latency_us | sort | .[length / 2 | floor] | floor' <<<"$doc")
  [ "$median" -lt 220 ] || fail "$1: the stream's median write took $median us: partial units"
}
check nvme-tlc-16k $((24 * MiB))
check tlc-unit-fill $((12 * MiB))
echo PASS
