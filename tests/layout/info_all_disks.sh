#!/bin/bash
# `ssdprobe info --all-disks`: one row per whole disk of this machine (the
# disks /sys/block lists with a device link, a size and no hidden flag),
# each with what sysfs says of it; --results DIR fills a disk's units from
# the latest saved run of its serial (a newer run's, not an older one's);
# the usage errors name the problem. Read-only: nothing is timed or written.
# Needs root (opening the disks); skips (77) without, or with no whole disk.
#
# Usage: info_all_disks.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ -x "$SSDPROBE" ] || fail "usage: $0 SSDPROBE"
command -v jq > /dev/null || skip "jq not installed"
[ "$(id -u)" -eq 0 ] || skip "opening the disks needs root"
disks=()
for d in /sys/block/*; do
  name=${d##*/}
  [ -e "$d/device" ] && [ "$(cat "$d/size")" != 0 ] && [ "$(cat "$d/hidden" 2> /dev/null || echo 0)" = 0 ] &&
    [[ $name != sr* ]] && disks+=("/dev/$name")
done
[ "${#disks[@]}" -gt 0 ] || skip "this machine has no whole disk"
T=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$T"' EXIT

"$SSDPROBE" info --all-disks --json "$T/rows.json" > "$T/table.txt" 2> "$T/err"
rc=$?
# A disk whose layout cannot be read (a sandbox refusing the root disk) keeps
# its row, with the reason, and the exit code says so.
[ "$rc" = 0 ] || grep -q "cannot tell: audit:" "$T/table.txt" || fail "exit $rc without a row saying why: $(cat "$T/err")"
[ "$(jq length "$T/rows.json")" = "${#disks[@]}" ] ||
  fail "rows for $(jq -c '[.[].device]' "$T/rows.json"), disks ${disks[*]}"
for i in "${!disks[@]}"; do
  dev=${disks[$i]} name=${disks[$i]#/dev/}
  row=$(jq -c ".[$i]" "$T/rows.json")
  [ "$(jq -r .device <<< "$row")" = "$dev" ] || fail "row $i is not $dev: $row"
  [ "$(jq -r .logical_block_size <<< "$row")" = "$(cat "/sys/block/$name/queue/logical_block_size")" ] ||
    fail "$dev: logical block is not sysfs's: $row"
  [ "$(jq -r .size_bytes <<< "$row")" = "$(( $(cat "/sys/block/$name/size") * 512 ))" ] || fail "$dev: size: $row"
  grep -q "^$dev " "$T/table.txt" || fail "no text row for $dev: $(cat "$T/table.txt")"
done

# --results: the latest run of the first disk's serial gives its units.
serial=$(jq -r '.[0].serial' "$T/rows.json")
if [ -n "$serial" ]; then
  mkdir "$T/results"
  "$SSDPROBE" -q --budget 2 sim:nvme-tlc-16k --json "$T/sim.json" > /dev/null || fail "the sim run failed"
  jq --arg s "$serial" '.target.serial = $s | .started_at = "2099-01-01T00:00:00Z"' "$T/sim.json" > "$T/results/new.json"
  jq --arg s "$serial" '.target.serial = $s | .started_at = "2001-01-01T00:00:00Z" | .detected.read_page.bytes = 4096' \
    "$T/sim.json" > "$T/results/old.json"
  echo "not json" > "$T/results/broken.json"
  "$SSDPROBE" info --all-disks --results "$T/results" --json "$T/with.json" > "$T/with.txt" 2> "$T/err"
  jq -e '.[0].last_run | .read_page.bytes == 16384 and (.file | endswith("new.json"))' "$T/with.json" > /dev/null ||
    fail "the latest run's units are not in the row: $(jq -c '.[0].last_run' "$T/with.json")"
  grep -q "^${disks[0]} .* 16 KiB " "$T/with.txt" || fail "the text row lacks the read page: $(cat "$T/with.txt")"
  grep -q "broken.json.*skipped" "$T/err" || fail "an unreadable document is not named: $(cat "$T/err")"
else
  echo "# ${disks[0]} has no serial: --results not checked"
fi

# Usage errors.
check_usage() {  # EXPECTED_TEXT ARGS...
  local want=$1; shift
  "$SSDPROBE" "$@" > /dev/null 2> "$T/err"
  local rc=$?
  [ "$rc" = 2 ] && grep -q -- "$want" "$T/err" || fail "ssdprobe $*: exit $rc, $(cat "$T/err")"
}
check_usage "info needs a TARGET" info
check_usage "give --all-disks with it" info --results "$T" sim:nvme-tlc-16k
check_usage "without a TARGET" info --all-disks sim:nvme-tlc-16k
check_usage "audit --all-disks --prometheus" info --all-disks --prometheus "$T/x.prom"
echo "PASS: ${#disks[@]} disks"
