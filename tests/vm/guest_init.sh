#!/bin/sh
# shellcheck shell=dash
# /init of the QEMU guest that vm_info.sh boots: loads the storage modules,
# exports one virtio disk through the kernel's NVMe-oF target over TCP
# loopback (so a real NVMe host driver sees non-zero NPWG/NOWS/NAWUPF), runs
# `ssdprobe info` on every emulated drive plus a short read run, formats
# NVMe namespace 1 as ssdprobe advises, and writes the results as a tar
# archive onto the output disk for the host to read.
# Whatever fails, it still writes what it has and powers off.
#
# Parameters come from the kernel command line (vm_info.sh sets them):
#   vmtest.out=SERIAL       virtio disk that receives the tar archive
#   vmtest.fabrics=SERIAL   virtio disk exported over NVMe-oF TCP
#   vmtest.virtio=S1,S2     virtio disks to probe (by serial)
#   vmtest.nqn=NQN vmtest.fmodel=MODEL vmtest.fserial=SERIAL  fabrics identity
#   vmtest.budget=SECONDS   budget of the short read run
#   vmtest.sata=MODEL       the AHCI disk, by the start of its model
#   vmtest.scsi=LABEL:MODEL,...  sd disks (USB, SAS) by the start of their
#                           model; each gets `info` and a read run of
#   vmtest.xbudget=SECONDS  seconds (also the SD cards' runs)
#   vmtest.mmc=LABEL:BYTES,...   SD cards by their size
# Each probed device gets a label; for LABEL the archive holds
#   dev-LABEL (device path), sysfs-LABEL.txt, info-LABEL.json/.rc/.err,
# and for NVMe devices idctrl-LABEL.json/idns-LABEL.json from nvme-cli, for
# SATA smart-LABEL.json/identify-LABEL.txt from smartctl (when present), for
# SD cards mmc-LABEL.txt (the card's attributes in sysfs).
# Short read runs: run-LABEL.json/.rc/.err. Last, namespace 1 is formatted
# as its info advised: format-nvme-ns1.cmd/.rc/.out, then info of
# nvme-ns1-formatted. Also guest.log, dmesg.txt and stalls.txt (steps that ran
# into their limit).

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
OUT=/out
PROBE_TIMEOUT=120   # per ssdprobe call; the host's limit covers the whole boot
# shellcheck source=tests/vm/guest_lib.sh
. /guest_lib.sh

# scsi_by_model MODEL: echoes /dev/sdX of the sd disk whose model starts with MODEL.
scsi_by_model() {
  local i d model
  for i in $(seq 150); do
    for d in /sys/block/sd*; do
      [ -e "$d/device/model" ] || continue
      model=$(cat "$d/device/model")
      case "$model" in "$1"*) echo "/dev/${d##*/}"; return 0 ;; esac
    done
    usleep 100000
  done
  log "no sd disk with model $1"
  return 1
}

# mmc_by_size BYTES: echoes /dev/mmcblkN of the card of that size.
mmc_by_size() {
  local i d
  for i in $(seq 150); do
    for d in /sys/block/mmcblk*; do
      [ -e "$d/size" ] || continue
      case "${d##*/}" in *boot*|*rpmb*) continue ;; esac
      if [ $(($(cat "$d/size") * 512)) = "$1" ]; then echo "/dev/${d##*/}"; return 0; fi
    done
    usleep 100000
  done
  log "no SD card of $1 bytes"
  return 1
}

# dump_mmc LABEL DEV: the card attributes the kernel shows, for the host's checks.
dump_mmc() {
  local dir="/sys/block/${2##*/}/device" f
  for f in type name erase_size preferred_erase_size csd cid scr; do
    echo "$f $(cat "$dir/$f" 2>/dev/null)"
  done > "$OUT/mmc-$1.txt"
}

