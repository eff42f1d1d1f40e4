#!/bin/bash
# `ssdprobe compare --ndjson`: one flat row per result document, loaded into
# SQLite and asked the warehouse questions of issue 23:
#   which models under-report minimum_io_size (below the measured read page
#   or write unit), and which hosts have a misaligned partition.
# The fleet: sim:nvme-tlc-16k (reports 512 B, reads 16 KiB pages: under-
# reports), a copy of it renamed "Honest 16K" whose sysfs says 16 KiB (does
# not), sim:flat-dram (no page to under-report), an `info` document (no
# timing), an image file with a DOS partition at sector 63 (misaligned),
# and a cut-short document (skipped with a warning, no row). Every line must
# parse with jq and have the same keys; --ndjson with other outputs, its
# usage errors and exit 3 are checked too.
#
# Usage: compare_ndjson.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
command -v sqlite3 > /dev/null || { echo "SKIP: sqlite3 not installed (scripts/install-deps --tests installs it)"; exit 77; }
command -v sfdisk > /dev/null || { echo "SKIP: sfdisk not installed (the misaligned image needs it)"; exit 77; }
# shellcheck source=make_fleet.sh
source "$(dirname "$0")/make_fleet.sh"

start_checks

F="$T/fleet"
mkdir -p "$F/hostA" "$F/hostB" "$F/hostC" "$F/hostD" "$F/hostE" "$F/broken"
# run HOST NAME SSDPROBE-ARGS...: one document, its hostname set to HOST
run() {
  local host=$1 name=$2; shift 2
  "$SSDPROBE" -q "$@" --json "$T/$name.run" > /dev/null 2>&1 || { bad "ssdprobe $* failed"; return 1; }
  jq --arg h "$host" '.hostname = $h' "$T/$name.run" > "$F/$host/$name.json"
}
run hostA tlc --seed 1 sim:nvme-tlc-16k
run hostB flat --seed 1 sim:flat-dram
run hostE info info sim:nvme-tlc-16k
jq '.reported.minimum_io_size = 16384 | .target.model = "Honest 16K" | .target.serial = "HONEST-1" |
    .hostname = "hostC"' "$F/hostA/tlc.json" > "$F/hostC/honest.json"
truncate -s 64M "$T/disk.img"
printf 'label: dos\nstart=63, size=100000, type=83\n' | sfdisk -q "$T/disk.img" > /dev/null 2>&1 || bad "sfdisk failed"
run hostD image --budget 2 "$T/disk.img"
jq '.target.model = "DOS Image"' "$F/hostD/image.json" > "$T/image.json" && mv "$T/image.json" "$F/hostD/image.json"
head -c 3000 "$F/hostA/tlc.json" > "$F/broken/truncated.json"

"$SSDPROBE" compare --ndjson - "$F" > "$T/rows" 2> "$T/err"
rc=$?
check "--ndjson -: exit 0 with a broken file in the folder" '[ $rc = 0 ]'
check "the cut-short document is warned about and skipped" \
  'grep -q "warning: .*broken/truncated.json.*skipped" "$T/err" && ! grep -q truncated "$T/rows"'
check "one row per readable document (5)" '[ "$(wc -l < "$T/rows")" = 5 ]'
check "no text report with --ndjson -" '! grep -q "documents in" "$T/rows"'
check "every line parses with jq" 'while IFS= read -r line; do jq -e . <<< "$line" > /dev/null || exit 1; done < "$T/rows"'
check "every row has the same keys" '[ "$(jq -c "keys_unsorted" "$T/rows" | sort -u | wc -l)" = 1 ]'
check "rows are flat (no object values)" \
  '[ "$(jq "[.[] | select(type == \"object\" or type == \"array\")] | length" "$T/rows" | sort -u)" = 0 ]'
