#include "compare/agreement_text.h"

#include <fmt/format.h>

#include "core/plural.h"
#include "core/units.h"

namespace ssdprobe {

std::string tally_text(const SizeTally& tally) {
  if (tally.entries.empty()) return "-";
  auto value = [](const SizeTally::Entry& e) { return e.bytes ? format_size(*e.bytes) : std::string("not reported"); };
  if (tally.entries.size() == 1) return value(tally.entries.front());
  std::string out;
  for (const auto& e : tally.entries) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", value(e), e.count);
  }
  return out;
}

std::string unit_text(const UnitAgreement& unit) {
  if (unit.runs == 0) return "no timed run";
  if (unit.measured() == 0) return fmt::format("not measured ({})", counted(unit.runs, "run"));
  std::string out;
  if (auto top = unit.top_bytes()) {
    out = fmt::format("{} in {}/{} runs", format_size(*top), unit.top_count(), unit.measured());
    for (size_t i = 1; i < unit.found.entries.size(); ++i) {
      const auto& e = unit.found.entries[i];
      out += fmt::format(", {} in {}", format_size(e.bytes.value_or(0)), e.count);
    }
    if (unit.ruled_out) out += fmt::format(", {} ruled out", unit.ruled_out);
    if (unit.not_determined) out += fmt::format(", {} not determined", unit.not_determined);
  } else if (unit.ruled_out == unit.measured()) {
    out = fmt::format("ruled out in {}/{} runs", unit.ruled_out, unit.measured());
  } else {
    out = fmt::format("not determined in {}/{} runs", unit.not_determined, unit.measured());
    if (unit.ruled_out) out += fmt::format(", ruled out in {}", unit.ruled_out);
  }
  if (unit.not_measured) out += fmt::format(", {} not measured", unit.not_measured);
  return out;
}

std::string unit_short(const UnitAgreement& unit) {
  if (unit.measured() == 0) return "-";
  if (auto agreed = unit.agreed()) return format_size(*agreed);
  if (auto top = unit.top_bytes()) return format_size(*top) + "?";
  // No run found one: ruled out only when every run that measured it ruled
  // it out; any run that could not tell makes the group not determined.
  return unit.ruled_out == unit.measured() ? "ruled out" : "not determined";
}

std::string spread_text(const LatencySpread& spread, const char* micro) {
  if (spread.runs == 0) return "-";
  return fmt::format("{:.1f} {} (p10-p90 {:.1f}-{:.1f}, {} run{})", spread.median_us, micro, spread.p10_us,
                     spread.p90_us, spread.runs, spread.runs == 1 ? "" : "s");
}

}  // namespace ssdprobe