# unreadable_attributes DEV: the disk's sysfs attributes whose read fails
# (for the host's log: ssdprobe must treat them as missing).
unreadable_attributes() {
  local d="/sys/block/${1##*/}" f
  for f in "$d"/* "$d"/device/* "$d"/queue/*; do
    [ -f "$f" ] && [ -r "$f" ] && ! cat "$f" > /dev/null 2>&1 && echo "$f"
  done
}

# writes_to LABEL: is LABEL in vmtest.write (the drives backed by files)?
writes_to() { case ",$(param write)," in *",$1,"*) return 0 ;; esac; return 1; }

# head_sum DEV: the checksum of DEV's first 64 MiB, which hold the window (the
# host checks the whole backing file; reading 1 GiB under TCG takes a minute).
head_sum() { head -c $((64 << 20)) < "$1" | sha256sum | cut -d' ' -f1; }

# probe_write LABEL DEV: a --write run inside vmtest.wregion (the window is
# journaled in the guest's RAM, which is all it has), the checksum of DEV's
# start before and after: the run must give back every byte.
probe_write() {
  local label="$1" dev="$2"
  head_sum "$dev" > "$OUT/sha-before-$label"
  limited ssdprobe --write --yes --allow-ram-journal --cache-bytes 0 --region "$(param wregion)" \
    --budget "$(param wbudget 2)" -q --json "$OUT/write-$label.json" "$dev" < /dev/null \
    > "$OUT/write-$label.out" 2> "$OUT/write-$label.err"
  echo $? > "$OUT/write-$label.rc"
  head_sum "$dev" > "$OUT/sha-after-$label"
  log "write run $label ($dev): exit $(cat "$OUT/write-$label.rc")"
}

# probe_extra_devices: SD cards, USB and SAS disks, each with `info` and a
# short read run.
probe_extra_devices() {
  local budget item label want dev
  budget=$(param xbudget 1)
  for item in $(param mmc | tr ',' ' '); do
    label=${item%%:*} want=${item#*:}
    dev=$(mmc_by_size "$want") || continue
    dump_mmc "$label" "$dev"
    probe_info "$label" "$dev"
    probe_run "$label" "$dev" --budget "$budget"
    writes_to "$label" && probe_write "$label" "$dev"
  done
  for item in $(param scsi | tr ',' ' '); do
    label=${item%%:*} want=${item#*:}
    dev=$(scsi_by_model "$want") || continue
    unreadable_attributes "$dev" > "$OUT/unreadable-$label.txt"
    probe_info "$label" "$dev"
    probe_run "$label" "$dev" --budget "$budget"
    writes_to "$label" && probe_write "$label" "$dev"
  done
}

# export_fabrics BACKING NQN MODEL SERIAL: NVMe-oF TCP target on 127.0.0.1:4420
# serving BACKING as namespace 1, then connects the host side to it.
export_fabrics() {
  local dev="$1" nqn="$2" model="$3" serial="$4"
  local subsys="/sys/kernel/config/nvmet/subsystems/$nqn" port=/sys/kernel/config/nvmet/ports/1
  mkdir "$subsys" || return 1
  echo 1 > "$subsys/attr_allow_any_host"
  [ -e "$subsys/attr_model" ] && printf '%s' "$model" > "$subsys/attr_model"
  [ -e "$subsys/attr_serial" ] && printf '%s' "$serial" > "$subsys/attr_serial"
  mkdir "$subsys/namespaces/1"
  printf '%s' "$dev" > "$subsys/namespaces/1/device_path"
  echo 1 > "$subsys/namespaces/1/enable" || return 1
  mkdir "$port"
  echo ipv4 > "$port/addr_adrfam"
  echo tcp > "$port/addr_trtype"
  echo 127.0.0.1 > "$port/addr_traddr"
  echo 4420 > "$port/addr_trsvcid"
  ln -s "$subsys" "$port/subsystems/$nqn" || return 1
  wait_for /dev/nvme-fabrics 10 || return 1
  echo "transport=tcp,traddr=127.0.0.1,trsvcid=4420,nqn=$nqn" > /dev/nvme-fabrics
}

# fabrics_namespace NQN: echoes /dev/nvmeXnY of the connected subsystem.
fabrics_namespace() {
  local i s b
  for i in $(seq 100); do
    for s in /sys/class/nvme-subsystem/*; do
      [ "$(cat "$s/subsysnqn" 2>/dev/null)" = "$1" ] || continue
      for b in "$s"/nvme*n*; do
        [ -e "$b" ] && [ -e "/dev/${b##*/}" ] && { echo "/dev/${b##*/}"; return 0; }
      done
    done
    usleep 100000
  done
  log "no namespace for $1"
  return 1
}

# dump_sysfs LABEL DEV: the block queue limits the guest kernel shows.
dump_sysfs() {
  local name="${2##*/}" f
  case "$name" in ng*) name="nvme${name#ng}" ;; esac
  {
    for f in logical_block_size physical_block_size minimum_io_size optimal_io_size \
             discard_granularity discard_max_bytes rotational; do
      echo "$f $(cat "/sys/block/$name/queue/$f" 2>/dev/null)"
    done
    echo "size_bytes $(($(cat "/sys/block/$name/size" 2>/dev/null || echo 0) * 512))"
    echo "alignment_offset $(cat "/sys/block/$name/alignment_offset" 2>/dev/null)"
    for f in model vendor serial firmware_rev rev; do
      [ -e "/sys/block/$name/device/$f" ] && echo "device_$f $(cat "/sys/block/$name/device/$f")"
    done
  } > "$OUT/sysfs-$1.txt"
}

