// The open-units probe: N interleaved sequential write streams, each in its
// own erase-block-aligned stretch of the write window, for N = 1, 2, 3, 4,
// 6, 8, 12, 16, ... as far as the window, the byte cap and the budget
// allow, then N between the last one that wrote as fast as one stream and
// the first that collapsed, halving the gap. Writes go round-robin over the
// streams at queue depth 1, each stream continuing where it left off in its
// stretch, so every stream stays sequential. Each N's first rounds open its
// streams' erase blocks and are not timed. Judged by analysis/open_units.h.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/open_units.h"
#include "core/units.h"
#include "device/device.h"

namespace ssdprobe {

// The most the probe writes (the --write question states it): a 16-stream
// step of 18 rounds of 128 KiB writes is 36 MiB; a ladder to 64 streams
// of 16 KiB writes, about 60 MiB.
constexpr uint64_t kOpenUnitsByteCap = 128ull << 20;

struct OpenUnitsOptions {
  Region window;                    // inside the journaled range, its start on a stretch boundary
  uint64_t stretch_bytes = 0;       // the erase block (or the stand-in): one stream per stretch
  uint64_t io_bytes = 16384;        // each write: the write unit, or a stand-in
  uint32_t warmup_rounds = 2;       // rounds of each N that open its streams, not timed
  uint32_t timed_rounds = 16;       // rounds timed per N
  uint64_t cap_bytes = kOpenUnitsByteCap;
  double budget_s = 0.0;            // device time (0 = no limit)
  uint64_t seed = 1;
  std::function<void(uint32_t streams, uint64_t written)> progress;
};

struct OpenUnitsResult {
  std::vector<StreamStep> steps;    // in the order run
  uint32_t most_streams = 0;        // stretches the window holds
  uint64_t bytes_written = 0;
  double elapsed_s = 0.0;
  bool cut_by_cap = false;          // the byte cap stopped the ladder before it ended
  bool cut_by_budget = false;       // --budget did
};

// The N the ladder tries, up to `most`: 1, 2, 3, 4, 6, 8, 12, 16, 24, ...
std::vector<uint32_t> stream_ladder(uint32_t most);

OpenUnitsResult run_open_units_probe(Device& device, const OpenUnitsOptions& options);

}  // namespace ssdprobe
