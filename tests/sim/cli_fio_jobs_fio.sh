#!/bin/bash
# fio itself reads what `ssdprobe fio-jobs` writes. `fio --parse-only`
# accepts the job files of sim runs (read-only; --write with its write jobs
# commented out and active) and of a document whose every string is hostile:
# newlines followed by `[global]` and `exec_prerun=touch FILE` (which fio runs
# even with --readonly), CR, ESC, DEL, C1 controls, a 9000-byte line (fio
# reads a line 8191 bytes at a time and takes the rest as a line of its own),
# and a target.path with ':' (fio splits filename= at an unescaped ':'). Each
# line of each file is blank, a comment, or a section or option the builder
# writes. fio run --readonly on the hostile document's jobs (runtime 0.1 s,
# written as runtime=100ms) reads the small file this test made, whose name
# holds the ':', and FILE is never made. Refusals of paths fio cannot be
# given, and of a runtime below a millisecond. (What each job holds:
# tests/unit/fio_jobs_test.cc; cli_fio_jobs.sh: the command without fio.)
#
# Usage: cli_fio_jobs_fio.sh SSDPROBE
set -u
# shellcheck source=tests/sim/saved_run_lib.sh
. "$(dirname "$0")/saved_run_lib.sh" "$@"
command -v fio >/dev/null || { echo "SKIP: fio not installed"; exit 77; }

# only_builder_lines FILE: every line is blank, a comment, or one of the
# builder's sections and options.
only_builder_lines() {
  local foreign
  local sections='global|read-aligned|read-straddle|qd-below|qd-knee|qd-above|qd-deepest|write-partial|write-unit'
  local options='filename|ioengine|cmd_type|registerfiles|fixedbufs|direct|time_based|runtime|randrepeat|randseed'
  options+='|norandommap|random_generator|lat_percentiles|rw|bs|blockalign|iodepth|offset|size'
  foreign=$(grep -nvE "^\$|^# |^\[($sections)\]\$|^($options)=|^stonewall\$" "$1")
  [ -z "$foreign" ] || fail "$1 has lines the builder did not write:
$foreign"
  [ "$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$1")" -le 4094 ] ||
    fail "$1 has a line longer than fio reads whole"
}

parses() {  # parses FILE: fio --parse-only accepts it
  fio --parse-only "$1" > "$1.parse" 2>&1 || fail "fio --parse-only rejects $1: $(cat "$1.parse")
$(cat "$1")"
}

# --- The job files of sim runs.
saved_run sim.json
jq '.target.path = "/dev/nvme9n1" | .target.kind = "block"' sim.json > dev.json
"$SSDPROBE" -q --write --yes --seed 7 --budget 5 --json write-sim.json sim:sata-mlc-8k > /dev/null ||
  fail "the --write sim run exited $?"
jq '.target.path = "/dev/sdz" | .target.kind = "block"' write-sim.json > write.json
jq -e '.detected.write_unit.state == "found"' write.json > /dev/null || fail "the --write sim run found no write unit"
"$SSDPROBE" fio-jobs dev.json -o dev.fio || fail "fio-jobs dev.json exited $?"
"$SSDPROBE" fio-jobs write.json -o write.fio || fail "fio-jobs write.json exited $?"
"$SSDPROBE" fio-jobs write.json --with-writes -o writes.fio || fail "fio-jobs --with-writes exited $?"
grep -q '^\[write-unit\]$' writes.fio || fail "--with-writes wrote no active write job: $(cat writes.fio)"
for f in dev.fio write.fio writes.fio; do
  only_builder_lines "$f"
  parses "$f"
done

# --- A document whose strings are hostile, its target a 16 MiB file whose name holds ':'.
data="$T/data:1"
truncate -s 16M "$data"
pwned="$T/PWNED"
evil=$'x\n[global]\nexec_prerun=touch '"$pwned"$'\n[read-aligned]\nfilename=/etc/passwd\r\e[2J\x7f'
long=$(printf 'y%.0s' $(seq 9000))
jq --arg evil "$evil" --arg long "$long" --arg data "$data" '
  ($evil + "\u0085[global]\u009b;#") as $e
  | .target.path = $data | .target.kind = "file" | .target.size_bytes = 16777216
  | .reported.partition_start_bytes = 0
  | .target.model = $e | .target.serial = $e | .target.firmware = $e | .hostname = $e | .started_at = $long + $e
  | .tool.version = $e | .run.engine = "io_uring" + $e
  | .run.read_region = {offset: 0, length: 16777216, source: $e}
  | .detected.parallelism.queue_depth_knee.evidence = $e' sim.json > evil.json
# The document's own file name is named in the header: hostile too.
name=$'evilx\n[global]\nexec_prerun=touch pwned-by-name\r.json'
cp evil.json "$name"
"$SSDPROBE" fio-jobs "$name" --runtime 0.1 -o evil.fio || fail "fio-jobs on the hostile document exited $?"
only_builder_lines evil.fio
grep -qF 'filename='"$T"'/data\:1' evil.fio || fail "filename= does not escape ':': $(grep filename= evil.fio)"
grep -qx 'runtime=100ms' evil.fio || fail "--runtime 0.1 is not runtime=100ms: $(grep runtime= evil.fio)"
grep -qF '# fio job file written by ssdprobe `fio-jobs` from evilx\x0a[global]\x0aexec_prerun=touch' evil.fio ||
  fail "the document's file name is not in the header, escaped: $(head -3 evil.fio)"
parses evil.fio
: > evil-run.json
: > evil-run.err
before=$(ls -A "$T" | sort)
fio --readonly --output-format=json evil.fio > evil-run.json 2> evil-run.err ||
  fail "fio --readonly on the hostile document's jobs exited $?: $(cat evil-run.err)"
[ ! -e "$pwned" ] || fail "fio ran an exec_prerun a document's string added"
[ "$(ls -A "$T" | sort)" = "$before" ] || fail "fio made files: $(ls -A "$T")"
jq -e '(.jobs | length) >= 3 and all(.jobs[]; .read.total_ios > 0)' evil-run.json > /dev/null ||
  fail "fio did not read $T/data:1 in every job: $(jq -c '[.jobs[] | [.jobname, .read.total_ios]]' evil-run.json)"
# The second-of-a-second runtime held: 100 ms each, not the jobs' whole size.
jq -e '[.jobs[] | .read.runtime] | all(. >= 90 and . < 1000)' evil-run.json > /dev/null ||
  fail "the jobs did not run 100 ms each: $(jq -c '[.jobs[].read.runtime]' evil-run.json)"

# --- Refusals: no job file for a path fio would read as another, nor for a runtime below a millisecond.
for path in $'/dev/sda\nexec_prerun=touch '"$pwned" '/dev/sda#1' '/dev/sda;1' '/mnt/${HOME}/f' '/mnt/file ' '-'; do
  jq --arg p "$path" '.target.path = $p' dev.json > bad-path.json
  rm -f bad.fio
  expect 3 "bad-path.json: target.path \".*\" .*: fio's filename= cannot name it, so no job file is written" \
    fio-jobs bad-path.json -o bad.fio
  [ ! -e bad.fio ] || fail "a job file was written for target.path '$path'"
done
expect 2 "runtime" fio-jobs dev.json --runtime 0.0005 -o bad.fio
[ ! -e bad.fio ] || fail "a job file was written for --runtime 0.0005"
echo "PASS"
