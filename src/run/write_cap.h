// --max-write-bytes: what the whole run may write, every write phase and the
// restore of the window included, and what that costs in the drive's terms.
//
// The plan is made before the question, from the phases' upper bounds
// (run/write_bound.h), never from what they end up writing: the question
// states exactly which phases run. The restore is reserved first (a window
// that cannot be put back is not written at all); then the phases are taken
// in their order, and one whose bound does not fit in what is left is
// skipped with the reason, never cut short into a wrong answer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "run/write_bound.h"

namespace ssdprobe {

// The default --max-write-bytes. A fixed figure, so the question states the
// same ceiling on every drive: 20 GiB is above the bound of a default run
// (16 GiB SLC cache fill + 1 GiB write grid + 512 MiB stream + 384 MiB
// parallelism + 128 MiB open units + 256 MiB restore = 18.25 GiB), so a default run completes on a
// typical drive, while a larger --cache-bytes or --region must be paid for
// by raising the cap, in words the user typed.
constexpr uint64_t kDefaultMaxWriteBytes = 20ull << 30;

struct WriteCapPlan {
  uint64_t cap = 0;
  WriteBound planned;  // the bound with each skipped phase's share at 0
  // Phase name (run/runs.cc) -> why --max-write-bytes leaves it out.
  std::map<std::string, std::string> skipped;
  // What the question stated the run would write at most: planned.total(),
  // or on a zoned device the zones' capacity (set by confirm_writes).
  uint64_t announced = 0;
};

// Throws Error(usage) when the restore alone does not fit in `cap`.
WriteCapPlan plan_write_cap(const WriteBound& bound, uint64_t cap);

// The reason a phase is left out, or nullopt when it runs.
std::optional<std::string> skipped_by_cap(const WriteCapPlan& plan, const std::string& phase);

// What `bytes` is in the drive's terms, and on which basis: a share of the
// endurance estimate the drive reports (Endurance Group Information log,
// 09h), else a multiple of the device's capacity. "0.0032 % of the drive's
// endurance estimate of 600 TB (NVMe Endurance Group Information log)".
std::string share_of_drive(uint64_t bytes, std::optional<uint64_t> endurance_estimate_bytes, uint64_t device_bytes);

}  // namespace ssdprobe