# nvme_ids LABEL DEV: Identify Controller/Namespace as nvme-cli decodes them.
nvme_ids() {
  command -v nvme >/dev/null 2>&1 || return 0
  nvme id-ctrl -o json "$2" > "$OUT/idctrl-$1.json" 2>>"$OUT/nvme-cli.err"
  nvme id-ns -o json "$2" > "$OUT/idns-$1.json" 2>>"$OUT/nvme-cli.err"
}

# ata_ids LABEL DEV: IDENTIFY DEVICE as smartctl decodes it, and its raw words.
ata_ids() {
  command -v smartctl >/dev/null 2>&1 || return 0
  smartctl -j -i "$2" > "$OUT/smart-$1.json" 2>&1
  smartctl --identify=wn "$2" > "$OUT/identify-$1.txt" 2>&1
}

# probe_info LABEL DEV: `ssdprobe info` with its exit code and stderr.
probe_info() {
  echo "$2" > "$OUT/dev-$1"
  dump_sysfs "$1" "$2"
  case "$1" in
    nvme*|ng*|fabrics*) nvme_ids "$1" "$2" ;;
    sata*) ata_ids "$1" "$2" ;;
  esac
  limited ssdprobe info --json "$OUT/info-$1.json" "$2" \
    > "$OUT/info-$1.out" 2> "$OUT/info-$1.err"
  echo $? > "$OUT/info-$1.rc"
  log "info $1 ($2): exit $(cat "$OUT/info-$1.rc")"
}

# probe_run LABEL DEV ARGS...: a short read run (its timings mean nothing
# under TCG; it only shows that the IO path works in the guest).
probe_run() {
  local label="$1" dev="$2"
  shift 2
  echo "$dev" > "$OUT/dev-run-$label"
  echo "$*" > "$OUT/run-$label.args"
  limited ssdprobe "$@" -q --json "$OUT/run-$label.json" "$dev" \
    > "$OUT/run-$label.out" 2> "$OUT/run-$label.err"
  echo $? > "$OUT/run-$label.rc"
  log "run $label ($dev $*): exit $(cat "$OUT/run-$label.rc")"
}

# format_as_advised LABEL DEV: runs the `nvme format` command that
# info-LABEL.json advises (recommendations.lba_format; with --force, which
# skips nvme-cli's 10 s wait), then `info` again as LABEL-formatted. Last of
# all: it erases the namespace.
format_as_advised() {
  local label="$1" dev="$2" cmd
  command -v nvme >/dev/null 2>&1 || { log "no nvme-cli: $label not formatted"; return 0; }
  cmd=$(sed -n 's/^ *"command": "\(nvme format [^"]*\)",\{0,1\}$/\1/p' "$OUT/info-$label.json")
  [ -n "$cmd" ] || { log "info $label advised no nvme format"; return 0; }
  echo "$cmd" > "$OUT/format-$label.cmd"
  eval "limited $cmd --force" < /dev/null > "$OUT/format-$label.out" 2>&1
  echo $? > "$OUT/format-$label.rc"
  log "$cmd: exit $(cat "$OUT/format-$label.rc")"
  probe_info "$label-formatted" "$dev"
}

probe_all() {
  local budget serial dev fdev
  budget=$(param budget 3)

  wait_for /dev/nvme0n1 30 && probe_info nvme-ns1 /dev/nvme0n1
  wait_for /dev/nvme0n2 10 && probe_info nvme-ns2 /dev/nvme0n2
  wait_for /dev/ng0n1 10 && probe_info ng-ns1 /dev/ng0n1
  dev=$(scsi_by_model "$(param sata)") && probe_info sata "$dev"
  for serial in $(param virtio | tr ',' ' '); do
    dev=$(virtio_by_serial "$serial") && probe_info "virtio-$serial" "$dev"
  done

  fdev=$(virtio_by_serial "$(param fabrics)") &&
    export_fabrics "$fdev" "$(param nqn)" "$(param fmodel)" "$(param fserial)" &&
    dev=$(fabrics_namespace "$(param nqn)") && probe_info fabrics "$dev"

  [ -e /dev/nvme0n1 ] && probe_run nvme-ns1 /dev/nvme0n1 --budget "$budget"
  [ -e /dev/nvme0n2 ] && writes_to nvme-ns2 && probe_write nvme-ns2 /dev/nvme0n2
  if [ -e /dev/ng0n1 ] && ssdprobe --help 2>&1 | grep -q passthru; then
    probe_run ng-ns1-passthru /dev/ng0n1 --engine passthru --budget "$budget"
  fi
  probe_extra_devices
  [ -e /dev/nvme0n1 ] && format_as_advised nvme-ns1 /dev/nvme0n1
}

mount_basics
heartbeat
log "guest up, kernel $(uname -r)"
load_modules
probe_all
log "done"
save_results
poweroff -f
