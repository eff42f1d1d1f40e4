# shellcheck shell=bash
# Sourced by the sim tests that start from a saved run's document
# (cli_fio_jobs.sh, cli_replay.sh): the usage check, fail(), a scratch
# directory that is the working directory and is removed on exit, the run
# both start from, and expect() for the refusals they check.
#
# Usage: . saved_run_lib.sh "$@"   (the test's arguments: SSDPROBE)
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || fail "cannot enter $T"

# saved_run FILE: a read-only sim run with every replayable option set away
# from its default (seed 7, budget 5 s, queue depth 4, region 1G:2G), its
# document in FILE.
saved_run() {
  "$SSDPROBE" -q --seed 7 --budget 5 --qd 4 --region 1G:2G --json "$1" sim:nvme-tlc-16k > /dev/null ||
    fail "the sim run exited $?"
}

# expect RC PATTERN ARGS...: `ssdprobe ARGS` exits RC and its standard error
# holds PATTERN.
expect() {  # expect RC PATTERN ARGS...
  local want="$1" pattern="$2"; shift 2
  local err rc
  err=$("$SSDPROBE" "$@" 2>&1 >/dev/null); rc=$?
  [ "$rc" = "$want" ] || fail "ssdprobe $*: exit $rc, want $want ($err)"
  grep -q -- "$pattern" <<<"$err" || fail "ssdprobe $*: message '$err' lacks '$pattern'"
}
