#!/bin/bash
# Tests that --write measures how many write streams an emulated drive keeps
# open (emudrive --open-units behind a loop device with direct IO): a drive
# that keeps 5 erase blocks open is found at exactly 5 (the ladder's 4 runs
# as one stream, 6 collapses, the 5 between is tried), with the f2fs and
# files-at-once advice, and one without the limit is "none up to N"; the
# device is bit-identical afterwards. Prints each run's answer, the bytes
# the probe wrote and the run's wall time.
#
# Usage: emu_open_units.sh SSDPROBE EMUDRIVE
#
# The drive: 16 KiB pages and program unit (150 us, +100 us partly covered),
# 4 MiB erase blocks (+2 ms reached sequentially), 5 % noise; with the limit
# a write into a block that is not open costs 3 ms more. A 64 MiB window: 16
# erase blocks, so the ladder reaches 16 streams.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq sha256sum
require_root_loop_fuse
renice -n -10 -p $$ > /dev/null 2>&1 || note "could not raise the priority; timing may suffer under load"

MIB=$((1 << 20))
SIZE=$((128 * MIB))
WIN_OFF=$((32 * MIB))
WIN_LEN=$((64 * MIB))
J="$SCRATCH/j"
RUN_ARGS=(--write --yes --journal "$J" --budget 30 --cache-bytes 0 --max-qd 1
          --region "$((WIN_OFF / MIB))M:$((WIN_LEN / MIB))M")

drive_args() {  # drive_args OPEN_UNITS (0: no limit)
  local open=()
  [ "$1" -gt 0 ] && open=(--open-units "$1" --fold-us 3000)
  echo --size "$SIZE" --units 1 --read-page 16k --base-us 30 --page-us 60 --noise-pct 5 \
    --write-unit 16k --write-us 150 --rmw-us 100 --erase-block 4M --erase-stall-us 2000 "${open[@]}"
}

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
dev_sha() { dd if="$1" bs=4M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
ou() { jget "$JSON" ".detected.open_units.$1"; }

# probe TAG OPEN: a --write run on a fresh emulated drive; sets JSON.
probe() {
  local tag="$1" open="$2" dev sha rc t0
  start_emudrive "$SCRATCH/mnt-$tag" $(drive_args "$open")
  dev=$(make_loop "$SCRATCH/mnt-$tag/disk" 512) || exit 1
  # Every chunk of the window written once: no probe write is emudrive's
  # first there (slow: emudrive.cc, FINDINGS), and the content is worth keeping.
  dd if=/dev/urandom of="$dev" bs=1M seek=$((WIN_OFF / MIB)) count=$((WIN_LEN / MIB)) oflag=direct status=none ||
    fail "cannot fill the window of $dev"
  sha=$(dev_sha "$dev")
  JSON="$SCRATCH/$tag.json"
  t0=$SECONDS
  "$SSDPROBE" "${RUN_ARGS[@]}" --json "$JSON" "$dev" < /dev/null > "$SCRATCH/$tag.log" 2>&1
  rc=$?
  note "$tag (truth: $open open, 0 = no limit): exit $rc after $((SECONDS - t0)) s wall; open units $(jq -c '.detected.open_units | {state, streams, at_most, searched_up_to_streams, stretch_from, io_from, written_bytes, device_time_s, steps: [.steps[]? | "\(.streams):\(.ratio)"]}' "$JSON" 2>/dev/null); erase block $(jget "$JSON" .detected.erase_block.bytes), write unit $(jget "$JSON" .detected.write_unit.bytes); run wrote $(jget "$JSON" .write_probe.bytes_written) B"
  [ "$rc" = 0 ] || { bad "$tag: ssdprobe exited $rc: $(tail -n 5 "$SCRATCH/$tag.log")"; return 1; }
  [ "$(dev_sha "$dev")" = "$sha" ] || bad "$tag: THE DEVICE IS NOT BIT-IDENTICAL after the run"
  [ -z "$(journals)" ] || bad "$tag: journal left behind: $(journals)"
  [ "$(jget "$JSON" '.phases[] | select(.name == "open_units") | .state')" = done ] ||
    { bad "$tag: open_units phase: $(jq -c '.phases[] | select(.name == "open_units")' "$JSON")"; return 1; }
}

if probe open5 5; then
  [ "$(ou state)" = found ] && [ "$(ou streams)" = 5 ] && [ "$(ou at_most)" = 5 ] ||
    bad "open5: want found 5..5, got $(ou state) $(ou streams)..$(ou at_most): $(ou evidence)"
  jq -e 'any(.recommendations.notes[]; test("write at most 5 files")) and
         any(.recommendations.notes[]; test("active_logs=4"))' "$JSON" > /dev/null ||
    bad "open5: advice missing: $(jq -c .recommendations.notes "$JSON")"
fi

if probe unlimited 0; then
  [ "$(ou state)" = absent ] && [ "$(ou searched_up_to_streams)" -ge 8 ] ||
    bad "unlimited: want absent up to 8 or more, got $(ou state) up to $(ou searched_up_to_streams): $(ou evidence)"
fi

[ "$failures" = 0 ] || fail "$failures problems"
echo "PASS"
