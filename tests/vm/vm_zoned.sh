#!/bin/bash
# VM test for zoned devices: boots a QEMU guest (TCG) whose NVMe controller
# has two zoned namespaces (ZNS) with a zone size, zone capacity, open and
# active zone limits and zone append limit we choose, and checks that
#  - `ssdprobe info --json` reports every configured value exactly, from
#    sysfs (reported.zoned), the kernel's zone report (reported.zoned.report)
#    and the ZNS Identify pages (reported.nvme.zns);
#  - a read run is refused while every zone is empty;
#  - zone-safe `--write` (data first put into zones 0 and 1): exit 0, the
#    document's zoned_write section names only zones that were empty, and
#    afterwards blkzone's report is byte-identical (every empty zone empty
#    again, the data zones' write pointers unchanged) and the data zones'
#    checksums are the same; with --region only zones wholly inside it are
#    written; a --write killed with SIGKILL once it writes
#    leaves a journal, and `ssdprobe restore` of it gives the same (a
#    second restore of a copy of it then resets nothing); one
#    stopped by SIGTERM resets its zones itself (exit 130); with no
#    empty zone left, --write is refused (exit 7) and writes nothing;
#  - a read run reads only the written data once zone 2 has 20 MiB (the
#    longest stretch: its region), and refuses a --region past the write
#    pointer;
#  - the advice's zoned btrfs command (mkfs.btrfs -O zoned) runs in the
#    guest, and ssdprobe's zone report then shows data written;
#  - `ssdprobe audit` reports a partition table on a host-managed namespace.
# A guest that failed checks while it stalled (a step ran into its limit, or
# the guest kernel reported I/O timeouts or hung tasks) is booted once more
# and the second guest's results stand (vm_lib.sh: with_one_rerun).
#
# Usage: vm_zoned.sh SSDPROBE
# Environment: SSDPROBE_VM_CACHE, SSDPROBE_VM_TIMEOUT, SSDPROBE_VM_SMP,
# SSDPROBE_VM_KEEP, SSDPROBE_TEST_TMPDIR as for vm_info.sh.
# Exit: 0 pass, 1 fail, 77 skip (QEMU, busybox or the guest kernel missing).
set -u

HERE="$(cd "$(dirname "$0")" && pwd)"
SSDPROBE="${1:-}"
VM_CACHE="${SSDPROBE_VM_CACHE:-/var/cache/ssdprobe-vm}"
VM_TIMEOUT="${SSDPROBE_VM_TIMEOUT:-300}"
KERNEL_DIR="$VM_CACHE/current"
QEMU=qemu-system-x86_64
T_START=$(date +%s.%N)
# shellcheck source=tests/vm/vm_lib.sh
. "$HERE/vm_lib.sh"


# ---------------------------------------------------------------------------
# The configuration: the ground truth every check compares with.

MIB=$((1 << 20))
SIZE=$((1024 * MIB))          # namespace 1: 16 zones
SIZE2=$((256 * MIB))          # namespace 2 (partition table audit): 4 zones
LBS=4096                      # namespace 1's LBA size (namespace 2: QEMU's 512)
ZONE=$((64 * MIB))
ZONE_CAP=$((48 * MIB))
MAX_OPEN=6
MAX_ACTIVE=8
ZASL=5                        # zone append limit: 2^5 x 4 KiB (CAP.MPSMIN) = 128 KiB
SERIAL="SSDPROBE-ZNS-01"
OUT_SERIAL="VMTEST-OUT"
BUDGET=2
DATA_MIB=20                   # written into zone 2 before the read run: its write pointer
DATA_AT=$((128 * MIB))        # zone 2's start (zones 0 and 1 hold 3 and 5 MiB by then)


check_prerequisites() {
  check_vm_prerequisites
  "$QEMU" -device nvme-ns,help 2>/dev/null | grep -q 'zoned.zone_capacity' ||
    skip "$QEMU cannot emulate zoned namespaces (needs QEMU 6.0 or later)"
}

