#!/bin/bash
# --help folded to the terminal width, with a usage naming the subcommands
# as typed. The man page and the bash completion, generated from the same
# option table, are tested in tests/docs.
#
# Usage: cli_help_outputs.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }

commands=$("$SSDPROBE" --help | sed -n 's/^       ssdprobe \([a-z|-]*\) \.\.\..*/\1/p')
[ -n "$commands" ] || fail "--help names no subcommands in its usage: $("$SSDPROBE" --help | grep -A1 Usage)"
for c in info audit restore; do [[ "|$commands|" == *"|$c|"* ]] || fail "usage does not name $c: $commands"; done
"$SSDPROBE" --help | grep -q '^Usage: ssdprobe \[OPTIONS\] \[TARGET\]$' || fail "usage line: $("$SSDPROBE" --help | grep Usage)"
"$SSDPROBE" info --help | grep -q '^Usage: ssdprobe info \[OPTIONS\] \[TARGET\]$' || fail "info usage: $("$SSDPROBE" info --help | grep Usage)"  # TARGET, or --all-disks

# Folded to COLUMNS (a long word may overflow; none of these is 60 long).
for args in "--help" "info --help" "audit --help" "restore --help"; do
  # shellcheck disable=SC2086
  long=$(COLUMNS=60 "$SSDPROBE" $args | awk 'length($0) > 60')
  [ -z "$long" ] || fail "COLUMNS=60 ssdprobe $args has lines over 60 columns: $long"
done
COLUMNS=60 "$SSDPROBE" --help | grep -q -- '--budget SECONDS' || fail "folding lost --budget"
wide=$(COLUMNS=200 "$SSDPROBE" --help | awk 'length($0) > 100' | wc -l)
[ "$wide" -gt 0 ] || fail "COLUMNS=200 still folds at 100"

echo "PASS"
