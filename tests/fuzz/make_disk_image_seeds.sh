#!/bin/bash
# Makes the disk_image target's seeds (corpus/disk_image/) with the real
# tools, and its crafted regression images (regressions/disk_image/):
#
#   tests/fuzz/make_disk_image_seeds.sh [BUILD_FUZZ]    (as root; default build-fuzz)
#
# Every image is a sparse file: partition tables by sgdisk and sfdisk,
# filesystems by mkfs.* in a file of the partition's size that is then
# copied into place (dd conv=sparse), LVM physical volumes by pvcreate on a
# loop device (root), md member superblocks by fuzz-disk-image-tool (the
# kernel here has no md driver for mdadm --create). The tool then encodes
# each image, keeping only what the audit reads (encode --reduce).
#
# The kernel had no device-mapper either, so logical volumes are put into
# the metadata with vgcfgbackup, an edit and vgcfgrestore (as for
# tests/data/layout/lvm), and a filesystem "on" an LV is made in a file and
# copied to the LV's first extent.
#
# Needs: gdisk (sgdisk), fdisk (sfdisk), lvm2, xfsprogs, e2fsprogs,
# f2fs-tools, btrfs-progs, dosfstools, util-linux (mkswap, losetup).
set -euo pipefail
FUZZ_DIR=$(cd "$(dirname "$0")" && pwd)
BUILD_FUZZ=$(cd "${1:-$FUZZ_DIR/../../build-fuzz}" && pwd)
TOOL=$BUILD_FUZZ/tests/fuzz/fuzz-disk-image-tool
CORPUS=$FUZZ_DIR/corpus/disk_image
REGRESSIONS=$FUZZ_DIR/regressions/disk_image
[ -x "$TOOL" ] || { echo "make_disk_image_seeds: no $TOOL: build it first (ninja -C build-fuzz, after bench/fuzz configured it)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "make_disk_image_seeds: run as root (pvcreate needs a loop device)" >&2; exit 2; }
export ASAN_OPTIONS=detect_leaks=0

WORK=$(mktemp -d /tmp/disk-image-seeds.XXXXXX)
cleanup() {
  local loop
  for loop in $(losetup -n -O NAME,BACK-FILE | awk -v w="$WORK" 'index($2, w) == 1 { print $1 }'); do
    losetup -d "$loop" || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$CORPUS" "$REGRESSIONS"
MiB=1048576

# --- helpers --------------------------------------------------------------------
# A filesystem (or any content) made in FILE, copied to byte START of IMAGE.
place() { dd if="$1" of="$2" bs=64K seek="$3" oflag=seek_bytes conv=sparse,notrunc status=none; }

# mkfs_in FILE SIZE TYPE [mkfs options...]: FILE holds a new filesystem.
mkfs_in() {
  local file=$1 size=$2 type=$3
  shift 3
  rm -f "$file"
  truncate -s "$size" "$file"
  case $type in
    xfs) mkfs.xfs -q -f "$@" "$file" ;;
    ext2|ext3|ext4) "mkfs.$type" -q -F "$@" "$file" ;;
    f2fs) mkfs.f2fs -q -f "$@" "$file" >/dev/null ;;
    btrfs) mkfs.btrfs -q -f "$@" "$file" >/dev/null ;;
    swap) mkswap -q "$@" "$file" >/dev/null ;;
    vfat) mkfs.vfat "$@" "$file" >/dev/null ;;
  esac
}

# lvm CMD DEVICES ARGS...: lvm2 without udev or device-mapper, on DEVICES
# only; its output only when it fails (it warns about the missing
# device-mapper on every command).
lvm_on() {
  local cmd=$1 devices=$2 out
  shift 2
  out=$(lvm "$cmd" --devices "$devices" \
    '--config=activation{udev_sync=0 udev_rules=0} devices{obtain_device_list_from_udev=0} backup{backup=0 archive=0}' \
    "$@" 2>&1) || { echo "$out" >&2; echo "make_disk_image_seeds: lvm $cmd failed" >&2; return 1; }
}

