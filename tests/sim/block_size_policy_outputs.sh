#!/bin/bash
# One block-size policy (analysis/block_size_policy.h) in every output of one
# document: every simulated drive is run with --write, and for each the
# verdict (its status line and the lines under it), recommendations.block_size, the block-size advice (ZFS ashift),
# the HTML report and compare --quirks (three runs of the drive) must state
# the same physical block and ashift; the physical block is a power of two;
# the ashift lies in what OpenZFS accepts (9..16); no optimal IO is the erase
# block; mkfs.f2fs -s appears only where the partition start is a multiple of
# the erase block. And the verdict a person reads first is a status line and
# at most three lines of about 100 characters.
#
# Usage: block_size_policy_outputs.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
dir=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$dir"' EXIT

sims=$("$SSDPROBE" --list-sims | awk 'NR > 1 { sub(/^sim:/, "", $1); print $1 }')
[ -n "$sims" ] || fail "no simulated drives listed"
checked=0
for sim in $sims; do
  doc="$dir/$sim.json"
  "$SSDPROBE" -q --write --yes --json "$doc" --html "$dir/$sim.html" "sim:$sim" > /dev/null 2>&1 ||
    fail "$sim: exited $?"
  # The summary a person reads first: a status line and at most three lines
  # of about 100 characters; what to do first is never the SLC cache's rerun.
  jq -e '(.verdict.lines | length) <= 3 and ([.verdict.summary] + .verdict.lines | all(length <= 100))' "$doc" > /dev/null ||
    fail "$sim: the summary is more than a status line and three short lines: $(jq -r '[.verdict.summary] + .verdict.lines | join("\n")' "$doc")"
  jq -e '(.verdict.first_action.command // "") | test("--cache-bytes") | not' "$doc" > /dev/null ||
    fail "$sim: the first thing to do is an SLC cache rerun: $(jq -c .verdict.first_action "$doc")"
  policy=$(jq -c .recommendations.block_size "$doc")
  summary=$(jq -r '[.verdict.summary] + .verdict.lines | join("\n")' "$doc")
  [ "$policy" = null ] && continue
  unit=$(jq -r .unit_bytes <<<"$policy"); block=$(jq -r .physical_block_bytes <<<"$policy")
  ashift=$(jq -r .zfs_ashift <<<"$policy"); opt=$(jq -r .optimal_io_bytes <<<"$policy")
  (( block >= 4096 && (block & (block - 1)) == 0 )) || fail "$sim: physical block $block is not a power of two"
  (( ashift >= 9 && ashift <= 16 )) || fail "$sim: ZFS ashift $ashift outside 9..16"
  erase=$(jq -r '.detected.erase_block.bytes // 0' "$doc")
  [ "$opt" = null ] || [ "$opt" != "$erase" ] || fail "$sim: the optimal IO is the erase block"
  if (( unit > 4096 && block > 4096 )); then
    blocks_kib=$((block / 1024))
    grep -qF "$blocks_kib KiB blocks (ZFS ashift $ashift" <<<"$summary" ||
      fail "$sim: the verdict does not say $blocks_kib KiB blocks, ashift $ashift: $summary"
    jq -e --arg a "ZFS with ashift=$ashift" '.recommendations.block_size_advice | any(.what == $a)' "$doc" > /dev/null ||
      fail "$sim: the block-size advice's ZFS item is not ashift=$ashift"
    grep -qF "use $blocks_kib KiB blocks" "$dir/$sim.html" || fail "$sim: the HTML report does not say $blocks_kib KiB blocks"
    if grep -q "ZFS ashift \(1[7-9]\|[2-9][0-9]\)" <<<"$summary"; then fail "$sim: an ashift OpenZFS refuses"; fi
  else
    grep -q "[0-9] KiB blocks (ZFS" <<<"$summary" && fail "$sim: blocks above 4 KiB advised for a 4 KiB unit: $summary"
  fi
  start=$(jq -r .recommendations.partition_start_bytes "$doc")
  if jq -r '.recommendations.steps[] | select(.key == "mkfs_f2fs") | .command' "$doc" | grep -q -- " -s "; then
    (( erase > 0 && start % erase == 0 )) || fail "$sim: mkfs.f2fs -s with a start ($start) off the erase block ($erase)"
  fi
  # compare --quirks over three runs of the drive states the same block and ashift.
  for seed in 2 3; do
    "$SSDPROBE" -q --write --yes --seed "$seed" --json "$dir/$sim-$seed.json" "sim:$sim" > /dev/null 2>&1 ||
      fail "$sim seed $seed: exited $?"
  done
  quirk=$("$SSDPROBE" compare --quirks --json - "$doc" "$dir/$sim-2.json" "$dir/$sim-3.json") || fail "$sim: compare exited $?"
  use=$(jq -c '.quirks[0].use // empty' <<<"$quirk")
  measured=$(jq -c '.quirks[0].measured // empty' <<<"$quirk")
  if [ -n "$use" ] && [ "$(jq -r .write_unit_bytes <<<"$measured")" = "$(jq -r .detected.write_unit.bytes "$doc")" ] &&
     [ "$(jq -r .read_page_bytes <<<"$measured")" = "$(jq -r .detected.read_page.bytes "$doc")" ]; then
    [ "$(jq -r .physical_block_bytes <<<"$use")" = "$block" ] || fail "$sim: compare --quirks physical block $use, the run $block"
    [ "$(jq -r .ashift <<<"$use")" = "$ashift" ] || fail "$sim: compare --quirks ashift $use, the run $ashift"
    [ "$(jq -r .optimal_io_bytes <<<"$use")" = "$opt" ] || fail "$sim: compare --quirks optimal IO $use, the run $opt"
  fi
  checked=$((checked + 1))
done
(( checked >= 8 )) || fail "only $checked drives had a unit to check"
echo "PASS: $checked drives"
