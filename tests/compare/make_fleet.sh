# Sourced by the compare tests: builds a small fleet folder from real sim runs.
#
#   make_fleet SSDPROBE DIR SEEDS
#
# For each of three profiles (sim:nvme-tlc-16k and sim:clean-4k read-only,
# sim:sata-mlc-8k with --write) and each seed 1..SEEDS, one run written as
# DIR/host<seed>/<profile>-<seed>.json; every seed is given its own serial
# (SIM-<profile>-<seed>: simulated drives all report one serial) and its
# folder's hostname (host<seed>) so a seed stands for a drive of a fleet on
# its own host. Plus one `info` document of nvme-tlc-16k (a fourth drive,
# reported geometry only, on host1). Returns non-zero naming what failed.
#
# start_checks: a scratch folder $T removed on exit, and the checks
# bookkeeping: bad/ok/check record each result; $failures counts the bad.
start_checks() {
  T=$(mktemp -d) || exit 1
  trap 'rm -rf -- "$T"' EXIT
  failures=0
}
bad() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "# ok   $*"; }
check() { if eval "$2"; then ok "$1"; else bad "$1 ($2)"; fi; }

# make_fleet SSDPROBE DIR SEEDS (above)
make_fleet() {
  local ssdprobe=$1 dir=$2 seeds=$3 profile seed extra out
  for profile in nvme-tlc-16k clean-4k sata-mlc-8k; do
    extra=()
    [ "$profile" = sata-mlc-8k ] && extra=(--write --yes)
    for seed in $(seq "$seeds"); do
      mkdir -p "$dir/host$seed"
      out="$dir/host$seed/$profile-$seed.json"
      "$ssdprobe" -q --seed "$seed" "${extra[@]}" --json "$out.run" "sim:$profile" > /dev/null 2>&1 ||
        { echo "make_fleet: ssdprobe sim:$profile --seed $seed failed" >&2; return 1; }
      jq --arg s "SIM-$profile-$seed" --arg h "host$seed" '.target.serial = $s | .hostname = $h' "$out.run" > "$out" &&
        rm -f "$out.run" ||
        { echo "make_fleet: jq failed on $out.run" >&2; return 1; }
    done
  done
  "$ssdprobe" -q info --json "$dir/host1/info-nvme.json" sim:nvme-tlc-16k > /dev/null 2>&1 &&
    jq '.target.serial = "SIM-nvme-tlc-16k-info" | .hostname = "host1"' "$dir/host1/info-nvme.json" \
      > "$dir/host1/info-nvme.json.tmp" &&
    mv "$dir/host1/info-nvme.json.tmp" "$dir/host1/info-nvme.json" ||
    { echo "make_fleet: ssdprobe info failed" >&2; return 1; }
}

# interrupted_run SSDPROBE OUT ARGS...: a --write run of `ARGS` stopped by
# SIGINT part-way, as a user's Ctrl-C stops one, written to OUT (exit 130,
# `interrupted` true). The signal is sent once the run has printed its
# --write plan (it measures right after), later on each retry: a signal
# before measuring leaves no document, one after the end stops nothing.
# Returns non-zero naming what failed after 5 attempts.
interrupted_run() {
  local ssdprobe=$1 out=$2 attempt pid; shift 2
  for attempt in 1 2 3 4 5; do
    rm -f "$out" "$out.err"
    # A background job of a non-interactive shell starts with SIGINT
    # ignored: give ssdprobe the default a terminal would.
    env --default-signal=INT "$ssdprobe" --write --yes "$@" --json "$out" > /dev/null 2> "$out.err" &
    pid=$!
    for _ in $(seq 500); do
      grep -q "expected time" "$out.err" 2> /dev/null && break
      sleep 0.01
    done
    sleep "0.$((attempt - 1))"
    kill -INT "$pid" 2> /dev/null
    wait "$pid"
    if [ -f "$out" ] && [ "$(jq -r .interrupted "$out")" = true ]; then
      rm -f "$out.err"
      return 0
    fi
  done
  echo "interrupted_run: no interrupted document from ssdprobe $* after $attempt attempts" >&2
  return 1
}
