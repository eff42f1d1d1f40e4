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
  # Only the kernel's warnings and worse reach the console (I/O timeouts,
  # controller resets, hung tasks, RCU stalls): the host shows the console
  # when a guest stalls, and counts these as its evidence (vm_lib.sh).
  echo "5 4 1 7" > /proc/sys/kernel/printk
}

# uptime_s: the guest's uptime in whole seconds.
uptime_s() { cut -d. -f1 /proc/uptime; }

# limited COMMAND...: COMMAND under `timeout $PROBE_TIMEOUT`, its exit code
# returned. A command that ran into the limit is recorded in stalls.txt: no
# step comes near it unless the emulated guest stalled, and the host boots
# a stalled guest once more (vm_lib.sh: guest_stall_evidence).
limited() {
  local t0 rc
  t0=$(uptime_s)
  timeout "$PROBE_TIMEOUT" "$@"
  rc=$?
  if [ $(($(uptime_s) - t0)) -ge $((PROBE_TIMEOUT - 1)) ]; then
    echo "[$(uptime_s)] ran into its $PROBE_TIMEOUT s limit (exit $rc): $*" >> "$OUT/stalls.txt"
  fi
  return $rc
}

# running PID: the process exists and has not exited (a child that exited
# stays a zombie until it is waited for, and `kill -0` still finds it).
running() {
  local state
  read -r _ _ state _ < "/proc/$1/stat" 2>/dev/null || return 1
  [ "$state" != Z ]
}

# wait_limited PID: waits at most $PROBE_TIMEOUT s for the child PID and
# returns its exit code. One still running then is killed (exit 137) and
# logged: a process that does not stop when told to is a failure of its
# own, not a stall, so nothing goes to stalls.txt.
wait_limited() {
  local i=0
  while running "$1" && [ "$i" -lt $((PROBE_TIMEOUT * 10)) ]; do
    usleep 100000
    i=$((i + 1))
  done
  if running "$1"; then
    log "process $1 still running $PROBE_TIMEOUT s after it was told to stop: killed"
    kill -9 "$1" 2>/dev/null
  fi
  wait "$1"
}

# blocked_tasks: "; PID NAME in WCHAN" for each process in uninterruptible
# sleep (waiting on I/O, mostly).
blocked_tasks() {
  local stat pid comm state rest
  for stat in /proc/[0-9]*/stat; do
    read -r pid comm state rest < "$stat" 2>/dev/null || continue
    [ "$state" = D ] && printf '; %s %s in %s' "$pid" "$comm" "$(cat "/proc/$pid/wchan" 2>/dev/null)"
  done
}

# heartbeat: a console line every 20 s with the load and the blocked tasks,
# so that the serial log of a guest that stopped making progress shows
# whether it was still alive and what it waited for.
heartbeat() {
  while sleep 20; do
    echo "vmtest: [$(uptime_s)] alive, load $(cut -d' ' -f1-3 /proc/loadavg)$(blocked_tasks)" > /dev/console
  done &
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

