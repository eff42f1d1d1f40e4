#!/bin/bash
# The seed articles' misaligned layouts, built with the real tools on loop
# devices over files this test creates, must each be named by
# `ssdprobe audit` with the right field; an aligned layout must come out
# "nothing to change".
#
# Cases: MBR partition at sector 63 (DOS/XP), at sector 3 (1536 B), GPT
# partition at sector 34, pvcreate --dataalignment 192k, an ext4 whose
# stride does not match the md chunk under it (md superblock built from the
# format by make-md-member: the kernel here has no md), xfs su=12k checked
# against a 16 KiB page measured earlier (--units-from), a kernel partition
# that disagrees with the table, and --at.
#
# Usage: audit_seeds.sh SSDPROBE MAKE_MD_MEMBER
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$1"
MAKE_MD="${2:-}"
require_executable "$MAKE_MD"
require_cmd jq sfdisk sgdisk pvcreate pvremove mkfs.xfs mkfs.ext4 addpart delpart
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

audit_json() { "$SSDPROBE" -q audit --fail-on never "$@" --json - ; }

# expect_check JSON FIELD OK [JQ-CONDITION]: the audit has a check FIELD with
# ok = OK (and the extra condition on it holds).
expect_check() {
  local json="$1" field="$2" ok="$3" cond="${4:-true}"
  local got
  got=$(jq -c --arg f "$field" '.audit.checks[] | select(.field == $f)' <<<"$json")
  if [ -z "$got" ]; then bad "$field: no such check (checks: $(jq -c '[.audit.checks[].field]' <<<"$json"))"; return; fi
  if [ "$(jq -r .ok <<<"$got")" != "$ok" ]; then bad "$field: ok=$(jq -r .ok <<<"$got"), want $ok: $got"; return; fi
  if [ "$(jq -r "$cond" <<<"$got")" != true ]; then bad "$field: $cond does not hold: $got"; return; fi
  if [ "$ok" = false ] && ! jq -e --arg f "$field" 'any(.mismatches[]; .field == $f)' <<<"$json" >/dev/null; then
    bad "$field: not among mismatches[]"; return
  fi
  note "ok   $field ok=$ok: $(jq -r .message <<<"$got")"
}

# 1. MBR at sector 63 and at sector 3, and an aligned partition beside them.
dev=$(sparse_loop 256M)
printf 'label: dos\nstart=3, size=56, type=83\nstart=63, size=65536, type=83\nstart=262144, size=65536, type=83\n' |
  sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>"$SCRATCH/sfdisk.err" || { cat "$SCRATCH/sfdisk.err"; fail "sfdisk"; }
j=$(audit_json "$dev") || fail "audit of the DOS disk exited $?"
expect_check "$j" "partition[1].start" false '.legacy_case | test("1536 B")'
expect_check "$j" "partition[2].start" false '(.legacy_case | test("sector 63")) and .severity == "error" and .misses[0].remainder_bytes == 3584'
expect_check "$j" "partition[3].start" true
[ "$(jq -r .audit.partition_table.scheme <<<"$j")" = dos ] || bad "partition table scheme not dos"
"$SSDPROBE" -q audit "$dev" | grep -q 'sector 63' || bad "the text report does not name sector 63"

# The kernel's partition 2 placed where the table does not say.
addpart "$dev" 2 2048 65536 || fail "addpart"
j=$(audit_json "$dev") || fail "audit exited $?"
expect_check "$j" "partition[2].kernel_start" false '.severity == "error" and .suggested_bytes == 32256'
delpart "$dev" 2

# --at: any offset judged the same way.
j=$(audit_json "$dev" --at 32256,1M) || fail "audit --at exited $?"
[ "$(jq -r '.audit.at[0].ok, .audit.at[1].ok' <<<"$j" | tr '\n' ' ')" = "false true " ] || bad "--at 32256,1M: $(jq -c .audit.at <<<"$j")"
"$SSDPROBE" -q audit "$dev" --at 12x >/dev/null 2>"$SCRATCH/at.err"; rc=$?
[ "$rc" = 2 ] && grep -q "invalid --at item '12x'" "$SCRATCH/at.err" || bad "--at 12x: exit $rc, $(cat "$SCRATCH/at.err")"

# 2. GPT partition at sector 34 (sgdisk -a 1 allows it).
dev=$(sparse_loop 64M)
sgdisk -a 1 -n 1:34:+8M "$dev" >/dev/null 2>&1 || fail "sgdisk"
j=$(audit_json "$dev") || fail "audit of the GPT disk exited $?"
expect_check "$j" "partition[1].start" false '(.legacy_case | test("sector 34")) and .severity == "error"'

# 3. pvcreate --dataalignment 192k on a partition at 1 MiB.
dev=$(sparse_loop 256M)
printf 'label: gpt\nstart=2048, size=262144, type=linux\n' | sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk gpt"
addpart "$dev" 1 2048 262144 || fail "addpart"
pvcreate -q --dataalignment 192k "${dev}p1" >/dev/null 2>&1 || fail "pvcreate"
j=$(audit_json "$dev") || fail "audit of the LVM disk exited $?"
pvremove -q -ff -y "${dev}p1" >/dev/null 2>&1
pe=$(jq -r '.audit.stacks[0].lvm.pe_start_bytes' <<<"$j")
[ "$pe" = $((1152 * 1024)) ] || bad "lvm pe_start_bytes = $pe, want 1179648 (pvs shows 1.12m)"
expect_check "$j" "partition[1].lvm.pe_start" false '.disk_offset == 2228224 and (.misses | map(.unit) | index("1 MiB") != null)'

