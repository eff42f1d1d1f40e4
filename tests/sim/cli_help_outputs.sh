#!/bin/bash
# What is generated from the option table: --help folded to the terminal
# width with a usage naming the subcommands as typed, the installed man page
# (renders, lists every option of every command) and the bash completion
# (loads, completes options, subcommands and sim: targets).
#
# Usage: cli_help_outputs.sh SSDPROBE MANPAGE COMPLETION
set -u
SSDPROBE="${1:-}" MANPAGE="${2:-}" COMPLETION="${3:-}"
[ -x "$SSDPROBE" ] && [ -f "$MANPAGE" ] && [ -f "$COMPLETION" ] || { echo "FAIL: usage: $0 SSDPROBE MANPAGE COMPLETION" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }

commands=$("$SSDPROBE" --help | sed -n 's/^       ssdprobe \([a-z|]*\) \.\.\..*/\1/p')
[ -n "$commands" ] || fail "--help names no subcommands in its usage: $("$SSDPROBE" --help | grep -A1 Usage)"
for c in info audit restore; do [[ "|$commands|" == *"|$c|"* ]] || fail "usage does not name $c: $commands"; done
"$SSDPROBE" --help | grep -q '^Usage: ssdprobe \[OPTIONS\] \[TARGET\]$' || fail "usage line: $("$SSDPROBE" --help | grep Usage)"
"$SSDPROBE" info --help | grep -q '^Usage: ssdprobe info \[OPTIONS\] TARGET$' || fail "info usage: $("$SSDPROBE" info --help | grep Usage)"

# Folded to COLUMNS (a long word may overflow; none of these is 60 long).
for args in "--help" "info --help" "audit --help" "restore --help"; do
  # shellcheck disable=SC2086
  long=$(COLUMNS=60 "$SSDPROBE" $args | awk 'length($0) > 60')
  [ -z "$long" ] || fail "COLUMNS=60 ssdprobe $args has lines over 60 columns: $long"
done
COLUMNS=60 "$SSDPROBE" --help | grep -q -- '--budget SECONDS' || fail "folding lost --budget"
wide=$(COLUMNS=200 "$SSDPROBE" --help | awk 'length($0) > 100' | wc -l)
[ "$wide" -gt 0 ] || fail "COLUMNS=200 still folds at 100"

# The man page renders without warnings and lists every option of every command.
if command -v groff >/dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$MANPAGE" 2>&1)
  [ -z "$warnings" ] || fail "groff warns about the man page: $warnings"
fi
rendered=$(MANWIDTH=100 man -l "$MANPAGE" 2>/dev/null | col -b) || fail "man -l failed"
[ -n "$rendered" ] || fail "man -l rendered nothing"
for cmd in "" $(tr '|' ' ' <<<"$commands"); do
  # shellcheck disable=SC2086
  options=$("$SSDPROBE" $cmd --help | grep -o -- '^  *-[-a-zA-Z, ]*--[a-z-]*' | grep -o -- '--[a-z-]*' | grep -v -- '^--help$')
  for o in $options; do
    grep -q -- "$o" <<<"$rendered" || fail "the man page does not list ${cmd:-ssdprobe}'s $o"
  done
  [ -z "$cmd" ] || grep -q "ssdprobe $cmd" <<<"$rendered" || fail "the man page has no section for $cmd"
done
grep -q "EXIT STATUS" <<<"$rendered" || fail "the man page has no EXIT STATUS"

# The completion loads and completes.
complete_line() {  # prints the candidates for the line typed so far
  bash --norc -c '
    source "$1" || exit 9
    COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
    read -ra COMP_WORDS <<<"$COMP_LINE"; [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _ssdprobe; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$1"
}
out=$(complete_line "ssdprobe --bu") || fail "the completion script does not load"
[ "$out" = "--budget" ] || fail "'--bu' completes to '$out'"
out=$(complete_line "ssdprobe in")
grep -qx info <<<"$out" || fail "'ssdprobe in' completes to '$out'"
out=$(complete_line "ssdprobe sim:fresh")
# bash splits the word at the colon: the reply is what follows it
grep -qx "fresh-16k" <<<"$out" || fail "'sim:fresh' completes to '$out'"
out=$(complete_line "ssdprobe info --un")
[ -z "$out" ] || fail "info completes --un (an audit option) to '$out'"
out=$(complete_line "ssdprobe audit --un")
[ "$out" = "--units-from" ] || fail "'audit --un' completes to '$out'"
out=$(complete_line "ssdprobe --budget ")
[ -z "$out" ] || fail "a value of --budget completes to '$out'"
echo "PASS"
