#!/bin/bash
# The man page renders without warnings, has the sections a man page
# reader looks for, a synopsis per command with repeated operands marked
# and option values spelled out, every option of every command, and
# examples that only use options their command takes.
#
# Usage: man_page.sh SSDPROBE MANPAGE
set -u
SSDPROBE="${1:-}" MANPAGE="${2:-}"
[ -x "$SSDPROBE" ] && [ -f "$MANPAGE" ] || { echo "FAIL: usage: $0 SSDPROBE MANPAGE" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }

if command -v groff >/dev/null; then
  for device in utf8 ascii; do  # ascii: man in the C locale
    warnings=$(groff -man -T$device -ww -z "$MANPAGE" 2>&1)
    [ -z "$warnings" ] || fail "groff -T$device warns about the man page: $warnings"
  done
fi
command -v man >/dev/null || { echo "SKIP: man is not installed"; exit 77; }
rendered=$(MANWIDTH=300 man -l "$MANPAGE" 2>/dev/null | col -bx) || fail "man -l failed"
[ -n "$rendered" ] || fail "man -l rendered nothing"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
  grep -qx "$section" <<<"$rendered" || fail "the man page has no $section section"
done
# The part of the page between one heading and the next.
section() { awk -v s="$1" '$0 == s {on = 1; next} /^[A-Z][A-Z ]*$/ {on = 0} on' <<<"$rendered"; }
synopsis=$(section SYNOPSIS | tr -s ' \n' ' ')

commands=$("$SSDPROBE" --help | sed -n 's/^       ssdprobe \([a-z|-]*\) \.\.\..*/\1/p' | tr '|' ' ')
for c in info audit restore plot compare; do
  [[ " $commands " == *" $c "* ]] || fail "--help names no $c command: $commands"
done
for cmd in "" $commands; do
  # shellcheck disable=SC2086
  help=$("$SSDPROBE" $cmd --help)
  [ -z "$cmd" ] || grep -q "ssdprobe $cmd " <<<"$synopsis" || fail "no synopsis for ssdprobe $cmd: $synopsis"
  options=$(grep -o -- '^  *-[-a-zA-Z, ]*--[a-z-]*' <<<"$help" | grep -o -- '--[a-z-]*' | grep -v -- '^--help$')
  for o in $options; do
    grep -q -- "$o" <<<"$rendered" || fail "the man page does not list ${cmd:-ssdprobe}'s $o"
  done
  [ -z "$cmd" ] || grep -q "^ *ssdprobe $cmd " <<<"$rendered" || fail "the man page has no section for $cmd"
done
for spelled in "ssdprobe plot" "RESULT.json…" "[--grid read|write|write-in-cache|read-written]" \
               "[--format png|svg]" "[--engine auto|uring|psync|passthru]" "[--fail-on error|warning|never]" \
               "--output FILE" "[TARGET]" "ssdprobe compare" "RESULT…" "[--csv FILE|-]"; do
  grep -qF -- "$spelled" <<<"$synopsis" || fail "the synopsis does not show '$spelled': $synopsis"
done

# Each example is a command line whose options its command takes.
examples=$(section EXAMPLES | sed -n 's/^ *\(ssdprobe .*\)/\1/p')
[ "$(wc -l <<<"$examples")" -ge 5 ] || fail "fewer than 5 examples: $examples"
while read -r -a words; do
  cmd=""
  [[ " $commands " == *" ${words[1]} "* ]] && cmd=${words[1]}
  # shellcheck disable=SC2086
  help=$("$SSDPROBE" $cmd --help)
  for w in "${words[@]}"; do
    [[ "$w" == -* ]] || continue
    grep -qE -- "(^|[ ,])$w([ ,]|$)" <<<"$help" || fail "example '${words[*]}': ssdprobe $cmd takes no $w"
  done
done <<<"$examples"
for kind in "ssdprobe --write --json" "ssdprobe audit" "ssdprobe plot" "ssdprobe compare --html"; do
  grep -q "^$kind" <<<"$examples" || fail "no example of $kind: $examples"
done

grep -q "/var/lib/ssdprobe/journal/" <<<"$(section FILES)" || fail "FILES does not name the journal directory"
for page in "fio(1)" "nvme(1)" "smartctl(8)" "parted(8)" "lsblk(8)"; do
  grep -qF "$page" <<<"$(section "SEE ALSO")" || fail "SEE ALSO does not name $page"
done
echo "PASS"
