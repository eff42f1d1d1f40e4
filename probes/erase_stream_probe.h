// The erase-block probe: writes the whole write window sequentially, twice.
// The first pass preconditions the window (every block in it has now been
// written once, so the drive is not answering from never-written, trimmed
// space); the second pass is timed and analysed (analysis/erase_block.h).
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
  std::function<void(int pass, uint64_t done, uint64_t total)> progress;
};

struct EraseStreamResult {
  WriteStream stream;               // the timed (second) pass
  EraseBlockVerdict verdict;
  uint64_t bytes_written = 0;
  double elapsed_s = 0.0;
  std::string device_state;         // what the drive had been through when timed
};

EraseStreamResult run_erase_stream(Device& device, const EraseStreamOptions& options);

}  // namespace ssdprobe
