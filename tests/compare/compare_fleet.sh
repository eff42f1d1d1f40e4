#!/bin/bash
# `ssdprobe compare` on a fleet folder of real sim runs (3 profiles x 3 seeds,
# one info document, one ssdprobe/1.7 copy) with broken documents planted in it: the text, JSON, CSV
# and Markdown show the expected groups and counts; a truncated document, a
# foreign JSON file, a schema "ssdprobe/2" document are skipped with a
# warning naming each file; a "ssdprobe/1.7" document is compared; --quirks
# lists the drives; nothing usable is exit 3.
#
# Usage: compare_fleet.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v python3 > /dev/null || { echo "SKIP: python3 not installed"; exit 77; }
# shellcheck source=make_fleet.sh
source "$(dirname "$0")/make_fleet.sh"

start_checks

F="$T/fleet"
make_fleet "$SSDPROBE" "$F" 3 || exit 1
mkdir -p "$F/broken"
head -c 3000 "$F/host1/nvme-tlc-16k-1.json" > "$F/broken/truncated.json"
echo '{"name": "not ours", "version": 3}' > "$F/broken/foreign.json"
jq '.schema = "ssdprobe/2"' "$F/host1/clean-4k-1.json" > "$F/broken/major2.json"
# A newer minor version adds fields: still read (and counted: a 4th clean-4k run, its own drive).
jq '.schema = "ssdprobe/1.7" | .target.serial = "SIM-clean-4k-newer" | .new_field = {"x": [1, 2]} |
    .detected.read_page.new_key = true' "$F/host2/clean-4k-2.json" > "$F/host2/clean-4k-newer.json"
echo "not a result" > "$F/broken/notes.txt"  # not *.json under a directory: not read

# --- text (default) ---
"$SSDPROBE" compare "$F" > "$T/text" 2> "$T/err"
rc=$?
check "exit 0 with broken files in the folder" '[ $rc = 0 ]'
for f in truncated.json foreign.json major2.json; do
  check "warning names $f" 'grep -q "warning: .*broken/$f" "$T/err"'
done
check "the ssdprobe/2 warning names the version" 'grep -q "major2.json: .*ssdprobe/2" "$T/err"'
check "exactly three warnings" '[ "$(grep -c warning "$T/err")" = 3 ]'
check "notes.txt (not *.json) is not read" '! grep -q notes.txt "$T/err"'
check "the ssdprobe/1.7 document is not warned about" '! grep -q newer "$T/err"'
# -q (after compare, or before it) silences no warning: the comparison left those files out.
"$SSDPROBE" compare -q "$F" > "$T/text-q" 2> "$T/err-q"
rc=$?
# (the "made" line has the time of each comparison: the two may be a second apart)
check "compare -q: exit 0, same report, the same three warnings" \
  '[ $rc = 0 ] && cmp -s <(grep -v "^  made " "$T/text") <(grep -v "^  made " "$T/text-q") &&
   [ "$(grep -c warning "$T/err-q")" = 3 ]'
"$SSDPROBE" -q compare --json - "$F" > "$T/c-q.json" 2> "$T/err-q2"
rc=$?
check "-q before compare is carried into it" \
  '[ $rc = 0 ] && jq -e ".documents == 11" "$T/c-q.json" > /dev/null && [ "$(grep -c warning "$T/err-q2")" = 3 ]'
check "text: 11 documents in 3 groups, 3 skipped" 'grep -q "11 documents in 3 groups, 3 files skipped" "$T/text"'
# The header: when, by which version, from which hosts and runs.
version=$("$SSDPROBE" --version | awk '{print $2}')
first=$(jq -rs 'map(.started_at) | min' "$F"/host*/*.json)
last=$(jq -rs 'map(.started_at) | max' "$F"/host*/*.json)
check "text: made now, by this ssdprobe" \
  'grep -Eq "^  made        $(date -u +%Y-%m-%d)T[0-9:]{8}Z by ssdprobe $version$" "$T/text"'
