# shellcheck shell=bash
# shellcheck disable=SC2153  # SIZE, R, ERRORS and the helpers are vm_info.sh's
# Sourced by vm_info.sh: the SD cards, USB disks and SAS disk of the guest,
# what they are configured to report, their QEMU options and the checks of
# what `ssdprobe info --json` (and a short read run) showed on each.
#
# SD cards (sdhci-pci + sd-card, one controller each): a 64 MiB standard-
# capacity card (QEMU writes a CSD 1.0: 512 B blocks, C_SIZE_MULT 7, so
# C_SIZE = size / 256 KiB - 1) and a 4 GiB high-capacity card (CSD 2.0:
# C_SIZE = size / 512 KiB - 1). QEMU's SD model needs power-of-two sizes.
# USB: usb-storage (bulk-only; QEMU's disk behind it is "QEMU HARDDISK") and
# usb-uas with a scsi-hd, both on a qemu-xhci controller. SAS: megasas (a
# MegaRAID SAS 1078, the guest's megaraid_sas driver) with a scsi-hd.

# Labels of the SD cards: "BYTES C_SIZE CSD_VERSION".
declare -A SD_CARDS=(
  [sd-sdsc]="$((64 << 20)) $(((64 << 20) / (256 << 10) - 1)) 1.0"
  [sd-sdhc]="$((4 << 30)) $(((4 << 30) / (512 << 10) - 1)) 2.0"
)
SD_ORDER=(sd-sdsc sd-sdhc)
# SCSI disks: "DRIVER TRANSPORT VENDOR PRODUCT SERIAL LBS PBS MIN_IO OPT_IO"
# (a + in PRODUCT is a space).
# usb-storage's disk keeps QEMU's vendor/product and default geometry (QEMU
# 7.2 does not hand the device's block-size properties to the disk it makes;
# 0 = not reported); its serial is the USB one.
declare -A SCSI_DISKS=(
  [usb-bot]="usb-storage usb QEMU QEMU+HARDDISK SSDPROBE-USB-01 512 512 0 0"
  [usb-uas]="uas usb SSDPROBE SSDPROBE-UAS SSDPROBE-UAS-01 512 8192 8192 131072"
  [sas]="megaraid_sas sas SSDPROBE SSDPROBE-SAS SSDPROBE-SAS-01 4096 16384 16384 262144"
)
SCSI_ORDER=(usb-bot usb-uas sas)
XBUDGET=0.5 # seconds of each extra device's read run (it still reads a grid)
# The drives a --write run is made on, an SD card, the SAS disk and NVMe
# namespace 2 (vm_info.sh; its controller counts the host's writes): backed
# by files of random bytes (the others read zeroes and drop writes), which
# must be byte-identical after. The window, the same on all: WRITE_REGION.
WRITE_LABELS=(sd-sdsc sas nvme-ns2)
WRITE_REGION=16M:16M
WRITE_REGION_BYTES="$((16 << 20)):$((16 << 20))"
WRITE_BUDGET=1

# The guest's kernel command line words for these devices.
extra_cmdline() {
  local label mmc="" scsi=""
  for label in "${SD_ORDER[@]}"; do mmc+="${mmc:+,}$label:${SD_CARDS[$label]%% *}"; done
  # usb-storage's model is QEMU's "QEMU HARDDISK": matched by its first word.
  scsi="usb-bot:QEMU,usb-uas:SSDPROBE-UAS,sas:SSDPROBE-SAS"
  echo "vmtest.mmc=$mmc vmtest.scsi=$scsi vmtest.xbudget=$XBUDGET" \
    "vmtest.write=$(IFS=,; echo "${WRITE_LABELS[*]}") vmtest.wregion=$WRITE_REGION vmtest.wbudget=$WRITE_BUDGET"
}

# written LABEL: is LABEL one of WRITE_LABELS?
written() { [[ " ${WRITE_LABELS[*]} " == *" $1 "* ]]; }

# extra_drive LABEL BYTES: the QEMU block node of a drive: zeroes, or for a
# drive written to a sparse file with random bytes over its first 48 MiB
# (the window and beyond), whose checksum is kept beside it.
extra_drive() {
  local label="$1" size="$2" img="$SCRATCH/$1.img"
  if ! written "$label"; then
    echo "driver=null-co,node-name=$label,size=$size,read-zeroes=on"
    return
  fi
  if ! head -c $((48 << 20)) /dev/urandom > "$img" || ! truncate -s "$size" "$img"; then fail "cannot create $img"; fi
  sha256sum < "$img" | cut -d' ' -f1 > "$SCRATCH/$label.sha"
  echo "driver=raw,node-name=$label,file.driver=file,file.filename=$img"
}