# (attach runs in a subshell: cleanup finds its loops by backing file)
attach() { losetup -f --show "$@"; }
detach() { losetup -d "$1"; }
sgdisk_quiet() { sgdisk "$@" >/dev/null; }  # (sgdisk has no quiet option)
part_sectors() { partx -g -o SECTORS -n "$2" "$1" | tr -d ' '; }  # IMAGE N: partition N's size in sectors

# with_lvs VG DEVICES LV_TEXT: adds the logical_volumes section LV_TEXT to the
# VG's metadata (vgcfgbackup, edit, vgcfgrestore).
with_lvs() {
  local vg=$1 devices=$2 text=$3
  lvm_on vgcfgbackup "$devices" -f "$WORK/$vg.vg" "$vg"
  # The VG's closing brace is the file's last line that is exactly "}".
  local last
  last=$(grep -n '^}$' "$WORK/$vg.vg" | tail -1 | cut -d: -f1)
  { head -n $((last - 1)) "$WORK/$vg.vg"; printf '%s\n' "$text"; tail -n +"$last" "$WORK/$vg.vg"; } >"$WORK/$vg.lvs"
  lvm_on vgcfgrestore "$devices" -f "$WORK/$vg.lvs" "$vg"
}

# pv_file FILE SIZE VG LV_TEXT [pvcreate options]: FILE holds a PV of a new
# one-PV VG with 4 MiB extents and the LVs in LV_TEXT (may be empty).
pv_file() {
  local file=$1 size=$2 vg=$3 text=$4
  shift 4
  rm -f "$file"
  truncate -s "$size" "$file"
  local loop
  loop=$(attach "$file")
  lvm_on pvcreate "$loop" "$@" "$loop"
  lvm_on vgcreate "$loop" -s 4m "$vg" "$loop"
  [ -z "$text" ] || with_lvs "$vg" "$loop" "$text"
  detach "$loop"  # (no vgremove: it would rewrite the metadata just made)
}

