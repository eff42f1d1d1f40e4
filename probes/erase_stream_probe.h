// The erase-block probe: writes the whole write window sequentially, twice.
// The first pass preconditions the window (every block in it has now been
// written once, so the drive is not answering from never-written, trimmed
// space); the second pass is timed and analysed (analysis/erase_block.h).
// With a budget, the window is cut (from its end) after the first batch of
// writes shows how fast the drive writes, so that both passes fit: a shorter
// stream only lowers the largest erase block it can see, which the verdict's
// searched_up_to_bytes reports.
#pragma once

#include <functional>
#include <string>

#include "analysis/erase_block.h"
#include "core/units.h"
#include "device/device.h"

namespace ssdprobe {

struct EraseStreamOptions {
  Region window;                    // exact byte range to write (inside the journaled range)
  uint64_t chunk_bytes = 64 * 1024; // write size; stall periods are multiples of it
  uint64_t seed = 1;
  int min_periods = 6;
  double budget_s = 0.0;            // device time for both passes (0 = no limit)
  std::function<void(int pass, uint64_t done, uint64_t total)> progress;
};

struct EraseStreamResult {
  Region window;                    // EraseStreamOptions::window
  WriteStream stream;               // the timed (second) pass
  EraseBlockVerdict verdict;
  uint64_t bytes_written = 0;
  double elapsed_s = 0.0;
  std::string device_state;         // what the drive had been through when timed
  uint64_t streamed_bytes = 0;      // bytes of the window each pass covered
  // True when --budget, not the window, ended the passes early. A window that
  // is not a whole number of chunks leaves its tail unwritten without any
  // cut: more time would not cover it.
  bool cut_to_budget = false;
};

EraseStreamResult run_erase_stream(Device& device, const EraseStreamOptions& options);

}  // namespace ssdprobe