# 4. md raid5 member (4 disks, 64 KiB chunk) with an ext4 whose stride says 16 KiB.
dev=$(sparse_loop 256M)
"$MAKE_MD" "$dev" --level 5 --raid-disks 4 --chunk 65536 --data-offset 1048576 --role 0 || fail "make-md-member"
inner=$(losetup --find --show --offset 1048576 --sizelimit $((128 << 20)) "$dev") || fail "losetup --offset"
echo "$inner" >> "$SCRATCH/.loops"
mkfs.ext4 -q -F -b 4096 -E stride=4,stripe_width=12 "$inner" >/dev/null 2>&1 || fail "mkfs.ext4"
losetup -d "$inner"
j=$(audit_json "$dev") || fail "audit of the md member exited $?"
[ "$(jq -r '.audit.stacks[0].md.chunk_bytes' <<<"$j")" = 65536 ] || bad "md chunk not read: $(jq -c .audit.stacks[0].md <<<"$j")"
expect_check "$j" "ext4.stride" false '.suggested_bytes == 65536'
expect_check "$j" "ext4.stripe_width" false '.suggested_bytes == 196608'
expect_check "$j" "md.data_offset" true

# 5. A stack: partition at 1 MiB -> md raid1 member (data offset 2 MiB) ->
# LVM PV (pe_start 1 MiB) -> offsets compose to 4 MiB on the disk.
dev=$(sparse_loop 512M)
printf 'label: gpt\nstart=2048, size=524288, type=linux\n' | sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk"
addpart "$dev" 1 2048 524288 || fail "addpart"
"$MAKE_MD" "${dev}p1" --level 1 --raid-disks 2 --chunk 0 --data-offset 2097152 --role 0 || fail "make-md-member on the partition"
inner=$(losetup --find --show --offset $((3 << 20)) --sizelimit $((200 << 20)) "$dev") || fail "losetup --offset"
echo "$inner" >> "$SCRATCH/.loops"
pvcreate -q -ff -y "$inner" >/dev/null 2>&1 || fail "pvcreate inside the md data area"
j=$(audit_json "$dev") || fail "audit of the stack exited $?"
pvremove -q -ff -y "$inner" >/dev/null 2>&1
losetup -d "$inner"
expect_check "$j" "partition[1].md.data_offset" true '.disk_offset == 3145728'
expect_check "$j" "partition[1].lvm.pe_start" true '.disk_offset == 4194304'

# 6. xfs su=12k against a 16 KiB page measured earlier, and an aligned stack.
"$SSDPROBE" -q --budget 20 --json "$SCRATCH/page16k.json" sim:nvme-tlc-16k >/dev/null || fail "sim run"
[ "$(jq -r .detected.read_page.bytes "$SCRATCH/page16k.json")" = 16384 ] || fail "the sim run found no 16 KiB page"
# xfs wants >= 300 MB, and with su=12k a 64 MiB log on a 4 KiB log stripe
# unit, which needs allocation groups larger than a 512 MiB disk gives.
dev=$(sparse_loop 2G)
printf 'label: gpt\nstart=2048, size=3145728, type=linux\n' | sfdisk --no-reread --no-tell-kernel -q "$dev" >/dev/null 2>&1 || fail "sfdisk"
addpart "$dev" 1 2048 3145728 || fail "addpart"
mkfs.xfs -q -f -d su=12k,sw=1 -l su=4096,size=64m "${dev}p1" >/dev/null 2>&1 || fail "mkfs.xfs su=12k"
j=$(audit_json "$dev" --units-from "$SCRATCH/page16k.json") || fail "audit --units-from exited $?"
expect_check "$j" "partition[1].xfs.sunit" false '.misses[0].unit == "read page" and .misses[0].remainder_bytes == 12288'
expect_check "$j" "partition[1].start" true
mkfs.xfs -q -f "${dev}p1" >/dev/null 2>&1 || fail "mkfs.xfs"
j=$(audit_json "$dev" --units-from "$SCRATCH/page16k.json") || fail "audit exited $?"
[ "$(jq -r .audit.all_ok <<<"$j")" = true ] || bad "aligned GPT + xfs not all OK: $(jq -c '[.audit.checks[] | select(.ok == false)]' <<<"$j")"
"$SSDPROBE" -q audit "$dev" --units-from "$SCRATCH/page16k.json" | grep -q 'nothing to change' || bad "no 'nothing to change' line"
"$SSDPROBE" -q audit "$dev" --units-from /nonexistent.json >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || bad "--units-from a missing file: exit $rc, want 2"
"$SSDPROBE" -q audit sim:nvme-tlc-16k >/dev/null 2>&1; rc=$?
[ "$rc" = 3 ] || bad "audit of a simulated drive: exit $rc, want 3"

# 7. An md raid0 member whose 8 KiB chunk splits the drive's 16 KiB page.
dev=$(sparse_loop 64M)
"$MAKE_MD" "$dev" --level 0 --raid-disks 2 --chunk 8192 --data-offset 1048576 --role 0 || fail "make-md-member"
j=$(audit_json "$dev" --units-from "$SCRATCH/page16k.json") || fail "audit of the raid0 member exited $?"
expect_check "$j" "md.chunk" false '.severity == "warning" and .misses[0].unit == "read page"'

[ "$failures" = 0 ] || fail "$failures checks failed"
echo "PASS"