# An LV's segment text: lv NAME ID SEGMENTS..., each segment
# "START COUNT STRIPE_SIZE_SECTORS PV:EXTENT[,PV:EXTENT...]".
lv() {
  local name=$1 id=$2
  shift 2
  printf '\t\t%s {\n\t\t\tid = "%s"\n\t\t\tstatus = ["READ", "WRITE", "VISIBLE"]\n\t\t\tflags = []\n\t\t\tsegment_count = %d\n' \
    "$name" "$id" $#
  local n=0 segment
  for segment in "$@"; do
    n=$((n + 1))
    read -r start count stripe pvs <<<"$segment"
    local stripes="" count_of=0 pv
    for pv in ${pvs//,/ }; do
      stripes+="${stripes:+, }\"${pv%%:*}\", ${pv##*:}"
      count_of=$((count_of + 1))
    done
    printf '\t\t\tsegment%d {\n\t\t\t\tstart_extent = %d\n\t\t\t\textent_count = %d\n\t\t\t\ttype = "striped"\n\t\t\t\tstripe_count = %d\n' \
      "$n" "$start" "$count" "$count_of"
    [ "$count_of" -gt 1 ] && printf '\t\t\t\tstripe_size = %d\n' "$stripe"
    printf '\t\t\t\tstripes = [%s]\n\t\t\t}\n' "$stripes"
  done
  printf '\t\t}\n'
}
lvs_section() { printf '\tlogical_volumes {\n%s\n\t}\n' "$*"; }

# encode NAME IMAGE [tool options]: the seed corpus/disk_image/NAME.
encode() {
  local name=$1 image=$2
  shift 2
  "$TOOL" encode "$image" "$CORPUS/$name" --reduce "$@"
}
# regression NAME IMAGE [tool options]: regressions/disk_image/NAME, all of
# the image's non-zero sectors (crafted images are small; nothing reduced).
regression() {
  local name=$1 image=$2
  shift 2
  "$TOOL" encode "$image" "$REGRESSIONS/$name" "$@"
}

cd "$WORK"

# --- GPT ------------------------------------------------------------------------
# sgdisk: a partition at sector 34 (no alignment), xfs with a stripe, ext4 with
# stride and stripe width, a named partition.
truncate -s 2G gpt-sgdisk.img
sgdisk_quiet -a 1 -n 1:34:2047 -t 1:8300 -n 2:2048:+1G -t 2:8300 -c 2:data -n 3:0:0 -t 3:8300 -c 3:home gpt-sgdisk.img
mkfs_in fs 1G xfs -d su=64k,sw=4
place fs gpt-sgdisk.img $((2048 * 512))
mkfs_in fs 512M ext4 -b 4096 -E stride=16,stripe_width=64
place fs gpt-sgdisk.img $((2048 * 512 + 1024 * MiB))
encode gpt-sgdisk-xfs-ext4 gpt-sgdisk.img --read-page 16384 --erase-block 1048576

# sfdisk: f2fs with 2 segments per section, btrfs, swap and vfat, one start
# off the 4 KiB grid.
truncate -s 1G gpt-sfdisk.img
printf 'label: gpt\nstart=2048, size=128M, name=f2fs\nstart=264192, size=256M, name=btrfs\nstart=788481, size=64M, type=S\nstart=921600, size=256M\n' |
  sfdisk -q gpt-sfdisk.img
mkfs_in fs 128M f2fs -s 2
place fs gpt-sfdisk.img $((2048 * 512))
mkfs_in fs 256M btrfs
place fs gpt-sfdisk.img $((264192 * 512))
mkfs_in fs 64M swap
place fs gpt-sfdisk.img $((788481 * 512))
mkfs_in fs 256M vfat -F 32
place fs gpt-sfdisk.img $((921600 * 512))
encode gpt-sfdisk-f2fs-btrfs-swap-vfat gpt-sfdisk.img --read-page 16384 --write-unit 65536 --erase-block 4194304

# A GPT written for 4096-byte sectors (sgdisk on a loop device with 4 KiB
# blocks), read with 4096 and, as a mistake would, with 512.
truncate -s 256M gpt-4k.img
loop=$(attach -b 4096 gpt-4k.img)
sgdisk_quiet -n 1:256:+64M -t 1:8300 -n 2:0:0 -t 2:8200 "$loop"
detach "$loop"
mkfs_in fs 64M ext4 -b 4096
place fs gpt-4k.img $((256 * 4096))
encode gpt-4k-ext4 gpt-4k.img --logical-block 4096 --physical-block 4096
encode gpt-4k-read-as-512 gpt-4k.img

# --- DOS ------------------------------------------------------------------------
# A primary at sector 63 (vfat), an extended partition with a chain of three
# logical ones: ext4 with flex_bg, swap, xfs.
truncate -s 2G dos.img
printf 'label: dos\nstart=63, size=131009, type=c\nstart=131072, type=5\nstart=133120, size=64M, type=83\nstart=264192, size=64M, type=82\nstart=397312, size=1G, type=83\n' |
  sfdisk -q dos.img
mkfs_in fs $((131009 * 512)) vfat
place fs dos.img $((63 * 512))
mkfs_in fs 64M ext4 -b 1024 -G 32
place fs dos.img $((133120 * 512))
mkfs_in fs 64M swap
place fs dos.img $((264192 * 512))
mkfs_in fs 1G xfs
place fs dos.img $((397312 * 512))
encode dos-extended-chain dos.img --erase-block 2097152

# The chain looping: the last EBR links back to the first (and, in the
# second image, the first EBR links to itself). libblkid stops at a repeat.
ebr_link() {  # IMAGE EBR_SECTOR NEW_RELATIVE_START: the second entry's start
  printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($3 & 255)) $((($3 >> 8) & 255)) $((($3 >> 16) & 255)) $((($3 >> 24) & 255)))" |
    dd of="$1" bs=1 seek=$(($2 * 512 + 446 + 16 + 8)) conv=notrunc status=none
}
truncate -s 64M dos-loop.img
printf 'label: dos\nstart=2048, size=8192, type=83\nstart=10240, type=5\nstart=12288, size=8192, type=83\nstart=22528, size=8192, type=83\nstart=32768, size=8192, type=83\n' |
  sfdisk -q dos-loop.img
# The EBRs: the first at the extended partition's start (10240), each
# linking to the next by its second entry's start (relative to 10240).
last_ebr=10240
while link=$(od -An -tu4 -j $((last_ebr * 512 + 446 + 16 + 8)) -N4 dos-loop.img | tr -d ' ') && [ "$link" != 0 ]; do
  last_ebr=$((10240 + link))