check "text: written by this version (11 documents)" 'grep -q "^  written by  ssdprobe $version (11 documents)$" "$T/text"'
check "text: the three hosts" 'grep -q "^  hosts       3: host1, host2, host3$" "$T/text"'
check "text: 10 timed runs, 1 info document, first and last start" \
  'grep -q "^  runs        10 timed runs and 1 info document, started $first to $last$" "$T/text"'
check "text: reported / measured of sata-mlc-8k" \
  'grep -Eq "^ssdprobe simulated drive sata-mlc-8k .* min_io 512 B / read page 8 KiB, write unit 16 KiB; opt_io 0 B / erase block 4 MiB$" "$T/text"'
check "text: p10-p90 in microseconds" 'grep -Eq "read_aligned .*: [0-9.]+ us \(p10-p90 [0-9.]+-[0-9.]+ us, 3 runs\)" "$T/text"'
check "text: nvme-tlc-16k row: 4 drives, 3 runs, none partial, 1 info, 16 KiB page" \
  'grep -Eq "^ssdprobe simulated drive nvme-tlc-16k +sim +64 GiB +4 +3 +0 +1 +16 KiB +- +- +1 MiB" "$T/text"'
check "text: sata-mlc-8k row with write unit and erase block" \
  'grep -Eq "^ssdprobe simulated drive sata-mlc-8k +sim +64 GiB +3 +3 +0 +0 +8 KiB +16 KiB +4 MiB +1 MiB" "$T/text"'
check "text: read page agreement line" 'grep -q "read page     16 KiB in 3/3 runs" "$T/text"'
check "text: info document counts as not measured nowhere, reported everywhere" \
  'grep -q "documents     4 (3 timed runs, 1 info) from 4 drives" "$T/text"'
check "text: key cells of the group" 'grep -q "read_straddle   4 KiB read at offset 14 KiB (across the agreed 16 KiB read page boundary)" "$T/text"'

# --- JSON ---
"$SSDPROBE" compare --json "$T/c.json" "$F" > /dev/null 2>&1
check "json: valid" 'jq -e . "$T/c.json" > /dev/null'
j() { jq -r "$1" "$T/c.json"; }
check "json: 3 groups, 11 documents, 3 skipped" '[ "$(j "[(.groups|length), .documents, (.skipped|length)] | join(\" \")")" = "3 11 3" ]'
check "json: made_at, the comparing version, hosts, versions, first/last start" \
  '[ "$(j "[(.made_at | test(\"^[0-9-]{10}T[0-9:]{8}Z$\")), .ssdprobe_version, (.coverage.hosts | join(\",\")),
           .coverage.document_versions[0].documents, .coverage.first_started_at, .coverage.last_started_at] | join(\" \")")" \
     = "true $version host1,host2,host3 11 $first $last" ]'
check "json: groups are grouped by model" '[ "$(j "[.groups[] | .grouped_by] | unique | join(\" \")")" = model ]'
g='.groups[] | select(.model == "ssdprobe simulated drive clean-4k")'
check "json: clean-4k has 4 runs from 4 drives, newest minor 7" \
  '[ "$(j "$g | [.timed_runs, .drives, .newest_schema_minor] | join(\" \")")" = "4 4 7" ]'
check "json: clean-4k read page agreed 4096" '[ "$(j "$g | .detected.read_page.agreed_bytes")" = 4096 ]'
g='.groups[] | select(.model == "ssdprobe simulated drive sata-mlc-8k")'
check "json: sata-mlc-8k write unit 16384 in 3 of 3" \
  '[ "$(j "$g | .detected.write_unit | [.agreed_bytes, .measured_runs, .found[0].runs] | join(\" \")")" = "16384 3 3" ]'
check "json: sata-mlc-8k erase block 4 MiB" '[ "$(j "$g | .detected.erase_block.agreed_bytes")" = 4194304 ]'
check "json: sata-mlc-8k write key cells over 3 runs" \
  '[ "$(j "$g | [.key_cells[] | select(.grid == \"write\") | .runs] | join(\" \")")" = "3 3" ]'
check "json: sata write_unit cell slower than sub-unit? (both measured)" \
  '[ "$(j "$g | [.key_cells[] | select(.grid == \"write\") | .median_us > 0] | all")" = true ]'
