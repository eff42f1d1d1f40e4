#!/bin/bash
# `ssdprobe --replay RESULT.json [TARGET]` on simulated drives (deterministic
# with their seed): the replay of a run records the same options and, on
# the same seed, measures the same units and grids; an option given on the
# command line wins; --write is never replayed (a note says so); the new
# document names the replayed one (options.replay_of) and says what it took
# from it in a note. Bad input: a missing file, a file that is not a result
# document (exit 3), --replay with a subcommand, with --list-sims, or with a
# positional TARGET that is itself a result document (exit 2).
#
# Usage: cli_replay.sh SSDPROBE
set -u
# shellcheck source=tests/sim/saved_run_lib.sh
. "$(dirname "$0")/saved_run_lib.sh" "$@"

saved_run a.json
"$SSDPROBE" --replay a.json --json b.json > /dev/null 2> b.err || fail "--replay exited $?: $(cat b.err)"

# The options, except the outputs, -q and replay_of itself.
strip='.options | del(.json, .html, .quiet, .replay_of)'
[ "$(jq -cS "$strip" a.json)" = "$(jq -cS "$strip" b.json)" ] ||
  fail "options differ: $(jq -cS "$strip" a.json) vs $(jq -cS "$strip" b.json)"
[ "$(jq -r .options.replay_of b.json)" = a.json ] || fail "options.replay_of is $(jq -c .options.replay_of b.json)"
[ "$(jq -r .options.replay_of a.json)" = null ] || fail "a run that is no replay has options.replay_of set"
[ "$(jq -r .target.path b.json)" = sim:nvme-tlc-16k ] || fail "the replay ran on $(jq -r .target.path b.json)"
for part in .detected .grids .parallelism_probe .mismatches .recommendations .run; do
  [ "$(jq -cS "$part" a.json)" = "$(jq -cS "$part" b.json)" ] || fail "$part differs between the run and its replay"
done
jq -e '.notes | any(startswith("a replay of a.json (options.replay_of): options taken from it: engine auto, budget_s 5, region 1073741824:2147483648, seed 7, queue_depth 4"))' b.json > /dev/null ||
  fail "no replay note: $(jq -c .notes b.json)"
grep -q '^note: a replay of a.json' b.err || fail "the replay note was not printed: $(cat b.err)"

# An option on the command line wins; an explicit TARGET is used.
"$SSDPROBE" -q --replay a.json --budget 3 --json c.json sim:clean-4k > /dev/null || fail "--replay --budget 3 exited $?"
[ "$(jq -r '[.options.budget_s, .options.seed, .options.queue_depth, .target.path] | @tsv' c.json)" = \
  "$(printf '3\t7\t4\tsim:clean-4k')" ] || fail "override: $(jq -c '[.options.budget_s, .options.seed, .target.path]' c.json)"
jq -e '.notes | any(contains("given on the command line instead: budget_s; on sim:clean-4k instead of the document'"'"'s target sim:nvme-tlc-16k"))' c.json > /dev/null ||
  fail "override note: $(jq -c .notes c.json)"

# --write is never replayed.
"$SSDPROBE" -q --write --yes --budget 5 --json w.json sim:sata-mlc-8k > /dev/null 2>&1 || fail "the --write run exited $?"
"$SSDPROBE" -q --replay w.json --json r.json > /dev/null 2> r.err || fail "--replay of a --write run exited $?"
[ "$(jq -r '[.options.write, .write_probe] | @json' r.json)" = '[false,null]' ] || fail "the replay wrote"
grep -q 'w.json was a --write run: writes were not replayed' r.err || fail "no note on the writes (even with -q): $(cat r.err)"
jq -e '.notes | any(contains("writes were not replayed"))' r.json > /dev/null || fail "the document has no note on the writes"

# Bad input.
echo '{"not": "a result"}' > other.json
expect 3 "missing.json" --replay missing.json
expect 3 "other.json" --replay other.json
"$SSDPROBE" -q info --json info.json sim:clean-4k > /dev/null || fail "info exited $?"
expect 3 "is an \`info\` or \`audit\` document" --replay info.json
expect 2 "does not apply to \`ssdprobe info\`" --replay a.json info sim:clean-4k
expect 2 "--list-sims runs nothing" --replay a.json --list-sims
expect 2 "the TARGET is a saved result document too" --replay a.json b.json
[ "$(jq -r .options.replay_of b.json)" = a.json ] || fail "a refused replay changed b.json"
echo "PASS"
