#!/bin/bash
# Tests what --json and the text report do with hostile or unusual names: a symlink planted at FILE.partial is refused (exit 7) and its target left untouched, a stale FILE.partial from a crashed run is replaced, bytes that are not UTF-8 (in a target's file name or in the --json path) give valid JSON with \xHH instead of "internal error", and control characters in a target's name never reach the terminal raw.
#
# Usage: cli_json_output.sh SSDPROBE
set -u
SSDPROBE="${1:-}"
[ -x "$SSDPROBE" ] || { echo "FAIL: usage: $0 SSDPROBE" >&2; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

# A real filesystem (not tmpfs) so that a regular-file target takes O_DIRECT.
base="${SSDPROBE_TEST_TMPDIR:-/var/tmp}"
T=$(mktemp -d "$base/ssdprobe-json.XXXXXX") || { echo "FAIL: cannot create a directory under $base" >&2; exit 1; }
trap 'rm -rf -- "$T"' EXIT
cd "$T" || exit 1

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "# ok   $*"; }
valid_json() { python3 -m json.tool "$1" > /dev/null 2>&1; }

# 1. A symlink at FILE.partial (to an existing file, and dangling): refused,
#    the target neither written nor created, no FILE.
echo "precious content" > victim
ln -s victim out.json.partial
"$SSDPROBE" -q --json out.json sim:clean-4k > run1.txt 2>&1
rc=$?
problems=""
[ "$rc" = 7 ] || problems+=" exit $rc, want 7 (refused);"
[ "$(cat victim)" = "precious content" ] || problems+=" THE SYMLINK'S TARGET WAS OVERWRITTEN;"
[ -L out.json.partial ] && [ "$(readlink out.json.partial)" = victim ] || problems+=" the symlink was changed;"
[ -e out.json ] || [ -L out.json ] && problems+=" out.json was created;"
grep -q "out.json.partial" run1.txt || problems+=" the message does not name out.json.partial;"
[ -z "$problems" ] && ok "symlink at FILE.partial refused: $(grep error run1.txt)" || bad "symlink at FILE.partial:$problems $(tail -c 300 run1.txt)"

ln -s "$T/created-by-ssdprobe" new.json.partial
"$SSDPROBE" -q --json new.json sim:clean-4k > run2.txt 2>&1
rc=$?
problems=""
[ "$rc" = 7 ] || problems+=" exit $rc, want 7;"
[ -e created-by-ssdprobe ] && problems+=" the dangling symlink's target was created;"
[ -e new.json ] && problems+=" new.json was created;"
[ -z "$problems" ] && ok "dangling symlink at FILE.partial refused" || bad "dangling symlink at FILE.partial:$problems $(tail -c 300 run2.txt)"

# 2. A stale regular FILE.partial (a crashed run's) is replaced.
echo "half a document" > stale.json.partial
"$SSDPROBE" -q --json stale.json sim:clean-4k > run3.txt 2>&1
rc=$?
problems=""
[ "$rc" = 0 ] || problems+=" exit $rc, want 0;"
valid_json stale.json || problems+=" stale.json is not valid JSON;"
[ -e stale.json.partial ] && problems+=" stale.json.partial is still there;"
[ -z "$problems" ] && ok "stale FILE.partial replaced" || bad "stale FILE.partial:$problems $(tail -c 300 run3.txt)"

# 3. Bytes that are not UTF-8 give valid JSON, the bytes as \xHH.
#    (a) In the --json path (echoed in "options"), on a sim.
"$SSDPROBE" -q --json $'bad\xffjson.json' sim:clean-4k > run4.txt 2>&1
rc=$?
problems=""
[ "$rc" = 0 ] || problems+=" exit $rc, want 0;"
if valid_json $'bad\xffjson.json'; then
  [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1], "rb"))["options"]["json"])' $'bad\xffjson.json')" = 'bad\xffjson.json' ] ||
    problems+=" options.json is not 'bad\\xffjson.json';"
else
  problems+=" not valid JSON;"
fi
[ -z "$problems" ] && ok "non-UTF-8 --json path: exit 0, valid JSON" || bad "non-UTF-8 --json path:$problems $(tail -c 300 run4.txt)"

#    (b) In a regular file target's name, with --json -.
target=$'disk\xff.img'
truncate -s 64M "$target"
"$SSDPROBE" -q --budget 1 --json - "$T/$target" > run5.json 2> run5.err
rc=$?
if [ "$rc" = 5 ]; then
  echo "# skip non-UTF-8 target name: O_DIRECT not supported in $T ($(tail -c 200 run5.err))"
else
  problems=""
  [ "$rc" = 0 ] || problems+=" exit $rc, want 0;"
  if valid_json run5.json; then
    path=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"]["path"])' run5.json)
    [ "$path" = "$T/disk\\xff.img" ] || problems+=" target.path is '$path';"
  else
    problems+=" standard output is not valid JSON;"
  fi
  [ -z "$problems" ] && ok "non-UTF-8 target name, --json -: exit 0, valid JSON" ||
    bad "non-UTF-8 target name:$problems $(tail -c 300 run5.err)"
fi

# 4. Control characters in a target's name: the text report shows them
#    escaped; no ESC byte reaches the terminal.
target=$'esc\x1b[2Jname.img'
truncate -s 64M "$target"
"$SSDPROBE" -q --budget 1 "$T/$target" > run6.txt 2>&1
rc=$?
if [ "$rc" = 5 ]; then
  echo "# skip control characters in a target name: O_DIRECT not supported in $T"
else
  problems=""
  [ "$rc" = 0 ] || problems+=" exit $rc, want 0;"
  grep -q $'\x1b' run6.txt && problems+=" a raw ESC byte was printed;"
  grep -qF 'esc\x1b[2Jname.img' run6.txt || problems+=" the name is not shown as 'esc\\x1b[2Jname.img';"
  [ -z "$problems" ] && ok "control characters in a target name escaped in the text report" ||
    bad "control characters in a target name:$problems $(head -c 300 run6.txt | cat -v)"
fi

[ "$failures" = 0 ] || { echo "FAIL: $failures cases wrong" >&2; exit 1; }
echo "PASS"
