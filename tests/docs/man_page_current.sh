#!/bin/bash
# The man page committed in the tree (share/ssdprobe.1, for `man
# ./share/ssdprobe.1`) is the one the program prints from its option table.
#
# Usage: man_page_current.sh SSDPROBE COMMITTED_PAGE
set -u
SSDPROBE="${1:-}" COMMITTED="${2:-}"
[ -x "$SSDPROBE" ] && [ -f "$COMMITTED" ] || { echo "FAIL: usage: $0 SSDPROBE COMMITTED_PAGE" >&2; exit 1; }
if ! difference=$(diff -u "$COMMITTED" <("$SSDPROBE" --help-man)); then
  echo "FAIL: share/ssdprobe.1 differs from what \`ssdprobe --help-man\` prints; regenerate it with" >&2
  echo "      ninja -C build update-man   (or scripts/update-man [BUILD_DIR]) and commit it:" >&2
  head -40 <<<"$difference" >&2
  exit 1
fi
echo "PASS"
