#include "compare/agreement_text.h"

#include <fmt/format.h>

#include "core/plural.h"
#include "core/units.h"
#include "report/unit_answer.h"

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

namespace {

// How far the runs that ruled a unit out could see: "(up to 128 KiB)", "(up
// to 64 KiB in 2, 128 KiB in 1)", with "not recorded" for a document that
// does not say; "" when none says.
std::string reach_text(const SizeTally& reach) {
  if (reach.entries.empty() || (reach.entries.size() == 1 && !reach.entries.front().bytes)) return "";
  if (reach.entries.size() == 1) return fmt::format(" (up to {})", format_size(*reach.entries.front().bytes));
  std::string out;
  for (const auto& e : reach.entries) {
    out += fmt::format("{}{} in {}", out.empty() ? "" : ", ", e.bytes ? format_size(*e.bytes) : "not recorded",
                       e.count);
  }
  return " (up to " + out + ")";
}

}  // namespace

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
    if (unit.ruled_out) out += fmt::format(", {} ruled out{}", unit.ruled_out, reach_text(unit.ruled_out_up_to));
    if (unit.not_determined) out += fmt::format(", {} not determined", unit.not_determined);
  } else if (unit.ruled_out == unit.measured()) {
    out = fmt::format("ruled out in {}/{} runs{}", unit.ruled_out, unit.measured(), reach_text(unit.ruled_out_up_to));
  } else {
    out = fmt::format("not determined in {}/{} runs", unit.not_determined, unit.measured());
    if (unit.ruled_out) out += fmt::format(", ruled out in {}{}", unit.ruled_out, reach_text(unit.ruled_out_up_to));
  }
  if (unit.not_measured) out += fmt::format(", {} not measured", unit.not_measured);
  return out;
}

std::string unit_short(const UnitAgreement& unit) {
  if (unit.measured() == 0) return "-";
  if (auto agreed = unit.agreed()) return format_size(*agreed);
  if (auto top = unit.top_bytes()) return format_size(*top) + "?";
  // No run found one: ruled out only when every run that measured it ruled
  // it out ("none up to 128 KiB", as far as every one of them could see);
  // any run that could not tell makes the group not determined.
  if (unit.ruled_out != unit.measured()) return "not determined";
  return unit_answer_text(UnitAnswer::ruled_out, std::nullopt, unit.ruled_out_reach());
}

std::string unit_phrase_short(const std::string& what, const UnitAgreement& unit) {
  if (unit.measured() > 0 && !unit.top_bytes() && unit.ruled_out == unit.measured()) {
    return unit_phrase(what, UnitAnswer::ruled_out, std::nullopt, unit.ruled_out_reach(), "");
  }
  return what + " " + unit_short(unit);
}

std::string partial_short(const FleetGroup& group) {
  const uint32_t partial = group.partial_count();
  return group.only_partial() ? fmt::format("{} (all)", partial) : std::to_string(partial);
}

std::string partial_text(const FleetGroup& group, size_t max_listed) {
  if (group.partial_runs.empty()) return "none";
  std::string out = !group.only_partial() ? fmt::format("{} of {} stopped early", group.partial_count(),
                                                        counted(group.timed_runs, "timed run"))
                    : group.timed_runs == 1 ? std::string("the only timed run stopped early")
                                            : fmt::format("all {} timed runs stopped early", group.timed_runs);
  for (size_t i = 0; i < group.partial_runs.size() && i < max_listed; ++i) {
    const auto& [file, stopped] = group.partial_runs[i];
    out += fmt::format("{}{}: {}", i == 0 ? ": " : "; ", file, stopped);
  }
  if (group.partial_runs.size() > max_listed) {
    out += fmt::format(" and {} more", group.partial_runs.size() - max_listed);
  }
  return out;
}

std::string representative_note(const FleetGroup& group) {
  return group.representative_partial ? "partial: every timed run of the group stopped early" : "";
}

std::string spread_text(const LatencySpread& spread, const char* micro) {
  if (spread.runs == 0) return "-";
  return fmt::format("{:.1f} {} (p10-p90 {:.1f}-{:.1f} {}, {} run{})", spread.median_us, micro, spread.p10_us,
                     spread.p90_us, micro, spread.runs, spread.runs == 1 ? "" : "s");
}

std::string group_name(const FleetGroup& group) {
  if (group.grouped_by == GroupedBy::model) return group.model;
  if (group.identity.empty()) return "(no model)";
  const char* how = group.grouped_by == GroupedBy::serial ? "serial " : group.grouped_by == GroupedBy::wwid ? "WWID " : "";
  return fmt::format("(no model, {}{})", how, group.identity);
}

std::string most_frequent_text(const SizeTally& tally, const char* null_word) {
  const SizeTally::Entry* top = tally.top();
  if (!top) return "-";
  const std::string value = top->bytes ? format_size(*top->bytes) : null_word;
  if (top->count == tally.total) return value;
  return fmt::format("{} in {}/{}", value, top->count, tally.total);
}

std::string alignment_short(const FleetGroup& group) { return most_frequent_text(group.partition_alignment, "-"); }

namespace {

// "min_io 512 B" when every document agrees; "min_io 512 B in 3/4" when
// they do not (the most frequent value); "min_io not reported".
std::string reported_text(const char* name, const SizeTally& tally) {
  return fmt::format("{} {}", name, most_frequent_text(tally, "not reported"));
}

std::optional<uint64_t> reported_value(const SizeTally& tally) { return tally.top() ? tally.top()->bytes : std::nullopt; }

}  // namespace

std::vector<ReportedMeasured> reported_vs_measured(const FleetGroup& g) {
  std::vector<ReportedMeasured> out;
  ReportedMeasured io{reported_text("min_io", g.minimum_io), "", false};
  const std::optional<uint64_t> min_io = reported_value(g.minimum_io);
  for (const auto& [name, unit] : {std::pair{"read page", &g.read_page}, std::pair{"write unit", &g.write_unit}}) {
    const std::optional<uint64_t> agreed = unit->agreed();
    if (!agreed) continue;
    io.measured += fmt::format("{}{} {}", io.measured.empty() ? "" : ", ", name, format_size(*agreed));
    if (!min_io || *min_io < *agreed) io.reported_too_small = true;
  }
  if (io.measured.empty()) {
    io.measured = g.timed_runs == 0 ? "no timed run" : unit_phrase_short("read page", g.read_page);
  }
  out.push_back(io);
  if (const std::optional<uint64_t> erase = g.erase_block.agreed(); erase && *erase > 0) {
    const std::optional<uint64_t> opt_io = reported_value(g.optimal_io);
    out.push_back({reported_text("opt_io", g.optimal_io), "erase block " + format_size(*erase),
                   !opt_io || *opt_io == 0 || *opt_io % *erase != 0});
  }
  return out;
}

std::string reported_vs_measured_text(const FleetGroup& group) {
  std::string out;
  for (const ReportedMeasured& pair : reported_vs_measured(group)) {
    out += fmt::format("{}{} / {}", out.empty() ? "" : "; ", pair.reported, pair.measured);
  }
  return out;
}

}  // namespace ssdprobe
