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
# guest.log, dmesg.txt, stalls.txt (steps that ran into their limit). The
# helpers shared with guest_init.sh are in guest_lib.sh.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
OUT=/out
PROBE_TIMEOUT=120
# shellcheck source=tests/vm/guest_lib.sh
. /guest_lib.sh

# info LABEL DEV: `ssdprobe info` (JSON and text) and blkzone's own report.
info() {
  limited ssdprobe info --json "$OUT/info-$1.json" "$2" > "$OUT/info-$1.out" 2> "$OUT/info-$1.err"
  echo $? > "$OUT/info-$1.rc"
  command -v blkzone >/dev/null 2>&1 && blkzone report "$2" > "$OUT/blkzone-$1.txt" 2>&1
  log "info $1 ($2): exit $(cat "$OUT/info-$1.rc")"
}

# The write run must be refused (exit 7) before it writes anything (called
# with no empty zone left: no_empty_zone_run).
write_run() {
  limited ssdprobe --write --yes --no-preserve --budget 3 -q "$1" < /dev/null > "$OUT/write.out" 2>&1
  echo $? > "$OUT/write.rc"
  log "write run ($1): exit $(cat "$OUT/write.rc")"
}

# read_run NAME DEVICE [OPTIONS...]: a short timed read run, its document,
# output and exit code under run-NAME.*.
read_run() {
  local name="$1" dev="$2"
  shift 2
  limited ssdprobe --budget "$(param budget 3)" -q --json "$OUT/run-$name.json" "$@" "$dev" \
    > "$OUT/run-$name.out" 2> "$OUT/run-$name.err"
  echo $? > "$OUT/run-$name.rc"
  log "read run $name ($dev $*): exit $(cat "$OUT/run-$name.rc")"
}

# write_zone_data DEVICE MIB AT_MIB: MIB MiB of random data from the start of
# the zone at AT_MIB MiB (sequential O_DIRECT writes at its write pointer),
# so a read run has written data to read; its write pointer is then MIB MiB
# into the zone.
write_zone_data() {
  dd if=/dev/urandom of="$1" bs=1M count="$2" seek="$3" oflag=direct > "$OUT/data-dd.out" 2>&1
  echo $? > "$OUT/data-dd.rc"
  log "wrote $2 MiB into $1 at $3 MiB: dd exit $(cat "$OUT/data-dd.rc")"
}

make_filesystem() {
  command -v mkfs.btrfs >/dev/null 2>&1 || { log "no mkfs.btrfs in the guest"; return 0; }
  jq -r '[.recommendations.steps[]? | .command? // empty | select(startswith("mkfs.btrfs"))][0] // empty' \
    "$OUT/info-zns.json" > "$OUT/mkfs.cmd" 2>/dev/null
  [ -s "$OUT/mkfs.cmd" ] || echo "mkfs.btrfs -O zoned -d single -m single $1" > "$OUT/mkfs.cmd"
  limited sh "$OUT/mkfs.cmd" > "$OUT/mkfs.out" 2>&1
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
  limited ssdprobe audit --json "$OUT/audit-mbr.json" "$dev" > "$OUT/audit-mbr.out" 2>&1
  echo $? > "$OUT/audit-mbr.rc"
  log "partition table on $dev: dd exit $(cat "$OUT/mbr-dd.rc"), audit exit $(cat "$OUT/audit-mbr.rc")"
}

# ---------------------------------------------------------------------------
# Zone-safe --write (a host-managed device): data first in zones 0 and 1
# (dd at each zone's write pointer), then a --write run, a --write killed
# with SIGKILL once it has begun writing and `ssdprobe restore` of its
# journal, one stopped by SIGTERM (it resets its zones itself), and a --write with no empty zone left (every empty zone finished)
# that must be refused. Zone reports (blkzone) and the data zones'
# checksums are taken before and after each; vm_zoned.sh compares them.

ZW_JOURNAL=/tmp/zw-journal

zone_bytes() { echo $(($(cat "/sys/block/${1##*/}/queue/chunk_sectors") * 512)); }
# Zones whose condition is EMPTY in blkzone's report.
empty_zones() { blkzone report "$1" 2>/dev/null | grep -c '(em)'; }
data_sums() {  # DEV: md5 of what dd wrote into zones 0 and 1
  local zone
  zone=$(zone_bytes "$1")
  { dd if="$1" bs=1M count=3 2>/dev/null | md5sum; dd if="$1" bs=1M skip=$((zone >> 20)) count=5 2>/dev/null | md5sum; } |
    cut -d' ' -f1 | tr '\n' ' '
}
zone_state() {  # LABEL DEV
  blkzone report "$2" > "$OUT/zw-blkzone-$1.txt" 2>&1
  data_sums "$2" > "$OUT/zw-sums-$1.txt"
  empty_zones "$2" > "$OUT/zw-empty-$1.txt"
}

seed_data_zones() {
  local dev="$1" zone
  zone=$(zone_bytes "$dev")
  dd if=/dev/urandom of="$dev" bs=1M count=3 oflag=direct > "$OUT/zw-seed.out" 2>&1 &&
    dd if=/dev/urandom of="$dev" bs=1M seek=$((zone >> 20)) count=5 oflag=direct >> "$OUT/zw-seed.out" 2>&1
  echo $? > "$OUT/zw-seed.rc"
  log "data written into zones 0 and 1 of $dev: exit $(cat "$OUT/zw-seed.rc")"
}

