#!/bin/bash
# The daily audit's systemd units, as `meson install` puts them:
#  - ssdprobe-audit.service and .timer land in PREFIX/lib/systemd/system,
#    the service's ExecStart naming the installed PREFIX/bin/ssdprobe;
#  - the service has a finite TimeoutStartSec (a oneshot waits for ever
#    by default);
#  - `systemd-analyze verify` passes on both (in a root made of the install
#    and this machine's own units, so targets such as timers.target resolve,
#    and with the installed man page that Documentation= names);
#  - the service's command itself, run with the textfile directory moved to
#    a scratch one: one ssdprobe_up 1 per whole disk of this machine (every
#    /sys/block entry with a device link, not hidden, not sr*), nothing else
#    failed, and promtool accepts the file.
# Reuses the build (meson install --no-rebuild). Skips (77) without
# systemd-analyze or promtool.
#
# Usage: systemd_units.sh MESON BUILD_DIR
set -u
MESON="${1:-}" BUILD="${2:-}"
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
[ -x "$MESON" ] && [ -d "$BUILD" ] || fail "usage: $0 MESON BUILD_DIR"
for tool in systemd-analyze promtool; do
  command -v "$tool" > /dev/null || skip "$tool is not installed (scripts/install-deps --tests installs it)"
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
log=$("$MESON" install -C "$BUILD" --no-rebuild --destdir "$root" 2>&1) || fail "meson install failed: $log"

service=$(find "$root" -path '*/lib/systemd/system/ssdprobe-audit.service' -type f)
[ -n "$service" ] || fail "no ssdprobe-audit.service installed: $(cd "$root" && find . -name '*.service' -o -name '*.timer')"
unit_dir=$(dirname "$service")
prefix=${unit_dir%/lib/systemd/system}
[ -f "$unit_dir/ssdprobe-audit.timer" ] || fail "no ssdprobe-audit.timer beside the service"
program="${prefix#"$root"}/bin/ssdprobe"
exec_start=$(sed -n 's/^ExecStart=//p' "$service")
case "$exec_start" in
  "$program audit --all-disks "*) ;;
  *) fail "ExecStart does not run the installed $program: $exec_start" ;;
esac

# A oneshot unit waits for ever unless told: the audit must have a bound
# (a disk that stops answering must not hold it until the next day's timer),
# and systemd must read it as one (not infinity).
timeout=$(sed -n 's/^TimeoutStartSec=//p' "$service")
case "$timeout" in
  [1-9]*min | [1-9]*s | [1-9]*) ;;
  *) fail "the service has no finite TimeoutStartSec (found '$timeout')" ;;
esac

# A root with this machine's units beside the installed ones.
mkdir -p "$root/usr/lib/systemd/system"
cp -rn /usr/lib/systemd/system/. "$root/usr/lib/systemd/system/" 2> /dev/null
out=$(MANPATH="$prefix/share/man" systemd-analyze verify --root="$root" \
  "${unit_dir#"$root"}/ssdprobe-audit.service" "${unit_dir#"$root"}/ssdprobe-audit.timer" 2>&1) ||
  fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify printed: $out"

# The service's own command, into a scratch textfile directory.
textfiles="$root/textfile"
mkdir "$textfiles"
textfile_dir=$(sed -n 's/^ReadWritePaths=//p' "$service")
command_line=${exec_start//$textfile_dir/$textfiles}
command_line=${command_line/#$program/$root$program}
# shellcheck disable=SC2086  # the unit's command line, split as systemd splits it (no quoting in it)
out=$($command_line 2>&1)
rc=$?
metrics="$textfiles/ssdprobe.prom"
[ -f "$metrics" ] || fail "the service's command (exit $rc) wrote no $metrics: $out"
problems=$(promtool check metrics < "$metrics" 2>&1) || fail "promtool: $problems"
[ -z "$problems" ] || fail "promtool: $problems"
# Each whole disk has its ssdprobe_up: 1 where this machine lets root read
# the disk, 0 where it does not (a sandbox's device cgroup); any 0 fails
# the unit (exit 4, permission), findings never do (--fail-on never).
disks=0 unreadable=0
for dir in /sys/block/*; do
  name=$(basename "$dir")
  [ -e "$dir/device" ] && [ "$(cat "$dir/size")" != 0 ] || continue
  [ "$(cat "$dir/hidden" 2> /dev/null)" = 1 ] && continue
  case $name in sr*) continue ;; esac
  disks=$((disks + 1))
  want=1
  if ! dd if="/dev/$name" of=/dev/null bs=4096 count=1 status=none 2> /dev/null; then
    want=0 unreadable=$((unreadable + 1))
  fi
  grep -q "^ssdprobe_up{device=\"/dev/$name\",.*command=\"audit\"} $want$" "$metrics" ||
    fail "no ssdprobe_up $want for /dev/$name: $(grep '^ssdprobe_up' "$metrics")"
done
[ "$(grep -c '^ssdprobe_up{' "$metrics")" = "$disks" ] ||
  fail "ssdprobe_up for $(grep -c '^ssdprobe_up{' "$metrics") devices, $disks whole disks: $(grep '^ssdprobe_up' "$metrics")"
if [ "$unreadable" -gt 0 ]; then
  [ "$rc" = 4 ] || fail "$unreadable disk(s) could not be read, yet the command exited $rc, not 4: $out"
else
  [ "$rc" = 0 ] || fail "the service's command exited $rc: $out"
fi
[ "$disks" -gt 0 ] || echo "# this machine has no whole disk: only the units were checked"
echo "PASS: units verified; the service's command audited $disks disk(s), $unreadable not readable here (exit $rc)"
