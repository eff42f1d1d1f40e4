#!/bin/bash
# Every file ssdprobe writes besides the probe window goes through one door
# (src/core/output_file.h). Checked here with every command that writes one:
#  1. streams only when named as streams: -, /dev/stdout, /dev/fd/N and
#     /dev/null are written through; a character device, a FIFO (no hang) or
#     a symbolic link at an output path is refused (exit 2) and left as it
#     was; --force replaces a link itself, never what it points to;
#  2. options with no TARGET are refused, naming the option that took the
#     target (`ssdprobe --json victim.img` ran the demo over a disk image);
#  3. a file that is not the kind of output ssdprobe writes there is refused
#     (exit 2, kept byte for byte) unless --force, by every command; the
#     same command writing again replaces its own output;
#  4. a failed or short write to standard output is exit 6, with a message.
# The device nodes are the test's own (mknod in its folder): a regression
# cannot write to the machine's /dev/kmsg or /dev/null.
#
# Usage: cli_output_door.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf -- "$T"' EXIT
cd "$T" || exit 1
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "# ok   $*"; }

# expect CODE TEXT ARGS...: ssdprobe ARGS exits CODE and says TEXT on stderr.
expect() {
  local code=$1 text=$2
  shift 2
  timeout 60 "$SSDPROBE" "$@" > out.txt 2> err.txt < /dev/null
  local rc=$?
  if [ "$rc" = "$code" ] && grep -qF -- "$text" err.txt; then
    ok "$* -> exit $rc"
  else
    bad "$* exited $rc (wanted $code with '$text'): $(head -c 400 err.txt)"
  fi
}
same() { cmp -s "$1" "$2" || bad "$1 was changed"; }

"$SSDPROBE" -q --json run.json sim:clean-4k > /dev/null || { echo "FAIL: the sim run exited $?" >&2; exit 1; }
head -c 1048576 /dev/urandom > victim.img
cp victim.img victim.orig

# --- 1. streams, devices, FIFOs and links
"$SSDPROBE" -q --json /dev/stdout sim:clean-4k > via-stdout.json 2> err.txt || bad "--json /dev/stdout exited $?"
[ "$(jq -r .schema via-stdout.json 2>/dev/null)" = "ssdprobe/1" ] || bad "--json /dev/stdout > FILE: no document"
"$SSDPROBE" -q --json /dev/fd/3 sim:clean-4k 3> via-fd.json > /dev/null || bad "--json /dev/fd/3 exited $?"
[ "$(jq -r .schema via-fd.json 2>/dev/null)" = "ssdprobe/1" ] || bad "--json /dev/fd/3: no document"
echo "kept" > appended.log
"$SSDPROBE" -q --json /dev/fd/3 sim:clean-4k 3>> appended.log > /dev/null || bad "--json /dev/fd/3 (append) exited $?"
[ "$(head -n 1 appended.log)" = "kept" ] || bad "--json /dev/fd/3 opened for appending wrote over the start"
"$SSDPROBE" -q --json /dev/null sim:clean-4k > /dev/null || bad "--json /dev/null exited $?"
[ -c /dev/null ] || bad "/dev/null is no longer a character device"

mkfifo fifo
expect 2 "is a FIFO" -q audit --prometheus fifo sim:clean-4k
[ -p fifo ] || bad "the FIFO was replaced"
ln -s run.json link.json
expect 2 "is a symbolic link" -q --json link.json sim:clean-4k
[ -L link.json ] || bad "the link was replaced without --force"
"$SSDPROBE" -q --force --json link.json sim:clean-4k > /dev/null || bad "--force --json link.json exited $?"
[ ! -L link.json ] && [ "$(jq -r .schema link.json)" = "ssdprobe/1" ] || bad "--force did not replace the link"
[ "$(jq -r .schema run.json)" = "ssdprobe/1" ] || bad "the link's target was changed"
if [ "$(id -u)" = 0 ] && mknod -m 600 kmsg c 1 11 2> /dev/null; then  # the test's own /dev/kmsg node
  ln -s "$T/kmsg" metrics.prom
  expect 2 "is a symbolic link" -q --prometheus metrics.prom sim:clean-4k
  expect 2 "is a character device" -q --prometheus kmsg sim:clean-4k
  expect 2 "is a character device" -q --force --prometheus kmsg sim:clean-4k
  [ -c kmsg ] || bad "the character device node was replaced"
else
  echo "# skip  character devices (needs root and mknod)"
fi
expect 2 "looks like a device target" -q --json /dev/ssdprobe-test-no-such-disk sim:clean-4k
[ ! -e /dev/ssdprobe-test-no-such-disk ] || bad "a file was created in /dev"

# --- 2. options without a target
expect 2 "did --json take the target as its value (--json victim.img)" --json victim.img
expect 2 "did --html take the target as its value (--html victim.img)" --html victim.img
expect 2 "no TARGET given, but options were (--quiet)" -q
same victim.img victim.orig
"$SSDPROBE" > bare.txt 2>&1 < /dev/null || bad "a bare ssdprobe (the demo) exited $?"
grep -Eq '^(OK|ACTION|INCONCLUSIVE): ' bare.txt || bad "a bare ssdprobe printed no verdict"

# --- 3. another kind of file at the path: refused, kept; the same kind: replaced
"$SSDPROBE" -q compare --json cmp.json --csv cmp.csv --markdown cmp.md --html cmp.html run.json > /dev/null ||
  bad "compare exited $?"