# Appends the devices to QEMU_CMD.
# shellcheck disable=SC2054  # the commas belong to QEMU's option syntax
extra_qemu_args() {
  local label size driver transport vendor product serial lbs pbs min opt geo
  for label in "${SD_ORDER[@]}"; do
    read -r size _ <<< "${SD_CARDS[$label]}"
    # Each card takes the controller just added (its one free SD bus).
    QEMU_CMD+=(-blockdev "$(extra_drive "$label" "$size")" -device "sdhci-pci,id=sdhci-$label"
      -device "sd-card,drive=$label")
  done
  QEMU_CMD+=(-device qemu-xhci,id=xhci -device megasas,id=megasas)
  for label in "${SCSI_ORDER[@]}"; do
    read -r driver transport vendor product serial lbs pbs min opt <<< "${SCSI_DISKS[$label]}"
    geo="logical_block_size=$lbs,physical_block_size=$pbs,min_io_size=$min,opt_io_size=$opt"
    [ "$label" = usb-bot ] && geo="logical_block_size=$lbs"
    QEMU_CMD+=(-blockdev "$(extra_drive "$label" "$SIZE")")
    case "$label" in
      usb-bot) QEMU_CMD+=(-device "usb-storage,bus=xhci.0,drive=$label,serial=$serial,$geo") ;;
      usb-uas) QEMU_CMD+=(-device usb-uas,id=uas,bus=xhci.0
                 -device "scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=$label,vendor=$vendor,product=$product,serial=$serial,$geo") ;;
      sas) QEMU_CMD+=(-device "scsi-hd,bus=megasas.0,scsi-id=0,lun=0,drive=$label,vendor=$vendor,product=$product,serial=$serial,$geo") ;;
    esac
  done
}

# check_text LABEL WHAT PATTERN: the text `info` printed has a line matching
# the extended regular expression PATTERN.
check_text() {
  if grep -Eq -- "$3" "$R/info-$1.out" 2>/dev/null; then
    note "ok   $1 info text: $2"
  else
    echo "FAIL: $1 info text: no line matching '$3' ($2)" >&2
    ERRORS=$((ERRORS + 1))
  fi
}

# mmc_sysfs LABEL FIELD: a card attribute as the guest read it.
mmc_sysfs() { awk -v f="$2" '$1 == f { print $2 }' "$R/mmc-$1.txt" 2>/dev/null; }

# check_sd_card LABEL: the CSD decoded from the card's configuration, and the
# kernel's erase sizes and raw registers exactly as the guest's sysfs shows them.
check_sd_card() {
  local label="$1" size c_size version f
  read -r size c_size version <<< "${SD_CARDS[$label]}"
  check_ran "$label" "$(guest_dev "$label")" || return 0
  check_eq "$label target.transport" "$(jv "$label" .target.transport)" mmc
  check_eq "$label target.size_bytes" "$(jv "$label" .target.size_bytes)" "$size"
  check_eq "$label reported.mmc.type" "$(jv "$label" .reported.mmc.type)" SD
  check_eq "$label reported.mmc.csd.version" "$(jv "$label" .reported.mmc.csd.version)" "$version"
  check_eq "$label reported.mmc.csd.c_size" "$(jv "$label" .reported.mmc.csd.c_size)" "$c_size"
  check_eq "$label reported.mmc.csd.capacity_bytes" "$(jv "$label" .reported.mmc.csd.capacity_bytes)" "$size"
  check_eq "$label reported.mmc.csd.read_bl_len_bytes" "$(jv "$label" .reported.mmc.csd.read_bl_len_bytes)" 512
  if [ "$version" = 1.0 ]; then
    check_eq "$label reported.mmc.csd.c_size_mult" "$(jv "$label" .reported.mmc.csd.c_size_mult)" 7
  fi
  for f in erase_size preferred_erase_size; do
    check_eq "$label reported.mmc.$f (guest sysfs)" "$(jv "$label" ".reported.mmc.$f")" "$(mmc_sysfs "$label" "$f")"
  done
  for f in csd cid scr; do
    check_eq "$label reported.mmc.${f}_raw (guest sysfs)" "$(jv "$label" ".reported.mmc.${f}_raw")" "$(mmc_sysfs "$label" "$f")"
  done
  check_eq "$label reported.mmc.cid.pnm = sysfs name" "$(jv "$label" .reported.mmc.cid.pnm)" "$(mmc_sysfs "$label" name)"
  check_eq "$label reported.identity_source" "$(jv "$label" .reported.identity_source)" "card CID"
  check_text "$label" "transport" "\(block, mmc\)"
  check_text "$label" "decoded CSD" " c_size $c_size( |$)"
  check_eq "$label recommendations: partition alignment covers the allocation unit" \
    "$(jv "$label" '.recommendations.partition_alignment_bytes % .reported.mmc.preferred_erase_size')" 0
  check_run "$label" "$(guest_dev "$label")" "$XBUDGET"
}