# ---------------------------------------------------------------------------
# Guest

boot_guest() {
  SCRATCH=$(mktemp -d "${SSDPROBE_TEST_TMPDIR:-/var/tmp}/ssdprobe-vmzoned.XXXXXX") || fail "no scratch directory"
  R="$SCRATCH/results"
  mkdir -p "$R"
  SSDPROBE_VM_INIT="$HERE/guest_zoned_init.sh" SSDPROBE_VM_TOOLS="jq blkzone mkfs.btrfs" TMPDIR="$SCRATCH" \
    "$HERE/build_initramfs.sh" "$SCRATCH/initramfs.cpio" "$SSDPROBE" "$KERNEL_DIR" || fail "building the initramfs failed"
  # Sparse files, not null-co: mkfs.btrfs and the audit read back what was written.
  if ! truncate -s 64M "$SCRATCH/out.img" || ! truncate -s "$SIZE" "$SCRATCH/zns1.img" ||
     ! truncate -s "$SIZE2" "$SCRATCH/zns2.img"; then
    fail "cannot create the disk images in $SCRATCH"
  fi
  # shellcheck disable=SC2054  # the commas belong to QEMU's option syntax
  local cmd=(
    "$QEMU" -M pc -accel tcg -cpu max -smp "${SSDPROBE_VM_SMP:-1}" -m 1024
    -nodefaults -display none -serial stdio -no-reboot
    -kernel "$KERNEL_DIR/vmlinux" -initrd "$SCRATCH/initramfs.cpio"
    -append "console=ttyS0 rdinit=/init panic=-1 quiet loglevel=3 vmtest.out=$OUT_SERIAL vmtest.budget=$BUDGET vmtest.data_mib=$DATA_MIB vmtest.data_at_mib=$((DATA_AT / MIB))"
    -blockdev "driver=raw,node-name=zns1,file.driver=file,file.filename=$SCRATCH/zns1.img"
    -blockdev "driver=raw,node-name=zns2,file.driver=file,file.filename=$SCRATCH/zns2.img"
    -device "nvme,id=nvme0,serial=$SERIAL,zoned.zasl=$ZASL"
    -device "nvme-ns,drive=zns1,bus=nvme0,nsid=1,logical_block_size=$LBS,physical_block_size=$LBS,zoned=true,zoned.zone_size=$ZONE,zoned.zone_capacity=$ZONE_CAP,zoned.max_open=$MAX_OPEN,zoned.max_active=$MAX_ACTIVE"
    -device "nvme-ns,drive=zns2,bus=nvme0,nsid=2,zoned=true,zoned.zone_size=$ZONE"
    -blockdev "driver=raw,node-name=out,file.driver=file,file.filename=$SCRATCH/out.img"
    -device "virtio-blk-pci,drive=out,serial=$OUT_SERIAL"
  )
  note "QEMU: $(printf '%q ' "${cmd[@]}")"
  timeout -k 10 "$VM_TIMEOUT" "${cmd[@]}" < /dev/null > "$SCRATCH/serial.log" 2>&1 &
  QEMU_PID=$!
  wait "$QEMU_PID"
  local rc=$?
  QEMU_PID=""
  if [ "$rc" != 0 ]; then
    tail -n 40 "$SCRATCH/serial.log" >&2
    echo "FAIL: QEMU exited with $rc (124, 137: the guest did not power off within $VM_TIMEOUT s)" >&2
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then guest_never_finished; fi
    return 1
  fi
  tar -xf "$SCRATCH/out.img" -C "$R" 2>/dev/null
  if [ ! -s "$R/guest.log" ]; then
    tail -n 40 "$SCRATCH/serial.log" >&2
    echo "FAIL: the guest wrote no results" >&2
    return 1
  fi
  sed 's/^/#   guest: /' "$R/guest.log"
}

# ---------------------------------------------------------------------------
# Checks

# jf FILE FILTER: a raw jq value ("null" when absent or unreadable).
jf() { jq -r "$2" "$R/$1" 2>/dev/null || echo "(unreadable $1)"; }

