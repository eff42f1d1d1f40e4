#!/bin/bash
# `ssdprobe fio-jobs RESULT.json [-o FILE]` on the command line: a document
# whose target is a device (a sim run's document with its target renamed,
# since a sim document itself is refused: there is no device for fio) gives a
# job file on standard output or in FILE, with the jobs its parts allow and
# the reasons for those left out; refusals: a missing file, not a result
# document, another schema version, an `info` document and a simulated
# drive's (exit 3), an output over the document or over another result
# document (exit 2). What each job holds: tests/unit/fio_jobs_test.cc.
#
# Usage: cli_fio_jobs.sh SSDPROBE
set -u
# shellcheck source=tests/sim/saved_run_lib.sh
. "$(dirname "$0")/saved_run_lib.sh" "$@"

saved_run sim.json
jq '.target.path = "/dev/nvme9n1" | .target.kind = "block"' sim.json > dev.json

"$SSDPROBE" fio-jobs dev.json > out.fio 2> out.err || fail "fio-jobs exited $?: $(cat out.err)"
[ ! -s out.err ] || fail "fio-jobs wrote to standard error: $(cat out.err)"
for want in '^\[global\]$' '^filename=/dev/nvme9n1$' '^ioengine=io_uring$' '^randseed=7$' '^\[read-aligned\]$' \
  '^\[read-straddle\]$' '^\[qd-knee\]$' '^iodepth=48$' '^offset=1073741824$' \
  '^# left out: write-partial and write-unit: the run had no --write'; do
  grep -q -- "$want" out.fio || fail "the job file has no line matching '$want':
$(cat out.fio)"
done
"$SSDPROBE" fio-jobs dev.json -o run.fio --runtime 2 > wrote.txt || fail "fio-jobs -o exited $?"
[ "$(cat wrote.txt)" = "fio-jobs: wrote run.fio" ] || fail "fio-jobs -o said '$(cat wrote.txt)'"
grep -q '^runtime=2$' run.fio || fail "--runtime 2 is not in the file"
"$SSDPROBE" -q fio-jobs dev.json -o quiet.fio > wrote.txt || fail "fio-jobs -q exited $?"
[ ! -s wrote.txt ] || fail "-q still said '$(cat wrote.txt)'"
if command -v fio >/dev/null; then
  fio --parse-only run.fio > parse.out 2>&1 || fail "fio does not accept the job file: $(cat parse.out)"
fi

echo 'not json' > bad.json
jq '.schema = "ssdprobe/2"' dev.json > v2.json
jq '.schema = "ssdprobe/0"' dev.json > v0.json
"$SSDPROBE" -q info --json info.json sim:nvme-tlc-16k > /dev/null || fail "info exited $?"
jq '.target.path = "/dev/nvme9n1" | .target.kind = "block"' info.json > info-dev.json
expect 3 "missing.json" fio-jobs missing.json
expect 3 "bad.json" fio-jobs bad.json
expect 3 "ssdprobe/2" fio-jobs v2.json
expect 3 "ssdprobe/0" fio-jobs v0.json
expect 3 "is the run of a simulated drive (sim:nvme-tlc-16k): there is no device for fio to run on" fio-jobs sim.json
expect 3 "is an \`info\` or \`audit\` document" fio-jobs info-dev.json
expect 2 "-o dev.json" fio-jobs dev.json -o dev.json
expect 2 "holds a saved result document" fio-jobs dev.json -o sim.json
expect 2 "--budget does not apply to \`ssdprobe fio-jobs\`" --budget 5 fio-jobs dev.json
echo "PASS"
