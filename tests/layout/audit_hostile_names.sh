#!/bin/bash
# The audit's fixes on images whose path and md array name were made to run
# commands of their own. For each image, `ssdprobe audit IMAGE --json -`
# gives fix commands (audit.checks[].fix[].command, and the verdict's first
# action); each fix's steps are then run in order by one sh, as a person
# pastes them, with stand-in tools on PATH that record the arguments they
# get. Checked:
#  - the disk image "my disk $(touch PWNED)'s.img" reaches losetup as one
#    argument, byte for byte; the steps after it name the loop device
#    losetup printed (sfdisk and partx get it), and sfdisk's script arrives
#    on its input;
#  - an md array named "x;touch$IFS../PWNED;:" is never pasted: mdadm gets the
#    placeholder /dev/mdN, and the step says why;
#  - no command of a name's own ran (no PWNED file anywhere).
# Image files only: no root, no loop device.
#
# Usage: audit_hostile_names.sh SSDPROBE MAKE_MD_MEMBER
set -u
SSDPROBE="${1:-}" MAKE_MD="${2:-}"
[ -x "$SSDPROBE" ] && [ -x "$MAKE_MD" ] || { echo "FAIL: usage: $0 SSDPROBE MAKE_MD_MEMBER" >&2; exit 1; }
for tool in jq sfdisk; do
  command -v "$tool" > /dev/null || PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" > /dev/null ||
    { echo "SKIP: $tool not installed"; exit 77; }
done
export PATH="$PATH:/usr/sbin:/sbin"
T=$(mktemp -d) || exit 1
trap 'rm -rf -- "$T"' EXIT
cd "$T" || exit 1
failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Stand-ins that record each call: "== TOOL", "<ARG>" per argument, "stdin: LINE".
mkdir bin
# (losetup --show prints the loop device it attached: /dev/loop99.)
for tool in sfdisk partx e2fsck xfs_repair mdadm ssdprobe losetup; do
  cat > "bin/$tool" <<'EOF'
#!/bin/sh
{ echo "== ${0##*/}"; for a; do printf '<%s>\n' "$a"; done; sed 's/^/stdin: /'; } >> "$CALLS"
case "${0##*/} $*" in "losetup "*--show*) echo /dev/loop99 ;; esac
EOF
  chmod +x "bin/$tool"
done
# run_fixes JSON: the steps of every fix, in order, by one sh (set -e), and
# the verdict's first command by another, each from an empty directory with
# the stand-ins first on PATH.
run_fixes() {
  mkdir -p run
  { jq -r '.audit.checks[] | [.fix[]?.command | select(. != null and . != "")] | select(length > 0)
           | map(@base64) | join(" ")' "$1"
    jq -r '.verdict.first_action.command // empty | @base64' "$1"; } |
    while read -r encoded_steps; do
      script="set -e"
      for encoded in $encoded_steps; do script+=$'\n'$(printf '%s' "$encoded" | base64 -d); done
      (cd run && CALLS="$T/calls" PATH="$T/bin:$PATH" sh -c "$script" < /dev/null) ||
        bad "the steps failed: $script"
    done
}

# 1. A disk image whose path holds a space, a quote and a command substitution.
img="my disk \$(touch PWNED)'s.img"
truncate -s 64M "$img"
printf 'label: dos\nstart=63, size=65536, type=83\n' | sfdisk -q "$img" > /dev/null 2>&1 || bad "sfdisk on $img"
"$SSDPROBE" -q audit --fail-on never "$img" --json - > disk.json || bad "audit of $img exited $?"
: > calls
run_fixes disk.json
want="== sfdisk
stdin: 2048,65536
<--move-data>
</dev/loop99>
<-N>
<1>"
grep -A5 '^== losetup' calls | grep -q "^<$(printf '%s' "$img" | sed 's/[][\.*^$]/\\&/g')>\$" ||
  bad "losetup did not get '$img' as one argument: $(cat calls)"
awk '/^== sfdisk/{p=1} p' calls | head -n 6 | sort > got.txt
printf '%s\n' "$want" | sort > want.txt
cmp -s got.txt want.txt || bad "sfdisk got: $(cat got.txt)"
grep -A5 '^== partx' calls | grep -q '^</dev/loop99>$' || bad "the fix did not tell the kernel of the loop device (partx): $(cat calls)"
grep -A3 '^== losetup' calls | grep -q '^<--detach>$' || bad "the loop device is not detached at the end: $(cat calls)"

# 2. An md member whose array name would end the command and run another.
md="md.img"
truncate -s 64M "$md"
"$MAKE_MD" "$md" --level 5 --raid-disks 3 --chunk 65536 --data-offset $((1048576 + 4096)) --role 0 \
  --name 'host:x;touch$IFS../PWNED;:' || bad "make-md-member"
"$SSDPROBE" -q audit --fail-on never "$md" --json - > md.json || bad "audit of $md exited $?"
jq -e '[.audit.checks[] | select(.field == "md.data_offset") | .fix[].purpose] | any(test("is not one mdadm accepts"))' \
  md.json > /dev/null || bad "md.data_offset's fix does not say the name was not pasted: $(jq -c '.audit.checks' md.json)"
: > calls
run_fixes md.json
grep -q '^== mdadm' calls || bad "no mdadm fix ran: $(cat calls)"
grep -q '^</dev/mdN>$' calls || bad "mdadm did not get the placeholder /dev/mdN: $(cat calls)"
grep -q 'touch' calls && bad "the array's name reached a command: $(cat calls)"

# (The commands run in $T/run: a payload that ran made $T/run/PWNED or $T/PWNED.)
[ -z "$(find "$T" -name PWNED)" ] || bad "a name's own command ran: $(find "$T" -name PWNED) exists"
[ "$failures" = 0 ] && echo "PASS" || exit 1