g='.groups[] | select(.model == "ssdprobe simulated drive nvme-tlc-16k")'
check "json: nvme-tlc-16k straddling cell slower than aligned in every percentile" \
  '[ "$(j "$g | .key_cells[0:2] | (.[1].p10_us > .[0].p90_us)")" = true ]'
check "json: nvme-tlc-16k: write unit not measured in 3 runs" \
  '[ "$(j "$g | .detected.write_unit | [.not_measured, .measured_runs] | join(\" \")")" = "3 0" ]'
check "json: nvme-tlc-16k: physical_block_size reported by 4 documents (info counts)" \
  '[ "$(j "$g | .reported.physical_block_size.documents")" = 4 ]'
check "json: nvme-tlc-16k: mismatch minimum_io_size in 3 documents" \
  '[ "$(j "$g | .mismatches[] | select(.field == \"minimum_io_size\") | .documents")" = 3 ]'
check "json: the representative is one of the group's timed runs" \
  'j "$g | .representative" | grep -Eq "/host[123]/nvme-tlc-16k-[123].json$"'

# --- CSV ---
"$SSDPROBE" compare --csv "$T/c.csv" "$F" > /dev/null 2>&1
check "csv: header + 3 rows, same number of fields, counts" 'python3 - "$T/c.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 3, rows
by = {r["model"]: r for r in rows}
r = by["ssdprobe simulated drive sata-mlc-8k"]
assert (r["drives"], r["timed_runs"], r["write_unit_agreed_bytes"], r["erase_block_agreed_bytes"]) == ("3", "3", "16384", "4194304"), r
r = by["ssdprobe simulated drive nvme-tlc-16k"]
assert (r["documents"], r["info_documents"], r["read_page_agreed_bytes"], r["read_page_top_runs"]) == ("4", "1", "16384", "3"), r
assert float(r["read_straddle_median_us"]) > float(r["read_aligned_median_us"]), r
PY'

# --- Markdown ---
"$SSDPROBE" compare --markdown - "$F" > "$T/c.md" 2> /dev/null
check "markdown: 3 group sections" '[ "$(grep -c "^## ssdprobe simulated drive" "$T/c.md")" = 3 ]'
check "markdown: summary row of sata-mlc-8k" \
  'grep -Fq "| ssdprobe simulated drive sata-mlc-8k | sim | 64 GiB | 3 | 3 | 0 | 0 | 8 KiB | 16 KiB | 4 MiB | 1 MiB |" "$T/c.md"'
check "markdown: skipped files listed" '[ "$(grep -c "^- .*broken/" "$T/c.md")" = 3 ]'
check "markdown on stdout: no text report mixed in" '! grep -q "^MODEL" "$T/c.md"'
check "markdown: the header names the hosts" 'grep -q "^- hosts: 3: host1, host2, host3$" "$T/c.md"'
check "markdown: p10 and p90 in microseconds" 'grep -Eq "^\| read_aligned \|.*\| [0-9.]+ µs \| [0-9.]+ µs \| [0-9.]+ µs \| 3 \|$" "$T/c.md"'

# --- drives without a model: never one group because their capacity matches ---
# Copies of clean-4k runs (all 64 GiB) as model-less disks (virtio, loop):
# two serials, one serial run twice, and two without serial at one path on
# two hosts.
N="$T/nomodel"
mkdir -p "$N"
nomodel() {  # SOURCE OUT SERIAL HOST PATH
  jq --arg s "$3" --arg h "$4" --arg p "$5" \
    '.target.model = null | .target.serial = (if $s == "" then null else $s end) | .hostname = $h | .target.path = $p' \
    "$1" > "$N/$2.json"
}
nomodel "$F/host1/clean-4k-1.json" a NM-1 vm1 /dev/vda
nomodel "$F/host2/clean-4k-2.json" b NM-2 vm1 /dev/vdb
nomodel "$F/host3/clean-4k-3.json" c NM-1 vm2 /dev/vdc  # same serial as a: the same disk
nomodel "$F/host1/clean-4k-1.json" d "" vm1 /dev/vdd
nomodel "$F/host2/clean-4k-2.json" e "" vm2 /dev/vdd     # same path, another host: another disk
"$SSDPROBE" compare --json "$T/n.json" --markdown "$T/n.md" "$N" > "$T/n.txt" 2>&1
n() { jq -r "$1" "$T/n.json"; }
check "no model: 4 groups (NM-1 twice is one), none merged by capacity" '[ "$(n ".groups | length")" = 4 ]'
check "no model: grouped by serial, serial, path, path" \
  '[ "$(n "[.groups[] | \"\(.grouped_by)=\(.identity)/\(.documents)\"] | join(\" \")")" = \
     "serial=NM-1/2 serial=NM-2/1 path=vm1:/dev/vdd/1 path=vm2:/dev/vdd/1" ]'
