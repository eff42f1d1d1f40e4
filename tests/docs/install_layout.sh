#!/bin/bash
# `meson install` puts the program, its man page and its bash completion
# where Debian looks for them (PREFIX/bin, PREFIX/share/man/man1,
# PREFIX/share/bash-completion/completions), reusing the build
# (--no-rebuild) into a scratch DESTDIR.
#
# Usage: install_layout.sh MESON BUILD_DIR BUILT_PAGE
set -u
MESON="${1:-}" BUILD="${2:-}" BUILT="${3:-}"
[ -x "$MESON" ] && [ -d "$BUILD" ] && [ -f "$BUILT" ] || { echo "FAIL: usage: $0 MESON BUILD_DIR BUILT_PAGE" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }
destdir=$(mktemp -d)
trap 'rm -rf "$destdir"' EXIT
log=$("$MESON" install -C "$BUILD" --no-rebuild --destdir "$destdir" 2>&1) || fail "meson install failed: $log"
program=$(find "$destdir" -path '*/bin/ssdprobe' -type f)
[ -n "$program" ] || fail "no bin/ssdprobe installed: $(cd "$destdir" && find . -type f)"
prefix=$(dirname "$(dirname "$program")")
[ -x "$program" ] || fail "$program is not executable"
page="$prefix/share/man/man1/ssdprobe.1"
completion="$prefix/share/bash-completion/completions/ssdprobe"
[ -f "$page" ] || fail "no man page at ${page#"$destdir"}: $(cd "$destdir" && find . -type f)"
[ -f "$completion" ] || fail "no completion at ${completion#"$destdir"}: $(cd "$destdir" && find . -type f)"
cmp -s "$page" "$BUILT" || fail "the installed man page differs from the one the build generated ($BUILT)"
grep -q '^complete -F _ssdprobe ssdprobe$' "$completion" || fail "the installed completion does not register _ssdprobe"
rules="$prefix/share/ssdprobe/prometheus/ssdprobe-rules.yml"
[ -f "$rules" ] || fail "no Prometheus rules at ${rules#"$destdir"}: $(cd "$destdir" && find . -type f)"
echo "PASS"
