#!/bin/bash
# The recommendations are proven: every recommended command, run on a
# scratch loop device (DISK and PARTITION replaced by its nodes), must build
# a layout that `ssdprobe audit` finds aligned to the same units in every
# layer; and the recommendation for that aligned layout must be "nothing to
# change". Each partitioner (parted, sfdisk, sgdisk) is tried, and each
# filesystem (xfs, ext4, f2fs) and pvcreate/vgcreate on its partition.
# mdadm and lvcreate cannot run here (no md, no device-mapper in this
# kernel): their lines are checked for the chunk and stripe arithmetic only.
#
# Usage: recommend_apply.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
require_cmd jq parted sfdisk sgdisk mkfs.xfs mkfs.ext4 mkfs.f2fs pvcreate vgcreate vgremove pvremove partx wipefs
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Units from a --write run on a simulated drive with a 16 KiB page, a 48 KiB
# write unit and an erase block: the alignment is then not just 1 MiB.
units="$SCRATCH/units.json"
"$SSDPROBE" -q --write --yes --budget 30 --json "$units" sim:nvme-tlc-16k >/dev/null || fail "sim run exited $?"
note "units: page $(jget "$units" .detected.read_page.bytes), write unit $(jget "$units" .detected.write_unit.bytes), erase block $(jget "$units" .detected.erase_block.bytes); alignment $(jget "$units" .recommendations.partition_alignment_bytes)"

file="$SCRATCH/disk.img"
truncate -s 4G "$file"
dev=$(losetup --find --show "$file") || fail "losetup"
echo "$dev" >> "$SCRATCH/.loops"
drop_partitions "$dev"
part="${dev}p1"

recs="$units"  # the document whose recommendations are run
step_command() { jq -r --arg k "$1" '.recommendations.steps[] | select(.key == $k) | .command' "$recs"; }
# The placeholders: DISK, PARTITION, and the volume group VG (a name of our
# own, so the cleanup cannot remove someone else's group called VG).
vg_name="ssdprobe_test_$$"
substituted() { sed -e "s#PARTITION#$part#g" -e "s#DISK#$dev#g" -e "s#\bVG\b#$vg_name#g" <<<"$1"; }

fresh_disk() {
  drop_partitions "$dev"
  wipefs -a -q "$dev" 2>/dev/null
  dd if=/dev/zero of="$dev" bs=1M count=8 status=none conv=fsync
}

# run_step KEY: runs the recommended command KEY on the scratch disk.
run_step() {
  local cmd
  cmd=$(step_command "$1")
  [ -n "$cmd" ] || { bad "no recommended $1 step"; return 1; }
  cmd=$(substituted "$cmd")
  if ! bash -c "$cmd" >"$SCRATCH/$1.log" 2>&1; then
    bad "$1 failed: $cmd: $(tail -3 "$SCRATCH/$1.log")"; return 1
  fi
  # parted tells the kernel itself; sfdisk and sgdisk leave that to partx.
  if [ ! -e "/sys/block/${dev#/dev/}/${part#/dev/}" ] && [ "$(jq -r --arg k "$1" '.recommendations.steps[] | select(.key == $k) | .alternative_group' "$recs")" = partition ]; then
    partx -a "$dev" 2>/dev/null || { bad "partx -a after $1"; return 1; }
  fi
  note "ran  $1: $cmd"
}

# audited_ok WHAT: the audit of the scratch disk against the same units is
# all OK, and its recommendation says so.
audited_ok() {
  local j
  j=$("$SSDPROBE" -q audit "$dev" --units-from "$units" --json -) || { bad "$1: audit exited $?"; return; }
  if [ "$(jq -r .audit.all_ok <<<"$j")" != true ]; then
    bad "$1: audit not all OK: $(jq -c '[.audit.checks[] | select(.ok == false) | {field, message}]' <<<"$j")"
    return
  fi
  local layers verdict
  layers=$(jq -r '[.audit.checks[].field] | join(" ")' <<<"$j")
  verdict=$(jq -r '.recommendations.verdict // empty' <<<"$j")
  [[ "$verdict" == "nothing to change"* ]] || bad "$1: aligned, but the recommendation says: '$verdict'"
  note "ok   $1: every layer aligned ($layers)"
}

