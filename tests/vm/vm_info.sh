#!/bin/bash
# VM test: boots a QEMU guest (TCG, no KVM needed) whose emulated drives have
# identities and geometries we choose (an NVMe controller with a 512 B and a
# 4 KiB namespace, an AHCI SATA disk, virtio disks, inside the guest an
# NVMe-oF TCP loopback namespace with non-zero NPWG/NOWS/NAWUPF, and two SD
# cards, a usb-storage and a usb-uas disk and a SAS disk: extra_devices.sh), runs
# `ssdprobe info --json` on each plus a short read run (and a --write run on
# an SD card and the SAS disk), and checks that every value ssdprobe reports equals what the
# drive was configured to report, and that the written drives are byte-identical. Last, the
# guest runs the `nvme format` ssdprobe advises for the 512 B namespace (4 KiB offered) and
# checks the namespace is then in that format. It is
# the only place firmware-level decoding (NVMe Identify, ATA IDENTIFY) meets a
# real kernel driver in CI: the build machines have no NVMe or SATA devices.
# A guest that failed while it stalled (a step ran into its limit, the guest
# kernel reported I/O timeouts or hung tasks, or it never powered off) is
# booted once more and the second guest's results stand (vm_lib.sh:
# with_one_rerun).
#
# Usage: vm_info.sh SSDPROBE
# Environment:
#   ASSERT_FIRMWARE=0      check only what ssdprobe reads from sysfs (default 1:
#                          also the decoded reported.nvme / reported.ata)
#   SSDPROBE_VM_CACHE      guest kernel cache (default /var/cache/ssdprobe-vm,
#                          filled by scripts/install-vm-deps)
#   SSDPROBE_VM_TIMEOUT    hard limit for the guest in seconds (default 540: its
#                          probes take 130-150 s on an idle 2-core host, 260 s
#                          and more beside the other tests)
#   SSDPROBE_VM_SMP        guest CPUs (default 1; 2 saves ~1 s on 2 cores)
#   SSDPROBE_VM_KEEP=1     keep the scratch directory (serial log, results)
#   SSDPROBE_TEST_TMPDIR   where the scratch directory goes (default /var/tmp)
# Exit: 0 pass, 1 fail, 77 skip (QEMU, busybox or the guest kernel missing).
set -u

HERE="$(cd "$(dirname "$0")" && pwd)"
SSDPROBE="${1:-}"
ASSERT_FIRMWARE=${ASSERT_FIRMWARE:-1}
VM_CACHE="${SSDPROBE_VM_CACHE:-/var/cache/ssdprobe-vm}"
VM_TIMEOUT="${SSDPROBE_VM_TIMEOUT:-540}"
KERNEL_DIR="$VM_CACHE/current"
QEMU=qemu-system-x86_64
T_START=$(date +%s.%N)
# shellcheck source=tests/vm/vm_lib.sh
. "$HERE/vm_lib.sh"


# ---------------------------------------------------------------------------
# What the emulated drives are configured to report: the ground truth.

SIZE=$((1 << 30))                       # every drive: 1 GiB of null-co (reads zeroes, no host disk), but those written to
NVME_SERIAL="SSDPROBE-NVME-01"
NVME_MDTS=5                             # 2^5 x 4 KiB (CAP.MPSMIN = 0) = 128 KiB
NVME_MODEL="QEMU NVMe Ctrl"             # fixed by QEMU
# Namespaces: LBA size, physical size (QEMU 7.2 accepts but ignores it: NPWG and
# NOWS stay 0, the "drive that under-reports" case), discard granularity
# (reaches NPDG/NPDA).
NS1_LBS=512  NS1_PBS=4096  NS1_DISCARD=4096
NS2_LBS=4096 NS2_PBS=16384 NS2_DISCARD=16384
SATA_MODEL="SSDPROBE SATA SSD 4K"       # 20 chars: longer than SCSI INQUIRY's 16
SATA_FW="FW-1.2.3"
SATA_SERIAL="SSDPROBE-SATA-01"
SATA_PBS=4096                           # IDENTIFY word 106 = 0x6003
SATA_WORD106=$((0x6003))
# Virtio disks by serial: "LBS PBS MIN_IO OPT_IO DISCARD_GRANULARITY".
declare -A VIRTIO=(
  [VIRTIO-A]="512 4096 8192 262144 65536"
  [VIRTIO-4K]="4096 4096 4096 65536 4096"
  [VIRTIO-FAB]="512 16384 16384 131072 16384"
)
VIRTIO_ORDER=(VIRTIO-A VIRTIO-4K VIRTIO-FAB)
# VIRTIO-FAB is exported inside the guest through nvmet over TCP loopback.
FAB_DISK="VIRTIO-FAB"
FAB_NQN=nqn.2024-01.org.ssdprobe:vmtest
FAB_MODEL="SSDPROBE FABRICS"
FAB_SERIAL="SSDPROBE-FAB-01"
OUT_SERIAL="VMTEST-OUT"
BUDGET=3
# SD cards, USB and SAS disks: extra_devices.sh.
# shellcheck source=tests/vm/extra_devices.sh
. "$HERE/extra_devices.sh"

