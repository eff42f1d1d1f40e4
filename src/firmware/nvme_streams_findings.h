// The Streams directive's own statement of the drive's units beside what was
// timed: SWS (stream write size) is the write a stream should be issued in,
// the drive's program unit or a multiple of it; SWS × SGS (stream
// granularity) is the unit a stream is allocated in, an erase unit or a
// multiple. A statement a measured unit divides is consistent (a note says
// so); one it does not divide is a mismatch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"
#include "firmware/nvme_directives.h"

namespace ssdprobe {

struct StreamsComparison {
  std::vector<Mismatch> mismatches;  // fields "sws" and "sgs"
  std::vector<std::string> notes;    // the agreements, and what could not be compared
};

StreamsComparison compare_streams(const NvmeStreamsParams& streams, uint64_t lba_bytes,
                                  std::optional<uint64_t> write_unit, std::optional<uint64_t> erase_block);

}  // namespace ssdprobe
