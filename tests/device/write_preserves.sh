#!/bin/bash
# Tests that a --write run on loop devices of random content (512 and 4096-byte sectors, io_uring and psync) leaves them bit-identical, reports its writes truthfully and within the documented cap, leaves no journal, and that --no-preserve destroys exactly the write window (default or --region) and says so.
#
# Usage: write_preserves.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq b2sum
require_root_loop_fuse

MIB=$((1 << 20))
SIZE=$((600 * MIB))   # the default window is then its full 256 MiB
J="$SCRATCH/j"

# slice_hash DEV OFFSET LENGTH (multiples of 1 MiB)
slice_hash() {
  dd if="$1" bs=1M iflag=direct skip=$(($2 / MIB)) count=$(($3 / MIB)) status=none | b2sum | cut -d' ' -f1
}
sectors_written() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }

# The documented default window (README "Safety", 2.): up to 256 MiB from the
# middle, aligned to 1 MiB, never in the first or last MiB.
usable=$((SIZE / MIB * MIB - 2 * MIB))
WIN_LEN=$((usable < 256 * MIB ? usable : 256 * MIB))
WIN_OFF=$(((SIZE / 2 - WIN_LEN / 2) / MIB * MIB))
[ "$WIN_OFF" -ge "$MIB" ] || WIN_OFF=$MIB
# The documented wear cap (docs/safety.md): --cache-bytes (the SLC cache
# probe, 16 GiB by default) + 1 GiB (write grid) + two passes over the window
# (stream) + 384 MiB (the write half of the parallelism probe). The psync
# runs take the default cache cap, the io_uring runs --cache-bytes 512M.
cap_for() { echo $(($1 + (1 << 30) + 2 * WIN_LEN + (384 << 20))); }

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# preserved_run DEV SECTOR ENGINE CACHE_BYTES
preserved_run() {
  local dev="$1" sector="$2" engine="$3" cache="$4" tag="p-$2-$3"
  local json="$SCRATCH/$tag.json" log="$SCRATCH/$tag.log" before s0 s1 rc t0=$SECONDS f0=$failures
  before=$(dev_hash "$dev")
  s0=$(sectors_written "$dev")
  "$SSDPROBE" --write --yes --journal "$J" --budget 5 --engine "$engine" --cache-bytes "$cache" --json "$json" "$dev" \
    < /dev/null > "$log" 2>&1
  rc=$?
  s1=$(sectors_written "$dev")
  [ "$rc" = 0 ] || { bad "$tag: exit $rc: $(tail -n 5 "$log")"; return; }
  [ "$(dev_hash "$dev")" = "$before" ] || bad "$tag: THE DEVICE CHANGED (not bit-identical after the run)"
  [ "$(jget "$json" .write_probe.preserved)" = true ] || bad "$tag: .write_probe.preserved is not true"
  [ "$(jget "$json" .write_probe.restored)" = true ] || bad "$tag: .write_probe.restored is not true"
  jget "$json" .write_probe.restore | grep -q "restored and verified $WIN_LEN bytes" ||
    bad "$tag: .write_probe.restore = '$(jget "$json" .write_probe.restore)'"
  [ "$(jget "$json" .write_probe.region.offset)" = "$WIN_OFF" ] && [ "$(jget "$json" .write_probe.region.length)" = "$WIN_LEN" ] ||
    bad "$tag: window $(jq -c .write_probe.region "$json"), want the documented default {offset $WIN_OFF, length $WIN_LEN}"
  [ -z "$(journals)" ] || bad "$tag: journal left behind: $(journals)"
  local journal
  journal=$(jget "$json" .write_probe.journal)
  { [ "$journal" != null ] && [ ! -e "$journal" ]; } || bad "$tag: .write_probe.journal = '$journal' (want a path that no longer exists)"

  # What reached the device: the probes' writes plus what the restore wrote
  # back (only the blocks that differ from the saved content: at most the
  # window, and something, since the probes wrote test data there).
  local reported restored device
  reported=$(jget "$json" .write_probe.bytes_written)
  restored=$(jget "$json" .write_probe.restore_bytes_written)
  device=$(((s1 - s0) * 512))
  [ "$restored" -gt 0 ] && [ "$restored" -le "$WIN_LEN" ] 2>/dev/null ||
    bad "$tag: .write_probe.restore_bytes_written = $restored (want 1..$WIN_LEN)"
  [ "$device" = $((reported + restored)) ] ||
    bad "$tag: the device received $device bytes of writes, but .write_probe.bytes_written ($reported) + the restore ($restored) = $((reported + restored))"
  # Each write phase's own record (phases[].writes): together they are what
  # the device received, the restore's is what it put back, and they stay
  # within what the question announced.
  local by_phase restore_phase announced
  by_phase=$(jq '[.phases[].writes.bytes_issued // 0] | add' "$json")
  restore_phase=$(jq '.phases[] | select(.name == "restore") | .writes.bytes_issued' "$json")
  announced=$(jget "$json" .write_probe.announced_bytes)
  [ "$by_phase" = "$device" ] ||
    bad "$tag: the phases' writes add up to $by_phase bytes, the device received $device"
  [ "$restore_phase" = "$restored" ] ||
    bad "$tag: the restore phase's writes are $restore_phase bytes, .write_probe.restore_bytes_written $restored"
  [ "$announced" -gt 0 ] && [ "$by_phase" -le "$announced" ] 2>/dev/null ||
    bad "$tag: $by_phase bytes written by the phases, the question announced $announced"
  [ "$reported" -le "$(cap_for "$cache")" ] ||
    bad "$tag: wear cap: $reported bytes written by the probes, more than the documented $cache (--cache-bytes) + 1 GiB (write grid) + 2 x $WIN_LEN (stream) + 384 MiB (write parallelism) = $(cap_for "$cache")"
  local cache_written
  # null when --budget left the probe no time (it then writes nothing)
  cache_written=$(jget "$json" '.detected.slc_cache.written_bytes // 0')
  [ "$cache_written" -le "$cache" ] || bad "$tag: the SLC cache probe wrote $cache_written bytes, more than --cache-bytes $cache"
  [ "$failures" = "$f0" ] &&
    note "ok   $tag: bit-identical, restored, no journal; $reported bytes written by the probes + $WIN_LEN restored ($((SECONDS - t0)) s)"
}

