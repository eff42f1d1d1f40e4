#!/bin/bash
# --write on a simulated drive asks like a real drive: without a terminal on
# standard input and without --yes it is refused with exit 7 and the same
# message (so a script tested on sim: stops here, not first on hardware);
# on a terminal only "yes" proceeds; --yes confirms.
#
# Usage: cli_write_confirm.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-confirm.XXXXXX") || fail "no temporary directory"
trap 'rm -rf "$T"' EXIT

"$SSDPROBE" -q --write --budget 2 sim:clean-4k < /dev/null > "$T/out.txt" 2> "$T/err.txt"; rc=$?
[ "$rc" = 7 ] || fail "--write without --yes and without a terminal: exit $rc, want 7"
grep -q "ssdprobe will WRITE to sim:clean-4k" "$T/err.txt" || fail "the plan is not shown: $(cat "$T/err.txt")"
grep -q "refusing to write to .* without confirmation: no terminal to ask on; pass --yes" "$T/err.txt" ||
  fail "not the refusal a real drive gives: $(cat "$T/err.txt")"
[ ! -s "$T/out.txt" ] || fail "a refused run printed a report"

"$SSDPROBE" -q --write --yes --budget 2 --json "$T/r.json" sim:clean-4k < /dev/null > /dev/null 2>&1 ||
  fail "--write --yes exited $?"
[ -s "$T/r.json" ] || fail "--write --yes wrote no result"

if command -v script > /dev/null 2>&1; then
  printf 'no\n' | script -qec "'$SSDPROBE' -q --write --budget 2 sim:clean-4k" /dev/null > "$T/no.txt" 2>&1; rc=$?
  [ "$rc" = 7 ] && grep -q "not confirmed" "$T/no.txt" || fail "answering 'no' on a terminal: exit $rc: $(tail -n 3 "$T/no.txt")"
  printf 'yes\n' | script -qec "'$SSDPROBE' -q --write --budget 2 sim:clean-4k" /dev/null > "$T/yes.txt" 2>&1; rc=$?
  [ "$rc" = 0 ] || fail "answering 'yes' on a terminal: exit $rc: $(tail -n 3 "$T/yes.txt")"
fi
echo "PASS"