# ---------------------------------------------------------------------------
# Scratch directory, QEMU process, cleanup on every exit path.


# ---------------------------------------------------------------------------
# Prerequisites: skip (77) where the VM cannot run here, fail where the test
# is wired up wrongly.


make_scratch() {
  local base="${SSDPROBE_TEST_TMPDIR:-/var/tmp}"
  SCRATCH=$(mktemp -d "$base/ssdprobe-vm.XXXXXX") || fail "cannot create a scratch directory under $base"
  mkdir -p "$SCRATCH/results"
}

# ---------------------------------------------------------------------------
# Building and booting the guest

build_initramfs() {
  TMPDIR="$SCRATCH" "$HERE/build_initramfs.sh" "$SCRATCH/initramfs.cpio" "$SSDPROBE" "$KERNEL_DIR" ||
    fail "building the initramfs failed"
}

# null_drive NODE: a QEMU block node of SIZE bytes that reads zeroes.
null_drive() { echo "driver=null-co,node-name=$1,size=$SIZE,read-zeroes=on"; }

# Fills QEMU_CMD with the whole command line.
qemu_command() {
  local virtio_list serial lbs pbs min opt disc
  virtio_list=$(IFS=,; echo "${VIRTIO_ORDER[*]}")
  # The guest finds the SATA disk by the start of its model (sysfs keeps 16 characters).
  local sata_match="${SATA_MODEL:0:13}"
  sata_match=${sata_match// /+}
  # shellcheck disable=SC2054  # the commas belong to QEMU's option syntax
  QEMU_CMD=(
    "$QEMU" -M pc -accel tcg -cpu max -smp "${SSDPROBE_VM_SMP:-1}" -m 1024
    -nodefaults -display none -serial stdio -no-reboot
    -kernel "$KERNEL_DIR/vmlinux" -initrd "$SCRATCH/initramfs.cpio"
    -append "console=ttyS0 rdinit=/init panic=-1 quiet loglevel=3 vmtest.out=$OUT_SERIAL vmtest.fabrics=$FAB_DISK vmtest.virtio=$virtio_list vmtest.nqn=$FAB_NQN vmtest.fmodel=${FAB_MODEL// /+} vmtest.fserial=$FAB_SERIAL vmtest.budget=$BUDGET vmtest.sata=$sata_match $(extra_cmdline)"
    # NVMe controller with two namespaces
    # (namespace 2 is written to: extra_devices.sh's WRITE_LABELS)
    -blockdev "$(null_drive nvm1)" -blockdev "$(extra_drive nvme-ns2 "$SIZE")"
    -device "nvme,id=nvme0,serial=$NVME_SERIAL,mdts=$NVME_MDTS,ioeventfd=on"
    -device "nvme-ns,drive=nvm1,bus=nvme0,nsid=1,logical_block_size=$NS1_LBS,physical_block_size=$NS1_PBS,discard_granularity=$NS1_DISCARD"
    -device "nvme-ns,drive=nvme-ns2,bus=nvme0,nsid=2,logical_block_size=$NS2_LBS,physical_block_size=$NS2_PBS,discard_granularity=$NS2_DISCARD"
    # AHCI SATA SSD
    -blockdev "$(null_drive sata0)"
    -device ahci,id=ahci0
    -device "ide-hd,bus=ahci0.0,drive=sata0,model=$SATA_MODEL,ver=$SATA_FW,serial=$SATA_SERIAL,physical_block_size=$SATA_PBS,rotation_rate=1,discard_granularity=512"
  )
  for serial in "${VIRTIO_ORDER[@]}"; do
    read -r lbs pbs min opt disc <<< "${VIRTIO[$serial]}"
    QEMU_CMD+=(-blockdev "$(null_drive "n-$serial")"
      -device "virtio-blk-pci,drive=n-$serial,serial=$serial,logical_block_size=$lbs,physical_block_size=$pbs,min_io_size=$min,opt_io_size=$opt,discard_granularity=$disc")
  done
  extra_qemu_args
  # Output disk: the guest writes a tar archive of its results onto it.
  QEMU_CMD+=(-blockdev "driver=raw,node-name=out,file.driver=file,file.filename=$SCRATCH/out.img"
    -device "virtio-blk-pci,drive=out,serial=$OUT_SERIAL")
}

# Boots the guest in the background under a hard timeout and waits for it.
boot_guest() {
  truncate -s 64M "$SCRATCH/out.img" || fail "cannot create $SCRATCH/out.img"
  qemu_command
  note "QEMU: $(printf '%q ' "${QEMU_CMD[@]}")"
  timeout -k 10 "$VM_TIMEOUT" "${QEMU_CMD[@]}" < /dev/null > "$SCRATCH/serial.log" 2>&1 &
  QEMU_PID=$!
  wait "$QEMU_PID"
  local rc=$?
  QEMU_PID=""
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    show_serial
    echo "FAIL: the guest did not power off within $VM_TIMEOUT s" >&2
    guest_never_finished
    return 1
  fi
  [ "$rc" = 0 ] || { show_serial; echo "FAIL: QEMU exited with $rc" >&2; return 1; }
}

show_serial() {
  echo "--- guest serial console (last 60 lines):" >&2
  tail -n 60 "$SCRATCH/serial.log" >&2
}

collect_results() {
  tar -xf "$SCRATCH/out.img" -C "$SCRATCH/results" 2>/dev/null
  [ -s "$SCRATCH/results/guest.log" ] || { show_serial; echo "FAIL: the guest wrote no results" >&2; return 1; }
  note "guest log:"
  sed 's/^/#   /' "$SCRATCH/results/guest.log"
}

# ---------------------------------------------------------------------------
# Assertion helpers

R=""          # results directory, set in main


# jv LABEL FILTER: a raw value from info-LABEL.json ("null" when absent).
jv() { jq -r "$2" "$R/info-$1.json" 2>/dev/null; }
# guest_sysfs LABEL FIELD: a value the guest read from its sysfs.
guest_sysfs() { awk -v f="$2" '$1 == f { print $2 }' "$R/sysfs-$1.txt" 2>/dev/null; }

# check_ran LABEL DEVICE: `ssdprobe info` ran on DEVICE, exited 0, wrote JSON.
# Returns 1 (after counting the failure) when there is nothing to check.
check_ran() {
  local label="$1" dev="$2"
  if [ ! -f "$R/dev-$label" ]; then
    echo "FAIL: $label: the guest never found $dev (see guest log)" >&2
    ERRORS=$((ERRORS + 1)); return 1
  fi
  check_eq "$label device" "$(cat "$R/dev-$label")" "$dev"
  local rc
  rc=$(cat "$R/info-$label.rc" 2>/dev/null)
  if [ "$rc" != 0 ] || ! jq -e . "$R/info-$label.json" >/dev/null 2>&1; then
    echo "FAIL: $label: ssdprobe info $dev exited with '$rc'; stderr:" >&2
    sed 's/^/    /' "$R/info-$label.err" >&2
    ERRORS=$((ERRORS + 1)); return 1
  fi
}

# check_one_of WHAT GOT WANT...: GOT is any of the WANTs.
check_one_of() {
  local what="$1" got="$2" w
  shift 2
  for w in "$@"; do
    if [ "$got" = "$w" ]; then note "ok   $what = $got"; return 0; fi
  done
  echo "FAIL: $what: got '$got', expected one of: $*" >&2
  ERRORS=$((ERRORS + 1))
}

# check_geometry LABEL LBS PBS MIN_IO OPT_IO DISCARD ROTATIONAL: the kernel's
# queue limits as `ssdprobe info` reports them. Also checks the guest's own
# sysfs against the same numbers, so that a changed QEMU or guest kernel shows
# up as such rather than as an ssdprobe bug.
check_geometry() {
  local label="$1"
  local -a want=("$2" "$3" "$4" "$5" "$6")
  local rot="$7" i field rot_json=false
  local -a fields=(logical_block_size physical_block_size minimum_io_size optimal_io_size discard_granularity)
  for i in "${!fields[@]}"; do
    field=${fields[$i]}
    check_eq "$label (guest sysfs) $field" "$(guest_sysfs "$label" "$field")" "${want[$i]}"
    check_eq "$label reported.$field" "$(jv "$label" ".reported.$field")" "${want[$i]}"
  done
  [ "$rot" = 1 ] && rot_json=true
  check_eq "$label (guest sysfs) rotational" "$(guest_sysfs "$label" rotational)" "$rot"
  check_eq "$label reported.rotational" "$(jv "$label" .reported.rotational)" "$rot_json"
  check_eq "$label reported.alignment_offset" "$(jv "$label" .reported.alignment_offset)" 0
}

# check_sysfs LABEL DEVICE TRANSPORT LBS PBS MIN_IO OPT_IO DISCARD ROTATIONAL:
# check_geometry, plus identity of the target and the info contract
# (spec/result-json.md: a block device, no timing IO).
check_sysfs() {
  local label="$1" dev="$2" transport="$3"
  check_ran "$label" "$dev" || return 0
  check_geometry "$label" "$4" "$5" "$6" "$7" "$8" "$9"
  check_eq "$label schema" "$(jv "$label" .schema)" "ssdprobe/1"
  check_eq "$label target.path" "$(jv "$label" .target.path)" "$dev"
  check_eq "$label target.kind" "$(jv "$label" .target.kind)" block
  check_eq "$label target.size_bytes" "$(jv "$label" .target.size_bytes)" "$SIZE"
  check_eq "$label target.transport" "$(jv "$label" .target.transport)" "$transport"
  check_eq "$label grids (count)" "$(jv "$label" '.grids | length')" 0
  check_eq "$label detected.read_page.bytes" "$(jv "$label" .detected.read_page.bytes)" null
}

# check_run LABEL DEVICE [BUDGET]: a short read run (of BUDGET seconds,
# default $BUDGET) finished and wrote a document with at least one grid.
# Timings under TCG mean nothing: no geometry is asserted.
check_run() {
  local label="$1" dev="$2" budget="${3:-$BUDGET}" rc
  if [ ! -f "$R/run-$label.rc" ]; then
    echo "FAIL: run $label: never ran (see guest log)" >&2
    ERRORS=$((ERRORS + 1)); return 0
  fi
  rc=$(cat "$R/run-$label.rc")
  if [ "$rc" != 0 ]; then
    echo "FAIL: run $label: ssdprobe $(cat "$R/run-$label.args") $dev exited with $rc; stderr:" >&2
    sed 's/^/    /' "$R/run-$label.err" >&2
    ERRORS=$((ERRORS + 1)); return 0
  fi
  local j="$R/run-$label.json"
  check_eq "run $label schema" "$(jq -r .schema "$j")" "ssdprobe/1"
  check_eq "run $label target.path" "$(jq -r .target.path "$j")" "$dev"
  check_eq "run $label options.budget_s" "$(jq -r .options.budget_s "$j")" "$budget"
  check_eq "run $label has grids" "$(jq -r '(.grids | length) > 0' "$j")" true
}

# ---------------------------------------------------------------------------
# Sysfs block: what ssdprobe reads from the guest kernel today.
#
# NVMe rows follow from what the namespace reports, by the guest kernel's
# (6.1) rules: physical = min((NPWG+1), atomic) x LBA, io_min = (NPWG+1) x LBA,
# io_opt = (NOWS+1) x LBA when NSFEAT bit 4 is set; discard granularity =
# LBA size. QEMU's namespaces have NPWG = NOWS = 0, so everything is one LBA
# whatever physical_block_size says. The fabrics namespace carries its virtio
# disk's limits in NPWG/NOWS/NAWUPF, so they come back (discard: one LBA).
# libata/sd: io_min = physical, io_opt = 0, discard granularity = physical.

check_sysfs_block() {
  local serial lbs pbs min opt disc
  check_sysfs nvme-ns1 /dev/nvme0n1 nvme "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" 0
  check_sysfs nvme-ns2 /dev/nvme0n2 nvme "$NS2_LBS" "$NS2_LBS" "$NS2_LBS" "$NS2_LBS" "$NS2_LBS" 0
  check_sysfs sata "$(guest_dev sata)" sata 512 "$SATA_PBS" "$SATA_PBS" 0 "$SATA_PBS" 0
  for serial in "${VIRTIO_ORDER[@]}"; do
    read -r lbs pbs min opt disc <<< "${VIRTIO[$serial]}"
    # virtio-blk leaves rotational at the block layer's default (1).
    check_sysfs "virtio-$serial" "$(guest_dev "virtio-$serial")" virtio "$lbs" "$pbs" "$min" "$opt" "$disc" 1
    check_eq "virtio-$serial target.serial" "$(jv "virtio-$serial" .target.serial)" "$serial"
  done
  read -r lbs pbs min opt disc <<< "${VIRTIO[$FAB_DISK]}"
  check_sysfs fabrics "$(guest_dev fabrics)" nvme "$lbs" "$pbs" "$min" "$opt" "$lbs" 0
  check_run nvme-ns1 /dev/nvme0n1
}

# guest_dev LABEL: the device node the guest used for LABEL (virtio and
# fabrics names depend on probe order; the guest finds them by serial/NQN).
guest_dev() { cat "$R/dev-$1" 2>/dev/null || echo "(not found)"; }

# ---------------------------------------------------------------------------
# Firmware block: the decoded Identify / IDENTIFY DEVICE fields, named as in
# spec/result-json.md.

# check_identity LABEL SECTION MODEL SERIAL FIRMWARE: target.* and
# reported.SECTION.* identity strings (trimmed).
check_identity() {
  local label="$1" section="$2"
  check_eq "$label target.model" "$(jv "$label" .target.model)" "$3"
  check_eq "$label target.serial" "$(jv "$label" .target.serial)" "$4"
  check_eq "$label target.firmware" "$(jv "$label" .target.firmware)" "$5"
  check_eq "$label reported.$section.model" "$(jv "$label" ".reported.$section.model")" "$3"
  check_eq "$label reported.$section.serial" "$(jv "$label" ".reported.$section.serial")" "$4"
  check_eq "$label reported.$section.firmware" "$(jv "$label" ".reported.$section.firmware")" "$5"
}

# check_nvme_fields LABEL NAME=VALUE...: reported.nvme.NAME for each pair.
check_nvme_fields() {
  local label="$1" pair
  shift
  for pair in "$@"; do
    check_eq "$label reported.nvme.${pair%%=*}" "$(jv "$label" ".reported.nvme.${pair%%=*}")" "${pair#*=}"
  done
}

# check_qemu_ns LABEL LBS DISCARD: a QEMU namespace. QEMU 7.2 fixes NSFEAT =
# 0x14 (bit 4: NPWG..NOWS valid, bit 1 clear: no namespace atomics), eight
# LBA formats (512 and 4096, each with 0/8/16/64 B metadata) and NPWG = NOWS =
# 0; NPDG/NPDA come from discard_granularity. With NSFEAT bit 1 clear NAWUPF
# is not valid, so nawupf_bytes is null (the spec's rule for invalid fields).
check_qemu_ns() {
  local label="$1" lbs="$2" disc="$3" flbas ds
  case "$lbs" in 512) flbas=0 ds=9 ;; 4096) flbas=4 ds=12 ;; esac
  check_identity "$label" nvme "$NVME_MODEL" "$NVME_SERIAL" "$QEMU_FIRMWARE"
  check_nvme_fields "$label" \
    mdts="$NVME_MDTS" mdts_bytes=$(((1 << NVME_MDTS) * 4096)) awun=0 awupf=0 \
    nsze=$((SIZE / lbs)) nsfeat=$((0x14)) flbas="$flbas" lba_bytes="$lbs" \
    'lbaf | length=8' "lbaf[$flbas].ds=$ds" "lbaf[$flbas].ms=0" \
    npwg=0 npwa=0 nows=0 npwg_bytes="$lbs" nows_bytes="$lbs" \
    npdg=$((disc / lbs - 1)) npda=$((disc / lbs - 1)) npdg_bytes="$disc" \
    nawun=0 nawupf=0 nawupf_bytes=null noiob=0
  check_eq "$label reported.ata" "$(jv "$label" .reported.ata)" null
}

