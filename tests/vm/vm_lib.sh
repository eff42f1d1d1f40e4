# shellcheck shell=bash
# What vm_info.sh and vm_zoned.sh share on the host side: messages and exit
# codes, the prerequisites of a QEMU guest under TCG, the scratch directory's
# and QEMU's cleanup, the check counter, the clock, and one more guest when
# the first stalled. Sourced; the script
# sets SSDPROBE, QEMU, KERNEL_DIR before calling check_vm_prerequisites.

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

# check_vm_prerequisites: the ssdprobe binary, QEMU with TCG, a static
# busybox and the tools the initramfs is built with, and the guest kernel
# with its modules; skips (77) naming what is missing.
check_vm_prerequisites() {
  if [ -z "$SSDPROBE" ] || [ ! -x "$SSDPROBE" ]; then
    fail "not an executable: '$SSDPROBE' (usage: $0 SSDPROBE)"
  fi
  local hint="run scripts/install-vm-deps" c
  for c in "$QEMU" busybox cpio modprobe jq timeout; do
    command -v "$c" >/dev/null 2>&1 || skip "$c not installed ($hint)"
  done
  if ldd "$(command -v busybox)" >/dev/null 2>&1; then skip "busybox is not static ($hint: busybox-static)"; fi
  if [ ! -s "$KERNEL_DIR/vmlinux" ] || [ ! -s "$KERNEL_DIR/release" ]; then
    skip "no guest kernel in $KERNEL_DIR ($hint)"
  fi
  [ -d "$KERNEL_DIR/lib/modules/$(cat "$KERNEL_DIR/release")" ] ||
    skip "no guest modules in $KERNEL_DIR ($hint)"
  "$QEMU" -accel help 2>/dev/null | grep -qx tcg || skip "$QEMU has no TCG accelerator"
  if [ ! -r /dev/null ] || [ ! -r /dev/urandom ]; then skip "no /dev/null or /dev/urandom"; fi
}

# The guest and the scratch directory go with the script, however it ends
# (SSDPROBE_VM_KEEP=1 keeps the directory: serial log, results).
SCRATCH=""
QEMU_PID=""
cleanup() {
  local rc=$?
  set +e
  trap - EXIT
  if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
    kill "$QEMU_PID" 2>/dev/null
    wait "$QEMU_PID" 2>/dev/null
  fi
  retire_scratch
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ERRORS=0
check_eq() {  # WHAT GOT WANT
  if [ "$2" = "$3" ]; then
    note "ok   $1 = $2"
  else
    echo "FAIL: $1: got '$2', expected '$3'" >&2
    ERRORS=$((ERRORS + 1))
  fi
}

# elapsed T0: seconds since T0 (date +%s.%N), one decimal.
elapsed() { echo "$(date +%s.%N) $1" | awk '{ printf "%.1f", $1 - $2 }'; }

# ---------------------------------------------------------------------------
# A guest that stalled

# What the guest kernel says when the emulated machine, not a probe, stopped
# making progress: I/O timeouts and the resets after them, hung tasks, RCU
# stalls, soft lockups.
STALL_PATTERN='blocked for more than|rcu.*stall|soft lockup|nvme.*timeout|resetting controller|hard resetting link|timing out command|mmc[0-9]+: .*[Tt]imeout|uas_eh_abort|scsi.*abort'

# guest_stall_evidence RESULTS SERIAL_LOG: the lines that show the guest
# stalled (a step that ran into its limit, from the guest's stalls.txt, and
# the kernel's complaints from its dmesg and console, the guest's own lines
# left out); nothing when it ran normally.
guest_stall_evidence() {
  {
    cat "$1/stalls.txt" 2>/dev/null
    grep -hE "$STALL_PATTERN" "$1/dmesg.txt" 2>/dev/null
    grep -vE '^vmtest:' "$2" 2>/dev/null | grep -E "$STALL_PATTERN"
  } | sort -u | head -n 12
}

# guest_never_finished: a guest that did not power off within its limit
# stalled (every step in it runs under a limit far below the guest's, and a
# process that ignores SIGTERM is killed and logged as a failure of its
# own: guest_lib.sh wait_limited), and its stalls.txt says so.
guest_never_finished() {
  echo "the guest did not power off within $VM_TIMEOUT s" >> "$SCRATCH/results/stalls.txt"
}

# with_one_rerun ATTEMPT: runs the function ATTEMPT (it makes its scratch
# directory, boots a guest and checks its results; it returns non-zero when
# the guest gave none, and counts failed checks in ERRORS). An attempt that
# failed in a guest that stalled (guest_stall_evidence) is shown and run once
# more in a new scratch directory, and the second outcome stands: a TCG guest
# starved by a loaded host says nothing about ssdprobe. A failure without
# that evidence is never rerun.
with_one_rerun() {
  local rc evidence line
  "$1"
  rc=$?
  [ "$rc" = 0 ] && [ "$ERRORS" = 0 ] && return 0
  evidence=$(guest_stall_evidence "$SCRATCH/results" "$SCRATCH/serial.log")
  [ -n "$evidence" ] || return "$rc"
  note "attempt 1 does not count: $ERRORS checks failed (exit $rc) in a guest that stalled:"
  while IFS= read -r line; do note "  stall: $line"; done <<< "$evidence"
  retire_scratch
  ERRORS=0
  "$1"
}

# retire_scratch: the scratch directory goes (or stays, with SSDPROBE_VM_KEEP=1).
retire_scratch() {
  [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ] || return 0
  if [ "${SSDPROBE_VM_KEEP:-0}" = 1 ]; then note "kept $SCRATCH"; else rm -rf -- "$SCRATCH"; fi
  SCRATCH=""
}
