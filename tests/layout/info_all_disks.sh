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
  # The worst finding is the audit's own first finding, where it can read the disk.
  if "$SSDPROBE" audit "$dev" -q --fail-on never --json "$T/audit.json" > /dev/null 2>&1; then
    want=$(jq -c '.verdict.findings[0] // null | if . == null then null else {severity, text: (if .headline == "" then .message else .headline end)} end' "$T/audit.json")
    [ "$(jq -c .worst_finding <<< "$row")" = "$want" ] || fail "$dev: worst finding $(jq -c .worst_finding <<< "$row"), audit $want"
  else
    [ "$(jq -r .error <<< "$row")" != null ] || fail "$dev: the audit fails but the row has no error: $row"
  fi
done

# --results: the latest run of the first disk's serial gives its units.
# The newest run sorts between the two older ones by name, and a run of
# another model with the same serial is newer still: neither first-file nor
# serial-only matching passes.
serial=$(jq -r '.[0].serial' "$T/rows.json") model=$(jq -r '.[0].model' "$T/rows.json")
if [ -n "$serial" ]; then
  mkdir "$T/results"
  "$SSDPROBE" -q --budget 2 sim:nvme-tlc-16k --json "$T/sim.json" > /dev/null || fail "the sim run failed"
  as_disk() {  # STARTED_AT READ_PAGE MODEL OUT
    jq --arg s "$serial" --arg m "$3" --arg t "$1" --argjson p "$2" \
      '.target.serial = $s | .target.model = (if $m == "" then null else $m end) | .started_at = $t
       | .detected.read_page.bytes = $p' "$T/sim.json" > "$4"
  }
  as_disk 2001-01-01T00:00:00Z 4096 "$model" "$T/results/a-old.json"
  as_disk 2099-01-01T00:00:00Z 16384 "$model" "$T/results/b-new.json"
  as_disk 2050-01-01T00:00:00Z 8192 "$model" "$T/results/c-older.json"
  as_disk 2100-01-01T00:00:00Z 65536 "another model" "$T/results/d-other-model.json"
  echo "not json" > "$T/results/broken.json"
  "$SSDPROBE" info --all-disks --results "$T/results" --json "$T/with.json" > "$T/with.txt" 2> "$T/err"
  jq -e '.[0].last_run | .read_page.bytes == 16384 and (.file | endswith("b-new.json"))' "$T/with.json" > /dev/null ||
    fail "the latest run's units are not in the row: $(jq -c '.[0].last_run' "$T/with.json")"
  grep -q "^${disks[0]} .* 16 KiB " "$T/with.txt" || fail "the text row lacks the read page: $(cat "$T/with.txt")"
  grep -q "broken.json.*skipped" "$T/err" || fail "an unreadable document is not named: $(cat "$T/err")"
  "$SSDPROBE" info --all-disks --results "$T/no-such-dir" > /dev/null 2> "$T/err"
  rc=$?
  [ "$rc" = 2 ] && grep -q "no-such-dir" "$T/err" || fail "a missing --results: exit $rc, $(cat "$T/err")"
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
