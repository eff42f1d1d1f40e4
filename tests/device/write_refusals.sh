#!/bin/bash
# Tests that --write refuses (exit 7, naming the holder, nothing written) a loop device with a mounted ext4 (disk and partition targets), swap, a device-mapper holder, an O_EXCL holder, a journal directory on the target, and a missing confirmation; that a full journal directory stops it before any write; that a sibling partition of a mounted one can be written and restored; and that --yes/--no-preserve without --write are usage errors.
#
# Usage: write_refusals.sh SSDPROBE
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd jq b2sum mkfs.ext4 e2fsck mount umount python3 partx
require_root_loop_fuse

MIB=$((1 << 20))
J="$SCRATCH/j"
mkdir -p "$J"

# Mounts, swaps, dm devices and holder processes of this test, undone before
# lib.sh detaches the loop devices.
MOUNTS=() SWAPS=() DMS=() HOLDERS=() PARTED=()
teardown() {
  local rc=$? x
  set +e
  for x in "${HOLDERS[@]}"; do kill "$x" 2>/dev/null; wait "$x" 2>/dev/null; done
  for x in "${MOUNTS[@]}"; do mountpoint -q "$x" && umount "$x"; done
  for x in "${SWAPS[@]}"; do swapoff "$x" 2>/dev/null; done
  for x in "${DMS[@]}"; do dmsetup remove "$x" 2>/dev/null; done
  for x in "${PARTED[@]}"; do partx -d "$x" 2>/dev/null; done
  (exit "$rc")
  cleanup
}
trap teardown EXIT


