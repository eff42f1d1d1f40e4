# lib.sh: shared helpers for the real-kernel device tests (tests/device/*.sh):
# skip/fail conventions, the root/loop/FUSE prerequisites, a scratch
# directory that supports O_DIRECT, loop devices and emudrive mounts that are
# always torn down on exit, even when a test fails half-way.
#
# Source it from a test script; exit codes follow meson: 0 pass, 1 fail,
# 77 skip. Works under `set -euo pipefail` too (cleanup turns -e off). Resources are recorded in files under $SCRATCH (not shell arrays)
# so that helpers also register them when called inside $(...).

# Device tests from every build directory on this machine share the host: a
# test that times the device (SSDPROBE_DEVICE_LOCK=exclusive, the default)
# runs alone; tests that only check what a run did (shared, set per test in
# meson.build) run beside each other. Each gets its own loop devices,
# partitions, mounts and state directory, so sharing is safe. (The braces
# keep 2>/dev/null to the exec: on `exec` itself it would silence the test's
# standard error, and with it every FAIL message, for good.)
if command -v flock >/dev/null 2>&1 && { exec 9>>/run/lock/ssdprobe-device-tests.lock; } 2>/dev/null; then
  if [ "${SSDPROBE_DEVICE_LOCK:-exclusive}" = shared ]; then flock -s 9; else flock 9; fi
fi

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

# ---------------------------------------------------------------------------
# Scratch directory and cleanup

SCRATCH=""

# Creates $SCRATCH under ${SSDPROBE_TEST_TMPDIR:-/var/tmp} (a real file
# system, not tmpfs: loop devices with direct IO need O_DIRECT on the backing
# file). Safe to call more than once.
make_scratch() {
  [ -n "$SCRATCH" ] && return 0
  local base="${SSDPROBE_TEST_TMPDIR:-/var/tmp}"
  SCRATCH=$(mktemp -d "$base/ssdprobe-test.XXXXXX") || fail "cannot create a scratch directory under $base"
  : > "$SCRATCH/.loops"
  : > "$SCRATCH/.mounts"
  # The index of pending journals (src/safety/journal_index.h): the test's own.
  export SSDPROBE_STATE_DIR="$SCRATCH/state"
}

# Partitions added with addpart outlive `losetup -d` (this kernel does not
# scan loop devices for partitions, so detaching does not drop them), and the
# next test to get that loop number would find them: remove them first.
drop_partitions() {
  local dev="$1" part
  for part in /sys/block/"${dev#/dev/}"/"${dev#/dev/}"p*; do
    [ -e "$part/partition" ] && delpart "$dev" "$(cat "$part/partition")" 2>/dev/null
  done
  return 0
}

