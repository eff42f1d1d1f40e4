#include "report/prometheus_metrics.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/output.h"

namespace ssdprobe {
namespace {

// The families in the order they are written, each with its help text. A
// family no document has is left out (no HELP line without a sample).
struct FamilySpec {
  const char* name;
  const char* help;
};
constexpr std::array kFamilies{
    FamilySpec{"ssdprobe_up", "1 when ssdprobe made a result document for the device, 0 when the command failed"},
    FamilySpec{"ssdprobe_last_run_timestamp_seconds", "Unix time the command started (or failed)"},
    FamilySpec{"ssdprobe_last_run_duration_seconds", "Wall time of the command"},
    FamilySpec{"ssdprobe_device_size_bytes", "Size of the target"},
    FamilySpec{"ssdprobe_unit_bytes", "Size of a unit the run found (only state found has a size)"},
    FamilySpec{"ssdprobe_unit_state",
               "1 for the unit's state (found, absent = ruled out, undetermined, not_measured), 0 for the others"},
    FamilySpec{"ssdprobe_unit_confidence", "Bootstrap confidence of the unit's answer, 0 to 1"},
    FamilySpec{"ssdprobe_sysfs_bytes", "Block-size attribute the kernel reports in sysfs (queue/*, alignment_offset)"},
    FamilySpec{"ssdprobe_mismatches", "Reported values that contradict the measured ones, by severity"},
    FamilySpec{"ssdprobe_audit_findings", "Audit findings on the existing layout, by severity"},
    FamilySpec{"ssdprobe_misalignment_cost_ratio",
               "Latency of IO at an audited layer start over the same IO at an aligned start (1 = no cost)"},
};

// Samples gathered per family, written family by family at the end; each
// series (family and label set) once, since node_exporter drops a sample
// whose series "was collected before". A repeat is left out, the first
// sample kept, and the repeat named in a comment: the labels are the
// question (which drive, which unit, which start at which offset, op and
// request size), and a document that asks one twice (`--at 4096,4k` from an
// ssdprobe that kept both, two checks at one start) has priced both from the
// same grid cells. A label that only numbered the repeats would be honest
// about nothing and make series that come and go between runs.
class Exposition {
 public:
  void add(const char* family, const std::string& labels, const std::string& value) {
    std::string series = fmt::format("{}{{{}}}", family, labels);
    if (!series_.insert(series).second) {
      left_out_.push_back(fmt::format("# ssdprobe: left out a repeated series (the first is kept): {} {}\n",
                                      printable(series), value));
      return;
    }
    samples_[family].push_back(fmt::format("{} {}\n", series, value));
  }

  std::string text() const {
    std::string out;
    for (const std::string& line : left_out_) out += line;
    for (const FamilySpec& spec : kFamilies) {
      const auto found = samples_.find(spec.name);
      if (found == samples_.end()) continue;
      out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", spec.name, spec.help, spec.name);
      for (const std::string& line : found->second) out += line;
    }
    return out;
  }

