#!/bin/bash
# What a run on a shared server records (issue 19): the other IO on the disk
# per timed phase (zero on a quiet loop device, non-zero with a dd beside it,
# and the note that it may have disturbed the timings), the host, command line
# and end time, the --write question's upper bound on the bytes written (not
# exceeded by the run), and an unattached loop device refused as an unusable
# target (exit 3, size 0).
#
# Usage: server_run.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq
require_root_loop_fuse

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
J="$SCRATCH/j"
mkdir -p "$J"

random_file "$SCRATCH/disk.img" $((128 << 20))
DEV=$(make_loop "$SCRATCH/disk.img" 512) || exit 1
DISK=${DEV#/dev/}

# other IO summed over the timed phases: FIELD of phases[].other_io
other() { jq "[.phases[] | select(.other_io != null) | .other_io.$2] | add // 0" "$1"; }

# 1. A quiet run: no other IO in any timed phase, and no note about it.
"$SSDPROBE" -q --budget 2 --json "$SCRATCH/quiet.json" "$DEV" > "$SCRATCH/quiet.txt" 2>&1 || {
  tail -n 5 "$SCRATCH/quiet.txt" >&2; fail "quiet run failed"; }
measured=$(jq '[.phases[] | select(.other_io != null)] | length' "$SCRATCH/quiet.json")
[ "$measured" -ge 2 ] || bad "quiet run: other_io measured in $measured phases, want read_grid and read_parallelism"
[ "$(jq -r '.phases[] | select(.name == "read_grid") | .other_io.disk' "$SCRATCH/quiet.json")" = "$DISK" ] ||
  bad "quiet run: read_grid other_io.disk is not $DISK"
[ "$(jq '.phases[] | select(.name == "read_grid") | .other_io.own.read_bytes' "$SCRATCH/quiet.json")" -gt 0 ] ||
  bad "quiet run: read_grid other_io.own.read_bytes is 0"
quiet_bytes=$(( $(other "$SCRATCH/quiet.json" read_bytes) + $(other "$SCRATCH/quiet.json" write_bytes) ))
# (near) zero: a stray udev probe of the new loop device may read a few KiB
[ "$quiet_bytes" -lt $((1 << 20)) ] || bad "quiet run: $quiet_bytes bytes of other IO"
jq -e '.notes | any(test("other IO"))' "$SCRATCH/quiet.json" > /dev/null && bad "quiet run: notes name other IO"
grep -q "^Other IO: on $DISK" "$SCRATCH/quiet.txt" || bad "quiet run: no 'Other IO: on $DISK' line in the report"
note "quiet run: $quiet_bytes bytes of other IO; $(grep -A1 '^Other IO' "$SCRATCH/quiet.txt" | tr -s ' \n' ' ')"

# 2. Host, command line, end time.
[ "$(jq -r .hostname "$SCRATCH/quiet.json")" = "$(uname -n)" ] || bad "hostname is not $(uname -n)"
[ "$(jq -c .command_line "$SCRATCH/quiet.json")" = \
  "$(jq -cn --arg s "$SSDPROBE" --arg j "$SCRATCH/quiet.json" --arg d "$DEV" \
     '[$s, "-q", "--budget", "2", "--json", $j, $d]')" ] ||
  bad "command_line: $(jq -c .command_line "$SCRATCH/quiet.json")"
ended=$(jq -r .ended_at "$SCRATCH/quiet.json")
started=$(jq -r .started_at "$SCRATCH/quiet.json")
[[ "$ended" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]] && [[ ! "$ended" < "$started" ]] ||
  bad "ended_at '$ended' is not a time after started_at"
grep -q "^  host $(uname -n), started " "$SCRATCH/quiet.txt" || bad "the report's header has no host line"
grep -qF "  command $SSDPROBE -q --budget 2 --json" "$SCRATCH/quiet.txt" || bad "the report's header has no command line"

# 3. The same run with a dd reading and writing the device beside it.
( while :; do
    dd if="$DEV" of=/dev/null bs=64k count=256 iflag=direct status=none
    dd if=/dev/zero of="$DEV" bs=64k count=64 seek=1024 oflag=direct status=none
  done ) &
busy=$!
"$SSDPROBE" -q --budget 2 --json "$SCRATCH/busy.json" "$DEV" > "$SCRATCH/busy.txt" 2>&1
rc=$?
kill "$busy"; wait "$busy" 2>/dev/null
[ "$rc" = 0 ] || bad "busy run: exit $rc: $(tail -n 3 "$SCRATCH/busy.txt")"
busy_reads=$(other "$SCRATCH/busy.json" read_bytes)
busy_writes=$(other "$SCRATCH/busy.json" write_bytes)
[ "$busy_reads" -gt $((1 << 20)) ] || bad "busy run: other read_bytes $busy_reads, want > 1 MiB"
[ "$busy_writes" -gt 0 ] || bad "busy run: other write_bytes is 0"
[ "$(other "$SCRATCH/busy.json" reads)" -gt 0 ] || bad "busy run: other reads is 0"
jq -e --arg d "$DISK" '.notes | any(startswith("other IO on " + $d + " during the read grid"))' \
  "$SCRATCH/busy.json" > /dev/null || bad "busy run: no note 'other IO on $DISK during the read grid ...'"
grep -q "^note: other IO on $DISK during" "$SCRATCH/busy.txt" || bad "busy run: the report has no other IO note"
note "busy run: other IO $busy_reads bytes read, $busy_writes written; $(jq -r '.notes[] | select(test("other IO"))' \
  "$SCRATCH/busy.json")"

# 4. --write: the question states an upper bound, and the run stays under it.
"$SSDPROBE" -q --write --yes --journal "$J" --budget 4 --region 16M:32M --json "$SCRATCH/write.json" "$DEV" \
  < /dev/null > "$SCRATCH/write.txt" 2>&1 || bad "write run failed: $(tail -n 3 "$SCRATCH/write.txt")"
bound=$(sed -n 's/^  writes at most \([0-9]*\) bytes .*/\1/p' "$SCRATCH/write.txt")
grep -q "^  expected time: about 4 s of probing (--budget), plus copying 32 MiB" "$SCRATCH/write.txt" ||
  bad "the question states no expected time"
if [ -z "$bound" ]; then
  bad "the --write question states no byte bound: $(head -n 6 "$SCRATCH/write.txt")"
else
  restored=$(jq '(if .write_probe.restored then .write_probe.region.length else 0 end)' "$SCRATCH/write.json")
  written=$(( $(jq .write_probe.bytes_written "$SCRATCH/write.json") + restored ))
  # what the engine issued, counted per phase, plus the restore's copy
  issued=$(( $(jq '[.phases[] | .other_io.own.write_bytes // 0] | add' "$SCRATCH/write.json") + restored ))
  [ "$written" -le "$bound" ] || bad "wrote $written bytes (probes + restore), more than the stated $bound"
  [ "$issued" -le "$bound" ] || bad "the engine issued $issued bytes of writes (+ restore), more than $bound"
  [ "$restored" -gt 0 ] || bad "write run: not restored"
  note "write run: stated at most $bound bytes, wrote $written (probes + restore), engine-counted $issued"
fi

# 7. An unattached loop device: exit 3, size 0 (not exit 2 about the region).
free=$(losetup --find) || fail "no free loop device"
"$SSDPROBE" -q --budget 1 "$free" > "$SCRATCH/free.txt" 2>&1
rc=$?
[ "$rc" = 3 ] && grep -q "unusable target $free: size 0" "$SCRATCH/free.txt" ||
  bad "unattached $free: exit $rc, want 3 'size 0': $(cat "$SCRATCH/free.txt")"

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