# _loop_is_ours DEV: DEV is still attached to a file of this test (in
# $SCRATCH, or one of its own loop devices). A test that detached DEV for a
# moment may have lost the number to a test running beside it; detaching
# that test's device would wreck it (stop 46's CI: dd filled a detached
# loop, sfdisk opened nothing).
_loop_is_ours() {
  local backing
  backing=$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) || return 1
  backing="${backing% (deleted)}"
  case "$backing" in "$(realpath "$SCRATCH")"/*|"$SCRATCH"/*) return 0 ;; esac
  grep -qxF -- "$backing" "$SCRATCH/.loops"
}

_detach_loops() {
  local dev
  [ -f "$SCRATCH/.loops" ] || return 0
  while read -r dev; do
    [ -n "$dev" ] && _loop_is_ours "$dev" || continue
    drop_partitions "$dev"
    losetup -d "$dev" 2>/dev/null
  done < "$SCRATCH/.loops"
  return 0
}

# Unmounts with retries: the loop driver may hold the file for a moment after
# `losetup -d`. Falls back to a lazy unmount.
_unmount() {
  local mp="$1" _
  mountpoint -q "$mp" || return 0
  for _ in $(seq 50); do
    fusermount3 -u "$mp" 2>/dev/null && return 0
    sleep 0.1
  done
  fusermount3 -uz "$mp" 2>/dev/null
  return 0
}

# .mounts lines: "PID MOUNTPOINT"
_stop_emudrives() {
  local pid mp _
  [ -f "$SCRATCH/.mounts" ] || return 0
  while read -r pid mp; do
    [ -n "$mp" ] || continue
    _unmount "$mp"
    for _ in $(seq 30); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null; fi
  done < "$SCRATCH/.mounts"
  return 0
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT
  if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
    _detach_loops
    _stop_emudrives
    wait 2>/dev/null
    if [ "${SSDPROBE_KEEP_SCRATCH:-0}" = 1 ]; then echo "# kept $SCRATCH" >&2; else rm -rf -- "$SCRATCH"; fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# scratch_mount_point: sets MNT to a directory in $SCRATCH to mount on; on
# exit whatever is mounted there is unmounted before the loops are detached
# (a mounted filesystem would keep its loop device busy).
scratch_mount_point() {
  MNT="$SCRATCH/mnt"
  mkdir -p "$MNT"
  trap 'rc=$?; mountpoint -q "$MNT" && umount "$MNT"; (exit $rc); cleanup' EXIT
}

make_scratch

# ---------------------------------------------------------------------------
# Prerequisites

require_cmd() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || skip "$c not installed"
  done
}

# Fails (not skips): a missing binary means the test was wired up wrongly.
require_executable() {
  if [ -z "${1:-}" ] || [ ! -x "$1" ]; then
    fail "not an executable: '${1:-}' (usage: $0 SSDPROBE [EMUDRIVE])"
  fi
}

# use_binaries SSDPROBE [EMUDRIVE]: the test's arguments, checked; sets
# $SSDPROBE and, when given, $EMUDRIVE (start_emudrive runs it).
use_binaries() {
  SSDPROBE="${1:-}"
  require_executable "$SSDPROBE"
  if [ -n "${2:-}" ]; then
    EMUDRIVE="$2"
    require_executable "$EMUDRIVE"
  fi
}

scratch_supports_odirect() {
  [ "$(stat -f -c %T "$SCRATCH")" != tmpfs ] &&
    dd if=/dev/zero of="$SCRATCH/.odirect" bs=4096 count=1 oflag=direct status=none 2>/dev/null
}

require_root_loop_fuse() {
  [ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
  command -v losetup >/dev/null 2>&1 || skip "losetup not installed"
  [ -c /dev/loop-control ] || skip "no /dev/loop-control"
  [ -c /dev/fuse ] || skip "no /dev/fuse"
  command -v fusermount3 >/dev/null 2>&1 || skip "fusermount3 not installed"
  scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH (tmpfs?); set SSDPROBE_TEST_TMPDIR"
}

# ---------------------------------------------------------------------------
# Loop devices and emudrive

# make_loop FILE SECTOR_SIZE: attaches FILE with direct IO, echoes /dev/loopN.
# Fails unless the kernel really uses direct IO (loop/dio = 1).
make_loop() {
  local file="$1" sector="$2" dev
  dev=$(losetup --find --show --direct-io=on --sector-size "$sector" "$file") ||
    fail "losetup --direct-io=on --sector-size $sector $file failed"
  echo "$dev" >> "$SCRATCH/.loops"
  _require_dio "$dev" "$file"
  echo "$dev"
}

_require_dio() {
  local dio
  dio=$(cat "/sys/block/${1#/dev/}/loop/dio" 2>/dev/null)
  [ "$dio" = 1 ] || fail "$1 over $2: direct IO not in effect (loop/dio=$dio)"
}

# Loop numbers from here up are for tests that detach a loop device and
# attach another file under the same name. `losetup --find` hands out the
# lowest free number, so a low number freed for a moment goes to whichever
# test beside asks next; these are out of its reach.
PRIVATE_LOOP_FIRST=200
PRIVATE_LOOP_LAST=255

# private_loop FILE SECTOR_SIZE: attaches FILE with direct IO to a loop
# number of this test's own, claimed by a lock file held until the test
# exits, and sets PRIVATE_LOOP to /dev/loopN. Call it directly, never in
# $(...): the claim would end with the subshell.
private_loop() {
  local file="$1" sector="$2" n fd
  for n in $(seq "$PRIVATE_LOOP_FIRST" "$PRIVATE_LOOP_LAST"); do
    exec {fd}>>"/run/lock/ssdprobe-test-loop$n.lock" || continue
    if flock -n "$fd" && [ ! -e "/sys/block/loop$n/loop/backing_file" ] &&
      losetup --direct-io=on --sector-size "$sector" "/dev/loop$n" "$file" 2>/dev/null; then
      PRIVATE_LOOP="/dev/loop$n"
      echo "$PRIVATE_LOOP" >> "$SCRATCH/.loops"
      drop_partitions "$PRIVATE_LOOP"
      _require_dio "$PRIVATE_LOOP" "$file"
      return 0
    fi
    exec {fd}>&-
  done
  fail "no free loop number in $PRIVATE_LOOP_FIRST..$PRIVATE_LOOP_LAST for $file"
}

# sparse_loop SIZE: a loop device over a new sparse file in $SCRATCH, without
# direct IO (for tests that build layouts and read a few KiB of them, not
# for timing); echoes /dev/loopN, with no partitions left from earlier users.
sparse_loop() {
  local file dev
  file=$(mktemp "$SCRATCH/disk.XXXXXX")
  truncate -s "$1" "$file"
  dev=$(losetup --find --show "$file") || fail "losetup $file failed"
  echo "$dev" >> "$SCRATCH/.loops"
  drop_partitions "$dev"  # left by an earlier user of this loop number
  echo "$dev"
}

# start_emudrive MOUNTPOINT ARGS...: runs "$EMUDRIVE -f ARGS MOUNTPOINT" in the
# background, waits for MOUNTPOINT/disk, registers it for cleanup.
start_emudrive() {
  local mp="$1"; shift
  if [ -z "${EMUDRIVE:-}" ] || [ ! -x "$EMUDRIVE" ]; then
    fail "EMUDRIVE is not set to an executable"
  fi
  mkdir -p "$mp"
  local log
  log="$SCRATCH/emudrive.$(basename "$mp").log"
  "$EMUDRIVE" -f "$@" "$mp" > "$log" 2>&1 &
  local pid=$!
  echo "$pid $mp" >> "$SCRATCH/.mounts"
  local _
  for _ in $(seq 100); do
    [ -e "$mp/disk" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "emudrive exited before mounting $mp"; }
    sleep 0.1
  done
  cat "$log" >&2
  fail "emudrive did not mount $mp within 10 s"
}

# ---------------------------------------------------------------------------
# Small helpers for assertions

# random_file PATH BYTES: a file of random content.
random_file() {
  head -c "$2" /dev/urandom > "$1" || fail "cannot write $1"
}

# run_logged LOG CMD...: runs CMD with its output in LOG; on failure shows the
# LOG on stderr. Returns CMD's exit code.
run_logged() {
  local log="$1"; shift
  "$@" > "$log" 2>&1
  local rc=$?
  [ "$rc" = 0 ] || { echo "--- $log:" >&2; tail -n 40 "$log" >&2; }
  return "$rc"
}

# jget FILE FILTER: one raw jq value ("null" when absent).
jget() { jq -r "$2" "$1"; }

# last_progress LOG: the last progress text a run behind script(1) showed
# (the line is rewritten in place: after the last carriage return), without
# script(1)'s own "Script started/done" lines.
last_progress() { tr '\r' '\n' < "$1" | sed 's/\x1b\[K//g' | grep -Ev '^[[:space:]]*$|^Script (started|done) ' | tail -n 1; }

# start_behind_terminal LOG ARGS...: `$SSDPROBE ARGS...` behind a terminal
# (script(1), so it shows its progress line), in the background; sets
# RUN_PID (script's) and PROBE_PID (ssdprobe's: the shell script(1) starts
# execs it).
start_behind_terminal() {
  local log="$1" _
  shift
  : > "$log"
  script -qfec "exec $(printf '%q ' "$SSDPROBE" "$@")" "$log" < /dev/null > /dev/null 2>&1 &
  RUN_PID=$!
  PROBE_PID=""
  for _ in $(seq 200); do
    PROBE_PID=$(cat "/proc/$RUN_PID/task/$RUN_PID/children" 2>/dev/null | awk '{print $1}')
    [ -n "$PROBE_PID" ] && [ "$(readlink "/proc/$PROBE_PID/exe")" = "$(readlink -f "$SSDPROBE")" ] && return 0
    sleep 0.01
  done
  fail "could not find the ssdprobe process under script(1) (pid $RUN_PID)"
}

# dev_hash DEV: hash of the whole device, read with O_DIRECT (no page cache).
dev_hash() { dd if="$1" bs=4M iflag=direct status=none | b2sum | cut -d' ' -f1; }

# journals: the write journals in $J (the test's --journal directory).
journals() { find "$J" -maxdepth 1 -name '*.ssdpj' 2>/dev/null; }

# journal_state JOURNAL: its state word as od prints it (54495257, "WRIT":
# writes may have started).
journal_state() { od -An -tx4 -j12 -N4 "$1" 2>/dev/null | tr -d ' '; }

# leave_committed_journal TARGET REGION: a --write run (journal in $J)
# SIGKILLed as soon as its journal says writes may have started, so one
# committed journal is left in $J. --budget 3: the read grid before the
# journal takes at most ~1.4 s of it; the write phases after the commit last
# far longer than the few milliseconds the kill takes to land. Waits a
# second after, for the writes the killed run had in flight.
leave_committed_journal() {
  local f pid
  "$SSDPROBE" --write --yes --cache-bytes 64M --budget 3 -q --journal "$J" --region "$2" "$1" < /dev/null \
    > "$SCRATCH/killed.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    f=$(journals | head -n 1)
    if [ -n "$f" ] && [ "$(journal_state "$f")" = 54495257 ]; then
      kill -9 "$pid"
      break
    fi
    sleep 0.002
  done
  wait "$pid" 2>/dev/null
  sleep 1
  [ -n "$(journals)" ] || fail "no journal was left by the killed run (log: $(tail -n 3 "$SCRATCH/killed.log"))"
}

# traced_window_layout: the layout of the tests that aim signals and kills at
# phases of a --write run: a 64 MiB window at 64 MiB (WIN_OFF, WIN_LEN, and
# REGION for --region), the emudrive mount MP, its --trace file TRACE and the
# journal directory J. (Every run copies the window to the journal and
# writes it back, through emudrive a large part of its wall time; a larger
# window would only lengthen the phases the aims wait through.)
traced_window_layout() {
  MIB=$((1 << 20))
  WIN_OFF=$((64 * MIB))
  WIN_LEN=$((64 * MIB))
  REGION="64M:64M"
  MP="$SCRATCH/mnt"
  TRACE="$SCRATCH/trace"
  J="$SCRATCH/j"
}

# Phases of a traced --write run (emudrive --trace lines "R|W OFFSET LENGTH"),
# polled every few milliseconds to aim a signal or a kill. The stream writes
# 64 KiB chunks (a 16 KiB write unit); the restore writes pieces of 4 MiB
# journal records, larger than any probe write.
journal_quarter_written() {
  local f size
  f=$(journals | head -n 1)
  [ -n "$f" ] || return 1
  size=$(stat -c %s "$f" 2>/dev/null) || return 1
  [ "$size" -ge $((WIN_LEN / 4)) ]
}
grid_started() { [ "$(grep -c -m 50 '^W' "$TRACE")" -ge 50 ]; }
stream_started() {
  tail -n 16 "$TRACE" | awk '
    $1 != "W" || $3 != 65536 || (NR > 1 && $2 != prev) { bad = 1 }
    { prev = $2 + $3; n++ }
    END { exit !(n == 16 && !bad) }'
}
restore_started() { tail -n 8 "$TRACE" | awk '$1 == "W" && $3 > 262144 { found = 1 } END { exit !found }'; }

# ---------------------------------------------------------------------------
# Kill tests (slc_cache_kill, open_units_kill): a --write run on a loop
# device over $FILE, whose content hashes to $H0, killed and restored. They
# need the caller's bad() and $failures, $J, $WINDOW_BYTES (the window).

file_sha() { dd if="$FILE" bs=4M iflag=direct status=none | sha256sum | cut -d' ' -f1; }

# put_back: after a kill that missed its aim, the journal restored (if any)
# and the file back to $H0, or the test fails.
put_back() {
  local journal
  journal=$(journals)
  if [ -n "$journal" ]; then "$SSDPROBE" restore --yes "$journal" > /dev/null 2>&1 || fail "cannot restore $journal after a missed aim"; fi
  [ "$(file_sha)" = "$H0" ] || fail "the file is not back to its original content after a missed aim"
}

# check_restore TAG WRITTEN: one journal; the device differs from H0 if
# WRITTEN (yes), not if no; `ssdprobe restore` exits 0, says it restored the
# window and puts it back bit-exactly; no journal left.
check_restore() {
  local tag="$1" written="$2" journal rc f0=$failures
  journal=$(journals)
  [ -n "$journal" ] && [ "$(wc -l <<< "$journal")" = 1 ] || { bad "$tag: expected one journal in $J, found '$journal'"; return; }
  if [ "$written" = yes ]; then
    [ "$(file_sha)" != "$H0" ] || bad "$tag: the file is unchanged after the kill: the kill tested nothing"
  else
    [ "$(file_sha)" = "$H0" ] || bad "$tag: the file changed although the run was killed before it wrote"
  fi
  "$SSDPROBE" restore --yes "$journal" > "$SCRATCH/$tag.restore.log" 2>&1
  rc=$?
  [ "$rc" = 0 ] || bad "$tag: ssdprobe restore exited $rc: $(tail -n 3 "$SCRATCH/$tag.restore.log")"
  if [ "$written" = yes ]; then
    grep -q "restored and verified $WINDOW_BYTES bytes" "$SCRATCH/$tag.restore.log" ||
      bad "$tag: restore did not report the $WINDOW_BYTES-byte window restored: $(cat "$SCRATCH/$tag.restore.log")"
  else
    grep -q "nothing to write: the window .* already holds the journal's saved content" "$SCRATCH/$tag.restore.log" ||
      bad "$tag: restore of an unwritten window did not say there was nothing to write: $(cat "$SCRATCH/$tag.restore.log")"
  fi
  [ "$(file_sha)" = "$H0" ] || bad "$tag: THE FILE DIFFERS FROM ITS ORIGINAL CONTENT after restore"
  [ -z "$(journals)" ] || bad "$tag: journal left behind after restore: $(journals)"
  [ "$failures" = "$f0" ] && note "ok   $tag: $(grep -m 1 'restored and verified\|nothing to write' "$SCRATCH/$tag.restore.log")"
}

# kill_after CONDITION DELAY: SIGKILLs ssdprobe DELAY seconds after
# CONDITION first holds.
kill_after() {
  local cond="$1" delay="$2"
  while kill -0 "$PROBE_PID" 2>/dev/null && ! "$cond"; do sleep 0.005; done
  sleep "$delay"
  kill -9 "$PROBE_PID" 2>/dev/null
  wait "$RUN_PID" 2>/dev/null
}

# kill_where_aimed TAG WRITTEN AIMED KILL...: up to 3 runs, each started by
# the caller's start_run LOG (LOG is set to this attempt's log) and ended by
# KILL...; the first after which AIMED holds (the run died where aimed) is
# restored and checked (check_restore TAG WRITTEN), each miss put back.
kill_where_aimed() {
  local tag="$1" written="$2" aimed="$3" attempt
  shift 3
  for attempt in 1 2 3; do
    LOG="$SCRATCH/$tag.$attempt.log"
    start_run "$LOG"
    "$@"
    if "$aimed"; then
      note "$tag: $* (attempt $attempt), last shown: '$(last_progress "$LOG")'"
      check_restore "$tag" "$written"
      return
    fi
    note "$tag: aim missed (attempt $attempt): last shown '$(last_progress "$LOG")'; restoring and retrying"
    put_back
  done
  bad "$tag: could not SIGKILL the run where aimed ($aimed) in 3 attempts"
}