# check_fabrics_ns: nvmet derives the namespace fields from the exported
# disk's queue limits (drivers/nvme/target/io-cmd-bdev.c): NSFEAT bits 1 and 4,
# NPWG = NPWA = NAWUN = NAWUPF = physical/LBA - 1, NOWS = io_opt/LBA - 1,
# NPDG = NPDA = discard granularity/LBA - 1; one LBA format; MDTS 0 over TCP
# (no limit, so no mdts_bytes).
# The firmware revision is the guest kernel release, cut to 8 characters.
check_fabrics_ns() {
  local lbs pbs min opt disc
  read -r lbs pbs min opt disc <<< "${VIRTIO[$FAB_DISK]}"
  check_identity fabrics nvme "$FAB_MODEL" "$FAB_SERIAL" "$(cut -c1-8 "$KERNEL_DIR/release")"
  check_nvme_fields fabrics \
    mdts=0 mdts_bytes=null nsze=$((SIZE / lbs)) nsfeat=$((0x12)) flbas=0 lba_bytes="$lbs" 'lbaf | length=1' 'lbaf[0].ds=9' \
    npwg=$((pbs / lbs - 1)) npwa=$((pbs / lbs - 1)) npwg_bytes="$pbs" \
    nows=$((opt / lbs - 1)) nows_bytes="$opt" \
    npdg=$((disc / lbs - 1)) npda=$((disc / lbs - 1)) npdg_bytes="$disc" \
    nawun=$((pbs / lbs - 1)) nawupf=$((pbs / lbs - 1)) nawupf_bytes="$pbs"
}

