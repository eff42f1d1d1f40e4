#include "run/other_io.h"

#include <fmt/format.h>

#include "report/run_context_text.h"

namespace ssdprobe {

std::string phase_words(std::string name) {
  for (char& c : name) {
    if (c == '_') c = ' ';
  }
  return name;
}

std::string and_list(const std::vector<std::string>& items) {
  std::string list;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) list += i + 1 == items.size() ? " and " : ", ";
    list += items[i];
  }
  return list;
}

bool other_io_disturbs(const OtherIo& io) {
  const uint64_t other = io.other.bytes();
  const double share = kOtherIoDisturbingShare * static_cast<double>(io.own.bytes());
  return other >= kOtherIoDisturbingBytes && static_cast<double>(other) >= share;
}

std::optional<std::string> other_io_disturbance(const ResultDocument& doc) {
  std::vector<std::string> phases;
  std::string disk;
  for (const PhaseRecord& p : doc.phases) {
    if (!p.other_io || !other_io_disturbs(*p.other_io)) continue;
    disk = p.other_io->disk;
    phases.push_back(fmt::format("the {} ({})", phase_words(p.name), io_amounts_text(p.other_io->other)));
  }
  if (phases.empty()) return std::nullopt;
  return fmt::format("other IO on {} during {} may have disturbed {} timings", disk, and_list(phases),
                     phases.size() == 1 ? "its" : "their");
}

}  // namespace ssdprobe