check_info() {
  check_eq "info exit" "$(cat "$R/info-zns.rc" 2>/dev/null)" 0
  local f=info-zns.json z=.reported.zoned n=.reported.nvme.zns
  check_eq "$z.model" "$(jf $f "$z.model")" host-managed
  check_eq "$z.zone_bytes" "$(jf $f "$z.zone_bytes")" "$ZONE"
  check_eq "$z.nr_zones" "$(jf $f "$z.nr_zones")" $((SIZE / ZONE))
  check_eq "$z.max_open_zones" "$(jf $f "$z.max_open_zones")" "$MAX_OPEN"
  check_eq "$z.max_active_zones" "$(jf $f "$z.max_active_zones")" "$MAX_ACTIVE"
  check_eq "$z.zone_append_max_bytes" "$(jf $f "$z.zone_append_max_bytes")" $(((1 << ZASL) * 4096))
  check_eq "$z.report.zones" "$(jf $f "$z.report.zones")" $((SIZE / ZONE))
  check_eq "$z.report.zone_bytes" "$(jf $f "$z.report.zone_bytes")" "$ZONE"
  check_eq "$z.report.zone_capacity_bytes" "$(jf $f "$z.report.zone_capacity_bytes")" "$ZONE_CAP"
  check_eq "$z.report.sequential_write_required" "$(jf $f "$z.report.sequential_write_required")" $((SIZE / ZONE))
  check_eq "$z.report.empty" "$(jf $f "$z.report.empty")" $((SIZE / ZONE))
  check_eq "$z.report.written_bytes" "$(jf $f "$z.report.written_bytes")" 0
  check_eq "reported.nvme.lba_bytes" "$(jf $f .reported.nvme.lba_bytes)" "$LBS"
  check_eq "$n.mor" "$(jf $f "$n.mor")" $((MAX_OPEN - 1))
  check_eq "$n.max_open_zones" "$(jf $f "$n.max_open_zones")" "$MAX_OPEN"
  check_eq "$n.mar" "$(jf $f "$n.mar")" $((MAX_ACTIVE - 1))
  check_eq "$n.max_active_zones" "$(jf $f "$n.max_active_zones")" "$MAX_ACTIVE"
  check_eq "$n.zsze" "$(jf $f "$n.zsze")" $((ZONE / LBS))
  check_eq "$n.zone_bytes" "$(jf $f "$n.zone_bytes")" "$ZONE"
  check_eq "$n.zasl" "$(jf $f "$n.zasl")" "$ZASL"
  check_eq "$n.zasl_bytes" "$(jf $f "$n.zasl_bytes")" $(((1 << ZASL) * 4096))
  check_eq "$n.ozcs_bits.razb (QEMU's cross_read=off)" "$(jf $f "$n.ozcs_bits.razb")" false
  check_eq "info text names the zone model" "$(grep -c 'model host-managed' "$R/info-zns.out")" 1
}

# Zone starts in blkzone's notation (512 B sectors, 9 hex digits).
zone_start_hex() { printf '0x%09x' $(($1 / 512)); }
# same LABEL FILE1 FILE2: byte-identical?
same() { check_eq "$1" "$(cmp -s "$R/$2" "$R/$3" && echo same || echo differs)" same; }