done
cp dos-loop.img dos-loop-back.img
ebr_link dos-loop-back.img "$last_ebr" 0
regression dos-extended-loop-to-first dos-loop-back.img
cp dos-loop.img dos-loop-self.img
ebr_link dos-loop-self.img 10240 0
regression dos-extended-loop-to-itself dos-loop-self.img

# A DOS table whose last partition runs past the image's end.
# (sfdisk will not write it: the table is made on a larger image, then cut.)
truncate -s 1G dos-past-end.img
printf 'label: dos\nstart=2048, size=65536, type=83\nstart=67584, size=1000000, type=83\n' | sfdisk -q dos-past-end.img
mkfs_in fs 32M ext4
place fs dos-past-end.img $((67584 * 512))
truncate -s 64M dos-past-end.img
regression dos-partition-past-end dos-past-end.img --reduce

# --- md -------------------------------------------------------------------------
# A GPT partition that is member 0 of a 4-disk raid5 (1.2, 512 KiB chunk),
# xfs inside with the matching stripe (su 512k, sw 3).
truncate -s 2G md-raid5.img
sgdisk_quiet -n 1:2048:0 -t 1:fd00 md-raid5.img
part_bytes=$(( $(part_sectors md-raid5.img 1) * 512 ))
rm -f member
truncate -s "$part_bytes" member
"$TOOL" md-member member --offset 0 --size "$part_bytes" --version 2 --level 5 --raid-disks 4 --role 0 --chunk 524288
place member md-raid5.img $((2048 * 512))
mkfs_in fs 1G xfs -d su=512k,sw=3
place fs md-raid5.img $((2048 * 512 + MiB))
encode md-1.2-raid5-xfs md-raid5.img --read-page 16384 --erase-block 1048576 --repair md

# A whole disk (no table) that is a raid1 member with a 1.0 superblock at its
# end, ext4 at its start with a stride no array asked for.
truncate -s 256M md-raid1.img
mkfs_in md-raid1.img 256M ext4 -b 4096 -E stride=3,stripe_width=6
"$TOOL" md-member md-raid1.img --offset 0 --size $((256 * MiB)) --version 0 --level 1 --raid-disks 2 --role 1
encode md-1.0-raid1-ext4 md-raid1.img

# A DOS partition that is member 1 of a raid0 (1.1, superblock at 0): the
# array's start is on another member.
truncate -s 128M md-raid0.img
printf 'label: dos\nstart=2048, type=fd\n' | sfdisk -q md-raid0.img
"$TOOL" md-member md-raid0.img --offset $((2048 * 512)) --size $(( $(part_sectors md-raid0.img 1) * 512 )) --version 1 --level 0 \
  --raid-disks 2 --role 1 --chunk 65536
encode md-1.1-raid0-role1 md-raid0.img

# --- LVM ------------------------------------------------------------------------
# Two DOS partitions, each a PV of one VG: a striped LV (2 x 64 KiB) across
# both with ext4 on it (stride and width to match), and a linear LV.
truncate -s 600M lvm-striped.img
printf 'label: dos\nstart=2048, size=256M, type=8e\nstart=526336, type=8e\n' | sfdisk -q lvm-striped.img
truncate -s 256M pv0 pv1
loop0=$(attach pv0)
loop1=$(attach pv1)
lvm_on pvcreate "$loop0,$loop1" "$loop0" "$loop1"
lvm_on vgcreate "$loop0,$loop1" -s 4m fuzzstripes "$loop0" "$loop1"
with_lvs fuzzstripes "$loop0,$loop1" "$(lvs_section \
  "$(lv fast FastLV-0000-0000-0000-0000-0000-000001 '0 8 128 pv0:0,pv1:0')" \
  "$(lv data DataLV-0000-0000-0000-0000-0000-000002 '0 4 0 pv0:4' '4 2 0 pv1:4')")"
detach "$loop0"
detach "$loop1"
place pv0 lvm-striped.img $((2048 * 512))
place pv1 lvm-striped.img $((526336 * 512))
mkfs_in fs 32M ext4 -b 4096 -E stride=16,stripe_width=32
place fs lvm-striped.img $((2048 * 512 + MiB))
encode lvm-striped-ext4 lvm-striped.img --read-page 16384 --write-unit 65536 --repair lvm

