#include "firmware/nvme_streams_findings.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {

namespace {

struct Statement {
  const char* field;  // "sws", "sgs"
  const char* what;   // "stream write size"
  const char* unit;   // "write unit", "erase block"
};

// A stated size a measured unit divides agrees (the stream unit may span
// several planes or blocks); anything else is a warning with both sizes.
void compare_one(const Statement& s, const std::string& stated_text, uint64_t stated, std::optional<uint64_t> measured,
                 StreamsComparison& out) {
  if (!measured || *measured == 0) {
    out.notes.push_back(fmt::format("the Streams directive states a {} of {}; no {} was measured to compare it with",
                                    s.what, format_size(stated), s.unit));
    return;
  }
  if (stated % *measured == 0) {
    const uint64_t times = stated / *measured;
    out.notes.push_back(times == 1 ? fmt::format("the Streams directive's {} agrees with the measured {}: {}", s.what,
                                                 s.unit, format_size(stated))
                                   : fmt::format("the Streams directive's {} is {} times the measured {} of {} ({})",
                                                 s.what, times, s.unit, format_size(*measured), stated_text));
    return;
  }
  Mismatch m;
  m.field = s.field;
  m.reported = static_cast<int64_t>(stated);
  m.detected = static_cast<int64_t>(*measured);
  m.severity = Severity::warning;
  m.message = fmt::format("the Streams directive states a {} of {} ({}), which the measured {} of {} does not divide: "
                          "writes issued in the stated size straddle the drive's own units",
                          s.what, format_size(stated), stated_text, s.unit, format_size(*measured));
  out.mismatches.push_back(std::move(m));
}

}  // namespace

StreamsComparison compare_streams(const NvmeStreamsParams& streams, uint64_t lba_bytes,
                                  std::optional<uint64_t> write_unit, std::optional<uint64_t> erase_block) {
  StreamsComparison out;
  if (const auto sws = stream_write_size_bytes(streams, lba_bytes)) {
    compare_one({"sws", "stream write size", "write unit"},
                fmt::format("SWS={} logical blocks of {} B", streams.sws, lba_bytes), *sws, write_unit, out);
  }
  if (const auto granularity = stream_granularity_bytes(streams, lba_bytes)) {
    compare_one({"sgs", "stream granularity", "erase block"},
                fmt::format("SGS={} stream write sizes", streams.sgs), *granularity, erase_block, out);
  }
  return out;
}

}  // namespace ssdprobe