# check_ata: IDENTIFY DEVICE of QEMU's ide-hd: strings from model=/ver=/serial=,
# word 106 from physical_block_size, TRIM (word 169) from discard_granularity,
# word 217 from rotation_rate. QEMU leaves word 209 at 0 (bit 14 clear: no
# alignment reported), which a decoder may show as offset 0 (libata's reading)
# or as null (undetermined); either is right, any other value is not.
check_ata() {
  check_identity sata ata "$SATA_MODEL" "$SATA_SERIAL" "$SATA_FW"
  local pair
  for pair in logical_sector_bytes=512 physical_sector_bytes="$SATA_PBS" \
              trim_supported=true rotation_rate=1 word106="$SATA_WORD106" word209=0 word217=1; do
    check_eq "sata reported.ata.${pair%%=*}" "$(jv sata ".reported.ata.${pair%%=*}")" "${pair#*=}"
  done
  check_one_of "sata reported.ata.alignment_offset_bytes" "$(jv sata .reported.ata.alignment_offset_bytes)" 0 null
  check_eq "sata reported.nvme" "$(jv sata .reported.nvme)" null
}

# check_lba_format: QEMU 7.2's namespaces list eight LBA formats, all rated
# best (RP 0): 512 B and 4 KiB, each with 0/8/16/64 B of metadata.
# Namespace 1 (512 B in use) is advised to reformat to the 4 KiB format
# without metadata, by its index in the list the guest's nvme-cli shows (4 in
# QEMU's source), with the FNA bit nvme-cli shows; namespace 2 (4 KiB in use)
# is not. The guest then ran the advised command: namespace 1 is in that
# format, and its info advises nothing.
check_lba_format() {
  local index=4 fna=0 cmd all=false f="$R/idns-nvme-ns1.json"
  if [ -s "$f" ]; then
    index=$(jq -r '[.lbafs | to_entries[] | select(.value.ds == 12 and .value.ms == 0) | .key] | first' "$f")
    fna=$(jq -r .fna "$R/idctrl-nvme-ns1.json")
  else
    note "no nvme-cli in the guest: QEMU's format list (4 KiB without metadata: index 4, FNA 0) instead"
  fi
  [ $((fna & 1)) = 1 ] && all=true
  cmd="nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=$index"
  check_nvme_lba_format nvme-ns1 "$R/info-nvme-ns1.json" "$index" "$all" "$cmd"
  check_nvme_lba_format "run nvme-ns1" "$R/run-nvme-ns1.json" "$index" "$all" "$cmd"
  check_nvme_lba_format ng-ns1 "$R/info-ng-ns1.json" "$index" "$all" "${cmd/nvme0n1/ng0n1}"
  check_eq "nvme-ns2 recommendations.lba_format" "$(jv nvme-ns2 .recommendations.lba_format)" null
  if [ ! -f "$R/format-nvme-ns1.rc" ]; then
    note "the guest did not format namespace 1 (no nvme-cli in it): the advice was not run"
    return 0
  fi
  check_eq "guest ran" "$(cat "$R/format-nvme-ns1.cmd")" "$cmd"
  check_eq "exit of $cmd --force" "$(cat "$R/format-nvme-ns1.rc")" 0
  check_ran nvme-ns1-formatted /dev/nvme0n1 || return 0
  check_nvme_fields nvme-ns1-formatted lbaf_in_use="$index" lba_bytes=4096
  check_eq "nvme-ns1-formatted reported.logical_block_size" "$(jv nvme-ns1-formatted .reported.logical_block_size)" 4096
  check_eq "nvme-ns1-formatted recommendations.lba_format" "$(jv nvme-ns1-formatted .recommendations.lba_format)" null
}

