#!/bin/bash
# The generated bash completion, driven as bash drives it (COMP_LINE,
# COMP_POINT, COMP_WORDS, COMP_CWORD, then the function) in a scratch
# directory of known files: subcommands and options per command, the
# values of --engine, --grid, --format and --fail-on, sim: names, files for
# FILE values and operands, and directories with a trailing '/'.
#
# Usage: bash_completion.sh SSDPROBE COMPLETION
set -u
SSDPROBE="${1:-}" COMPLETION="${2:-}"
[ -x "$SSDPROBE" ] && [ -f "$COMPLETION" ] || { echo "FAIL: usage: $0 SSDPROBE COMPLETION" >&2; exit 1; }
COMPLETION=$(realpath "$COMPLETION")
fail() { echo "FAIL: $*" >&2; exit 1; }
oneline() { tr '\n' ' ' <<<"$1"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/results" "$scratch/journals" "$scratch/results/2026"
touch "$scratch/run.json" "$scratch/notes.txt" "$scratch/results/a.json"

# The candidates for the line typed so far, one per line, sorted.
complete_line() {
  (cd "$scratch" && bash --norc -c '
    source "$1" || exit 9
    COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<<"$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _ssdprobe; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$1" | sed '/^$/d' | sort)
}
# expect LINE CANDIDATE...: exactly these are offered
expect() {
  local line=$1; shift
  local want got
  want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
  got=$(complete_line "$line") || fail "the completion script does not load"
  [ "$got" = "$want" ] || fail "'$line' offers [$(oneline "$got")], expected [$(oneline "$want")]"
}
# offers LINE CANDIDATE...: these are among the offered
offers() {
  local line=$1; shift
  local got
  got=$(complete_line "$line")
  for w in "$@"; do grep -qxF -- "$w" <<<"$got" || fail "'$line' does not offer '$w': [$(oneline "$got")]"; done
}

# Options, per command.
expect "ssdprobe --bu" --budget
expect "ssdprobe info --un"
expect "ssdprobe audit --un" --units-from
expect "ssdprobe plot --en"
offers "ssdprobe plot --" --grid --format --output
# Subcommands, only before one is given.
offers "ssdprobe " info audit restore plot compare fio-jobs sim:fresh-16k run.json results/
expect "ssdprobe fio-jobs --with" --with-writes
offers "ssdprobe fio-jobs --" --output --runtime --with-writes --quiet
expect "ssdprobe fio-jobs --bu"
expect "ssdprobe --rep" --replay
expect "ssdprobe info in"
expect "ssdprobe in" info

# Values of options.
expect "ssdprobe --engine " auto uring psync passthru
expect "ssdprobe --engine ps" psync
expect "ssdprobe --engine=pa" passthru
expect "ssdprobe --fail-on " error warning never
expect "ssdprobe audit --fail-on w" warning
expect "ssdprobe plot --grid " read write write-in-cache read-written
expect "ssdprobe plot --grid write-" write-in-cache
expect "ssdprobe plot --format " png svg
expect "ssdprobe --budget "
expect "ssdprobe --qd "
# compare's --format (if it has one) offers its own formats, not plot's.
if compare_format=$("$SSDPROBE" compare --help | grep -o -- '--format [a-z|]*'); then
  # shellcheck disable=SC2046
  expect "ssdprobe compare --format " $(tr '|' ' ' <<<"${compare_format#--format }")
fi

# sim: names: every simulated drive of --list-sims, the part after the colon
# (bash replaces only what follows the last colon of the word).
sims=$("$SSDPROBE" --list-sims | awk 'NR > 1 {sub(/^sim:/, "", $1); print $1}')
[ -n "$sims" ] || fail "--list-sims lists no drive"
# shellcheck disable=SC2086
expect "ssdprobe sim:" $sims
offers "ssdprobe info sim:fre" fresh-16k
expect "ssdprobe restore sim:"

# Files and directories: a directory ends in '/', so the next TAB goes in.
expect "ssdprobe --journal " journals/ results/
expect "ssdprobe --journal j" journals/
expect "ssdprobe --json n" notes.txt
expect "ssdprobe --json results/" results/2026/ results/a.json
expect "ssdprobe plot -o " journals/ notes.txt results/ run.json
expect "ssdprobe plot " journals/ results/ run.json
expect "ssdprobe plot run.json r" results/ run.json
expect "ssdprobe compare --html " journals/ notes.txt results/ run.json
expect "ssdprobe compare res" results/
expect "ssdprobe ./re" ./results/
expect "ssdprobe restore no" notes.txt
expect "ssdprobe audit --units-from " journals/ results/ run.json
expect "ssdprobe --replay " journals/ results/ run.json
expect "ssdprobe fio-jobs " journals/ results/ run.json
expect "ssdprobe fio-jobs run.json -o " journals/ notes.txt results/ run.json
echo "PASS"
