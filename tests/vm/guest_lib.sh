# shellcheck shell=dash
# The helpers both QEMU guests' /init scripts use (guest_init.sh for vm_info,
# guest_zoned_init.sh for vm_zoned): logging, the kernel command line's
# vmtest.* words, mounts and modules, finding the output disk and writing
# the results onto it. build_initramfs.sh installs it as /guest_lib.sh.
# Needs OUT (the results directory) set by the script that sources it.

# log MESSAGE: to the console and guest.log, with the guest's uptime in seconds.
log() { echo "vmtest: [$(cut -d' ' -f1 /proc/uptime 2>/dev/null)] $*" | tee -a "$OUT/guest.log"; }

# param NAME [DEFAULT]: value of vmtest.NAME= on the kernel command line.
param() {
  local word
  # shellcheck disable=SC2013  # the command line is one line of words
  for word in $(cat /proc/cmdline); do
    case "$word" in "vmtest.$1="*) echo "${word#*=}" | tr '+' ' '; return 0 ;; esac
  done
  echo "${2:-}"
}

mount_basics() {
  mount -t proc proc /proc
  mount -t sysfs sysfs /sys
  mount -t devtmpfs devtmpfs /dev
  mount -t tmpfs tmpfs /tmp
  # Keep kernel messages off the console: the host reads our lines from it.
  echo "1 4 1 7" > /proc/sys/kernel/printk
}

load_modules() {
  local ko
  while read -r ko; do
    insmod "$ko" 2>>"$OUT/insmod.err" || log "insmod $(basename "$ko") failed"
  done < /etc/modules.load
  mount -t configfs configfs /sys/kernel/config 2>/dev/null
  ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
}

# wait_for PATH SECONDS: waits until PATH exists.
wait_for() {
  local i=0
  while [ ! -e "$1" ]; do
    [ "$i" -ge $(($2 * 10)) ] && { log "timed out waiting for $1"; return 1; }
    usleep 100000
    i=$((i + 1))
  done
}

# virtio_by_serial SERIAL: echoes /dev/vdX of the virtio disk with that serial.
virtio_by_serial() {
  local i d
  for i in $(seq 100); do
    for d in /sys/block/vd*; do
      [ -e "$d/serial" ] || continue
      if [ "$(cat "$d/serial")" = "$1" ]; then echo "/dev/${d##*/}"; return 0; fi
    done
    usleep 100000
  done
  log "no virtio disk with serial $1"
  return 1
}

# save_results: the tar archive onto the output disk, then power off.
save_results() {
  local outdev
  dmesg > "$OUT/dmesg.txt" 2>/dev/null
  ls -l /dev > "$OUT/dev-listing.txt" 2>/dev/null
  outdev=$(virtio_by_serial "$(param out)") || { echo "vmtest: no output disk"; return 1; }
  (cd "$OUT" && tar -cf "$outdev" .) && sync
  echo "vmtest: results written to $outdev"
}

