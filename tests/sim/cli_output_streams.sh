#!/bin/bash
# Output files that are not plain files: --json (and compare's --csv) into a
# character device or a FIFO is written through, and the node stays what it
# was. Before, the finished file was renamed over the path, so running
# `ssdprobe --json /dev/null` as root replaced /dev/null with a regular file.
# The device node used here is the test's own (mknod in a temporary folder),
# so a regression cannot damage the machine's /dev/null.
#
# Usage: cli_output_streams.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to make a character device node (mknod)"; exit 77; }
command -v jq > /dev/null || { echo "SKIP: jq not installed"; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf -- "$T"' EXIT
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

mknod -m 666 "$T/null" c 1 3 || { echo "SKIP: mknod refused here"; exit 77; }
"$SSDPROBE" -q --json "$T/null" sim:clean-4k > /dev/null || bad "--json into a character device exited $?"
[ -c "$T/null" ] || bad "--json replaced the character device node with: $(stat -c %F "$T/null")"
[ -e "$T/null.partial" ] && bad "--json left $T/null.partial"

mkfifo "$T/fifo"
# The FIFO is opened inside timeout: a writer that replaced it never opens it.
timeout 60 sh -c 'jq -r .schema < "$1"' sh "$T/fifo" > "$T/from-fifo" &
reader=$!
"$SSDPROBE" -q --json "$T/fifo" sim:clean-4k > /dev/null || bad "--json into a FIFO exited $?"
wait "$reader"
[ -p "$T/fifo" ] || bad "--json replaced the FIFO"
[ "$(cat "$T/from-fifo")" = "ssdprobe/1" ] || bad "the FIFO's reader got '$(cat "$T/from-fifo")', not a result document"

"$SSDPROBE" -q --json "$T/r.json" sim:clean-4k > /dev/null || bad "--json to a file exited $?"
"$SSDPROBE" -q compare --csv "$T/null" "$T/r.json" > /dev/null 2>&1 || bad "compare --csv into a character device exited $?"
[ -c "$T/null" ] || bad "compare --csv replaced the character device node"

# --json /dev/stdout with standard output redirected to a file: the document
# lands in the file, and nothing is created or replaced in /dev.
"$SSDPROBE" -q --json /dev/stdout sim:clean-4k > "$T/stdout.json" 2> "$T/stdout.err" ||
  bad "--json /dev/stdout > FILE exited $?: $(cat "$T/stdout.err")"
[ "$(jq -r .schema "$T/stdout.json" 2>/dev/null)" = "ssdprobe/1" ] || bad "--json /dev/stdout > FILE: no document in FILE"
[ -L /dev/stdout ] || bad "/dev/stdout is no longer a symbolic link"
[ ! -e /dev/stdout.partial ] || bad "a /dev/stdout.partial was left in /dev"

[ "$failures" = 0 ] && echo "PASS" || exit 1