failures=0
n=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect CODE NEEDLE DEV ARGS...: runs ssdprobe ARGS with stdin /dev/null and
# checks the exit code, that the output mentions NEEDLE, that DEV's content
# is unchanged (DEV may be "" for none) and that no journal was left.
expect() {
  local want="$1" needle="$2" dev="$3"; shift 3
  n=$((n + 1))
  local out="$SCRATCH/out-$n.txt" before="" rc problems=""
  [ -n "$dev" ] && before=$(dev_hash "$dev")
  "$SSDPROBE" "$@" < /dev/null > "$out" 2>&1
  rc=$?
  [ "$rc" = "$want" ] || problems+=" exit $rc, want $want;"
  [ -n "$needle" ] && ! grep -qF -- "$needle" "$out" && problems+=" message lacks '$needle';"
  [ -n "$dev" ] && [ "$(dev_hash "$dev")" != "$before" ] && problems+=" THE CONTENT OF $dev CHANGED;"
  [ -z "$(journals)" ] || { problems+=" journal left: $(journals);"; rm -f "$J"/*.ssdpj; }
  if [ -z "$problems" ]; then
    note "ok   exit $rc: ssdprobe $*: $(grep -m 1 'error' "$out")"
  else
    bad "ssdprobe $*:$problems output: $(tail -n 3 "$out")"
  fi
}

# le32 N: N as 4 little-endian bytes (printf escapes).
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }

# mbr FILE START1 SECTORS1 START2 SECTORS2: an MBR with two Linux partitions
# (512-byte sectors).
mbr() {
  local f="$1" entry
  dd if=/dev/zero of="$f" bs=512 count=1 conv=notrunc status=none
  for entry in "0 $2 $3" "1 $4 $5"; do
    set -- $entry
    printf "\\x00\\x00\\x00\\x00\\x83\\x00\\x00\\x00$(le32 "$2")$(le32 "$3")" |
      dd of="$f" bs=1 seek=$((446 + 16 * $1)) conv=notrunc status=none
  done
  printf '\x55\xaa' | dd of="$f" bs=1 seek=510 conv=notrunc status=none
}

# ---------------------------------------------------------------------------
# 1. A whole disk with a mounted ext4.

img="$SCRATCH/ext4.img"
random_file "$img" $((64 * MIB))
DEV=$(make_loop "$img" 512) || exit 1
mkfs.ext4 -q -F "$DEV" || fail "mkfs.ext4 $DEV failed"
mnt="$SCRATCH/mnt-ext4"
mkdir -p "$mnt"
mount "$DEV" "$mnt" || fail "cannot mount $DEV"
MOUNTS+=("$mnt")
head -c $((3 * MIB)) /dev/urandom > "$mnt/data"
sync
data_sum=$(b2sum < "$mnt/data")

expect 7 "mounted at $mnt" "" --write --yes --journal "$J" --budget 5 "$DEV"
expect 7 "mounted at $mnt" "" --write --yes --no-preserve --budget 5 "$DEV"
expect 7 "mounted at $mnt" "" --write --yes --journal "$J" --budget 5 --region 16M:16M "$DEV"

umount "$mnt" || fail "cannot unmount $mnt"
e2fsck -fn "$DEV" > "$SCRATCH/fsck.txt" 2>&1 || bad "e2fsck -fn $DEV after the refused runs: $(tail -n 5 "$SCRATCH/fsck.txt")"
mount -o ro "$DEV" "$mnt" || fail "cannot mount $DEV again"
[ "$(b2sum < "$mnt/data")" = "$data_sum" ] || bad "the file on the refused filesystem changed"
umount "$mnt"
note "ext4 on $DEV: fsck clean, file intact"

# ---------------------------------------------------------------------------
# 2. Confirmation: without --yes and without a terminal, and a terminal
#    answering anything but "yes".

expect 7 "--yes" "$DEV" --write --journal "$J" --budget 5 "$DEV"
expect 7 "--yes" "$DEV" --write --no-preserve --budget 5 "$DEV"
# A refusal leaves nothing behind: the journal directories the run created
# before it was refused (not confirmed; a journal directory in RAM) are gone.
expect 7 "--yes" "$DEV" --write --journal "$SCRATCH/made/by/run" --budget 5 "$DEV"
[ ! -e "$SCRATCH/made" ] || bad "the unconfirmed run left $(find "$SCRATCH/made" | tr '\n' ' ')"
shm="/dev/shm/ssdprobe-refusal-$$"
if [ -d /dev/shm ] && [ ! -e "$shm" ]; then
  expect 7 "is in RAM" "$DEV" --write --yes --journal "$shm/journal" --budget 5 "$DEV"
  [ ! -e "$shm" ] || { bad "the run refused for a journal in RAM left $shm"; rm -rf "$shm"; }
fi
if command -v script > /dev/null 2>&1; then
  for answer in no y YES; do
    n=$((n + 1))
    before=$(dev_hash "$DEV")
    printf '%s\n' "$answer" | script -qec "'$SSDPROBE' --write --journal '$J' --budget 5 '$DEV'" /dev/null \
      > "$SCRATCH/out-$n.txt" 2>&1
    rc=$?
    if [ "$rc" = 7 ] && grep -q "not confirmed" "$SCRATCH/out-$n.txt" && [ "$(dev_hash "$DEV")" = "$before" ] &&
       [ -z "$(journals)" ]; then
      note "ok   exit 7: answering '$answer' on a terminal"
    else
      bad "answering '$answer' on a terminal: exit $rc: $(tail -n 3 "$SCRATCH/out-$n.txt")"
    fi
  done
else
  note "skip terminal confirmation: no script(1)"
fi

# ---------------------------------------------------------------------------
# 3. Options that need --write.

expect 2 "--write" "" --yes --budget 1 "$DEV"
expect 2 "--write" "" --no-preserve --budget 1 "$DEV"
expect 2 "--write" "" --yes --no-preserve --budget 1 "$DEV"

# ---------------------------------------------------------------------------
# 4. Swap.

swapimg="$SCRATCH/swap.img"
random_file "$swapimg" $((64 * MIB))
SWAPDEV=$(make_loop "$swapimg" 4096) || exit 1
mkswap "$SWAPDEV" > /dev/null 2>&1 || fail "mkswap $SWAPDEV failed"
if swapon "$SWAPDEV" 2> "$SCRATCH/swapon.txt"; then
  SWAPS+=("$SWAPDEV")
  expect 7 "in use as swap" "" --write --yes --journal "$J" --budget 5 "$SWAPDEV"
  swapoff "$SWAPDEV" || bad "swapoff $SWAPDEV failed"
else
  note "skip swap case: swapon $SWAPDEV failed: $(cat "$SCRATCH/swapon.txt")"
fi

# ---------------------------------------------------------------------------
# 5. Holders: a device-mapper target on the loop device (sysfs holders/) and
#    a process holding it with O_EXCL (only the kernel knows).

holdimg="$SCRATCH/hold.img"
random_file "$holdimg" $((64 * MIB))
HOLDDEV=$(make_loop "$holdimg" 512) || exit 1
dmname="ssdprobe-test-$$"
if command -v dmsetup > /dev/null 2>&1 &&
   dmsetup create "$dmname" --table "0 $((32 * MIB / 512)) linear $HOLDDEV 0" 2> "$SCRATCH/dmsetup.txt"; then
  DMS+=("$dmname")
  dm=$(basename "$(readlink -f "/dev/mapper/$dmname")")
  expect 7 "held by $dm" "$HOLDDEV" --write --yes --journal "$J" --budget 5 "$HOLDDEV"
  dmsetup remove "$dmname" || bad "dmsetup remove $dmname failed"
else
  note "skip device-mapper holder: $(head -n 1 "$SCRATCH/dmsetup.txt" 2>/dev/null || echo 'no dmsetup')"
fi

python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(120)' "$HOLDDEV" > "$SCRATCH/holder.txt" 2>&1 &
HOLDERS+=("$!")
for _ in $(seq 50); do grep -q held "$SCRATCH/holder.txt" && break; sleep 0.1; done
grep -q held "$SCRATCH/holder.txt" || fail "could not hold $HOLDDEV with O_EXCL: $(cat "$SCRATCH/holder.txt")"
expect 7 "busy" "$HOLDDEV" --write --yes --journal "$J" --budget 5 "$HOLDDEV"
kill "${HOLDERS[0]}"; wait "${HOLDERS[0]}" 2>/dev/null

# ---------------------------------------------------------------------------
# 6. The journal directory on the target.

# A regular file target whose journal directory is on the same filesystem.
file="$SCRATCH/target.img"
random_file "$file" $((64 * MIB))
expect 7 "journal directory" "$file" --write --yes --journal "$J" --budget 5 "$file"

# A journal directory too small for the window (a 16 MiB tmpfs, accepted
# with --allow-ram-journal, and a 48 MiB window): the run must be refused
# before it writes anything, journal included.
small="$SCRATCH/small-journal"
mkdir -p "$small"
if mount -t tmpfs -o size=16M tmpfs "$small" 2> "$SCRATCH/tmpfs.txt"; then
  MOUNTS+=("$small")
  n=$((n + 1))
  before=$(dev_hash "$file")
  "$SSDPROBE" --write --yes --journal "$small" --allow-ram-journal --budget 3 --region 8M:48M "$file" < /dev/null \
    > "$SCRATCH/out-$n.txt" 2>&1
  rc=$?
  if [ "$rc" = 7 ] && grep -q "bytes free but the journal needs" "$SCRATCH/out-$n.txt" &&
     [ "$(dev_hash "$file")" = "$before" ] &&
     [ -z "$(ls -A "$small")" ]; then
    note "ok   exit $rc: journal directory too small: $(grep -m 1 error "$SCRATCH/out-$n.txt")"
  else
    bad "journal directory too small: exit $rc, left: '$(ls -A "$small")': $(tail -n 2 "$SCRATCH/out-$n.txt")"
  fi
  umount "$small"
else
  note "skip small journal directory: cannot mount a tmpfs: $(cat "$SCRATCH/tmpfs.txt")"
fi

# A partitioned disk: ext4 on p1 (mounted, holding the journal directory),
# p2 unused. The disk and p1 are refused for the mount; p2 is refused while
# its journal directory is on p1 (the same disk), and with the journal
# elsewhere p2 is written, restored, and p1's filesystem is untouched.
partimg="$SCRATCH/parted.img"
random_file "$partimg" $((64 * MIB))
mbr "$partimg" 2048 $((24 * 2048)) $((25 * 2048)) $((38 * 2048))
PDEV=$(make_loop "$partimg" 512) || exit 1
# partx adds the partitions with BLKPG: the kernel may lack the MBR parser
# that `losetup --partscan` would need.
partx -a "$PDEV" 2> "$SCRATCH/partx.txt" || fail "partx -a $PDEV failed: $(cat "$SCRATCH/partx.txt")"
PARTED+=("$PDEV")
for _ in $(seq 50); do [ -b "${PDEV}p2" ] && break; sleep 0.1; done
[ -b "${PDEV}p1" ] && [ -b "${PDEV}p2" ] || fail "no partitions ${PDEV}p1/p2 after partx -a"
mkfs.ext4 -q -F "${PDEV}p1" || fail "mkfs.ext4 ${PDEV}p1 failed"
pmnt="$SCRATCH/mnt-p1"
mkdir -p "$pmnt"
mount "${PDEV}p1" "$pmnt" || fail "cannot mount ${PDEV}p1"
MOUNTS+=("$pmnt")
head -c $((2 * MIB)) /dev/urandom > "$pmnt/data"
mkdir -p "$pmnt/journal"
sync
pdata_sum=$(b2sum < "$pmnt/data")

expect 7 "mounted at $pmnt" "" --write --yes --journal "$J" --budget 5 "$PDEV"
expect 7 "mounted at $pmnt" "" --write --yes --journal "$J" --budget 5 "${PDEV}p1"
expect 7 "journal directory $pmnt/journal is on the device being written" "${PDEV}p2" \
  --write --yes --journal "$pmnt/journal" --budget 5 "${PDEV}p2"
[ -z "$(find "$pmnt/journal" -name '*.ssdpj')" ] || bad "a journal was created on the target's own disk"

n=$((n + 1))
p2_before=$(dev_hash "${PDEV}p2")
"$SSDPROBE" --write --yes --journal "$J" --budget 3 --json "$SCRATCH/p2.json" "${PDEV}p2" < /dev/null > "$SCRATCH/out-$n.txt" 2>&1
rc=$?
if [ "$rc" = 0 ] && [ "$(jget "$SCRATCH/p2.json" .write_probe.restored)" = true ] &&
   [ "$(dev_hash "${PDEV}p2")" = "$p2_before" ] && [ -z "$(journals)" ]; then
  note "ok   ${PDEV}p2 (sibling of a mounted partition) written and restored: $(jq -c .write_probe.region "$SCRATCH/p2.json")"
else
  bad "--write on ${PDEV}p2 beside a mounted p1: exit $rc, restored $(jget "$SCRATCH/p2.json" .write_probe.restored 2>/dev/null): $(tail -n 3 "$SCRATCH/out-$n.txt")"
fi
umount "$pmnt" || fail "cannot unmount $pmnt"
e2fsck -fn "${PDEV}p1" > "$SCRATCH/fsck-p1.txt" 2>&1 || bad "e2fsck -fn ${PDEV}p1: $(tail -n 5 "$SCRATCH/fsck-p1.txt")"
mount -o ro "${PDEV}p1" "$pmnt" || fail "cannot mount ${PDEV}p1 again"
[ "$(b2sum < "$pmnt/data")" = "$pdata_sum" ] || bad "the file on ${PDEV}p1 changed"
umount "$pmnt"

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
