#!/bin/sh
# shellcheck shell=dash
# /init of the QEMU guest that vm_zoned.sh boots (built by build_initramfs.sh
# with SSDPROBE_VM_INIT pointing here): one NVMe controller with two zoned
# namespaces. On namespace 1 it runs `ssdprobe info`, a `--write` run that
# must be refused before any write (zone reports taken before and after by
# ssdprobe and by util-linux blkzone), a short read run, and mkfs.btrfs in
# zoned mode with the command ssdprobe advises. On namespace 2 it writes a
# DOS partition table into the first zone (a sequential write at the write
# pointer, which the device accepts) and runs `ssdprobe audit` on it. Results
# go as a tar archive onto the output disk; it always powers off.
#
# Kernel command line: vmtest.out=SERIAL (output disk) vmtest.budget=SECONDS.
# Archive: info-LABEL.json/.rc/.err/.out, blkzone-LABEL.txt, write.rc/.out,
# run-read.json/.rc/.err, mkfs.cmd/.rc/.out, audit-mbr.json/.rc/.out,
# guest.log, dmesg.txt. (The helpers repeat guest_init.sh's: that file runs
# its own probes when sourced.)

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
OUT=/out
PROBE_TIMEOUT=120

log() { echo "vmtest: [$(cut -d' ' -f1 /proc/uptime 2>/dev/null)] $*" | tee -a "$OUT/guest.log"; }

param() {
  local word
  # shellcheck disable=SC2013  # the command line is one line of words
  for word in $(cat /proc/cmdline); do
    case "$word" in "vmtest.$1="*) echo "${word#*=}"; return 0 ;; esac
  done
  echo "${2:-}"
}

wait_for() {
  local i=0
  while [ ! -e "$1" ]; do
    [ "$i" -ge $(($2 * 10)) ] && { log "timed out waiting for $1"; return 1; }
    usleep 100000
    i=$((i + 1))
  done
}

virtio_by_serial() {
  local i d
  for i in $(seq 100); do
    for d in /sys/block/vd*; do
      [ -e "$d/serial" ] && [ "$(cat "$d/serial")" = "$1" ] && { echo "/dev/${d##*/}"; return 0; }
    done
    usleep 100000
  done
  return 1
}

setup() {
  mount -t proc proc /proc
  mount -t sysfs sysfs /sys
  mount -t devtmpfs devtmpfs /dev
  mount -t tmpfs tmpfs /tmp
  echo "1 4 1 7" > /proc/sys/kernel/printk
  local ko
  while read -r ko; do insmod "$ko" 2>>"$OUT/insmod.err"; done < /etc/modules.load
}

# info LABEL DEV: `ssdprobe info` (JSON and text) and blkzone's own report.
info() {
  timeout "$PROBE_TIMEOUT" ssdprobe info --json "$OUT/info-$1.json" "$2" > "$OUT/info-$1.out" 2> "$OUT/info-$1.err"
  echo $? > "$OUT/info-$1.rc"
  command -v blkzone >/dev/null 2>&1 && blkzone report "$2" > "$OUT/blkzone-$1.txt" 2>&1
  log "info $1 ($2): exit $(cat "$OUT/info-$1.rc")"
}

# The write run must be refused (exit 7) before it writes anything.
write_run() {
  timeout "$PROBE_TIMEOUT" ssdprobe --write --yes --no-preserve --budget 3 -q "$1" < /dev/null > "$OUT/write.out" 2>&1
  echo $? > "$OUT/write.rc"
  log "write run ($1): exit $(cat "$OUT/write.rc")"
}

# read_run NAME DEVICE [OPTIONS...]: a short timed read run, its document,
# output and exit code under run-NAME.*.
read_run() {
  local name="$1" dev="$2"
  shift 2
  timeout "$PROBE_TIMEOUT" ssdprobe --budget "$(param budget 3)" -q --json "$OUT/run-$name.json" "$@" "$dev" \
    > "$OUT/run-$name.out" 2> "$OUT/run-$name.err"
  echo $? > "$OUT/run-$name.rc"
  log "read run $name ($dev $*): exit $(cat "$OUT/run-$name.rc")"
}

# write_zone_data DEVICE MIB: MIB MiB of random data from the first zone's
# start (sequential O_DIRECT writes at its write pointer), so a read run has
# written data to read; its write pointer is then at MIB MiB.
write_zone_data() {
  dd if=/dev/urandom of="$1" bs=1M count="$2" oflag=direct > "$OUT/data-dd.out" 2>&1
  echo $? > "$OUT/data-dd.rc"
  log "wrote $2 MiB into $1's first zone: dd exit $(cat "$OUT/data-dd.rc")"
}

make_filesystem() {
  command -v mkfs.btrfs >/dev/null 2>&1 || { log "no mkfs.btrfs in the guest"; return 0; }
  jq -r '[.recommendations.steps[]? | .command? // empty | select(startswith("mkfs.btrfs"))][0] // empty' \
    "$OUT/info-zns.json" > "$OUT/mkfs.cmd" 2>/dev/null
  [ -s "$OUT/mkfs.cmd" ] || echo "mkfs.btrfs -O zoned -d single -m single $1" > "$OUT/mkfs.cmd"
  sh "$OUT/mkfs.cmd" > "$OUT/mkfs.out" 2>&1
  echo $? > "$OUT/mkfs.rc"
  log "$(cat "$OUT/mkfs.cmd"): exit $(cat "$OUT/mkfs.rc")"
}

# A DOS label with one partition at 1 MiB, written at the first zone's write
# pointer (sector 0) with O_DIRECT; then the audit.
partition_table_audit() {
  local dev="$1"
  {
    head -c 446 /dev/zero
    printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\000\001\000'  # type 83h, LBA 2048, 65536 sectors
    head -c 48 /dev/zero
    printf '\125\252'
    head -c 3584 /dev/zero
  } > /tmp/mbr.bin
  dd if=/tmp/mbr.bin of="$dev" bs=4096 count=1 oflag=direct conv=notrunc > "$OUT/mbr-dd.out" 2>&1
  echo $? > "$OUT/mbr-dd.rc"
  timeout "$PROBE_TIMEOUT" ssdprobe audit --json "$OUT/audit-mbr.json" "$dev" > "$OUT/audit-mbr.out" 2>&1
  echo $? > "$OUT/audit-mbr.rc"
  log "partition table on $dev: dd exit $(cat "$OUT/mbr-dd.rc"), audit exit $(cat "$OUT/audit-mbr.rc")"
}

save_results() {
  local outdev
  dmesg > "$OUT/dmesg.txt" 2>/dev/null
  outdev=$(virtio_by_serial "$(param out)") || { echo "vmtest: no output disk"; return 1; }
  (cd "$OUT" && tar -cf "$outdev" .) && sync
}

setup
log "guest up, kernel $(uname -r)"
if wait_for /dev/nvme0n1 30; then
  info zns /dev/nvme0n1
  write_run /dev/nvme0n1
  info zns-after-write /dev/nvme0n1
  read_run empty /dev/nvme0n1
  write_zone_data /dev/nvme0n1 "$(param data_mib 20)"
  read_run read /dev/nvme0n1
  read_run past-wp /dev/nvme0n1 --region 0:64M
  make_filesystem /dev/nvme0n1
  info zns-after-mkfs /dev/nvme0n1
fi
wait_for /dev/nvme0n2 10 && partition_table_audit /dev/nvme0n2
log "done"
save_results
poweroff -f
