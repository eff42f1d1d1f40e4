// Reads back what a saved result document measured, so a later audit can
// judge a layout against units measured once (`ssdprobe audit DISK
// --units-from RESULT.json`) without timing the drive again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "report/saved_result.h"

namespace ssdprobe {

struct MeasuredUnits {
  std::string path;                    // the target the document describes
  std::string model, serial;           // its identity, to warn when it is another drive
  std::optional<uint64_t> read_page, write_unit, erase_block;
  // Each unit as the document answered it (found, ruled out...), so the
  // audit's verdict repeats that answer rather than "not measured".
  SavedUnit read_page_answer, write_unit_answer, erase_block_answer;
};

// Throws Error(usage) naming the file and the problem: unreadable, not JSON,
// not an ssdprobe/1 document, a unit of a shape no probe reports (named by
// its field, with the shapes allowed).
MeasuredUnits read_measured_units(const std::string& path);

}  // namespace ssdprobe