# md -> LVM -> xfs: a GPT partition, member 0 of a 4-disk raid10 (64 KiB
# chunk); a PV in the array's data area (1 MiB in) with 1 MiB alignment, an
# LV starting at extent 2, xfs on it.
truncate -s 2G md-lvm.img
sgdisk_quiet -n 1:2048:0 -t 1:fd00 md-lvm.img
part_bytes=$(( $(part_sectors md-lvm.img 1) * 512 ))
rm -f member
truncate -s "$part_bytes" member
"$TOOL" md-member member --offset 0 --size "$part_bytes" --version 2 --level 10 --raid-disks 4 --role 0 --chunk 65536
place member md-lvm.img $((2048 * 512))
pv_file pv $((part_bytes - MiB)) fuzzmdvg "$(lvs_section "$(lv data DataLV-0000-0000-0000-0000-0000-000003 '0 300 0 pv0:2')")"
place pv md-lvm.img $((2048 * 512 + MiB))
mkfs_in fs 1G xfs -d su=64k,sw=2
place fs md-lvm.img $((2048 * 512 + MiB + MiB + 2 * 4 * MiB))
encode md-1.2-raid10-lvm-xfs md-lvm.img --read-page 16384 --repair md,lvm

# The other order: an md raid1 member at the start of an LV (extent 2 of a
# whole-disk PV), ext4 in the array. The reader names it and stops there
# (its stacks compose partition -> md -> LVM -> filesystem only).
pv_file md-on-lv.img 512M fuzzlvvg "$(lvs_section "$(lv data DataLV-0000-0000-0000-0000-0000-000009 '0 64 0 pv0:2')")"
"$TOOL" md-member md-on-lv.img --offset $((9 * MiB)) --size $((256 * MiB)) --version 2 --level 1 --raid-disks 2 --role 0
mkfs_in fs 64M ext4
place fs md-on-lv.img $((10 * MiB))
regression md-array-on-lvm-volume md-on-lv.img --reduce

# A PV on the whole disk with a 192 KiB data alignment and no LV (a VG only).
pv_file lvm-pv.img 64M fuzzpvvg "" --dataalignment 192k
encode lvm-pv-align192k lvm-pv.img --read-page 16384 --erase-block 1048576

# --- each filesystem on a whole disk -------------------------------------------
mkfs_in whole.img 1G xfs -d su=32k,sw=2 -s size=4096
encode fs-xfs-su32k-sect4k whole.img --logical-block 4096 --physical-block 4096
mkfs_in whole.img 64M ext2 -b 2048
encode fs-ext2 whole.img
mkfs_in whole.img 64M ext3 -b 4096 -E stride=4,stripe_width=16
encode fs-ext3-stride whole.img --read-page 8192
mkfs_in whole.img 64M ext4 -b 4096 -G 16 -E stride=32,stripe_width=128
encode fs-ext4-flexbg16 whole.img --read-page 16384 --write-unit 131072
mkfs_in whole.img 128M f2fs -s 4
encode fs-f2fs-4segs whole.img --erase-block 8388608
mkfs_in whole.img 256M btrfs -n 32768 -s 4096
encode fs-btrfs-node32k whole.img --read-page 16384
mkfs_in whole.img 64M swap -p 16384
encode fs-swap-16k-page whole.img
mkfs_in whole.img 256M vfat -F 32
encode fs-vfat32 whole.img

# --- crafted GPT regressions -----------------------------------------------------
# From one sgdisk image with three partitions: each edit is followed by
# fix-gpt (valid CRCs) unless the CRC is the point.
truncate -s 64M gpt.img
sgdisk_quiet -n 1:2048:+16M -n 2:0:+16M -n 3:0:0 gpt.img
le32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)))"; }
le64() { le32 $(($1 & 0xffffffff)); le32 $(($1 >> 32)); }
patch() { dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }  # IMAGE OFFSET < bytes
backup=$((64 * MiB - 512))

