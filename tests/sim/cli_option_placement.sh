#!/bin/bash
# Options mean the same before and after a subcommand, or are refused
# naming the problem: `ssdprobe --json - info` writes JSON like
# `ssdprobe info --json -`; an option the subcommand does not take, or one
# given on both sides with different values, exits 2.
#
# Usage: cli_option_placement.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

before=$("$SSDPROBE" -q --json - info sim:clean-4k) || fail "--json before info exited $?"
after=$("$SSDPROBE" -q info sim:clean-4k --json -) || fail "--json after info exited $?"
[ "$(jq -r .schema <<<"$before")" = ssdprobe/1 ] || fail "--json - before info wrote no JSON document"
[ "$(jq -c '.reported' <<<"$before")" = "$(jq -c '.reported' <<<"$after")" ] || fail "before and after differ"

err=$("$SSDPROBE" --write info sim:clean-4k 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] || fail "--write before info: exit $rc, want 2"
grep -q -- "--write does not apply to \`ssdprobe info\`" <<<"$err" || fail "--write before info: '$err'"

err=$("$SSDPROBE" -q --json a.json info --json b.json sim:clean-4k 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] || fail "--json twice: exit $rc, want 2"
grep -q "given twice" <<<"$err" || fail "--json twice: '$err'"

"$SSDPROBE" -q --json - info --json - sim:clean-4k | jq -e .schema >/dev/null || fail "the same --json on both sides is refused"
v=$("$SSDPROBE" --version) || fail "--version exited $?"
[[ "$v" =~ ^ssdprobe\ [0-9]+\.[0-9]+\.[0-9]+( \(git [0-9a-z.-]+\))?$ ]] || fail "--version printed '$v'"
if git -C "$(dirname "$0")" rev-parse --git-dir >/dev/null 2>&1; then
  [[ "$v" == *"(git "* ]] || fail "built from git, but --version names no revision: '$v'"
fi
echo "PASS"