# row_has HOST FILTER: the row of HOST's document satisfies the jq FILTER
row_has() { jq -c --arg h "$1" 'select(.host == $h)' "$T/rows" | jq -e "$2" > /dev/null; }
check "the row of the tlc run: units, reported values, mismatches, path" \
  'row_has hostA ".read_page_bytes == 16384 and .read_page_state == \"found\" and
          .read_page_confidence > 0.9 and .reported_minimum_io_size == 512 and .device == \"sim:nvme-tlc-16k\" and
          .write_unit_state == \"not_measured\" and (.mismatch_warning_fields | test(\"minimum_io_size\")) and
          .mismatches_warning >= 1 and (.file | endswith(\"hostA/tlc.json\")) and .row_schema == \"ssdprobe-row/2\" and .partial == false and .stopped == null"'
check "the row of the image: a misaligned partition and its measured cost" \
  'row_has hostD ".partition_misaligned == true and .audit_misaligned_partitions == 1 and
          .audit_errors >= 1 and .worst_cost_ratio != null and .worst_cost_field == \"partition[1].start\""'
check "the row of the flat-dram run: no read page up to 128 KiB" \
  'row_has hostB ".read_page_state == \"absent\" and .read_page_searched_up_to_bytes == 131072 and .read_page_bytes == null"'
check "the tlc row: a found page has no reach" 'row_has hostA ".read_page_searched_up_to_bytes == null"'
interrupted_run "$SSDPROBE" "$T/stopped.json" --seed 5 sim:nvme-tlc-16k || exit 1
"$SSDPROBE" compare --ndjson - "$T/stopped.json" > "$T/stopped.row" 2> /dev/null
check "the row of a run stopped by SIGINT: partial, and how it stopped (the verdict's words)" \
  'jq -e --slurpfile d "$T/stopped.json" ".partial == true and .stopped == \$d[0].verdict.stopped and
     (.stopped | test(\"^run stopped in the [a-z_]+ phase \\\\(interrupted by signal 2\\\\)$\"))" "$T/stopped.row" > /dev/null'
check "the stopped run's row has the same keys as the others" \
  '[ "$(jq -c keys_unsorted "$T/stopped.row")" = "$(head -1 "$T/rows" | jq -c keys_unsorted)" ]'
check "the info row: no timing, no audit" \
  'row_has hostE ".timed == false and .audit_available == null and .read_page_state == \"not_measured\""'

# --- into SQLite: one TEXT column per row, asked with json_extract ---
sed "s/'/''/g; s/^/INSERT INTO runs VALUES ('/; s/\$/');/" "$T/rows" > "$T/rows.sql"
sqlite3 "$T/w.db" "CREATE TABLE runs (row TEXT);" ".read $T/rows.sql" 2> "$T/sql.err" || bad "loading the rows: $(cat "$T/sql.err")"
q() { sqlite3 "$T/w.db" "$1" 2>> "$T/sql.err" | paste -sd'|'; }
under=$(q "SELECT DISTINCT json_extract(row, '$.model') FROM runs
           WHERE json_extract(row, '$.reported_minimum_io_size') <
                 max(coalesce(json_extract(row, '$.read_page_bytes'), 0),
                     coalesce(json_extract(row, '$.write_unit_bytes'), 0))
           ORDER BY 1")
# The image's read page is timed on a file: whatever it found, the expected
# answer follows from its own row (reported 4 KiB there; usually no page).
expected="ssdprobe simulated drive nvme-tlc-16k"
if row_has hostD '.reported_minimum_io_size < ([.read_page_bytes // 0, .write_unit_bytes // 0] | max)'; then expected="DOS Image|$expected"; fi
echo "# models under-reporting minimum_io_size: $under"
check "SQL: the models that under-report minimum_io_size are exactly [$expected]" '[ "$under" = "$expected" ]'
check "SQL: Honest 16K and flat-dram are not among them" '! grep -Eq "Honest|flat-dram" <<< "$under"'
hosts=$(q "SELECT DISTINCT json_extract(row, '$.host') FROM runs WHERE json_extract(row, '$.partition_misaligned') ORDER BY 1")
echo "# hosts with a misaligned partition: $hosts"
check "SQL: the hosts with a misaligned partition are exactly [hostD]" '[ "$hosts" = hostD ]'
check "SQL: no errors" '[ ! -s "$T/sql.err" ]'

# --- with other outputs, to a file, usage errors, nothing readable ---
"$SSDPROBE" compare --ndjson "$T/rows.ndjson" --json "$T/c.json" "$F" > "$T/text" 2> /dev/null
rc=$?
check "--ndjson FILE with --json FILE: both written, the text report too" \
  '[ $rc = 0 ] && cmp -s <(jq -S "del(.file)" "$T/rows") <(jq -S "del(.file)" "$T/rows.ndjson") &&
   jq -e ".documents == 5" "$T/c.json" > /dev/null && grep -q "5 documents in" "$T/text"'
"$SSDPROBE" compare --ndjson "$T/alone.ndjson" "$F" > "$T/alone.out" 2> /dev/null
check "--ndjson FILE alone: the rows, nothing on standard output" \
  '[ $? = 0 ] && [ "$(wc -l < "$T/alone.ndjson")" = 5 ] && [ ! -s "$T/alone.out" ]'
"$SSDPROBE" compare --ndjson - --json - "$F" > /dev/null 2>&1
check "--ndjson - with --json - is bad usage (exit 2)" '[ $? = 2 ]'
"$SSDPROBE" compare --ndjson - --quirks "$F" > /dev/null 2>&1
check "--ndjson - with --quirks as text (also on standard output) is bad usage (exit 2)" '[ $? = 2 ]'
"$SSDPROBE" compare --ndjson - --quirks --csv "$T/quirks.csv" "$F" > "$T/rows-q" 2> /dev/null
check "--ndjson - with --quirks --csv FILE: the rows on standard output, the table in FILE" \
  '[ $? = 0 ] && [ "$(wc -l < "$T/rows-q")" = 5 ] && head -1 "$T/quirks.csv" | grep -q "^model,"'
"$SSDPROBE" compare --ndjson "$T/none.ndjson" "$F/broken" > /dev/null 2>&1
rc=$?
check "nothing readable: exit 3, no rows file and no .partial left" \
  '[ $rc = 3 ] && [ ! -e "$T/none.ndjson" ] && [ ! -e "$T/none.ndjson.partial" ]'
"$SSDPROBE" compare --ndjson "$F/hostA/tlc.json" "$F" > /dev/null 2>&1
check "--ndjson over a compared document is refused (exit 2)" '[ $? = 2 ]'

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all compare ndjson checks passed"
