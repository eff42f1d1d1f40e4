#!/bin/bash
# Tests that --write finds the write unit and erase block of an emulated drive (emudrive behind a loop device with direct IO; 512 and 4096-byte sectors, a non-power-of-two unit and block), reports a null erase block, searched "up to" a size, when the drive has no erase stalls, and names no multiple of the block on a full drive collecting garbage.
#
# Usage: emu_write.sh SSDPROBE EMUDRIVE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq b2sum
require_root_loop_fuse

MIB=$((1 << 20))
SIZE=$((1024 * MIB))
# The documented default window of a 1 GiB device: 256 MiB from the middle.
WIN_OFF=$((384 * MIB))
WIN_LEN=$((256 * MIB))

slice_hash() {
  dd if="$1" bs=1M iflag=direct skip=$(($2 / MIB)) count=$(($3 / MIB)) status=none | b2sum | cut -d' ' -f1
}
sectors_written() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# case_run TAG SECTOR WRITE_UNIT ERASE_BLOCK EMUDRIVE_ARGS...: expects
# detected.write_unit.bytes = WRITE_UNIT and detected.erase_block.bytes =
# ERASE_BLOCK ("null": none, and the evidence says up to which size; "A|B":
# either).
case_run() {
  local tag="$1" sector="$2" want_unit="$3" want_erase="$4"; shift 4
  local mp="$SCRATCH/mnt-$tag" json="$SCRATCH/$tag.json" log="$SCRATCH/$tag.log" trace="$SCRATCH/$tag.trace"
  local f0=$failures
  start_emudrive "$mp" --size "$SIZE" --trace "$trace" "$@"
  local dev
  dev=$(make_loop "$mp/disk" "$sector") || exit 1
  # Content to preserve: random data over the window.
  dd if=/dev/urandom of="$dev" bs=1M seek=$((WIN_OFF / MIB)) count=$((WIN_LEN / MIB)) oflag=direct status=none ||
    fail "$tag: cannot fill the window"
  local before s0 s1 rc t0
  before=$(slice_hash "$dev" "$WIN_OFF" "$WIN_LEN")
  : > "$trace"
  s0=$(sectors_written "$dev")
  t0=$(date +%s.%N)
  "$SSDPROBE" --write --yes --journal "$SCRATCH/j" --budget "${CASE_BUDGET:-20}" --json "$json" "$dev" < /dev/null > "$log" 2>&1
  rc=$?
  local wall
  wall=$(echo "$(date +%s.%N) - $t0" | bc)
  s1=$(sectors_written "$dev")
  [ "$rc" = 0 ] || { bad "$tag: ssdprobe exited with $rc: $(tail -n 5 "$log")"; return; }

  local unit erase
  unit=$(jget "$json" .detected.write_unit.bytes)
  erase=$(jget "$json" .detected.erase_block.bytes)
  if [ "$unit" != "$want_unit" ]; then
    bad "$tag: detected.write_unit.bytes = $unit, want $want_unit; evidence: $(jget "$json" .detected.write_unit.evidence); levels: $(jq -c .detected.write_unit.levels "$json")"
  fi
  if ! [[ "|$want_erase|" == *"|$erase|"* ]]; then
    bad "$tag: detected.erase_block.bytes = $erase, want $want_erase; evidence: $(jget "$json" .detected.erase_block.evidence)"
  fi
  # A drive that has a block (inside the 42.6 MiB searched) never has it
  # ruled out; not determined (stalls that hide a block's), where a case
  # allows it, names the rerun that would tell.
  if [ "$want_erase" != null ] && [ "$(jget "$json" .detected.erase_block.state)" = absent ]; then
    bad "$tag: the erase block is ruled out (absent), want ${want_erase%%|*} or not determined: $(jget "$json" .detected.erase_block.evidence)"
  elif [ "$want_erase" != null ] && [ "$(jget "$json" .detected.erase_block.state)" = undetermined ]; then
    [ -n "$(jget "$json" .detected.erase_block.to_determine)" ] ||
      bad "$tag: an undetermined erase block without to_determine: $(jget "$json" .detected.erase_block.evidence)"
  elif [ "$erase" = null ]; then
    jget "$json" .detected.erase_block.evidence | grep -q "up to" ||
      bad "$tag: the erase-block evidence does not say up to which size it searched: $(jget "$json" .detected.erase_block.evidence)"
    [ "$(jget "$json" .detected.erase_block.searched_up_to_bytes)" != null ] ||
      bad "$tag: detected.erase_block.searched_up_to_bytes is null"
  fi
  [ "$(jget "$json" .detected.erase_block.device_state)" != null ] || bad "$tag: detected.erase_block.device_state is null"

  # Safety through the real kernel path: every write inside the window, the
  # window restored, the journal gone.
  local outside
  outside=$(awk -v lo="$WIN_OFF" -v hi=$((WIN_OFF + WIN_LEN)) '$1 == "W" && ($2 < lo || $2 + $3 > hi)' "$trace" | head -n 3)
  [ -z "$outside" ] || bad "$tag: writes outside the window $WIN_OFF+$WIN_LEN: $outside"
  [ "$(jq -c .write_probe.region "$json")" = "{\"offset\":$WIN_OFF,\"length\":$WIN_LEN}" ] ||
    bad "$tag: write window $(jq -c .write_probe.region "$json"), want $WIN_OFF+$WIN_LEN"
  [ "$(jget "$json" .write_probe.restored)" = true ] || bad "$tag: .write_probe.restored is not true"
  [ "$(slice_hash "$dev" "$WIN_OFF" "$WIN_LEN")" = "$before" ] || bad "$tag: THE WINDOW IS NOT BIT-IDENTICAL after the run"
  [ -z "$(find "$SCRATCH/j" -name '*.ssdpj')" ] || bad "$tag: journal left behind"

  local written
  written=$(jget "$json" .write_probe.bytes_written)
  note "$tag: wall $wall s (ssdprobe duration_s $(jget "$json" .duration_s)), probes wrote $written bytes ($((written / MIB)) MiB), device received $(((s1 - s0) * 512)) bytes incl. the restore"
  note "     write unit: $(jget "$json" .detected.write_unit.evidence)"
  note "     erase block: $(jget "$json" .detected.erase_block.evidence)"
  [ "$failures" = "$f0" ] && note "ok   $tag: write unit $unit, erase block $erase"
}