# check_scsi_disk LABEL: transport and host driver from sysfs; INQUIRY, Unit
# Serial Number, READ CAPACITY(16) and Block Limits through SG_IO, each equal
# to the configuration; no ATA translation behind QEMU's SCSI disks.
check_scsi_disk() {
  local label="$1" driver transport vendor product serial lbs pbs min opt
  read -r driver transport vendor product serial lbs pbs min opt <<< "${SCSI_DISKS[$label]}"
  product=${product//+/ }
  if [ -s "$R/unreadable-$label.txt" ]; then
    note "$label: sysfs attributes whose read fails: $(tr '\n' ' ' < "$R/unreadable-$label.txt")"
  fi
  check_ran "$label" "$(guest_dev "$label")" || return 0
  check_eq "$label target.transport" "$(jv "$label" .target.transport)" "$transport"
  check_eq "$label reported.scsi_host_driver" "$(jv "$label" .reported.scsi_host_driver)" "$driver"
  check_eq "$label target.size_bytes" "$(jv "$label" .target.size_bytes)" "$SIZE"
  check_eq "$label reported.logical_block_size" "$(jv "$label" .reported.logical_block_size)" "$lbs"
  check_eq "$label target.serial" "$(jv "$label" .target.serial)" "$serial"
  local s=".reported.scsi"
  check_eq "$label $s.inquiry.vendor" "$(jv "$label" "$s.inquiry.vendor")" "$vendor"
  check_eq "$label $s.inquiry.product" "$(jv "$label" "$s.inquiry.product")" "$product"
  check_eq "$label $s.unit_serial" "$(jv "$label" "$s.unit_serial")" "$serial"
  check_eq "$label $s.read_capacity16.logical_block_length" "$(jv "$label" "$s.read_capacity16.logical_block_length")" "$lbs"
  check_eq "$label $s.read_capacity16.physical_block_bytes" "$(jv "$label" "$s.read_capacity16.physical_block_bytes")" "$pbs"
  check_eq "$label $s.read_capacity16.capacity_bytes" "$(jv "$label" "$s.read_capacity16.capacity_bytes")" "$SIZE"
  check_eq "$label $s.block_limits.optimal_transfer_length_granularity" \
    "$(jv "$label" "$s.block_limits.optimal_transfer_length_granularity")" "$((min / lbs))"
  check_eq "$label $s.block_limits.optimal_transfer_length" \
    "$(jv "$label" "$s.block_limits.optimal_transfer_length")" "$((opt / lbs))"
  if [ "$min" != 0 ]; then
    check_eq "$label $s.block_limits.optimal_transfer_length_granularity_bytes" \
      "$(jv "$label" "$s.block_limits.optimal_transfer_length_granularity_bytes")" "$min"
    check_eq "$label $s.block_limits.optimal_transfer_length_bytes" \
      "$(jv "$label" "$s.block_limits.optimal_transfer_length_bytes")" "$opt"
  fi
  check_eq "$label reported.ata" "$(jv "$label" .reported.ata)" null
  check_text "$label" "transport and host driver" "\(block, $transport via $driver\)"
  check_text "$label" "INQUIRY" " vendor $vendor( |$)"
  check_text "$label" "READ CAPACITY(16)" "logical_block_length $lbs( |$)"
  check_text "$label" "Block Limits" "optimal_transfer_length_granularity $((min / lbs))( |$)"
  check_run "$label" "$(guest_dev "$label")" "$XBUDGET"
}

# check_write LABEL: the --write run on LABEL finished, measured writes, and
# left every byte of the drive as it was (the guest's checksums, and the
# backing file's on this side).
check_write() {
  local label="$1" j="$R/write-$1.json"
  if [ "$(cat "$R/write-$label.rc" 2>/dev/null)" != 0 ]; then
    echo "FAIL: --write on $label exited $(cat "$R/write-$label.rc" 2>/dev/null); stderr:" >&2
    sed 's/^/    /' "$R/write-$label.err" >&2 2>/dev/null
    ERRORS=$((ERRORS + 1)); return 0
  fi
  check_eq "$label --write: window" "$(jq -r '.write_probe.region | "\(.offset):\(.length)"' "$j")" "$WRITE_REGION_BYTES"
  check_eq "$label --write: a write grid" "$(jq -r '[.grids[] | select(.op == "write")] | length > 0' "$j")" true
  check_eq "$label --write: restored (guest checksum)" "$(cat "$R/sha-after-$label")" "$(cat "$R/sha-before-$label")"
  check_eq "$label --write: backing file byte-identical" "$(sha256sum < "$SCRATCH/$label.img" | cut -d' ' -f1)" \
    "$(cat "$SCRATCH/$label.sha")"
  # QEMU's SD card and SAS disk keep no erase blocks open: the open-units
  # probe ran and claims no limit (none up to N, or not determined: a
  # stand-in spacing, or --budget's 5 % ended it).
  check_eq "$label --write: open units measured, no limit claimed" \
    "$(jq -r '[.phases[] | select(.name == "open_units") | .state][0] as $p
              | ($p == "done" or $p == "budget") and (.detected.open_units.state | IN("absent", "undetermined"))' "$j")" true
  note "$label --write: write unit $(jq -r .detected.write_unit.state "$j"), erase block $(jq -r .detected.erase_block.state "$j"), open units $(jq -r '.detected.open_units | "\(.state) (\(.evidence))"' "$j"), $(jq -r .write_probe.bytes_written "$j") bytes written"
}

check_extra_devices() {
  local label
  for label in "${WRITE_LABELS[@]}"; do check_write "$label"; done
  for label in "${SD_ORDER[@]}"; do check_sd_card "$label"; done
  for label in "${SCSI_ORDER[@]}"; do check_scsi_disk "$label"; done
}
