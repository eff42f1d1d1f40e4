# shellcheck shell=bash
# Sourced by the sim tests that start from a saved run's document
# (cli_fio_jobs.sh, cli_replay.sh): the usage check, fail(), a scratch
# directory that is the working directory and is removed on exit, and the
# run both start from.
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