"$SSDPROBE" -q compare --ndjson rows.ndjson run.json > /dev/null || bad "compare --ndjson exited $?"
"$SSDPROBE" -q report run.json --html page.html --prometheus page.prom > /dev/null || bad "report exited $?"
"$SSDPROBE" -q --list-sims --json sims.json > /dev/null || bad "--list-sims --json exited $?"
refused_over_victim() {  # OPTION ARGS...: writing OPTION victim.img is refused, the file kept
  local option=$1
  shift
  expect 2 "$option victim.img: holds 1048576 bytes that are not" "$@"
  same victim.img victim.orig
}
refused_over_victim --json -q --json victim.img sim:clean-4k
refused_over_victim --html -q --html victim.img sim:clean-4k
refused_over_victim --prometheus -q --prometheus victim.img sim:clean-4k
refused_over_victim --json -q compare --json victim.img run.json
refused_over_victim --csv -q compare --csv victim.img run.json
refused_over_victim --markdown -q compare --markdown victim.img run.json
refused_over_victim --html -q compare --html victim.img run.json
refused_over_victim --ndjson -q compare --ndjson victim.img run.json
refused_over_victim --html -q report run.json --html victim.img
refused_over_victim --prometheus -q report run.json --prometheus victim.img
refused_over_victim -o -q fio-jobs run.json -o victim.img
refused_over_victim --json -q --list-sims --json victim.img
expect 2 "--html run.json: is one of the documents being compared" -q compare --html run.json run.json
expect 2 "holds a saved result document, not an HTML page" -q report cmp.json --html run.json
same victim.img victim.orig

"$SSDPROBE" -q --json run.json sim:clean-4k > /dev/null || bad "--json over its own document exited $?"
"$SSDPROBE" -q compare --json cmp.json --csv cmp.csv --markdown cmp.md --html cmp.html run.json > /dev/null ||
  bad "compare over its own outputs exited $?"
"$SSDPROBE" -q compare --ndjson rows.ndjson run.json > /dev/null || bad "compare --ndjson over its own rows exited $?"
"$SSDPROBE" -q report run.json --html page.html --prometheus page.prom > /dev/null ||
  bad "report over its own page and metrics exited $?"
"$SSDPROBE" -q --list-sims --json sims.json > /dev/null || bad "--list-sims --json over its own list exited $?"
if command -v gnuplot > /dev/null; then
  "$SSDPROBE" -q plot run.json -o heat.png > /dev/null || bad "plot -o heat.png exited $?"
  "$SSDPROBE" -q plot run.json -o heat.png > /dev/null || bad "plot over its own picture exited $?"
  "$SSDPROBE" -q plot run.json -o heat.svg > /dev/null || bad "plot -o heat.svg exited $?"
  "$SSDPROBE" -q plot run.json -o heat.svg > /dev/null || bad "plot over its own SVG exited $?"
  head -n 1 heat.png.dat | grep -q '^# ssdprobe plot numbers' || bad "heat.png.dat has no header line"
  refused_over_victim --output -q plot run.json -o victim.img --format png
  refused_over_victim --data -q plot run.json -o other.png --data victim.img
  ln -s victim.img planted.png.dat
  expect 2 "--data planted.png.dat: is a symbolic link" -q plot run.json -o planted.png
  [ ! -e planted.png ] || bad "plot wrote its picture although its numbers file was refused"
  same victim.img victim.orig
  "$SSDPROBE" -q --force plot run.json -o victim.img --format png > /dev/null || bad "plot --force exited $?"
  cmp -s victim.img victim.orig && bad "plot --force did not replace victim.img"
  cp victim.orig victim.img
else
  echo "# skip  plot (no gnuplot)"
fi
"$SSDPROBE" -q --force --json victim.img sim:clean-4k > /dev/null || bad "--force --json victim.img exited $?"
[ "$(jq -r .schema victim.img)" = "ssdprobe/1" ] || bad "--force --json did not replace victim.img"

# --- 4. standard output that fails or is cut short
full() {  # ARGS...: ssdprobe ARGS > /dev/full exits 6 and says so
  "$SSDPROBE" "$@" > /dev/full 2> err.txt < /dev/null
  local rc=$?
  if [ "$rc" = 6 ] && grep -q "writing to standard output failed" err.txt; then
    ok "$* > /dev/full -> exit 6"
  else
    bad "$* > /dev/full exited $rc: $(head -c 300 err.txt)"
  fi
}
full -q sim:clean-4k
full -q --json - sim:clean-4k
full -q report run.json --prometheus -
full -q compare --ndjson - run.json
full -q compare run.json
full --list-sims
"$SSDPROBE" -q --json - sim:clean-4k 2> err.txt | true  # the reader leaves before a byte is written
rc=${PIPESTATUS[0]}
[ "$rc" = 6 ] && grep -q "writing to standard output failed" err.txt || bad "--json - | true exited $rc"
# Standard output named another way is still the one standard output.
"$SSDPROBE" -q report run.json --prometheus /dev/stdout > stdout.prom || bad "report --prometheus /dev/stdout exited $?"
head -n 1 stdout.prom | grep -q '^# HELP ssdprobe_' && ! grep -q 'report: wrote' stdout.prom ||
  bad "report --prometheus /dev/stdout: not metrics alone: $(head -n 2 stdout.prom)"
expect 2 "both want standard output" -q --json - --prometheus /dev/fd/1 sim:clean-4k

[ "$failures" = 0 ] && echo "PASS" || exit 1