check "no model: the NM-1 group is one drive" '[ "$(n ".groups[0].drives")" = 1 ]'
check "no model: markdown names the groups (no model, ...)" \
  '[ "$(grep -c "^| (no model, " "$T/n.md")" = 4 ] && grep -q "^| (no model, serial NM-1) |" "$T/n.md" &&
   grep -q "^## (no model, vm2:/dev/vdd), firmware sim, 64 GiB$" "$T/n.md"'
check "no model: the text names them too" 'grep -q "^(no model, serial NM-2) " "$T/n.txt"'
"$SSDPROBE" compare --csv - "$N" > "$T/n.csv" 2> /dev/null
check "no model: csv grouped_by and identity columns" \
  'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1], newline=\"\"))); assert [(x[\"grouped_by\"], x[\"identity\"]) for x in r][:2] == [(\"serial\", \"NM-1\"), (\"serial\", \"NM-2\")], r" "$T/n.csv"'

# --- quirks ---
"$SSDPROBE" compare --quirks --csv - "$F" > "$T/q.csv" 2> /dev/null
check "quirks csv: one row per group that measured > reported" '[ "$(wc -l < "$T/q.csv")" = 4 ]'
check "quirks csv: sata-mlc-8k uses 16 KiB, ashift 14, no optimal IO (the erase block is not one)" \
  'grep -q "^ssdprobe simulated drive sata-mlc-8k,sim,68719476736,3,3,512,512,512,0,,8192,16384,4194304,16384,14,," "$T/q.csv"'
