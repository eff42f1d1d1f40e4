#!/bin/bash
# Tests exit codes and messages for bad targets and bad options, that no --json file is left behind on failure, and (as root) exit 4 for an unprivileged user on a loop device.
#
# Usage: bad_input.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"

failures=0
n=0

# expect CODE NEEDLE ARGS...: runs ssdprobe ARGS --json FILE and checks the
# exit code, that FILE was not created and (if NEEDLE is not empty) that the
# output mentions NEEDLE.
expect() {
  local want="$1" needle="$2"; shift 2
  n=$((n + 1))
  local json="$SCRATCH/out-$n.json" out="$SCRATCH/out-$n.txt"
  "$SSDPROBE" "$@" --json "$json" > "$out" 2>&1
  local rc=$? problems=""
  [ "$rc" = "$want" ] || problems+=" exit $rc, want $want;"
  [ -e "$json" ] && problems+=" left $json behind;"
  [ -n "$needle" ] && ! grep -qF -- "$needle" "$out" && problems+=" message lacks '$needle';"
  if [ -z "$problems" ]; then
    note "ok   exit $rc: ssdprobe $*"
  else
    echo "FAIL: ssdprobe $* --json FILE:$problems output: $(head -c 300 "$out")" >&2
    failures=$((failures + 1))
  fi
}

missing="$SCRATCH/does-not-exist"
small="$SCRATCH/small.img"
good="$SCRATCH/good.img"
mkdir "$SCRATCH/dir"
head -c 4096 /dev/urandom > "$small"
truncate -s 64M "$good"

# Bad targets: 3.
expect 3 "$missing" -q --budget 1 "$missing"
expect 3 "$missing" info "$missing"
expect 3 "" -q --budget 1 "$SCRATCH/dir"
expect 3 "" -q --budget 1 /dev/null
expect 3 "" -q --budget 1 "$small"
expect 3 "" -q --budget 1 sim:nope

# Bad usage: 2 (with a usable target, so only the option is wrong).
expect 2 "" -q --budget abc "$good"
expect 2 "" -q --region 1G "$good"
expect 2 "" -q --region x:1M "$good"
expect 2 "" -q --qd 0 "$good"
# An end past 2^64 - 1 (it once wrapped around: a window ending before it
# starts), read-only and with --write; and a budget so large that the counts
# derived from it overflow (at most 1e6 s).
expect 2 "--region" -q --region 1M:18446744073709551104 "$good"
expect 2 "--region" -q --region 1M:18446744073709551104 sim:clean-4k
expect 2 "--region" -q --write --yes --region 1M:18446744073709551104 sim:clean-4k
expect 2 "--budget" -q --budget 1e16 sim:clean-4k
expect 2 "--budget" -q --budget 1000001 sim:clean-4k

# --qd deeper than the engine allows: the engine is the reason given.
expect 2 "the psync engine does one IO at a time" -q --engine psync --qd 4 sim:clean-4k

# A --json value that looks like a target (a shell that put a target there)
# is refused, and no file of that name is made; with no TARGET at all the
# refusal names the option that may have taken it (tests/sim/cli_output_door.sh).
outputs_refused() {
  local value="$1" shown="$2" out="$SCRATCH/target-like.txt" rc
  (cd "$SCRATCH" && "$SSDPROBE" -q --budget 1 --json "$value" sim:clean-4k > "$out" 2>&1)
  rc=$?
  n=$((n + 1))
  if [ "$rc" = 2 ] && grep -qF "$shown" "$out" && [ ! -e "$SCRATCH/$value" ] && [ ! -e "$value" ]; then
    note "ok   exit 2: --json $value: $(grep -m 1 error "$out")"
  else
    echo "FAIL: --json $value: exit $rc (want 2, '$shown')," \
      "file made: $(ls -d "$SCRATCH/$value" "$value" 2>/dev/null)" \
      "output: $(head -c 300 "$out")" >&2
    failures=$((failures + 1))
  fi
}
outputs_refused sim:clean-4k "looks like a simulated drive target"
outputs_refused /dev/ssdprobe-no-such-disk "looks like a device target"

