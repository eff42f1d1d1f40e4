#!/bin/bash
# Tests that --write tells the program unit from the stripe on emulated drives that program consecutive pages on several units at once (emudrive --stripe-units behind a loop device with direct IO, 5 % noise): the write unit is the page, the stripe is detected.write_stripe (never the write unit), tied to the parallel units the parallelism probe finds, the advice aligns on the page; a drive with a real 64 KiB program unit keeps it and gets no stripe. Every window is restored bit-identical.
#
# Usage: emu_stripe.sh SSDPROBE EMUDRIVE
#
# The drives: 30 us per request, a program round of 250 us (a write that
# touches n pages waits for ceil(n / units) of them on its busiest unit; a
# partial page is a whole program, a partly covered stripe costs nothing
# more), 10 us per 4 KiB mapping unit crossed. No SLC cache probe
# (--cache-bytes 0) and, but in the case that checks the tie, no
# parallelism probes (--max-qd 1): they take most of a run's time through
# emudrive and measure nothing the other cases check.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq sha256sum
require_root_loop_fuse

MIB=$((1 << 20))
SIZE=$((160 * MIB))
WIN_OFF=$((16 * MIB))
WIN_LEN=$((64 * MIB))
COMMON=(--size "$SIZE" --read-page 16k --base-us 30 --page-us 60 --map-unit 4k --map-us 10
        --erase-block 4M --erase-stall-us 1500 --noise-pct 5)

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
dev_sha() { dd if="$1" bs=4M iflag=direct status=none | sha256sum | cut -d' ' -f1; }
has_note() { jq -r '.recommendations.notes[]' "$1" | grep -qF "$2"; }

# run_case TAG SECTOR SSDPROBE_ARGS -- EMUDRIVE_ARGS: a --write run; sets
# JSON. Checks the safety of it: writes only inside the window, the device
# bit-identical afterwards, no journal left.
run_case() {
  local tag="$1" sector="$2"; shift 2
  local probe_args=()
  while [ "$1" != -- ]; do probe_args+=("$1"); shift; done
  shift
  local mp="$SCRATCH/mnt-$tag" trace="$SCRATCH/$tag.trace" dev sha rc t0 outside
  JSON="$SCRATCH/$tag.json"
  start_emudrive "$mp" "${COMMON[@]}" --trace "$trace" "$@"
  dev=$(make_loop "$mp/disk" "$sector") || exit 1
  dd if=/dev/urandom of="$dev" bs=1M seek=$((WIN_OFF / MIB)) count=$((WIN_LEN / MIB)) oflag=direct status=none ||
    fail "$tag: cannot fill the window"
  sha=$(dev_sha "$dev")
  : > "$trace"
  t0=$SECONDS
  "$SSDPROBE" --write --yes --journal "$SCRATCH/j" --region "$((WIN_OFF / MIB))M:$((WIN_LEN / MIB))M" \
    --cache-bytes 0 --budget 20 "${probe_args[@]}" --json "$JSON" "$dev" < /dev/null > "$SCRATCH/$tag.log" 2>&1
  rc=$?
  note "$tag: ssdprobe exited $rc after $((SECONDS - t0)) s"
  [ "$rc" = 0 ] || { bad "$tag: ssdprobe exited $rc: $(tail -n 5 "$SCRATCH/$tag.log")"; return 1; }
  note "$tag: write unit: $(jget "$JSON" .detected.write_unit.evidence)"
  note "$tag: write stripe: $(jget "$JSON" .detected.write_stripe.evidence)"
  outside=$(awk -v lo="$WIN_OFF" -v hi=$((WIN_OFF + WIN_LEN)) '$1 == "W" && ($2 < lo || $2 + $3 > hi)' "$trace" | head -n 3)
  [ -z "$outside" ] || bad "$tag: writes outside the window: $outside"
  [ "$(jget "$JSON" .write_probe.restored)" = true ] || bad "$tag: .write_probe.restored is not true"
  [ "$(dev_sha "$dev")" = "$sha" ] || bad "$tag: THE DEVICE IS NOT BIT-IDENTICAL after the run"
  [ -z "$(find "$SCRATCH/j" -name '*.ssdpj')" ] || bad "$tag: journal left behind"
  return 0
}