# check_nvme_lba_format WHAT DOCUMENT INDEX ALL_NAMESPACES COMMAND: the
# document advises reformatting from format 0 (512 B) to INDEX (4 KiB, no
# metadata) with COMMAND, a step that destroys data.
check_nvme_lba_format() {
  local what="$1" doc="$2" a
  a=$(jq -c '.recommendations.lba_format | [.in_use.index, .in_use.data_bytes, .suggested.index,
             .suggested.data_bytes, .suggested.metadata_bytes, .all_namespaces, .step.key, .step.destroys_data]' \
      "$doc" 2>/dev/null)
  check_eq "$what recommendations.lba_format" "$a" "[0,512,$3,4096,0,$4,\"nvme_format\",true]"
  check_eq "$what recommendations.lba_format.step.command" \
    "$(jq -r .recommendations.lba_format.step.command "$doc" 2>/dev/null)" "$5"
}

check_firmware_block() {
  local serial
  check_qemu_ns nvme-ns1 "$NS1_LBS" "$NS1_DISCARD"
  check_qemu_ns nvme-ns2 "$NS2_LBS" "$NS2_DISCARD"
  # The generic char device of namespace 1: same identity, same kernel view.
  if check_ran ng-ns1 /dev/ng0n1; then
    check_qemu_ns ng-ns1 "$NS1_LBS" "$NS1_DISCARD"
    check_geometry ng-ns1 "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" "$NS1_LBS" 0
    check_eq "ng-ns1 target.path" "$(jv ng-ns1 .target.path)" /dev/ng0n1
    check_eq "ng-ns1 target.size_bytes" "$(jv ng-ns1 .target.size_bytes)" "$SIZE"
    check_eq "ng-ns1 target.transport" "$(jv ng-ns1 .target.transport)" nvme
  fi
  check_lba_format
  check_fabrics_ns
  check_ata
  for serial in "${VIRTIO_ORDER[@]}"; do
    check_eq "virtio-$serial reported.nvme" "$(jv "virtio-$serial" .reported.nvme)" null
    check_eq "virtio-$serial reported.ata" "$(jv "virtio-$serial" .reported.ata)" null
  done
  if [ -f "$R/run-ng-ns1-passthru.rc" ]; then
    check_run ng-ns1-passthru /dev/ng0n1
    # The grid really went through NVMe commands, not the block layer.
    check_one_of "run ng-ns1-passthru run.engine mentions passthrough" \
      "$(jq -r '.run.engine | test("passthr|URING_CMD|uring_cmd")' "$R/run-ng-ns1-passthru.json" 2>/dev/null)" true
  else
    note "no passthru engine in this ssdprobe (--help does not list it): skipped"
  fi
}