for partitioner in parted sfdisk sgdisk; do
  fresh_disk
  run_step "$partitioner" || continue
  audited_ok "$partitioner"
  # Every filesystem alternative, also those of the block size advice
  # (mkfs_xfs_large_block, mkfs_ext4_bigalloc) where they apply here.
  for fs in $(jq -r '.recommendations.steps[] | select(.alternative_group == "filesystem") | .key' "$recs"); do
    run_step "$fs" && audited_ok "$partitioner + $fs"
  done
  wipefs -a -q "$part" 2>/dev/null
  if [ -z "$(step_command pvcreate)" ]; then
    note "no pvcreate step (the drive has no LVM to keep)"
  elif run_step pvcreate; then
    if [ -n "$(step_command vgcreate)" ]; then run_step vgcreate; fi
    audited_ok "$partitioner + pvcreate"
    vgs_name=$(pvs --noheadings -o vg_name "$part" 2>/dev/null | tr -d ' ')
    [ -n "$vgs_name" ] && vgremove -q -f "$vgs_name" >/dev/null 2>&1
    pvremove -q -ff -y "$part" >/dev/null 2>&1
  fi
done

# A disk that already holds an LVM PV (pvcreate's default 1 MiB data
# alignment, short of the 24 MiB this drive wants): the audit's
# recommendations keep LVM (pvcreate --dataalignment, vgcreate), and running
# them gives an aligned PV.
fresh_disk
printf 'label: gpt\nstart=2048, type=linux\n' | sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk"
partx -a "$dev" 2>/dev/null
pvcreate -q -ff -y "$part" >/dev/null 2>&1 || fail "pvcreate"
recs="$SCRATCH/lvm-audit.json"
"$SSDPROBE" -q audit "$dev" --units-from "$units" --json "$recs" >/dev/null || fail "audit of the PV disk exited $?"
pvremove -q -ff -y "$part" >/dev/null 2>&1
jq -e '[.audit.checks[] | select(.field == "partition[1].start")][0].ok == false' "$recs" >/dev/null ||
  bad "a partition at 1 MiB is not flagged against the 24 MiB alignment"
if [ -z "$(step_command pvcreate)" ]; then
  bad "the audit of a PV recommends no pvcreate"
else
  fresh_disk
  if run_step sfdisk && run_step pvcreate; then
    if [ -n "$(step_command vgcreate)" ]; then run_step vgcreate; fi
    audited_ok "sfdisk + pvcreate (kept LVM)"
    vg=$(pvs --noheadings -o vg_name "$part" 2>/dev/null | tr -d ' ')
    [ -n "$vg" ] && vgremove -q -f "$vg" >/dev/null 2>&1
    pvremove -q -ff -y "$part" >/dev/null 2>&1
  fi
fi
recs="$units"

# A misaligned layout is not "nothing to change".
fresh_disk
printf 'label: dos\nstart=63, size=1048576, type=83\n' | sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1
"$SSDPROBE" -q audit "$dev" --units-from "$units" >/dev/null 2>&1; rc=$?
[ "$rc" = 8 ] || bad "audit of the misaligned disk exited $rc, want 8 (an error-severity finding)"
j=$("$SSDPROBE" -q audit --fail-on never "$dev" --units-from "$units" --json -) || bad "audit --fail-on never exited $?"
[ "$(jq -r '.recommendations.verdict // "none"' <<<"$j")" = none ] || bad "misaligned disk got verdict $(jq -r .recommendations.verdict <<<"$j")"

[ "$failures" = 0 ] || fail "$failures checks failed"
echo "PASS"
