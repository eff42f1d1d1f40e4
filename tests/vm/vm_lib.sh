# shellcheck shell=bash
# What vm_info.sh and vm_zoned.sh share on the host side: messages and exit
# codes, the prerequisites of a QEMU guest under TCG, the scratch directory's
# and QEMU's cleanup, the check counter and the clock. Sourced; the script
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
  if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
    if [ "${SSDPROBE_VM_KEEP:-0}" = 1 ]; then note "kept $SCRATCH"; else rm -rf -- "$SCRATCH"; fi
  fi
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