case_run s512-u32k-e8m 512 32768 $((8 * MIB)) \
  --write-unit 32768 --write-us 80 --rmw-us 150 --erase-block 8M --erase-stall-us 2000
case_run s4096-u48k-e12m 4096 49152 $((12 * MIB)) \
  --write-unit 48k --write-us 80 --rmw-us 150 --erase-block 12M --erase-stall-us 2000
# With 5 % noise: the same answers, and no period made up from noise alone.
case_run s4096-u48k-e12m-noise 4096 49152 $((12 * MIB)) \
  --write-unit 48k --write-us 80 --rmw-us 150 --erase-block 12M --erase-stall-us 2000 --noise-pct 5 --seed 7
case_run s512-u16k-nostall-noise 512 16384 null \
  --write-unit 16k --write-us 80 --rmw-us 150 --noise-pct 5 --seed 7

# A full drive collecting garbage (issue 38): every write waits 1-3 ms
# until the drive has idled, which hides most of the 2 ms erase stalls. The
# block is 8 MiB or not determined, never a multiple of it (stop 51's fix:
# this seed had named 40 MiB, 5 of 6 writes on a 40 MiB period happening to
# be slow) and never ruled out (stop 52's: the waits' spread hides stalls
# under 2.5 ms here), and the write unit is still found. The default budget: the
# stream must be long enough to reach such multiples (--budget 20 cuts it
# to about 13 MiB).
CASE_BUDGET=60 case_run s4096-u32k-e8m-gc 4096 32768 "$((8 * MIB))|null" \
  --write-unit 32k --write-us 80 --rmw-us 150 --erase-block 8M --erase-stall-us 2000 --noise-pct 5 --seed 1 \
  --gc-pool 128M --gc-pool-start 0 --gc-stall-us 2000 --gc-reclaim-bytes-per-s 128M

[ "$failures" = 0 ] || fail "$failures of 5 cases wrong"
echo "PASS"
