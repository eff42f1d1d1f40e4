#!/bin/bash
# The layer rules hold on the real tree, and the checker catches each kind of
# break: an upward include, a relative include, a third-party header outside
# its layer. Breaks are planted in a copy of the sources, never in the tree.
# usage: check_layers.sh CHECKER SOURCE_ROOT
set -euo pipefail
checker=$1 root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

python3 "$checker" --root "$root" || fail "the real tree breaks the layer rules"

# expect_break DESCRIPTION FILE LINE PATTERN: plant LINE at the top of FILE
# in a fresh copy; the checker must exit 1 with PATTERN in its message.
expect_break() {
  local what=$1 file=$2 line=$3 pattern=$4
  rm -rf "$work/tree" && mkdir -p "$work/tree"
  cp -r "$root/src" "$root/probes" "$work/tree/"
  { echo "$line"; cat "$work/tree/$file"; } > "$work/tree/$file.new" && mv "$work/tree/$file.new" "$work/tree/$file"
  local out status=0
  out=$(python3 "$checker" --root "$work/tree" 2>&1) || status=$?
  [ "$status" -eq 1 ] || fail "$what: checker exited $status, expected 1"
  grep -qF "$pattern" <<<"$out" || fail "$what: message lacks '$pattern': $out"
  echo "ok: $what"
}

expect_break "analysis including report" src/analysis/stats.h '#include "report/result.h"' \
  "src/analysis/stats.h:1: upward include: analysis may not include report/result.h"
expect_break "device including the probes" src/device/device.h '#include "probes/grid_plan.h"' \
  "device may not include probes/grid_plan.h"
expect_break "core including cli" src/core/units.cc '#include "cli/options.h"' "core may not include cli/options.h"
expect_break "a relative include" src/report/text_report.cc '#include "../cli/options.h"' "relative include"
expect_break "CLI11 outside cli" src/device/target.cc '#include <CLI/CLI.hpp>' "<CLI/CLI.hpp> is for cli only"
expect_break "nlohmann-json in analysis" src/analysis/stats.cc '#include <nlohmann/json.hpp>' \
  "<nlohmann/json.hpp> is for report"
expect_break "libnvme outside its adapter" src/firmware/nvme_query.cc '#include <libnvme.h>' \
  "<libnvme.h> is for src/firmware/nvme_admin.cc only"
expect_break "liburing above device" probes/grid_probe.cc '#include <liburing.h>' "<liburing.h> is for device only"
