#!/bin/bash
# Assembles the initramfs for the QEMU guest test (vm_info.sh): a busybox
# userland, the guest kernel's storage and NVMe-oF modules, the ssdprobe binary
# under test with its shared libraries, nvme-cli and smartctl when the host has
# them (independent views of the same Identify data), and guest_init.sh as
# /init. The archive is an uncompressed newc cpio: the guest runs under TCG,
# where decompressing would cost seconds of boot time.
#
# Usage: build_initramfs.sh OUT.cpio SSDPROBE KERNEL_DIR
#   KERNEL_DIR: a kernel prepared by scripts/install-vm-deps (it holds
#   `release` and lib/modules/RELEASE with modules.dep).
# Environment (for the other guest tests):
#   SSDPROBE_VM_INIT   the guest's /init (default guest_init.sh beside this file)
#   SSDPROBE_VM_TOOLS  more host programs to copy with their libraries, by
#                      name, where the host has them (e.g. "blkzone mkfs.btrfs")
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"

# The modules the guest loads, in this order. The crc/crypto ones go first:
# t10-pi (needed by nvme-core and sd_mod) looks up the crc64-rocksoft and
# crct10dif algorithms when it loads, and the guest has no modprobe for the
# kernel to call back.
MODULES=(
  crc64_rocksoft_generic crct10dif_generic
  virtio_pci virtio_blk
  nvme
  ahci sd_mod sg
  configfs nvmet nvmet-tcp nvme-fabrics nvme-tcp
  sdhci-pci mmc_block xhci-pci usb-storage uas megaraid_sas
)

die() { echo "build_initramfs: $*" >&2; exit 1; }

STAGE=""
cleanup() { if [ -n "$STAGE" ]; then rm -rf -- "$STAGE"; fi; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# add_file SRC DEST: copies SRC (following symlinks) to DEST inside the stage.
add_file() {
  mkdir -p "$STAGE/$(dirname "$2")"
  cp -L "$1" "$STAGE/$2"
}

# add_busybox: /bin/busybox and a link for each applet. The `busybox` entry of
# the applet list is skipped: a busybox -> busybox link makes the boot fail
# with ELOOP (-40).
add_busybox() {
  local bb applet
  bb=$(command -v busybox) || die "busybox not found (scripts/install-vm-deps installs busybox-static)"
  if ldd "$bb" >/dev/null 2>&1; then die "$bb is dynamically linked; install busybox-static"; fi
  add_file "$bb" bin/busybox
  while read -r applet; do
    [ -n "$applet" ] || continue
    [ "$(basename "$applet")" = busybox ] && continue
    [ -e "$STAGE/$applet" ] && continue
    mkdir -p "$STAGE/$(dirname "$applet")"
    ln -s /bin/busybox "$STAGE/$applet"
  done < <("$bb" --list-full)
}

# add_binary SRC DEST: an executable plus every library ldd lists and the
# loader, at the paths ldd reports (the loader finds them there). Debug info is
# stripped from the copy to keep the archive small.
add_binary() {
  local src="$1" dest="$2" lib
  add_file "$src" "$dest"
  if command -v strip >/dev/null 2>&1; then strip --strip-debug "$STAGE/$dest" 2>/dev/null || true; fi
  while read -r lib; do
    [ -e "$STAGE/$lib" ] || add_file "$lib" "$lib"
  done < <(ldd "$src" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
}

# add_modules KERNEL_DIR RELEASE: the .ko files of MODULES and their
# dependencies, and /etc/modules.load listing them in load order.
add_modules() {
  local kdir="$1" rel="$2" mod path seen=" "
  local list="$STAGE/etc/modules.load"
  mkdir -p "$STAGE/etc"
  : > "$list"
  for mod in "${MODULES[@]}"; do
    modprobe -d "$kdir" -S "$rel" --show-depends "$mod" > "$STAGE/.deps" ||
      die "modprobe --show-depends $mod failed for kernel $rel in $kdir"
    while read -r path; do
      case "$seen" in *" $path "*) continue ;; esac
      seen="$seen$path "
      add_file "$path" "${path#"$kdir"}"
      echo "${path#"$kdir"}" >> "$list"
    done < <(awk '$1 == "insmod" { print $2 }' "$STAGE/.deps")
  done
  rm -f "$STAGE/.deps"
}

# pack OUT: writes the stage as a newc cpio owned by root.
pack() {
  local out="$1"
  (cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out.tmp"
  mv "$out.tmp" "$out"
}

main() {
  [ $# = 3 ] || die "usage: $0 OUT.cpio SSDPROBE KERNEL_DIR"
  local out="$1" ssdprobe="$2" kdir="$3" rel
  [ -x "$ssdprobe" ] || die "not an executable: $ssdprobe"
  [ -s "$kdir/release" ] || die "no kernel in $kdir (run scripts/install-vm-deps)"
  rel=$(cat "$kdir/release")
  kdir=$(cd "$kdir" && pwd -P)

  STAGE=$(mktemp -d "${TMPDIR:-/tmp}/ssdprobe-initramfs.XXXXXX")
  mkdir -p "$STAGE"/{dev,proc,sys,tmp,out,run}
  add_busybox
  add_modules "$kdir" "$rel"
  add_binary "$ssdprobe" bin/ssdprobe
  local tool
  # shellcheck disable=SC2086  # SSDPROBE_VM_TOOLS is a list of names
  for tool in nvme smartctl ${SSDPROBE_VM_TOOLS:-}; do
    if command -v "$tool" >/dev/null 2>&1; then add_binary "$(command -v "$tool")" "bin/$tool"; fi
  done
  install -m 0755 "${SSDPROBE_VM_INIT:-$HERE/guest_init.sh}" "$STAGE/init"
  install -m 0644 "$HERE/guest_lib.sh" "$STAGE/guest_lib.sh"
  pack "$out"
}

main "$@"