# ---------------------------------------------------------------------------
# Summary

# One row per drive: what `ssdprobe info` showed.
print_table() {
  local label geo extra
  echo "# what ssdprobe info showed per emulated drive (sizes: logical/physical/min_io/opt_io):"
  printf '#   %-18s %-13s %-22s %-8s %-24s %s\n' drive device model transport geometry firmware-geometry
  for label in nvme-ns1 nvme-ns2 ng-ns1 sata "${VIRTIO_ORDER[@]/#/virtio-}" fabrics "${SD_ORDER[@]}" "${SCSI_ORDER[@]}"; do
    if [ ! -s "$R/info-$label.json" ]; then
      printf '#   %-18s %-13s %s\n' "$label" "$(guest_dev "$label")" "(no document: exit $(cat "$R/info-$label.rc" 2>/dev/null))"
      continue
    fi
    geo=$(jv "$label" '[.reported.logical_block_size, .reported.physical_block_size, .reported.minimum_io_size, .reported.optimal_io_size] | map(tostring) | join("/")')
    extra=$(jv "$label" 'if .reported.nvme != null then "npwg=\(.reported.nvme.npwg) nows=\(.reported.nvme.nows) nawupf=\(.reported.nvme.nawupf)"
                         elif .reported.ata != null then "word106=\(.reported.ata.word106)" else "-" end')
    if [[ "$extra" =~ ^word106=([0-9]+)$ ]]; then extra=$(printf 'word106=0x%04x' "${BASH_REMATCH[1]}"); fi
    printf '#   %-18s %-13s %-22s %-8s %-24s %s\n' "$label" "$(jv "$label" .target.path)" \
      "$(jv "$label" '.target.model // "-"')" "$(jv "$label" .target.transport)" "$geo" "$extra"
  done
}

# The guest's own view via nvme-cli / smartctl, for comparison and diagnosis.
print_guest_tools() {
  local label f
  for label in nvme-ns1 nvme-ns2 fabrics; do
    f="$R/idns-$label.json"
    [ -s "$f" ] || continue
    echo "# nvme-cli id-ns $label: $(jq -r '"nsfeat=\(.nsfeat) flbas=\(.flbas) npwg=\(.npwg) npwa=\(.npwa) npdg=\(.npdg) nows=\(.nows) nawun=\(.nawun) nawupf=\(.nawupf)"' "$f" 2>/dev/null)"
  done
  f="$R/identify-sata.txt"
  if [ -s "$f" ]; then
    echo "# smartctl --identify sata: $(awk '$1 ~ /^(106|169|209|217)$/ { printf "word%s=%s ", $1, $2 }' "$f")"
  fi
}


# check_counted_writes LABEL: QEMU's NVMe controller counts what the host
# writes (SMART/Health Data Units Written: 512,000 B, rounded up), and the
# guest writes nothing else to the namespace during the run, so each write
# phase's record (phases[].writes) holds a counter delta within one unit of
# the bytes the phase issued. The restore reads no counters: no delta.
check_counted_writes() {
  local label="$1" j="$R/write-$1.json" unit=512000 off
  [ -s "$j" ] || return 0  # check_write has said why
  check_eq "$label --write: the host counter read at set-up" \
    "$(jq -r '.write_probe.write_amplification.host_source | test("data units written")' "$j")" true
  off=$(jq -c --argjson u "$unit" '[.phases[] | select(.writes != null and .name != "restore")
        | select(.writes.host_bytes_written == null or ((.writes.host_bytes_written - .writes.bytes_issued) | fabs) >= $u)
        | {name, writes}]' "$j")
  check_eq "$label --write: phases whose counter delta is not within $unit B of what they wrote" "$off" "[]"
  check_eq "$label --write: write phases with a record" \
    "$(jq -r '[.phases[] | select(.writes != null and .name != "restore")] | length > 0' "$j")" true
  check_eq "$label --write: the restore's record has no counter delta" \
    "$(jq -r '[.phases[] | select(.name == "restore") | .writes.host_bytes_written] | .[0]' "$j")" null
  note "$label --write, by phase (issued / counted by the drive): $(jq -r '[.phases[] | select(.writes != null)
        | "\(.name) \(.writes.bytes_issued) / \(.writes.host_bytes_written)"] | join(", ")' "$j")"
}

# ---------------------------------------------------------------------------

# One guest and the checks of its results; non-zero when it gave none.
attempt() {
  make_scratch
  R="$SCRATCH/results"
  local t0 build_s
  t0=$(date +%s.%N)
  build_initramfs
  build_s=$(elapsed "$t0")
  t0=$(date +%s.%N)
  boot_guest || return 1
  note "initramfs built in $build_s s; boot, probes and power-off took $(elapsed "$t0") s"
  collect_results || return 1

  check_sysfs_block
  check_extra_devices
  check_counted_writes nvme-ns2
  if [ "$ASSERT_FIRMWARE" = 1 ]; then
    check_firmware_block
  else
    note "ASSERT_FIRMWARE=0: decoded firmware fields not checked"
  fi

  print_table
  print_guest_tools
  return 0
}

main() {
  check_vm_prerequisites
  QEMU_FIRMWARE=$("$QEMU" --version | sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p' | cut -c1-8)
  with_one_rerun attempt || fail "the guest gave no results"
  echo "# VM test wall time: $(elapsed "$T_START") s"
  [ "$ERRORS" = 0 ] || fail "$ERRORS mismatches"
  echo "PASS"
}

main
