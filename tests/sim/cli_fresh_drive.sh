#!/bin/bash
# Tests that a never-written drive (reads of unwritten space skip NAND, and return zeros) is reported honestly: read-only, the read page is not determined (never "ruled out": the reads returned only zeros, so they need not have sensed flash), with the rerun that would tell and a note naming never-written space as the likeliest reason, and the page found with --write by re-reading the window the write probes wrote, with that device state recorded and a note saying so; and that a drive with no page on written space either (flat-dram) is not blamed on never-written space.
#
# Usage: cli_fresh_drive.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

ro=$("$SSDPROBE" -q --json - sim:fresh-16k) || fail "read-only run exited $?"
[ "$(jq -r .detected.read_page.bytes <<<"$ro")" = null ] || fail "read-only: a page was claimed on never-written space"
[ "$(jq -r .detected.read_page.state <<<"$ro")" = undetermined ] ||
  fail "read-only: the read page over zeros is $(jq -r .detected.read_page.state <<<"$ro"), not undetermined"
[ "$(jq -c .run.read_content <<<"$ro")" = '{"reads":32,"bytes":4194304,"only_byte":0}' ] ||
  fail "read-only: the grid's space was not seen as zeros: $(jq -c .run.read_content <<<"$ro")"
jq -e '.detected.read_page.evidence | test("answered without reading flash: unwritten or trimmed space")' <<<"$ro" >/dev/null ||
  fail "read-only: the evidence does not say why: $(jq -r .detected.read_page.evidence <<<"$ro")"
jq -e '.detected.read_page.to_determine | test("^rerun with --write .*--region over space that holds data")' <<<"$ro" >/dev/null ||
  fail "read-only: no rerun that would tell: $(jq -r .detected.read_page.to_determine <<<"$ro")"
[ "$(jq -r .verdict.first_action.command <<<"$ro")" = "ssdprobe --write sim:fresh-16k" ] ||
  fail "read-only: first action $(jq -c .verdict.first_action <<<"$ro")"
if jq -r '.verdict.summary, .detected.read_page.evidence' <<<"$ro" | grep -qi "ruled out\|no read page"; then
  fail "read-only: a read page is ruled out over zeros: $(jq -r .verdict.summary <<<"$ro")"
fi
# The note names never-written space as the likeliest reason, and what would test it.
jq -e '.notes | any(test("never-written or trimmed space, which many drives answer from the mapping table without sensing NAND: the likeliest: the 32 reads sampled from the grid.s space returned only bytes 0x00"))' <<<"$ro" >/dev/null ||
  fail "read-only: no note on never-written space: $(jq -c .notes <<<"$ro")"
[ "$(jq -r '.grids | map(.name) | join(",")' <<<"$ro")" = read ] || fail "read-only: unexpected grids"

rw=$("$SSDPROBE" -q --write --yes --json - sim:fresh-16k) || fail "--write run exited $?"
[ "$(jq -r .detected.read_page.bytes <<<"$rw")" = 16384 ] || fail "--write: read page $(jq -c .detected.read_page <<<"$rw")"
[ "$(jq -r .detected.read_page.state <<<"$rw")" = found ] || fail "--write: state is not found"
jq -e '.detected.read_page.device_state | test("inside the write window")' <<<"$rw" >/dev/null ||
  fail "--write: the read page does not say where it was measured"
[ "$(jq -r '.grids | map(.name) | join(",")' <<<"$rw")" = read,write,read-written ] || fail "--write: grids $(jq -c '.grids | map(.name)' <<<"$rw")"
jq -e '.notes | any(test("^read page 16 KiB found on written space only: the first read grid showed no step, but did not rule one out"))' <<<"$rw" >/dev/null ||
  fail "--write: no note on the page found on written space only: $(jq -c .notes <<<"$rw")"
# A drive whose space holds data (sim:flat-dram) keeps its ruled-out answer.
dram=$("$SSDPROBE" -q --json - sim:flat-dram) || fail "read-only run on flat-dram exited $?"
[ "$(jq -r '.detected.read_page | "\(.state) \(.searched_up_to_bytes)"' <<<"$dram")" = "absent 131072" ] ||
  fail "flat-dram: $(jq -c .detected.read_page <<<"$dram")"
[ "$(jq -r .run.read_content.only_byte <<<"$dram")" = null ] || fail "flat-dram: its data read as blank"
# A drive that shows no page on written space either: never-written space is
# not the reason, and the note says so (sim:flat-dram: no pages at all).
flat=$("$SSDPROBE" -q --write --yes --json - sim:flat-dram) || fail "--write run on flat-dram exited $?"
jq -e '.notes | any(test("never-written or trimmed space, [^;]*: not the reason here: the re-read of the window this run wrote \\(and restored\\) shows none either"))' <<<"$flat" >/dev/null ||
  fail "flat-dram --write: the note does not rule out never-written space: $(jq -c .notes <<<"$flat")"
jq -e '.notes | any(test("\\(3\\) media without pages [^;]*: fits: in the written window"))' <<<"$flat" >/dev/null ||
  fail "flat-dram --write: the note does not say page-less media fits: $(jq -c .notes <<<"$flat")"
# A drive whose page shows on the first grid is not re-read.
n=$("$SSDPROBE" -q --write --yes --json - sim:nvme-tlc-16k | jq '.grids | length')
[ "$n" = 2 ] || fail "a drive with a visible page was re-read ($n grids)"
echo PASS