# journal_count: how many journals ssdprobe left in ZW_JOURNAL.
journal_count() {
  set -- "$ZW_JOURNAL"/*.ssdpj
  if [ -e "$1" ]; then echo $#; else echo 0; fi
}

zoned_write_run() {
  local dev="$1" t0 t1
  zone_state before "$dev"
  t0=$(cut -d' ' -f1 /proc/uptime)
  limited ssdprobe --write --yes --journal "$ZW_JOURNAL" --allow-ram-journal --budget 3 -q \
    --json "$OUT/zw-run.json" "$dev" < /dev/null > "$OUT/zw-run.out" 2> "$OUT/zw-run.err"
  echo $? > "$OUT/zw-run.rc"
  t1=$(cut -d' ' -f1 /proc/uptime)
  echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' > "$OUT/zw-run.seconds"
  journal_count > "$OUT/zw-run-journals.txt"
  zone_state after-run "$dev"
  log "zone-safe --write ($dev): exit $(cat "$OUT/zw-run.rc") in $(cat "$OUT/zw-run.seconds") s"
}

# --region 128M:160M holds zones 2 and 3 wholly (and half of zone 4): only
# those two may be written.
zoned_region_run() {
  limited ssdprobe --write --yes --journal "$ZW_JOURNAL" --allow-ram-journal --budget 2 -q \
    --region 128M:160M --json "$OUT/zw-region.json" "$1" < /dev/null > "$OUT/zw-region.out" 2>&1
  echo $? > "$OUT/zw-region.rc"
  zone_state after-region "$1"
  log "zone-safe --write --region 128M:160M ($1): exit $(cat "$OUT/zw-region.rc")"
}

# SIGKILL once a zone the run chose is no longer empty, then restore.
zoned_kill_run() {
  local dev="$1" pid empty i=0
  empty=$(empty_zones "$dev")
  ssdprobe --write --yes --journal "$ZW_JOURNAL" --allow-ram-journal --budget 8 -q "$dev" \
    < /dev/null > "$OUT/zw-kill.out" 2>&1 &
  pid=$!
  while [ "$(empty_zones "$dev")" -ge "$empty" ] && [ "$i" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
    usleep 100000
    i=$((i + 1))
  done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  zone_state killed "$dev"
  ls "$ZW_JOURNAL"/*.ssdpj > "$OUT/zw-kill-journals.txt" 2>/dev/null
  local journal
  journal=$(head -n 1 "$OUT/zw-kill-journals.txt")
  mkdir -m 0700 /tmp/zw-copy && cp "$journal" /tmp/zw-copy/
  limited ssdprobe restore --yes "$journal" < /dev/null > "$OUT/zw-restore.out" 2>&1
  echo $? > "$OUT/zw-restore.rc"
  journal_count > "$OUT/zw-restore-journals.txt"
  zone_state after-restore "$dev"
  # The same journal again, its zones now empty: harmless, nothing reset.
  limited ssdprobe restore --yes /tmp/zw-copy/*.ssdpj < /dev/null > "$OUT/zw-restore-again.out" 2>&1
  echo $? > "$OUT/zw-restore-again.rc"
  zone_state after-restore-again "$dev"
  log "killed --write after $i polls, empty zones $(cat "$OUT/zw-empty-killed.txt"); restore exit $(cat "$OUT/zw-restore.rc")"
}

# SIGTERM once a zone the run chose is no longer empty: the run itself
# must reset the zones on its way out and remove its journal.
zoned_term_run() {
  local dev="$1" pid empty i=0
  empty=$(empty_zones "$dev")
  ssdprobe --write --yes --journal "$ZW_JOURNAL" --allow-ram-journal --budget 8 -q --json "$OUT/zw-term.json" "$dev" \
    < /dev/null > "$OUT/zw-term.out" 2>&1 &
  pid=$!
  while [ "$(empty_zones "$dev")" -ge "$empty" ] && [ "$i" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
    usleep 100000
    i=$((i + 1))
  done
  empty_zones "$dev" > "$OUT/zw-empty-at-term.txt"
  kill -TERM "$pid" 2>/dev/null
  wait_limited "$pid"
  echo $? > "$OUT/zw-term.rc"
  journal_count > "$OUT/zw-term-journals.txt"
  zone_state after-term "$dev"
  log "SIGTERM to --write after $i polls: exit $(cat "$OUT/zw-term.rc")"
}

# Every empty zone finished (FULL without data): --write must be refused;
# then exactly those zones are reset again.
no_empty_zone_run() {
  local dev="$1" zone start
  zone=$(zone_bytes "$dev")
  blkzone report "$dev" | grep '(em)' | sed 's/.*start: *\(0x[0-9a-f]*\).*/\1/' > /tmp/zw-empty-starts
  while read -r start; do blkzone finish -o "$start" -c 1 "$dev"; done < /tmp/zw-empty-starts
  write_run "$dev"
  while read -r start; do blkzone reset -o "$start" -c 1 "$dev"; done < /tmp/zw-empty-starts
  zone_state after-refusal "$dev"
}

zoned_write_checks() {
  seed_data_zones "$1"
  zoned_write_run "$1"
  zoned_region_run "$1"
  zoned_kill_run "$1"
  zoned_term_run "$1"
  no_empty_zone_run "$1"
}


mount_basics
heartbeat
load_modules
log "guest up, kernel $(uname -r)"
if wait_for /dev/nvme0n1 30; then
  info zns /dev/nvme0n1
  read_run empty /dev/nvme0n1
  zoned_write_checks /dev/nvme0n1
  info zns-after-write /dev/nvme0n1
  write_zone_data /dev/nvme0n1 "$(param data_mib 20)" "$(param data_at_mib 128)"
  read_run read /dev/nvme0n1
  read_run past-wp /dev/nvme0n1 --region "$(param data_at_mib 128)M:64M"
  make_filesystem /dev/nvme0n1
  info zns-after-mkfs /dev/nvme0n1
fi
wait_for /dev/nvme0n2 10 && partition_table_audit /dev/nvme0n2
log "done"
save_results
poweroff -f