check_zoned_write() {
  check_eq "data written into zones 0 and 1" "$(cat "$R/zw-seed.rc" 2>/dev/null)" 0
  check_eq "empty zones before --write" "$(cat "$R/zw-empty-before.txt" 2>/dev/null)" $((SIZE / ZONE - 2))
  if [ "$(cat "$R/zw-run.rc" 2>/dev/null)" != 0 ]; then sed 's/^/    zw-run: /' "$R/zw-run.err" >&2; fi
  check_eq "zone-safe --write exit" "$(cat "$R/zw-run.rc" 2>/dev/null)" 0
  local f=zw-run.json zw=.zoned_write start used=0
  check_eq "zoned_write phase ran" "$(jf $f '[.phases[] | select(.name == "zoned_write") | .state][0]' |
    sed 's/^budget$/done/')" "done"
  check_eq "$zw.zone_bytes" "$(jf $f "$zw.zone_bytes")" "$ZONE"
  check_eq "$zw.zone_capacity_bytes" "$(jf $f "$zw.zone_capacity_bytes")" "$ZONE_CAP"
  check_eq "$zw.zones_empty_before" "$(jf $f "$zw.zones_empty_before")" $((SIZE / ZONE - 2))
  check_eq "$zw.bytes_written > 0" "$(jf $f "$zw.bytes_written > 0")" true
  check_eq "$zw.bytes_written = sum of zones" "$(jf $f "$zw.bytes_written == ([$zw.zones[].bytes_written] | add)")" true
  check_eq "no zone written past its capacity" "$(jf $f "[$zw.zones[] | .bytes_written <= .capacity_bytes] | all")" true
  check_eq "$zw.reset_verified" "$(jf $f "$zw.reset_verified")" true
  for start in $(jf $f "$zw.zones[].start_bytes"); do
    used=$((used + 1))
    check_eq "zone at $start was empty before" \
      "$(grep "start: $(zone_start_hex "$start")" "$R/zw-blkzone-before.txt" | grep -c '(em)')" 1
  done
  [ "$used" -ge 1 ] || check_eq "zones used" "$used" ">= 1"
  same "blkzone report after --write identical (write pointers)" zw-blkzone-before.txt zw-blkzone-after-run.txt
  same "data zones byte-identical after --write" zw-sums-before.txt zw-sums-after-run.txt
  check_eq "no journal left after --write" "$(cat "$R/zw-run-journals.txt" 2>/dev/null)" 0
  note "zoned --write: $used zones, $(jf $f "$zw.bytes_written") bytes in $(jf $f "$zw.chunk_bytes") B writes," \
    "median $(jf $f "$zw.median_us") us, p99 $(jf $f "$zw.p99_us") us, $(cat "$R/zw-run.seconds") s in the guest;" \
    "$(jf $f "$zw.comparison")"
  # Zones 0 and 1 hold 3 and 5 MiB: no stretch the read grid fits in, so the
  # run skips its reads (never above a write pointer) instead of refusing.
  check_eq "zoned --write with too little written: reads skipped" \
    "$(jf zw-run.json '[.phases[] | select(.name == "read_grid" or .name == "read_parallelism") | .state] | join(",")'),$(jf zw-run.json .run.read_region)" \
    "skipped,skipped,null"
}

check_zoned_region() {
  check_eq "--write --region 128M:160M exit" "$(cat "$R/zw-region.rc" 2>/dev/null)" 0
  check_eq "only the zones wholly inside --region written" \
    "$(jf zw-region.json '[.zoned_write.zones[].start_bytes] | map(. / 1048576) | join(",")')" "128,192"
  check_eq "their reset verified" "$(jf zw-region.json .zoned_write.reset_verified)" true
  same "blkzone report after --region identical" zw-blkzone-before.txt zw-blkzone-after-region.txt
}

check_zoned_kill_restore() {
  check_eq "killed --write had begun writing" \
    "$(( $(cat "$R/zw-empty-killed.txt" 2>/dev/null || echo 99) < $(cat "$R/zw-empty-before.txt" 2>/dev/null || echo 0) ))" 1
  check_eq "a journal after kill -9" "$(wc -l < "$R/zw-kill-journals.txt" 2>/dev/null | tr -d ' ')" 1
  if [ "$(cat "$R/zw-restore.rc" 2>/dev/null)" != 0 ]; then sed 's/^/    restore: /' "$R/zw-restore.out" >&2; fi
  check_eq "restore exit" "$(cat "$R/zw-restore.rc" 2>/dev/null)" 0
  check_eq "restore says it reset zones" "$(grep -c 'reset .* zone' "$R/zw-restore.out")" 1
  same "blkzone report after restore identical" zw-blkzone-before.txt zw-blkzone-after-restore.txt
  same "data zones byte-identical after restore" zw-sums-before.txt zw-sums-after-restore.txt
  check_eq "journal removed by restore" "$(cat "$R/zw-restore-journals.txt" 2>/dev/null)" 0
  check_eq "restore of a copy once the zones are empty: exit" "$(cat "$R/zw-restore-again.rc" 2>/dev/null)" 0
  check_eq "it says there is nothing to reset" "$(grep -c 'nothing to reset' "$R/zw-restore-again.out")" 1
  same "blkzone report after restoring again identical" zw-blkzone-before.txt zw-blkzone-after-restore-again.txt
}