# destroy_run DEV TAG OFFSET LENGTH [--region R]: --no-preserve changes the
# window and nothing else.
destroy_run() {
  local dev="$1" tag="$2" off="$3" len="$4"; shift 4
  local json="$SCRATCH/$tag.json" log="$SCRATCH/$tag.log" rc size f0=$failures
  size=$(blockdev --getsize64 "$dev")
  local head_before win_before tail_before
  head_before=$(slice_hash "$dev" 0 "$off")
  win_before=$(slice_hash "$dev" "$off" "$len")
  tail_before=$(slice_hash "$dev" $((off + len)) $((size - off - len)))
  "$SSDPROBE" --write --yes --no-preserve --journal "$J" --budget 5 --json "$json" "$@" "$dev" < /dev/null > "$log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || { bad "$tag: exit $rc: $(tail -n 5 "$log")"; return; }
  grep -q "DESTROYED" "$log" || bad "$tag: the confirmation does not say DESTROYED: $(grep -A4 'will WRITE' "$log")"
  [ "$(slice_hash "$dev" 0 "$off")" = "$head_before" ] || bad "$tag: bytes before the window (0..$off) CHANGED"
  [ "$(slice_hash "$dev" $((off + len)) $((size - off - len)))" = "$tail_before" ] ||
    bad "$tag: bytes after the window ($((off + len))..$size) CHANGED"
  [ "$(slice_hash "$dev" "$off" "$len")" != "$win_before" ] || bad "$tag: the window was not written at all"
  [ "$(jget "$json" .write_probe.preserved)" = false ] || bad "$tag: .write_probe.preserved is not false"
  [ "$(jget "$json" .write_probe.restored)" = false ] || bad "$tag: .write_probe.restored is not false"
  [ "$(jget "$json" .write_probe.region.offset)" = "$off" ] && [ "$(jget "$json" .write_probe.region.length)" = "$len" ] ||
    bad "$tag: window $(jq -c .write_probe.region "$json"), want offset $off length $len"
  [ -z "$(journals)" ] || bad "$tag: a journal was written with --no-preserve: $(journals)"
  [ "$failures" = "$f0" ] &&
    note "ok   $tag: window $off+$len changed, the rest unchanged, confirmation says DESTROYED"
}

for sector in 512 4096; do
  img="$SCRATCH/disk-$sector.img"
  random_file "$img" "$SIZE"
  dev=$(make_loop "$img" "$sector") || exit 1
  for engine in uring psync; do
    preserved_run "$dev" "$sector" "$engine" "$([ "$engine" = psync ] && echo $((16 << 30)) || echo $((512 << 20)))"
  done
  if [ "$sector" = 512 ]; then
    destroy_run "$dev" "np-$sector-default" "$WIN_OFF" "$WIN_LEN"
  else
    destroy_run "$dev" "np-$sector-region" $((300 * MIB)) $((32 * MIB)) --region 300M:32M
  fi
done

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
