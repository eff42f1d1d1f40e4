#!/bin/bash
# Tests that a never-written drive (reads of unwritten space skip NAND) is reported honestly: no read page read-only, with a note saying why, and the page found with --write by re-reading the window the write probes wrote, with that device state recorded.
#
# Usage: cli_fresh_drive.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

ro=$("$SSDPROBE" -q --json - sim:fresh-16k) || fail "read-only run exited $?"
[ "$(jq -r .detected.read_page.bytes <<<"$ro")" = null ] || fail "read-only: a page was claimed on never-written space"
jq -e '.notes | any(test("never written"))' <<<"$ro" >/dev/null || fail "read-only: no note on never-written space"
[ "$(jq -r '.grids | map(.name) | join(",")' <<<"$ro")" = read ] || fail "read-only: unexpected grids"

rw=$("$SSDPROBE" -q --write --yes --json - sim:fresh-16k) || fail "--write run exited $?"
[ "$(jq -r .detected.read_page.bytes <<<"$rw")" = 16384 ] || fail "--write: read page $(jq -c .detected.read_page <<<"$rw")"
[ "$(jq -r .detected.read_page.state <<<"$rw")" = found ] || fail "--write: state is not found"
jq -e '.detected.read_page.device_state | test("inside the write window")' <<<"$rw" >/dev/null ||
  fail "--write: the read page does not say where it was measured"
[ "$(jq -r '.grids | map(.name) | join(",")' <<<"$rw")" = read,write,read-written ] || fail "--write: grids $(jq -c '.grids | map(.name)' <<<"$rw")"
# A drive whose page shows on the first grid is not re-read.
n=$("$SSDPROBE" -q --write --yes --json - sim:nvme-tlc-16k | jq '.grids | length')
[ "$n" = 2 ] || fail "a drive with a visible page was re-read ($n grids)"
echo PASS