check_zoned_term() {
  check_eq "SIGTERM came while writing" \
    "$(( $(cat "$R/zw-empty-at-term.txt" 2>/dev/null || echo 99) < $(cat "$R/zw-empty-before.txt" 2>/dev/null || echo 0) ))" 1
  check_eq "--write stopped by SIGTERM: exit 130" "$(cat "$R/zw-term.rc" 2>/dev/null)" 130
  check_eq "its zones reset on the way out" "$(jf zw-term.json .zoned_write.reset_verified)" true
  check_eq "the zoned_write phase says interrupted" \
    "$(jf zw-term.json '[.phases[] | select(.name == "zoned_write") | .state][0]')" interrupted
  check_eq "no journal left after SIGTERM" "$(cat "$R/zw-term-journals.txt" 2>/dev/null)" 0
  same "blkzone report after SIGTERM identical" zw-blkzone-before.txt zw-blkzone-after-term.txt
  same "data zones byte-identical after SIGTERM" zw-sums-before.txt zw-sums-after-term.txt
}

check_write_refused() {
  check_eq "--write with no empty zone: exit (7: refused)" "$(cat "$R/write.rc" 2>/dev/null)" 7
  check_eq "--write message says no zone is empty" \
    "$(grep -c "none of its $((SIZE / ZONE)) zones is an empty" "$R/write.out")" 1
  same "blkzone report after the refusal identical" zw-blkzone-before.txt zw-blkzone-after-refusal.txt
  check_eq "zones empty after all --write runs" "$(jf info-zns-after-write.json .reported.zoned.report.empty)" \
    $((SIZE / ZONE - 2))
  check_eq "bytes written after all --write runs (the data zones')" \
    "$(jf info-zns-after-write.json .reported.zoned.report.written_bytes)" $((8 * MIB))
}

# Reads stay below the write pointers: refused on the empty namespace,
# kept to zone 2's DATA_MIB MiB (the longest stretch of written data) once
# it has them, and a --region past the write pointer refused.
check_read_run() {
  check_eq "read run on empty zones: exit (target)" "$(cat "$R/run-empty.rc" 2>/dev/null)" 3
  check_eq "read run on empty zones says why" "$(grep -c 'zoned device with no written data (16 zones' "$R/run-empty.err")" 1
  check_eq "data written into zone 2" "$(cat "$R/data-dd.rc" 2>/dev/null)" 0
  check_eq "read run exit" "$(cat "$R/run-read.rc" 2>/dev/null)" 0
  check_eq "read run has grids" "$(jf run-read.json '(.grids | length) > 0')" true
  check_eq "read run's region: zone 2's written data" \
    "$(jf run-read.json '.run.read_region | "\(.source) \(.offset):\(.length)"')" "written_data $DATA_AT:$((DATA_MIB * MIB))"
  check_eq "read page note: unwritten space ruled out" \
    "$(jf run-read.json '[.notes[] | select(contains("ruled out: the grid read only written data"))] | length')" \
    "$(jf run-read.json 'if .detected.read_page.state == "found" then 0 else 1 end')"
  check_eq "read run's note on the region" \
    "$(jf run-read.json '[.notes[] | select(startswith("zoned device: the reads stay below the write pointers"))] | length')" 1
  check_eq "--region past the write pointer: exit (usage)" "$(cat "$R/run-past-wp.rc" 2>/dev/null)" 2
  check_eq "--region past the write pointer names it" \
    "$(grep -c "runs past the written data at offset $((DATA_AT / MIB + DATA_MIB)) MiB" "$R/run-past-wp.err")" 1
  check_eq "verdict: no partitions, not an alignment" \
    "$(jf run-read.json '.verdict.status as $s | ([.verdict.summary] + .verdict.lines | join("\n")) as $v | (($v | contains("a zoned filesystem on the whole device")) or $s == "INCONCLUSIVE") and ($v | contains("partitions at") | not)')" true
  if "$SSDPROBE" report "$R/run-read.json" --html "$R/run-read.html" > /dev/null 2>&1; then
    check_eq "HTML report: no partitions" "$(grep -c 'No partitions: a zoned filesystem on the whole device' "$R/run-read.html")" 1
    check_eq "HTML report: no partition start" "$(grep -c 'Start the first partition' "$R/run-read.html")" 0
  else
    check_eq "ssdprobe report --html on the read run" failed ok
  fi
  note "read run grids: $(jf run-read.json '[.grids[].name] | join(", ")'); notes: $(jf run-read.json '.notes | join(" | ")')"
}

