#include "report/saved_row_facts.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

namespace ssdprobe {
namespace {

using simdjson::dom::element;

class RowFactsReader {
 public:
  explicit RowFactsReader(SavedRowFacts& out) : out_(out) {}

  void read(element doc) {
    element v;
    if (!doc.at_pointer("/target/disk").get(v)) out_.disk = string_or_empty(v);
    if (!doc["detected"].get(v)) read_detected(v);
    if (!doc["reported"].get(v)) read_reported(v);
    if (!doc["audit"].get(v)) read_audit(v);
  }

 private:
  static std::string string_or_empty(element v) {
    std::string_view s;
    return v.get_string().get(s) ? std::string() : std::string(s);
  }
  template <typename Visit>
  static void each_field(element v, Visit visit) {
    simdjson::dom::object o;
    if (v.get_object().get(o)) return;
    for (auto [key, field] : o) visit(key, field);
  }
  template <typename Visit>
  static void each_element(element v, Visit visit) {
    simdjson::dom::array a;
    if (v.get_array().get(a)) return;
    for (element e : a) visit(e);
  }

  static SavedUnit unit(element v) {
    SavedUnit u;
    each_field(v, [&](std::string_view k, element f) {
      uint64_t n = 0;
      double d = 0;
      if (k == "bytes" && !f.get_uint64().get(n)) u.bytes = n;
      else if (k == "state") u.state = string_or_empty(f);
      else if (k == "confidence" && !f.get_double().get(d)) u.confidence = d;
      else if (k == "searched_up_to_bytes" && !f.get_uint64().get(n)) u.searched_up_to_bytes = n;
    });
    return u;
  }

  static SavedParallelValue parallel_value(element v) {
    SavedParallelValue p;
    each_field(v, [&](std::string_view k, element f) {
      double d = 0;
      if (k == "value" && !f.get_double().get(d)) p.value = d;
      else if (k == "state") p.state = string_or_empty(f);
      else if (k == "confidence" && !f.get_double().get(d)) p.confidence = d;
    });
    return p;
  }

  // Units have a `state`; parallelism and write_parallelism hold four values.
  void read_detected(element v) {
    each_field(v, [&](std::string_view k, element f) {
      if (k == "parallelism" || k == "write_parallelism") {
        each_field(f, [&](std::string_view name, element g) {
          out_.parallel_values.emplace_back(fmt::format("{}.{}", k, name), parallel_value(g));
        });
        return;
      }
      element state;
      if (f.get_object().at_key("state").get(state)) return;
      out_.units.emplace_back(std::string(k), unit(f));
      element inner;
      if (k == "slc_cache" && !f.get_object().at_key("write_unit").get(inner) && inner.is_object()) {
        out_.units.emplace_back("slc_cache_write_unit", unit(inner));
      }
    });
  }

  void read_reported(element v) {
    each_field(v, [&](std::string_view k, element f) {
      if (f.is_object() || f.is_array()) return;  // nvme, ata, ... expectations: not sysfs values
      out_.reported_json.emplace_back(std::string(k), simdjson::minify(f));
    });
  }

  void read_audit(element v) {
    if (!v.is_object()) return;
    SavedAuditCounts& a = out_.audit;
    a.present = true;
    each_field(v, [&](std::string_view k, element f) {
      bool b = false;
      if (k == "available" && !f.get_bool().get(b)) a.available = b;
      else if (k == "checks") each_element(f, [&](element c) { count_check(c); });
      else if (k == "at") each_element(f, [&](element c) { read_costs(c, "at"); });
    });
  }

  void count_check(element c) {
    SavedAuditCounts& a = out_.audit;
    ++a.checks;
    std::string field, severity;
    bool ok = true;
    each_field(c, [&](std::string_view k, element f) {
      if (k == "field") field = string_or_empty(f);
      else if (k == "severity") severity = string_or_empty(f);
      else if (bool b = true; k == "ok" && !f.get_bool().get(b)) ok = b;
    });
    read_costs(c, field);
    if (ok) return;
    ++a.not_ok;
    if (severity == "error") ++a.errors;
    else if (severity == "warning") ++a.warnings;
    else ++a.infos;
    const bool start = field.starts_with("partition[") && field.ends_with("].start");
    if (start && (severity == "error" || severity == "warning")) ++a.misaligned_partitions;
  }

  void read_costs(element c, const std::string& field) {
    SavedAuditCounts& a = out_.audit;
    element costs;
    if (c.get_object().at_key("costs").get(costs)) return;
    each_element(costs, [&](element cost) {
      double ratio = 0, low = 0, high = 0;
      bool significant = false;
      uint64_t bytes = 0;
      simdjson::dom::object o;
      if (cost.get_object().get(o) || o["ratio"].get_double().get(ratio)) return;  // not determined
      if (a.worst_ratio && *a.worst_ratio >= ratio) return;
      a.worst_ratio = ratio;
      a.worst_ratio_low = o["ratio_low"].get_double().get(low) ? std::nullopt : std::optional<double>(low);
      a.worst_ratio_high = o["ratio_high"].get_double().get(high) ? std::nullopt : std::optional<double>(high);
      a.worst_significant = !o["significant"].get_bool().get(significant) && significant;
      a.worst_field = field;
      element op;
      a.worst_op = o["op"].get(op) ? std::string() : string_or_empty(op);
      a.worst_request_bytes = o["request_bytes"].get_uint64().get(bytes) ? 0 : bytes;
    });
  }

  SavedRowFacts& out_;
};

}  // namespace

void read_row_facts(const element& doc, SavedRowFacts& out) { RowFactsReader(out).read(doc); }

}  // namespace ssdprobe
