#!/bin/bash
# Tests that a --write run that loses its output in the write phase still restores the device bit-exactly, removes its journal and exits 130: (1) its terminal hangs up (an SSH session drops: the pty's master closes, SIGHUP arrives and every later write to the terminal fails with EIO); (2) the reader of its output pipe exits and then SIGHUP arrives (`ssdprobe ... 2>&1 | tee log` in a dropped session: EPIPE, SIGPIPE).
#
# Usage: write_hangup.sh SSDPROBE
#
# The device is a loop device over a file of random content. The write phase
# is recognised by the loop device's own count of sectors written (the
# journal is read from it; the first write to it is the first probe write).
# --budget 5: the read grid before it takes at most ~2.3 s of it (45 %); the
# output is lost at the first write, long before the write phases end.
# python3 drives the run: pty.fork() gives ssdprobe the pty as its
# controlling terminal, as sshd does, so closing the master hangs it up.
set -u
. "$(dirname "$0")/lib.sh"

use_binaries "$@"
require_cmd b2sum python3 losetup
[ "$(id -u)" = 0 ] || skip "needs root (loop devices)"
[ -c /dev/loop-control ] || skip "no /dev/loop-control"
scratch_supports_odirect || skip "O_DIRECT not supported in $SCRATCH (tmpfs?); set SSDPROBE_TEST_TMPDIR"

MIB=$((1 << 20))
J="$SCRATCH/j"
REGION="32M:64M"

# The driver: run.py MODE STAT LOG SSDPROBE ARGS... starts ssdprobe with its
# standard streams on a pty (MODE pty) or on a pipe (MODE pipe), reads its
# output until the device's sectors-written count (field 7 of STAT) grows,
# then closes the pty's master (pty) or closes the pipe's reading end and
# sends SIGHUP (pipe). Prints "exit N", "signal N", "hung" (killed after
# 120 s) or "no-writes" (the run ended or stalled before writing); the
# output it read goes to LOG.
cat > "$SCRATCH/run.py" <<'EOF'
import os, pty, select, signal, subprocess, sys, time

mode, stat_path, log_path = sys.argv[1:4]
argv = sys.argv[4:]

def sectors_written():
    with open(stat_path) as f:
        return int(f.read().split()[6])

def status_text(status):
    if os.WIFSIGNALED(status):
        return "signal %d" % os.WTERMSIG(status)
    return "exit %d" % os.WEXITSTATUS(status)

base = sectors_written()
if mode == "pty":
    pid, fd = pty.fork()
    if pid == 0:
        # Python ignores SIGPIPE, and exec keeps ignored signals ignored.
        for sig in (signal.SIGPIPE, signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_DFL)
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
else:
    fd, w = os.pipe()
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=w, stderr=w, restore_signals=True)
    os.close(w)
    pid = child.pid

out = bytearray()
status = None
writing = False
deadline = time.time() + 240
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.005)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        out += data
    if sectors_written() > base:
        writing = True
        break
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = st
        break

result = "no-writes"
if writing:
    if mode == "pty":
        os.close(fd)          # the SSH session drops: the terminal hangs up
    else:
        os.close(fd)          # the reader (tee) is gone ...
        os.kill(pid, signal.SIGHUP)  # ... and the session's hang-up arrives
    end = time.time() + 120
    while status is None and time.time() < end:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
        else:
            time.sleep(0.01)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        result = "hung"
    else:
        result = status_text(status)
else:
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
with open(log_path, "wb") as f:
    f.write(out)
print(result)
EOF

failures=0
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

random_file "$SCRATCH/disk.img" $((128 * MIB))
DEV=$(make_loop "$SCRATCH/disk.img" 512) || exit 1
STAT="/sys/block/${DEV#/dev/}/stat"
H0=$(dev_hash "$DEV")

# lose_output MODE: one run, then the checks a user would make.
lose_output() {
  local mode="$1" log="$SCRATCH/$1.log" result problems=""
  result=$(python3 "$SCRATCH/run.py" "$mode" "$STAT" "$log" \
    "$SSDPROBE" --write --yes --journal "$J" --budget 5 --region "$REGION" "$DEV")
  [ "$result" = "no-writes" ] && { bad "$mode: the run never reached the write phase: $(tail -c 300 "$log")"; return; }
  [ "$result" = "exit 130" ] || problems+=" $result, want exit 130;"
  [ "$(dev_hash "$DEV")" = "$H0" ] || problems+=" THE DEVICE DIFFERS FROM ITS ORIGINAL CONTENT;"
  [ -z "$(journals)" ] || problems+=" journal left behind: $(journals);"
  # On the terminal the progress line was up when it hung up (the case that
  # once aborted the run).
  if [ "$mode" = pty ] && ! grep -q "saving" "$log"; then problems+=" no progress was shown on the pty;"; fi
  if [ -z "$problems" ]; then
    note "ok   $mode: $result, device identical, no journal"
  else
    bad "$mode:$problems"
    # Start the next case from a device with no journal, as it now is.
    if [ -n "$(journals)" ]; then "$SSDPROBE" restore --yes "$(journals | head -n 1)" > /dev/null 2>&1; fi
    rm -f "$J"/*.ssdpj
    H0=$(dev_hash "$DEV")
  fi
}

lose_output pty
lose_output pipe

[ "$failures" = 0 ] || fail "$failures cases wrong"
echo "PASS"