check_advice_and_mkfs() {
  local steps=".recommendations.steps"
  check_eq "advice: btrfs zoned" "$(jf info-zns.json "[${steps}[] | select(.key == \"mkfs_btrfs_zoned\") | .command][0]")" \
    "mkfs.btrfs -f -O zoned -d single -m single /dev/nvme0n1"
  check_eq "advice: f2fs zoned (no conventional zones)" \
    "$(jf info-zns.json "[${steps}[] | select(.key == \"mkfs_f2fs_zoned\") | .command][0]")" \
    "mkfs.f2fs -f -m -c /dev/nvme0n1 CONVENTIONAL_DEVICE"
  check_eq "advice: no partitioning step" "$(jf info-zns.json "[${steps}[] | select(.alternative_group == \"partition\")] | length")" 0
  if ! command -v mkfs.btrfs >/dev/null 2>&1; then note "no mkfs.btrfs on this host: not run in the guest"; return; fi
  check_eq "guest ran the advised command" "$(cat "$R/mkfs.cmd" 2>/dev/null)" \
    "mkfs.btrfs -f -O zoned -d single -m single /dev/nvme0n1"
  if [ "$(cat "$R/mkfs.rc" 2>/dev/null)" != 0 ]; then sed 's/^/    mkfs: /' "$R/mkfs.out" >&2; fi
  check_eq "mkfs.btrfs -O zoned exit" "$(cat "$R/mkfs.rc" 2>/dev/null)" 0
  check_eq "zone report shows what mkfs wrote" \
    "$(jf info-zns-after-mkfs.json '.reported.zoned.report.written_bytes > 0')" true
}

check_partition_table_audit() {
  check_eq "MBR written at the write pointer" "$(cat "$R/mbr-dd.rc" 2>/dev/null)" 0
  check_eq "audit exit" "$(cat "$R/audit-mbr.rc" 2>/dev/null)" 0
  check_eq "no advice to run --write on a zoned device" "$(grep -c 'ssdprobe --write' "$R/audit-mbr.out")" 0
  check_eq "audit finding on the table" \
    "$(jf audit-mbr.json '[.mismatches[] | select(.field == "partition_table") | .severity][0]')" warning
}


# One guest and the checks of its results; non-zero when it gave none.
attempt() {
  boot_guest || return 1
  check_info
  check_zoned_write
  check_zoned_region
  check_zoned_kill_restore
  check_zoned_term
  check_write_refused
  check_read_run
  check_advice_and_mkfs
  check_partition_table_audit
  return 0
}

main() {
  check_prerequisites
  with_one_rerun attempt || fail "the guest gave no results"
  echo "# VM zoned test wall time: $(elapsed "$T_START") s"
  [ "$ERRORS" = 0 ] || fail "$ERRORS checks failed"
  echo "PASS"
}

main
