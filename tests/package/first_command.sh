#!/bin/bash
# The README's first command, as a new user runs it on a fresh clone: it is
# read from the README itself (the first line after "# 1."), run in a copy of
# the tree, and must install nothing beyond the build's packages (already
# there on this machine, so it only checks), build the program and not the
# test programs, and run the demo on the built-in simulated drive to a
# verdict. Its wall time is printed (on a 2-core machine with the packages
# installed and no ccache hits, 199 s: compiling the program, one
# translation unit per layer; 577 s before the layers were unity builds). The copy
# sits inside the tree so that
# with ccache (scripts/test sets CCACHE_BASEDIR) the suite's own objects are
# hits, as in debian_package.sh.
# Skips (77) when not root: the command runs scripts/install-deps.
#
# Usage: first_command.sh SOURCE_DIR
set -u
SOURCE=$(realpath "${1:-}")
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ -f "$SOURCE/README.md" ] || fail "usage: $0 SOURCE_DIR (with README.md)"
[ "$(id -u)" -eq 0 ] || skip "the first command installs packages: needs root"

command=$(awk '/^# 1\./ { found = 1; next } found && /^#/ { next } found { print; exit }' "$SOURCE/README.md")
[ -n "$command" ] || fail "README.md has no command after '# 1.'"
echo "# the README's first command: $command"
[[ $command == *"install-deps"*"--tests"* ]] && fail "the first command installs the test tools: $command"

work=$(mktemp -d "$SOURCE/build-first.XXXXXX" 2> /dev/null) || work=$(mktemp -d /var/tmp/ssdprobe-first.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/ssdprobe"
copy_checkout "$SOURCE" "$work/ssdprobe" || fail "copying the source failed"

command -v ccache > /dev/null && ccache --zero-stats > /dev/null 2>&1
start=$(date +%s)
(cd "$work/ssdprobe" && bash -c "$command") > "$work/out.txt" 2>&1 ||
  fail "the first command exited $?: $(tail -n 30 "$work/out.txt")"
echo "# wall time: $(( $(date +%s) - start )) s"
command -v ccache > /dev/null && echo "# ccache: $(ccache_counts)"

built="$work/ssdprobe/build"
[ -x "$built/ssdprobe" ] || fail "no build/ssdprobe after the first command"
tests_built=$(find "$built/tests" -name '*_test' -type f -perm -u+x 2> /dev/null | head -n 3)
[ -z "$tests_built" ] || fail "the first command built test programs too: $tests_built"
# The demo: a run on the built-in simulated drive, its status line first.
grep -qE '^(OK|ACTION|INCONCLUSIVE):' "$work/out.txt" || fail "no verdict in the demo's output: $(tail -n 30 "$work/out.txt")"
grep -q "sim:" "$work/out.txt" || fail "the demo did not run on the simulated drive: $(tail -n 30 "$work/out.txt")"
echo "PASS: $(grep -m1 -E '^(OK|ACTION|INCONCLUSIVE):' "$work/out.txt")"
