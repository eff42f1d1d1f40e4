#!/bin/bash
# The output door on a real kernel, as root, against what another user can
# plant (src/core/output_file.h; the rules: docs/safety.md "What ssdprobe
# writes besides the window"):
#  - `plot -o /dev/loopN` and `--json /dev/loopN` are refused (exit 2) and
#    the loop device's bytes are unchanged (it wrote the PNG over the
#    partition table before);
#  - in a sticky directory another user (nobody) owns links planted at the
#    picture, at its numbers file and at FILE.partial: each is refused, and
#    root's file they point to is unchanged;
#  - a full filesystem under standard output: `--json - > FULL/out.json`
#    (a 4 KiB tmpfs, the document is 200 KB) exits 6 and says the output
#    is incomplete.
#
# Usage: output_door.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq sha256sum setpriv
[ "$(id -u)" = 0 ] || skip "needs root (loop devices, another user, a tmpfs mount)"
[ -c /dev/loop-control ] || skip "no /dev/loop-control"
id nobody > /dev/null 2>&1 || skip "no user nobody to plant links as"

"$SSDPROBE" -q --json "$SCRATCH/run.json" sim:clean-4k > /dev/null || fail "the sim run exited $?"

# expect CODE TEXT ARGS...
expect() {
  local code=$1 text=$2 rc
  shift 2
  "$SSDPROBE" "$@" > "$SCRATCH/out.txt" 2> "$SCRATCH/err.txt" < /dev/null
  rc=$?
  [ "$rc" = "$code" ] && grep -qF -- "$text" "$SCRATCH/err.txt" ||
    fail "$* exited $rc (wanted $code with '$text'): $(head -c 400 "$SCRATCH/err.txt")"
  note "ok: $* -> exit $rc"
}

# 1. A block device as an output.
dev=$(sparse_loop 64M)
dd if=/dev/urandom of="$dev" bs=1M count=1 status=none conv=fsync
before=$(sha256sum < "$dev")
expect 2 "is a block device" -q plot "$SCRATCH/run.json" -o "$dev" --format png
expect 2 "is a block device" -q --json "$dev" sim:clean-4k
expect 2 "is a block device" -q --force compare --csv "$dev" "$SCRATCH/run.json"
[ "$(sha256sum < "$dev")" = "$before" ] || fail "$dev was written to"

# 2. Links planted by another user in a sticky directory.
shared="$SCRATCH/shared"
chmod 711 "$SCRATCH"  # nobody passes through to the shared directory, nothing more
mkdir -m 1777 "$shared"
echo "root's own" > "$SCRATCH/secret"
chmod 600 "$SCRATCH/secret"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
as_nobody ln -s "$SCRATCH/secret" "$shared/heat.png" || fail "nobody could not plant a link"
as_nobody ln -s "$SCRATCH/secret" "$shared/other.png.dat"
as_nobody ln -s "$SCRATCH/secret" "$shared/metrics.prom.partial"
expect 2 "is a symbolic link" -q plot "$SCRATCH/run.json" -o "$shared/heat.png"
expect 2 "is a symbolic link" -q plot "$SCRATCH/run.json" -o "$shared/other.png"
expect 7 "refusing to write through" -q report "$SCRATCH/run.json" --prometheus "$shared/metrics.prom"
[ "$(cat "$SCRATCH/secret")" = "root's own" ] || fail "root's file behind the links was changed"
[ -L "$shared/heat.png" ] && [ -L "$shared/other.png.dat" ] && [ -L "$shared/metrics.prom.partial" ] ||
  fail "a planted link was removed or replaced"
[ ! -e "$shared/other.png" ] || fail "plot wrote the picture although its numbers file was refused"

# 3. Standard output on a full filesystem.
full="$SCRATCH/full"
mkdir "$full"
mount -t tmpfs -o size=4k tmpfs "$full" || skip "cannot mount a tmpfs"
trap 'rc=$?; umount "$full" 2> /dev/null; (exit $rc); cleanup' EXIT
"$SSDPROBE" -q --json - sim:clean-4k > "$full/out.json" 2> "$SCRATCH/err.txt"
rc=$?
[ "$rc" = 6 ] && grep -q "writing to standard output failed (No space left on device)" "$SCRATCH/err.txt" ||
  fail "--json - onto a full tmpfs exited $rc: $(cat "$SCRATCH/err.txt")"
note "ok: --json - onto a full tmpfs -> exit 6 ($(stat -c %s "$full/out.json") bytes kept)"
echo "PASS"