"$SSDPROBE" compare --quirks --json - "$F" > "$T/q.json" 2> /dev/null
check "quirks json: 3 quirks, rule stated" '[ "$(jq -r "[(.quirks|length), (.rule|test(\"at least 3 timed runs\"))] | join(\" \")" "$T/q.json")" = "3 true" ]'
# Two runs are not enough for the rule: one seed fewer per profile, no quirk at all.
mkdir -p "$T/two"
cp "$F"/host1/*-1.json "$F"/host2/*-2.json "$T/two/"
"$SSDPROBE" compare --quirks --json - "$T/two" > "$T/q2.json" 2> /dev/null
check "quirks: 2 runs per group give no row" '[ "$(jq ".quirks | length" "$T/q2.json")" = 0 ]'

# --- text a spreadsheet would evaluate ---
# Models, firmware, serials, mismatch fields and file names starting with = + - @ TAB CR (OWASP's CSV
# injection list): read back with Python's csv module, each such cell starts with a single quote.
X="$T/formula"
mkdir -p "$X"
for seed in 1 2 3; do
  jq '.target.model = "=HYPERLINK(\"http://evil.example/\",\"open\")" | .target.firmware = "+1+1" |
      .mismatches |= map(.field = "@evil")' "$F/host$seed/nvme-tlc-16k-$seed.json" > "$X/=cmd$seed.json"
done
n=0
for serial in '-2+3' $'\t=1+1' $'\r@x'; do
  n=$((n + 1))
  jq --arg s "$serial" '.target.model = null | .target.serial = $s' "$F/host1/clean-4k-1.json" > "$X/nm$n.json"
done
# Relative names, so the representative is "=cmdN.json".
(cd "$X" && "$SSDPROBE" compare --csv - -- *.json > "$T/x.csv" 2> /dev/null &&
  "$SSDPROBE" compare --quirks --csv - -- *.json > "$T/xq.csv" 2> /dev/null)
check "csv: text cells a spreadsheet would evaluate start with a single quote" 'python3 - "$T/x.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 4, rows
evil = [r for r in rows if r["model"]][0]
assert evil["model"] == "\x27=HYPERLINK(\"http://evil.example/\",\"open\")", evil["model"]
assert evil["firmware"] == "\x27+1+1", evil["firmware"]
assert evil["mismatches"].startswith("\x27@evil:"), evil["mismatches"]
assert evil["representative"].startswith("\x27=cmd"), evil["representative"]
identities = sorted(r["identity"] for r in rows if not r["model"])
assert identities == ["\x27\t=1+1", "\x27\r@x", "\x27-2+3"], identities
for r in rows:
    for column, cell in r.items():
        assert not cell[:1] in ("=", "+", "-", "@", "\t", "\r"), (column, cell)
assert float(evil["read_aligned_median_us"]) > 0 and int(evil["documents"]) == 3  # numbers stay numbers
PY'
check "quirks csv: the model and firmware start with a single quote" 'python3 - "$T/xq.csv" <<PY
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
want = [("\x27=HYPERLINK(\"http://evil.example/\",\"open\")", "\x27+1+1")]
assert [(r["model"], r["firmware"]) for r in rows] == want, rows
assert all(not cell[:1] in ("=", "+", "-", "@", "\t", "\r") for r in rows for cell in r.values()), rows
PY'

# --- partial runs, alignments that disagree, a unit ruled out ---
# - a --write run of sim:nvme-tlc-16k stopped by SIGINT part-way, as a
#   model of its own ("Stopped Real": a group of partial runs only);
# - nvme-tlc-16k: a complete run, and a copy of it that says it was stopped
#   (the stopped run's phases, verdict and flag): "a-stopped.json" sorts
#   first and has the same cells, so only its being partial keeps it from
#   being the representative;
# - "Mixed Writes": two read-only nvme-tlc-16k runs (1 MiB alignment) and a
#   --write one (its 48 KiB write unit makes 3 MiB);
# - two sim:flat-dram runs: no read page up to 128 KiB.
# Each run has its own serial.
P="$T/partial"
mkdir -p "$P"
interrupted_run "$SSDPROBE" "$T/stopped.json" --seed 5 sim:nvme-tlc-16k || exit 1
stopped=$(jq -r .verdict.stopped "$T/stopped.json")
echo "# the interrupted run: $stopped"
jq '.target.model = "Stopped Real" | .target.serial = "SIM-stopped"' "$T/stopped.json" > "$P/stopped-real.json"
cp "$F/host1/nvme-tlc-16k-1.json" "$P/c-complete.json"
jq --slurpfile s "$T/stopped.json" '.phases = $s[0].phases | .interrupted = true | .verdict.stopped = $s[0].verdict.stopped |
    .target.serial = "SIM-grafted"' "$F/host1/nvme-tlc-16k-1.json" > "$P/a-stopped.json"
"$SSDPROBE" -q --seed 4 --write --yes --json "$T/write.json" sim:nvme-tlc-16k > /dev/null 2>&1 || bad "a --write run failed"
for f in "$F/host2/nvme-tlc-16k-2.json" "$F/host3/nvme-tlc-16k-3.json" "$T/write.json"; do
  jq --arg s "MIX-$(basename "$f")" '.target.model = "Mixed Writes" | .target.serial = $s' "$f" > "$P/mixed-$(basename "$f")"
done
for seed in 1 2; do
  "$SSDPROBE" -q --seed "$seed" --json "$T/flat.json" sim:flat-dram > /dev/null 2>&1 &&
    jq --arg s "SIM-flat-$seed" '.target.serial = $s' "$T/flat.json" > "$P/flat-$seed.json" || bad "sim:flat-dram failed"
done
"$SSDPROBE" compare --json "$T/p.json" --csv "$T/p.csv" --markdown "$T/p.md" "$P" > "$T/p.txt" 2> "$T/p.err"
rc=$?
check "partial: exit 0, nothing skipped" '[ $rc = 0 ] && [ ! -s "$T/p.err" ]'
p() { jq -r "$1" "$T/p.json"; }
"$SSDPROBE" compare --html "$T/p.html" "$P" > /dev/null 2>&1 || bad "compare --html of the partial runs failed"
check "the stopped run says so in its own words" \
  'grep -Eq "^run stopped in the [a-z_]+ phase \(interrupted by signal 2\)$" <<< "$stopped"'
g='.groups[] | select(.model == "ssdprobe simulated drive nvme-tlc-16k")'
check "json: 1 of the 2 nvme-tlc-16k runs is partial, with how it stopped" \
  '[ "$(p "$g | [.timed_runs, .partial_runs, (.partial[0].file | split(\"/\") | last), .partial[0].stopped] | join(\"|\")")" = \
     "2|1|a-stopped.json|$stopped" ]'
check "json: the complete run is the representative, though the partial one sorts first with the same cells" \
  '[ "$(p "$g | [(.representative | split(\"/\") | last), .representative_partial] | join(\" \")")" = "c-complete.json false" ]'
r='.groups[] | select(.model == "Stopped Real")'
check "json: a group of one real interrupted run: partial, and its representative (if any) marked" \
  '[ "$(p "$r | [.partial_runs, .timed_runs, .partial[0].stopped, .representative_partial == (.representative != null)] | join(\"|\")")" = \
     "1|1|$stopped|true" ]'
check "json: coverage counts the partial runs" '[ "$(p .coverage.partial_runs)" = 2 ]'
check "text: the summary's PARTIAL column" \
  'grep -Eq "^ssdprobe simulated drive nvme-tlc-16k +sim +64 GiB +2 +2 +1 +0 +16 KiB " "$T/p.txt" &&
   grep -Eq "^Stopped Real +sim +64 GiB +1 +1 +1 \(all\) +0 " "$T/p.txt"'
check "text: the partial lines name the stopped runs" \
  'grep -Fxq "  partial       1 of 2 timed runs stopped early: $P/a-stopped.json: $stopped" "$T/p.txt" &&
   grep -Fxq "  partial       the only timed run stopped early: $P/stopped-real.json: $stopped" "$T/p.txt" &&
   grep -Fxq "  representative run  $P/c-complete.json" "$T/p.txt"'
check "text: the header counts the partial runs" 'grep -q "^  runs        8 timed runs (2 partial) and 0 info documents" "$T/p.txt"'
check "csv: partial_runs, partial, representative_partial" 'python3 - "$T/p.csv" "$stopped" "$P" <<PY
import csv, sys
rows = {r["model"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
r = rows["ssdprobe simulated drive nvme-tlc-16k"]
assert (r["partial_runs"], r["representative_partial"]) == ("1", "false"), r
assert r["partial"] == sys.argv[3] + "/a-stopped.json: " + sys.argv[2], r["partial"]
assert rows["Stopped Real"]["partial_runs"] == "1", rows["Stopped Real"]
assert rows["ssdprobe simulated drive flat-dram"]["partial_runs"] == "0"
PY'
check "markdown: the partial column and lines" \
  'grep -Fq "| Stopped Real | sim | 64 GiB | 1 | 1 | 1 (all) | 0 |" "$T/p.md" &&
   grep -q "^- partial: 1 of 2 timed runs stopped early: " "$T/p.md"'
check "html: the partial count marked, the stopped run and its reason in its title and in the group's table" \
  'grep -Fq "<td class=\"n partial\" title=\"1 of 2 timed runs stopped early: $P/a-stopped.json: $stopped\">1</td>" "$T/p.html" &&
   grep -Fq "<td class=\"n partial\" title=\"the only timed run stopped early: $P/stopped-real.json: $stopped\">1 (all)</td>" "$T/p.html" &&
   grep -Fq "<tr><th>partial runs</th><td>1 of 2 timed runs stopped early: $P/a-stopped.json: $stopped</td></tr>" "$T/p.html"'
# Alignment: 1 MiB from the read-only runs, 3 MiB from the --write run.
m='.groups[] | select(.model == "Mixed Writes")'
check "json: Mixed Writes recommends 1 MiB in 2 runs, 3 MiB in 1" \
  '[ "$(p "$m | .partition_alignment.values | map(\"\(.bytes):\(.documents)\") | join(\",\")")" = "1048576:2,3145728:1" ]'
check "text and markdown: the alignment cell marks the disagreement" \
  'grep -Eq "^Mixed Writes .* 1 MiB in 2/3 +min_io" "$T/p.txt" && grep -Fq " | 1 MiB in 2/3 | min_io" "$T/p.md" &&
   grep -Fq "<td class=\"u unsure\" title=\"1 MiB (2), 3 MiB (1)\">1 MiB in 2/3</td>" "$T/p.html"'
check "text and markdown: agreeing alignments stay plain" \
  'grep -Eq "^ssdprobe simulated drive nvme-tlc-16k .* 1 MiB +min_io" "$T/p.txt" && grep -Fq "| - | - | 1 MiB | min_io" "$T/p.md"'
# Ruled out: "none up to 128 KiB", never a bare "ruled out".
f='.groups[] | select(.model == "ssdprobe simulated drive flat-dram")'
check "json: flat-dram's read page ruled out up to 128 KiB in both runs" \
  '[ "$(p "$f | .detected.read_page | [.ruled_out, .ruled_out_up_to[0].bytes, .ruled_out_up_to[0].runs] | join(\" \")")" = "2 131072 2" ]'
check "text: none up to 128 KiB in the summary, no read page up to 128 KiB beside min_io" \
  'grep -Eq "^ssdprobe simulated drive flat-dram .* none up to 128 KiB .* min_io 512 B / no read page up to 128 KiB$" "$T/p.txt"'
check "text: the group line keeps the reach" 'grep -q "^  read page     ruled out in 2/2 runs (up to 128 KiB)$" "$T/p.txt"'
check "html keeps the reach" 'grep -Fq "title=\"ruled out in 2/2 runs (up to 128 KiB)\">none up to 128 KiB</td>" "$T/p.html"'
check "markdown and csv keep the reach" \
  'grep -q "| none up to 128 KiB |" "$T/p.md" && grep -q "^- read page: ruled out in 2/2 runs (up to 128 KiB)$" "$T/p.md" &&
   python3 -c "import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1], newline=\"\")) if \"flat-dram\" in x[\"model\"]][0]; assert r[\"read_page_ruled_out_up_to\"] == \"131072\", r" "$T/p.csv"'

# --- nothing usable ---
"$SSDPROBE" compare "$F/broken" > "$T/none.out" 2> "$T/none.err"
rc=$?
check "only broken documents: exit 3" '[ $rc = 3 ]'
check "only broken documents: says none could be compared" 'grep -q "none of the 3 files could be compared" "$T/none.err"'
mkdir -p "$T/empty"
"$SSDPROBE" compare "$T/empty" > /dev/null 2> "$T/empty.err"
rc=$?
check "empty folder: exit 3, says no documents found" '[ $rc = 3 ] && grep -q "no result documents found" "$T/empty.err"'
"$SSDPROBE" compare "$T/missing.json" "$F/host1/clean-4k-1.json" > "$T/one.out" 2> "$T/one.err"
rc=$?
check "a missing operand is warned about, the rest compared" \
  '[ $rc = 0 ] && grep -q "missing.json: does not exist" "$T/one.err" && grep -q "1 document in 1 group" "$T/one.out"'
"$SSDPROBE" compare --html - "$F" > /dev/null 2>&1
check "--html - is bad usage (exit 2)" '[ $? = 2 ]'
"$SSDPROBE" compare --shared-scale "$F" > /dev/null 2> "$T/shared.err"
check "--shared-scale without --html is bad usage (exit 2), saying why" \
  '[ $? = 2 ] && grep -q "shared-scale.*--html" "$T/shared.err"'

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all compare fleet checks passed"
