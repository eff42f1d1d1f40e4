// What the kernel and firmware say beside what the timing measured.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "core/units.h"
#include "html/page.h"
#include "html/sections.h"
#include "html/unit_words.h"

namespace ssdprobe {
namespace {

// The sysfs fields as docs/result-json.md lists them; max_sectors_kb keeps
// the kernel's unit (KiB), the others are bytes unless said.
enum class Kind { bytes, kib, flag, words };
struct SysfsField {
  const char* key;
  Kind kind;
};
constexpr SysfsField kSysfsFields[] = {
    {"logical_block_size", Kind::bytes},   {"physical_block_size", Kind::bytes}, {"minimum_io_size", Kind::bytes},
    {"optimal_io_size", Kind::bytes},      {"alignment_offset", Kind::bytes},    {"discard_granularity", Kind::bytes},
    {"discard_max_bytes", Kind::bytes},    {"max_sectors_kb", Kind::kib},        {"dma_alignment", Kind::bytes},
    {"rotational", Kind::flag},            {"write_cache", Kind::words},         {"partition_start_bytes", Kind::bytes},
    {"filesystem_block_size", Kind::bytes}, {"kernel_version", Kind::words},
};

std::string sysfs_value(const Json& reported, const SysfsField& f) {
  const Json& v = field(reported, f.key);
  if (v.is_null()) return "not reported";
  switch (f.kind) {
    case Kind::bytes:
      // alignment_offset may be negative as the kernel prints it.
      if (v.is_number_integer() && v.get<int64_t>() < 0) return fmt::format("{} B", v.get<int64_t>());
      return size_text(reported, f.key, html_text(v.dump()));
    case Kind::kib: return bytes_of(reported, f.key) ? fmt::format("{} KiB", *bytes_of(reported, f.key)) : "-";
    case Kind::flag: return v.is_boolean() ? (v.get<bool>() ? "yes" : "no") : html_text(v.dump());
    case Kind::words: return text(reported, f.key, "not reported");
  }
  return "-";
}

// The mismatches on `key` as "warning: message" lines.
std::string mismatches_on(const Json& doc, const std::string& key) {
  std::string out;
  for (const Json& m : field(doc, "mismatches")) {
    if (raw_text(m, "field") != key) continue;
    out += fmt::format("{}<strong>{}</strong>: {}", out.empty() ? "" : "<br>", text(m, "severity"),
                       text(m, "message"));
  }
  return out.empty() ? "-" : out;
}

std::string sysfs_table(const Json& doc) {
  const Json& reported = field(doc, "reported");
  std::vector<std::string> rows;
  for (const SysfsField& f : kSysfsFields) {
    if (!reported.is_object() || !reported.contains(f.key)) continue;
    rows.push_back(data_row({html_text(f.key), sysfs_value(reported, f), mismatches_on(doc, f.key)}));
  }
  return html_table("sysfs", {"sysfs field", "reported", "against the measurement"}, rows,
                    "no kernel fields in this document");
}

std::string firmware_reason(const Json& doc) {
  for (const Json& phase : field(doc, "phases")) {
    if (raw_text(phase, "name") == "firmware" && raw_text(phase, "state") != "done") {
      return "no firmware geometry: firmware phase " + text(phase, "state") + ": " + text(phase, "reason", "-");
    }
  }
  return "no firmware geometry: the firmware reported no size it wants to be addressed in";
}

std::string firmware_table(const Json& doc, const SavedResult& saved) {
  std::vector<std::string> rows;
  for (const auto& [name, bytes] : saved.firmware_geometry) {
    rows.push_back(data_row({html_text(name), format_size(bytes)}));
  }
  return html_table("firmware", {"firmware field", "reported"}, rows, firmware_reason(doc));
}

// A confidence belongs to a found answer; the document's 0.0 beside a null
// is no measure of anything, so it is not shown as one.
std::string confidence(const Json& unit) {
  return raw_text(unit, "state") == "found" ? number_text(unit, "confidence", 3) : "-";
}

std::string unit_rows(const Json& detected) {
  std::string rows;
  for (const char* key : kDetectedUnits) {
    const Json& u = field(detected, key);
    if (!u.is_object()) continue;
    rows += data_row({html_text(unit_label(key)), html_text(state_words(raw_text(u, "state"))), size_text(u, "bytes"),
                      confidence(u), text(u, "regime", "-"), text(u, "device_state", "-")});
  }
  return rows;
}

// parallelism and write_parallelism: four values of another shape.
std::string value_text(const Json& v, const std::string& key) {
  if (key == "interleave_bytes") return size_text(v, "value");
  if (key == "plateau_iops") return number_text(v, "value", 0) + (number_of(v, "value") ? " IO/s" : "");
  return number_text(v, "value", 0);
}

std::string parallelism_rows(const Json& detected, const char* probe) {
  std::string rows;
  const Json& values = field(detected, probe);
  if (!values.is_object()) return rows;
  for (const auto& [key, v] : values.items()) {
    rows += data_row({html_text(unit_label(probe) + ": " + unit_label(key)), html_text(state_words(raw_text(v, "state"))),
                      value_text(v, key), confidence(v), "-", "-"});
  }
  return rows;
}

std::string detected_table(const Json& doc) {
  const Json& detected = field(doc, "detected");
  std::string rows = unit_rows(detected) + parallelism_rows(detected, "parallelism") +
                     parallelism_rows(detected, "write_parallelism");
  return html_table("detected", {"unit", "answer", "measured", "confidence", "regime", "device state"},
                    rows.empty() ? std::vector<std::string>{} : std::vector<std::string>{rows},
                    "nothing detected in this document");
}

std::string value_or_none(const Json& m, const char* key) {
  const Json& v = field(m, key);
  if (v.is_null()) return "-";
  return bytes_of(m, key) ? fmt::format("{} ({} B)", format_size(*bytes_of(m, key)), *bytes_of(m, key))
                          : html_text(v.dump());
}

std::string mismatch_table(const Json& doc) {
  std::vector<std::string> rows;
  for (const Json& m : field(doc, "mismatches")) {
    rows.push_back(data_row({text(m, "severity"), text(m, "field"), value_or_none(m, "reported"),
                             value_or_none(m, "detected"), text(m, "message")}));
  }
  return html_table("mismatches", {"severity", "field", "reported", "measured or implied", "why it matters"}, rows,
                    "no mismatch: every reported value checked agrees with what was measured");
}

}  // namespace

std::string reported_section(const Json& doc, const SavedResult& saved) {
  std::string out = "<h3>Kernel (sysfs)</h3>\n" + sysfs_table(doc);
  out += "<h3>Firmware geometry</h3>\n" + firmware_table(doc, saved);
  out += "<h3>Measured</h3>\n" + detected_table(doc);
  out += "<h3>Mismatches</h3>\n" + mismatch_table(doc);
  return out;
}

}  // namespace ssdprobe