# compare never writes over an input: --json, --csv, --markdown, --html
# naming a compared document (or any saved result: `--json results/*.json`
# hands the first result to --json) are refused, the input untouched.
compare_refused() {
  local option="$1" value="$2"; shift 2
  local out="$SCRATCH/cmp-refused.txt" before rc
  before=$(b2sum "$value" | cut -d' ' -f1)
  "$SSDPROBE" compare "$option" "$value" "$@" > "$out" 2>&1
  rc=$?
  n=$((n + 1))
  if [ "$rc" = 2 ] && [ "$(b2sum "$value" | cut -d' ' -f1)" = "$before" ] && grep -qF "nothing was written" "$out"; then
    note "ok   exit 2: compare $option $value $*"
  else
    echo "FAIL: compare $option $value $*: exit $rc (want 2), input changed:" \
      "$([ "$(b2sum "$value" | cut -d' ' -f1)" = "$before" ] && echo no || echo YES); $(head -c 300 "$out")" >&2
    failures=$((failures + 1))
  fi
}
mkdir -p "$SCRATCH/results"
for sim in clean-4k noisy-16k; do
  "$SSDPROBE" -q --budget 1 --json "$SCRATCH/results/$sim.json" "sim:$sim" > /dev/null 2>&1 ||
    fail "cannot make $SCRATCH/results/$sim.json"
done
compare_refused --json "$SCRATCH/results/clean-4k.json" "$SCRATCH/results/noisy-16k.json"
compare_refused --json "$SCRATCH/results/clean-4k.json" "$SCRATCH/results"
compare_refused --csv "$SCRATCH/results/noisy-16k.json" \
  "$SCRATCH/results/clean-4k.json" "$SCRATCH/results/noisy-16k.json"
compare_refused --markdown "$SCRATCH/results/noisy-16k.json" "$SCRATCH/results"
compare_refused --html "$SCRATCH/results/clean-4k.json" "$SCRATCH/results/noisy-16k.json"
"$SSDPROBE" compare --json "$SCRATCH/comparison.json" "$SCRATCH/results" > "$SCRATCH/cmp-ok.txt" 2>&1 ||
  { echo "FAIL: compare --json a new file: $(head -c 300 "$SCRATCH/cmp-ok.txt")" >&2; failures=$((failures + 1)); }

# Permission: 4, as nobody on a loop device (root only, skipped otherwise).
check_permission() {
  if [ "$(id -u)" != 0 ]; then note "skip permission case: needs root to create a loop device"; return; fi
  if ! command -v setpriv >/dev/null 2>&1; then note "skip permission case: no setpriv"; return; fi
  if ! command -v losetup >/dev/null 2>&1 || [ ! -c /dev/loop-control ]; then
    note "skip permission case: no loop devices"; return
  fi
  if ! scratch_supports_odirect; then note "skip permission case: no O_DIRECT in $SCRATCH"; return; fi
  local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if ! "${as_nobody[@]}" test -x "$SSDPROBE"; then
    note "skip permission case: $SSDPROBE is not executable by uid 65534"; return
  fi
  random_file "$SCRATCH/perm.img" $((64 << 20))
  local dev
  dev=$(make_loop "$SCRATCH/perm.img" 512) || exit 1
  # A directory nobody may write to, so a leftover file would be visible.
  chmod 0711 "$SCRATCH"
  mkdir -m 0777 "$SCRATCH/nobody"
  local json="$SCRATCH/nobody/out.json"
  "${as_nobody[@]}" "$SSDPROBE" -q --budget 1 --json "$json" "$dev" > "$SCRATCH/perm.txt" 2>&1
  local rc=$?
  if [ "$rc" = 4 ] && [ ! -e "$json" ]; then
    note "ok   exit 4: ssdprobe $dev as uid 65534"
  else
    echo "FAIL: ssdprobe $dev as uid 65534: exit $rc (want 4), json left behind: $([ -e "$json" ] && echo yes || echo no); $(head -c 300 "$SCRATCH/perm.txt")" >&2
    failures=$((failures + 1))
  fi
}
check_permission

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