 private:
  std::map<std::string, std::vector<std::string>> samples_;
  std::set<std::string> series_;       // "family{labels}" of every sample added
  std::vector<std::string> left_out_;  // comment lines, one per repeat
};

// Integers exactly, other numbers in the shortest form that reads back the
// same; the format's own words for the non-finite ones.
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}
std::string number(uint64_t v) { return fmt::format("{}", v); }

std::string label(const char* name, const std::string& value) {
  return fmt::format("{}=\"{}\"", name, prometheus_label_value(value));
}

// The labels every sample of one drive carries.
std::string drive_labels(const std::string& device, const std::string& model, const std::string& serial,
                         const std::string& firmware, const std::string& command) {
  return fmt::format("{},{},{},{},{}", label("device", device), label("model", model), label("serial", serial),
                     label("firmware", firmware), label("command", command));
}

void add_unit(Exposition& out, const std::string& drive, const char* name, const SavedUnit& unit) {
  if (unit.state.empty()) return;  // the document has no such unit
  const std::string labels = drive + "," + label("unit", name);
  if (unit.state == "found" && unit.bytes) out.add("ssdprobe_unit_bytes", labels, number(*unit.bytes));
  // An enumeration as Prometheus writes one: a series per state, 1 for the
  // current. A newer writer's state is kept as its own series.
  bool known = false;
  for (const char* state : {"found", "absent", "undetermined", "not_measured"}) {
    known = known || unit.state == state;
    out.add("ssdprobe_unit_state", labels + "," + label("state", state), unit.state == state ? "1" : "0");
  }
  if (!known) out.add("ssdprobe_unit_state", labels + "," + label("state", unit.state), "1");
  out.add("ssdprobe_unit_confidence", labels, number(unit.confidence));
}

void add_sysfs(Exposition& out, const std::string& drive, const SavedResult& doc) {
  const std::pair<const char*, const std::optional<uint64_t>*> attributes[] = {
      {"logical_block_size", &doc.logical_block}, {"physical_block_size", &doc.physical_block},
      {"minimum_io_size", &doc.minimum_io},       {"optimal_io_size", &doc.optimal_io},
      {"alignment_offset", &doc.alignment_offset}};
  for (const auto& [name, value] : attributes) {
    if (*value) out.add("ssdprobe_sysfs_bytes", drive + "," + label("attribute", name), number(**value));
  }
}

// Counts per severity, every severity written (0 too) so an alert can be a
// plain `> 0`.
void add_severity_counts(Exposition& out, const char* family, const std::string& drive,
                         const std::map<std::string, uint64_t>& counts) {
  std::map<std::string, uint64_t> all{{"error", 0}, {"warning", 0}, {"info", 0}};
  for (const auto& [severity, n] : counts) all[severity] = n;
  for (const char* severity : {"error", "warning", "info"}) {
    out.add(family, drive + "," + label("severity", severity), number(all[severity]));
  }
  for (const auto& [severity, n] : all) {
    if (severity != "error" && severity != "warning" && severity != "info") {
      out.add(family, drive + "," + label("severity", severity), number(n));
    }
  }
}

void add_costs(Exposition& out, const std::string& drive, const std::vector<SavedCostedStart>& starts) {
  for (const SavedCostedStart& start : starts) {
    for (const SavedCost& cost : start.costs) {
      if (!cost.determined || !cost.ratio) continue;  // "not determined" is no number
      const std::string labels =
          fmt::format("{},{},{},{},{},{}", drive, label("layer", start.layer), label("field", start.field),
                      label("offset_bytes", start.disk_offset ? number(*start.disk_offset) : std::string()),
                      label("op", cost.op), label("request_bytes", number(cost.request_bytes)));
      out.add("ssdprobe_misalignment_cost_ratio", labels, number(*cost.ratio));
    }
  }
}

void add_document(Exposition& out, const std::string& drive, const SavedResult& doc) {
  out.add("ssdprobe_up", drive, "1");
  if (auto at = unix_seconds(doc.started_at)) out.add("ssdprobe_last_run_timestamp_seconds", drive, number(*at));
  out.add("ssdprobe_last_run_duration_seconds", drive, number(doc.duration_s));
  if (doc.size_bytes) out.add("ssdprobe_device_size_bytes", drive, number(doc.size_bytes));
  add_unit(out, drive, "read_page", doc.read_page);
  add_unit(out, drive, "write_unit", doc.write_unit);
  add_unit(out, drive, "erase_block", doc.erase_block);
  add_unit(out, drive, "write_unit_in_slc_cache", doc.write_unit_in_cache);
  add_unit(out, drive, "slc_cache", doc.charts.slc_cache.unit);
  add_sysfs(out, drive, doc);
  std::map<std::string, uint64_t> mismatches;
  for (const SavedMismatch& m : doc.mismatches) ++mismatches[m.severity];
  add_severity_counts(out, "ssdprobe_mismatches", drive, mismatches);
  if (!doc.findings_by_severity.empty()) {
    add_severity_counts(out, "ssdprobe_audit_findings", drive,
                        {doc.findings_by_severity.begin(), doc.findings_by_severity.end()});
  }
  add_costs(out, drive, doc.charts.costed_starts);  // the layers on the disk
  add_costs(out, drive, doc.charts.costed_at);      // --at OFFSETS
}

}  // namespace

std::string prometheus_label_value(const std::string& text) {
  std::string out;
  for (char c : escape_invalid_utf8(text)) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::optional<double> unix_seconds(const std::string& rfc3339) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(rfc3339.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return std::nullopt;
  }
  std::string rest = rfc3339.substr(static_cast<size_t>(consumed));
  double fraction = 0.0;
  if (!rest.empty() && rest[0] == '.') {
    const size_t end = rest.find_first_not_of("0123456789", 1);
    if (end == 1) return std::nullopt;
    fraction = std::stod("0" + rest.substr(0, end));
    rest = end == std::string::npos ? "" : rest.substr(end);
  }
  if (rest != "Z") return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const time_t seconds = timegm(&tm);
  if (seconds == static_cast<time_t>(-1)) return std::nullopt;
  return static_cast<double>(seconds) + fraction;
}

std::string render_prometheus(const std::vector<SavedResult>& documents, const std::vector<FailedTarget>& failures) {
  Exposition out;
  // A second document of one drive and command would repeat the first's
  // series, and mixing the two (its units where the first has none) would
  // describe neither: the first is kept whole, the other named in a comment.
  std::set<std::string> drives;
  std::string reasons;
  for (const SavedResult& doc : documents) {
    const std::string drive = drive_labels(doc.path, doc.model, doc.serial, doc.firmware, doc.command);
    if (drives.insert(drive).second) {
      add_document(out, drive, doc);
    } else {
      reasons += "# ssdprobe: left out another document of the same drive and command: " + printable(drive) + "\n";
    }
  }
  for (const FailedTarget& failed : failures) {
    const std::string drive = drive_labels(failed.device, "", "", "", failed.command);
    out.add("ssdprobe_up", drive, "0");
    out.add("ssdprobe_last_run_timestamp_seconds", drive, number(failed.at_s));
    // Comments may hold any text but a newline.
    std::string reason = printable(failed.device + ": " + failed.reason);
    reasons += "# ssdprobe failed: " + reason + "\n";
  }
  return reasons + out.text();
}

}  // namespace ssdprobe