crafted() {  # NAME EDIT...: a copy of gpt.img edited by the commands after it
  local name=$1
  shift
  cp gpt.img "$name.img"
  "$@"
}
both_headers() { local field=$1; shift; "$@" | patch "$IMG" $((512 + field)); "$@" | patch "$IMG" $((backup + field)); }

IMG=gpt-count-max.img; crafted gpt-count-max both_headers 80 le32 0xffffffff; "$TOOL" fix-gpt "$IMG"
regression gpt-entry-count-2e32-1 "$IMG"
IMG=gpt-count-4g.img; crafted gpt-count-4g both_headers 80 le32 33554431; "$TOOL" fix-gpt "$IMG"
regression gpt-entry-array-just-under-4g "$IMG"
# The same count on an 8 GiB image, where the array fits: libblkid would
# read 4 GiB (blkid_probe.h: ssdprobe does not run it there).
IMG=gpt-count-4g-8g.img; truncate -s 8G "$IMG"; sgdisk_quiet -n 1:2048:+16M "$IMG"
le32 33554431 | patch "$IMG" $((512 + 80)); le32 33554431 | patch "$IMG" $((8192 * MiB - 512 + 80)); "$TOOL" fix-gpt "$IMG"
regression gpt-entry-array-just-under-4g-on-8g-disk "$IMG"
IMG=gpt-entry-size.img; crafted gpt-entry-size both_headers 84 le32 0xffffffff; "$TOOL" fix-gpt "$IMG"
regression gpt-entry-size-2e32-1 "$IMG"
IMG=gpt-entry-size-4k.img; crafted gpt-entry-size-4k both_headers 84 le32 4096; "$TOOL" fix-gpt "$IMG"
regression gpt-entry-size-4096 "$IMG"
# Entry 2 starting inside entry 1 (sector 4096); entry 3 ending past the
# last usable LBA and past the disk's end (libblkid leaves such an entry out).
IMG=gpt-overlap.img; crafted gpt-overlap true
le64 4096 | patch "$IMG" $((1024 + 128 + 32)); le64 4096 | patch "$IMG" $((backup - 32 * 512 + 128 + 32))
"$TOOL" fix-gpt "$IMG"
regression gpt-overlapping-entries "$IMG"
IMG=gpt-past-end.img; crafted gpt-past-end true
le64 $((1 << 40)) | patch "$IMG" $((1024 + 256 + 40)); le64 $((1 << 40)) | patch "$IMG" $((backup - 32 * 512 + 256 + 40))
"$TOOL" fix-gpt "$IMG"
regression gpt-entry-past-disk-end "$IMG"
# Usable LBAs claimed to the end of a 2 TiB disk on this 64 MiB one.
IMG=gpt-usable.img; crafted gpt-usable both_headers 48 le64 $(( (1 << 32) - 34 )); "$TOOL" fix-gpt "$IMG"
regression gpt-last-usable-past-end "$IMG"
# Bad CRCs: the primary header's (the backup is used), the primary entry
# array's, and both headers' (no table: libblkid names only the PMBR).
IMG=gpt-bad-header.img; crafted gpt-bad-header true; le32 0x12345678 | patch "$IMG" $((512 + 16))
regression gpt-bad-primary-header-crc "$IMG"
IMG=gpt-bad-entries.img; crafted gpt-bad-entries true; printf 'X' | patch "$IMG" $((1024 + 56))
regression gpt-bad-entry-array-crc "$IMG"
IMG=gpt-bad-both.img; crafted gpt-bad-both both_headers 16 le32 0x12345678
regression gpt-bad-both-header-crcs "$IMG"
# The same bad header with the target's GPT repair: the fuzzer's view.
regression gpt-bad-both-header-crcs-repaired "$IMG" --repair gpt
# A GPT on an image cut to half its size: the backup header is gone and the
# primary claims usable LBAs past the end.
IMG=gpt-cut.img; cp gpt.img "$IMG"; truncate -s 32M "$IMG"
regression gpt-image-cut-in-half "$IMG"

echo "make_disk_image_seeds: $(ls "$CORPUS" | wc -l) seeds in $CORPUS, $(ls "$REGRESSIONS" | wc -l) regression inputs in $REGRESSIONS"
du -sh "$CORPUS" "$REGRESSIONS"