# expect_striped TAG PAGE UNITS: the page is the write unit, PAGE x UNITS
# the stripe, and the advice aligns on the page.
expect_striped() {
  local tag="$1" page="$2" units="$3" stripe=$(($2 * $3))
  local unit found
  unit=$(jget "$JSON" .detected.write_unit.bytes)
  found=$(jget "$JSON" .detected.write_stripe.bytes)
  [ "$unit" = "$page" ] ||
    bad "$tag: detected.write_unit.bytes = $unit, want the $page page; levels: $(jq -c .detected.write_unit.levels "$JSON")"
  [ "$found" = "$stripe" ] ||
    bad "$tag: detected.write_stripe.bytes = $found ($(jget "$JSON" .detected.write_stripe.state)), want $stripe"
  [ "$(jget "$JSON" .detected.write_stripe.program_unit_bytes)" = "$page" ] &&
    [ "$(jget "$JSON" .detected.write_stripe.units)" = "$units" ] ||
    bad "$tag: detected.write_stripe: $(jq -c '.detected.write_stripe | {program_unit_bytes, units}' "$JSON"), want $page x $units"
  jget "$JSON" '[.verdict.summary] + .verdict.lines | join("\n")' | grep -q "write unit $((stripe / 1024)) KiB" && bad "$tag: the verdict states the stripe as the write unit"
  # The write unit's text may carry a regime remark (a loaded host moving the
  # grid's rounds) between the size and the stripe.
  jget "$JSON" '.verdict.units[] | select(.unit == "write_unit") | .text' |
    grep -qE "^write unit $((page / 1024)) KiB .*\(programmed $units at a time on parallel units: a $((stripe / 1024)) KiB stripe\)" ||
    bad "$tag: the verdict does not name the page and its stripe: $(jget "$JSON" .verdict.summary)"
  [ "$(jget "$JSON" .recommendations.partition_alignment_bytes)" = "$MIB" ] ||
    bad "$tag: partition alignment $(jget "$JSON" .recommendations.partition_alignment_bytes), want 1 MiB (the page divides it)"
  has_note "$JSON" "a $((stripe / 1024)) KiB stripe): partitions and filesystem blocks align to the $((page / 1024)) KiB write unit" ||
    bad "$tag: no recommendation note names the stripe as a write size"
}

# 16 KiB pages over 4 units, 4 KiB sectors; no parallelism probe, so nothing to tie to.
if run_case p16k-x4 4096 --max-qd 1 -- --seed 3 --write-unit 16k --write-us 250 --stripe-units 4; then
  expect_striped p16k-x4 16384 4
  [ "$(jget "$JSON" .detected.write_stripe.agrees_with_parallel_units)" = null ] ||
    bad "p16k-x4: agrees_with_parallel_units is set without a parallelism probe"
fi

# 8 KiB pages over 8 units, 512 B sectors, the drive's units serving
# concurrent IO every 8 KiB: the parallelism probe's count ties to the
# stripe. (The probe's strides start at the read page, so the read page is
# 8 KiB too: with 16 KiB pages to read it sees pairs two units apart and
# finds 4 units every 16 KiB, which the stripe's evidence reports as not
# agreeing.)
if run_case p8k-x8 512 -- --seed 5 --read-page 8k --write-unit 8k --write-us 250 --stripe-units 8 --units 8 \
     --interleave 8k; then
  expect_striped p8k-x8 8192 8
  tie=$(jq -c '.detected.write_stripe | [.parallel_units, .parallel_units_from, .agrees_with_parallel_units]' "$JSON")
  note "p8k-x8: tie to the parallelism probe: $tie"
  # The probe may leave the count undetermined (then null); a count it found must agree.
  [ "$tie" = '[8,"write_parallelism",true]' ] || [ "$tie" = '[8,"parallelism",true]' ] || [ "$tie" = '[null,null,null]' ] ||
    bad "p8k-x8: the stripe's tie to the parallelism probe is $tie, want 8 units agreeing (or none found)"
fi

# A real 64 KiB program unit (one program after another, a read-modify-write
# for a partial one): the write unit, and no stripe.
if run_case u64k 4096 --max-qd 1 -- --seed 7 --write-unit 64k --write-us 250 --rmw-us 150; then
  [ "$(jget "$JSON" .detected.write_unit.bytes)" = 65536 ] ||
    bad "u64k: detected.write_unit.bytes = $(jget "$JSON" .detected.write_unit.bytes), want 65536"
  [ "$(jget "$JSON" .detected.write_stripe.state)" != found ] ||
    bad "u64k: a stripe was found on a drive without one: $(jget "$JSON" .detected.write_stripe.evidence)"
fi

[ "$failures" = 0 ] || fail "$failures check(s) failed"
echo "PASS"
