#include "report/saved_result.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <array>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/error.h"
#include "core/unique_fd.h"
#include "report/saved_row_facts.h"

namespace ssdprobe {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// The geometry a firmware page reports, by the document's own names
// (docs/result-json.md reported.nvme / reported.ata / reported.scsi).
constexpr std::array kNvmeGeometry = {"lba_bytes",   "npwg_bytes",  "npwa_bytes",   "npdg_bytes",
                                      "npda_bytes",  "nows_bytes",  "noiob_bytes",  "nawun_bytes",
                                      "nawupf_bytes", "awun_bytes", "awupf_bytes"};
constexpr std::array kAtaGeometry = {"logical_sector_bytes", "physical_sector_bytes", "alignment_offset_bytes"};

// One document being read: every failure names the file and the field.
class DocumentReader {
 public:
  DocumentReader(const std::string& file, GridDetail detail, ChartData charts = ChartData::skip)
      : file_(file), detail_(detail), charts_(charts == ChartData::read) {}

  [[noreturn]] void bad(const std::string& why) const {
    throw Error(ErrorCategory::usage, fmt::format("{}: {}", file_, why));
  }
  // The whole document is parsed (and so validated) before any field is
  // read: what is left to go wrong is a field of the wrong type.
  void check(simdjson::error_code error, std::string_view where) const {
    if (error == simdjson::SUCCESS) return;
    bad(fmt::format("{} has the wrong type ({})", where, simdjson::error_message(error)));
  }

  bool is_null(element v) const { return v.type() == element_type::NULL_VALUE; }
  std::string text(element v, std::string_view where) const {
    if (is_null(v)) return "";
    std::string_view s;
    check(v.get_string().get(s), where);
    return std::string(s);
  }
  std::optional<uint64_t> optional_uint(element v, std::string_view where) const {
    if (is_null(v)) return std::nullopt;
    uint64_t n = 0;
    check(v.get_uint64().get(n), where);
    return n;
  }
  // Integers where the document has them; null and non-integers (a
  // negative or fractional number from a newer writer) read as absent.
  std::optional<uint64_t> lenient_uint(element v) const {
    uint64_t n = 0;
    if (v.get_uint64().get(n) != simdjson::SUCCESS) return std::nullopt;
    return n;
  }
  double number(element v, std::string_view where) const {
    if (is_null(v)) return std::numeric_limits<double>::quiet_NaN();
    double d = 0;
    check(v.get_double().get(d), where);
    return d;
  }
  bool boolean(element v, std::string_view where) const {
    if (is_null(v)) return false;
    bool b = false;
    check(v.get_bool().get(b), where);
    return b;
  }

  // Calls visit(key, value) for every field of an object (null: none).
  template <typename Visit>
  void fields(element v, std::string_view where, Visit visit) const {
    if (is_null(v)) return;
    simdjson::dom::object o;
    check(v.get_object().get(o), where);
    for (auto [key, field] : o) visit(key, field);
  }
  template <typename Visit>
  void elements(element v, std::string_view where, Visit visit) const {
    if (is_null(v)) return;
    simdjson::dom::array a;
    check(v.get_array().get(a), where);
    for (element e : a) visit(e);
  }

  std::vector<uint64_t> uint_list(element v, std::string_view where) const {
    std::vector<uint64_t> out;
    elements(v, where, [&](element e) {
      uint64_t n = 0;
      check(e.get_uint64().get(n), where);
      out.push_back(n);
    });
    return out;
  }
  template <typename T, typename Read>
  std::vector<std::vector<T>> matrix(element v, std::string_view where, Read read) const {
    std::vector<std::vector<T>> rows;
    elements(v, where, [&](element row) {
      rows.emplace_back();
      elements(row, where, [&](element cell) { rows.back().push_back(read(cell)); });
    });
    return rows;
  }

  void read_document(element doc, SavedResult& out) const {
    simdjson::dom::object top;
    if (doc.get_object().get(top)) bad("is not an ssdprobe result document (not a JSON object)");
    // The schema decides how to read the rest (key order is not part of
    // the contract, so it is looked up, not expected first).
    element schema;
    if (top["schema"].get(schema)) bad("is not an ssdprobe result document (no \"schema\")");
    read_schema(text(schema, "schema"), out);
    for (auto [key, v] : top) {
      if (key == "tool") {
        fields(v, "tool", [&](std::string_view k, element f) {
          if (k == "version") out.tool_version = text(f, "tool.version");
        });
      } else if (key == "started_at") {
        out.started_at = text(v, "started_at");
      } else if (key == "duration_s") {
        out.duration_s = number(v, "duration_s");
      } else if (key == "options") {
        fields(v, "options", [&](std::string_view k, element f) {
          if (k == "write") out.write = boolean(f, "options.write");
        });
      } else if (key == "target") {
        read_target(v, out);
      } else if (key == "reported") {
        read_reported(v, out);
      } else if (key == "detected") {
        read_detected(v, out);
      } else if (key == "mismatches") {
        read_mismatches(v, out);
      } else if (key == "recommendations") {
        fields(v, "recommendations", [&](std::string_view k, element f) {
          if (k == "partition_alignment_bytes") out.partition_alignment = optional_uint(f, "recommendations.partition_alignment_bytes");
          if (k == "partition_start_bytes") out.partition_start = optional_uint(f, "recommendations.partition_start_bytes");
        });
      } else if (key == "grids") {
        if (detail_ != GridDetail::none) read_grids(v, out);
      } else if (key == "run") {
        out.measured = !is_null(v);
      } else if (charts_) {
        read_chart_top(key, v, out.charts);
      }
    }
  }

  // --- compare's coverage and grouping fields (SavedResult's last block),
  // kept apart from the main walk: looked up by key after it.
  void read_fleet_identity(element doc, SavedResult& out) const {
    element v;
    if (!doc["hostname"].get(v)) out.hostname = text(v, "hostname");
    element nvme;
    if (doc.at_pointer("/reported/nvme").get(nvme) || is_null(nvme)) return;
    // Leniently: a WWID only tells drives apart, so an odd value (not a
    // string) is no WWID rather than a reason to refuse the document.
    for (const char* name : {"nguid", "eui64"}) {
      std::string_view id;
      if (nvme[name].get_string().get(id)) continue;
      if (id.find_first_not_of('0') != std::string_view::npos) {
        out.wwid = std::string(id);
        return;
      }
    }
  }

  // --- The monitoring fields (SavedResult's last block), also leniently:
  // a metric left out is better than a document refused for its verdict.
  void read_monitoring_fields(element doc, SavedResult& out) const {
    simdjson::dom::object counts;
    if (!doc.at_pointer("/verdict/findings_by_severity").get(counts)) {
      for (auto [severity, count] : counts) {
        uint64_t n = 0;
        if (!count.get_uint64().get(n)) out.findings_by_severity.emplace_back(std::string(severity), n);
      }
    }
    out.command = out.measured ? "run" : "info";
    simdjson::dom::array words;
    if (out.measured || doc["command_line"].get_array().get(words)) return;
    // The first word that names a command (options may come before it).
    for (element word : words) {
      std::string_view w;
      if (!word.get_string().get(w) && (w == "audit" || w == "info")) {
        out.command = std::string(w);
        return;
      }
    }
  }

  // --- The NVMe SMART log's wear counters (SavedResult's wear block),
  // leniently: an odd value is no reading, never a refused document.
  void read_wear(element doc, SavedResult& out) const {
    element smart;
    if (doc.at_pointer("/reported/nvme/smart").get(smart) || is_null(smart)) return;
    uint64_t n = 0;
    if (!smart["percentage_used"].get_uint64().get(n)) out.percentage_used = n;
    if (!smart["data_units_written_bytes"].get_uint64().get(n)) out.data_written_bytes = n;
  }

  // --- How the run ended (SavedResult::stopped), leniently: a document is
  // never refused for its phases. The phases are what every other sign is
  // built from, so they are asked first, worded as the verdict words them
  // (run/verdict_builder.cc stopped_phrase): the first interrupted phase, or
  // at the first phase not run the failure before it (else that phase).
  // Without phases: the verdict's own `stopped`, then `interrupted: true`.
  void read_run_stop(element doc, SavedResult& out) const {
    simdjson::dom::array phases;
    if (!doc["phases"].get_array().get(phases)) {
      std::string_view failed_name, failed_reason;  // the last failed phase so far
      for (element phase : phases) {
        std::string_view name, state, reason;
        if (phase["state"].get_string().get(state)) continue;
        if (phase["name"].get_string().get(name)) name = {};
        if (phase["reason"].get_string().get(reason)) reason = {};  // null: no reason given
        if (state == "failed") {
          failed_name = name;
          failed_reason = reason;
        } else if (state == "interrupted" || state == "not_run") {
          const bool by_failure = state == "not_run" && !failed_name.empty();  // that failure stopped the run
          out.stopped = by_failure ? stop_phrase(failed_name, failed_reason) : stop_phrase(name, reason);
          return;
        }
      }
    }
    std::string_view stopped;
    if (!doc.at_pointer("/verdict/stopped").get_string().get(stopped) && !stopped.empty()) {
      out.stopped = std::string(stopped);
      return;
    }
    bool interrupted = false;
    if (!doc["interrupted"].get_bool().get(interrupted) && interrupted) out.stopped = "run interrupted by a signal";
  }

 private:
  static std::string stop_phrase(std::string_view phase, std::string_view reason) {
    const std::string where = phase.empty() ? "run stopped early" : fmt::format("run stopped in the {} phase", phase);
    return reason.empty() ? where : fmt::format("{} ({})", where, reason);
  }

  void read_schema(const std::string& schema, SavedResult& out) const {
    const auto version = parse_schema_version(schema);
    if (!version) bad(fmt::format("is not an ssdprobe result document (schema \"{}\")", schema));
    if (version->first != 1) {
      bad(fmt::format("has schema \"{}\", major version {}; this ssdprobe reads ssdprobe/1 (and its minor versions)",
                      schema, version->first));
    }
    out.schema_major = version->first;
    out.schema_minor = version->second;
  }

  void read_target(element v, SavedResult& out) const {
    fields(v, "target", [&](std::string_view k, element f) {
      if (k == "path") out.path = text(f, "target.path");
      else if (k == "kind") out.kind = text(f, "target.kind");
      else if (k == "model") out.model = text(f, "target.model");
      else if (k == "serial") out.serial = text(f, "target.serial");
      else if (k == "firmware") out.firmware = text(f, "target.firmware");
      else if (k == "transport") out.transport = text(f, "target.transport");
      else if (k == "size_bytes") out.size_bytes = optional_uint(f, "target.size_bytes").value_or(0);
    });
  }

  void read_reported(element v, SavedResult& out) const {
    fields(v, "reported", [&](std::string_view k, element f) {
      if (k == "logical_block_size") out.logical_block = optional_uint(f, "reported.logical_block_size");
      else if (k == "physical_block_size") out.physical_block = optional_uint(f, "reported.physical_block_size");
      else if (k == "minimum_io_size") out.minimum_io = optional_uint(f, "reported.minimum_io_size");
      else if (k == "optimal_io_size") out.optimal_io = optional_uint(f, "reported.optimal_io_size");
      // May be negative as the kernel prints it (docs/result-json.md): read
      // leniently, so such a document is not refused for a field no reader
      // of SavedResult needs the sign of.
      else if (k == "alignment_offset") out.alignment_offset = lenient_uint(f);
      else if (k == "nvme") read_geometry(f, "nvme", kNvmeGeometry, out);
      else if (k == "ata") read_geometry(f, "ata", kAtaGeometry, out);
      else if (k == "scsi") read_scsi_geometry(f, out);
    });
  }

  template <size_t N>
  void read_geometry(element v, std::string_view page, const std::array<const char*, N>& names, SavedResult& out) const {
    const std::string where = fmt::format("reported.{}", page);
    fields(v, where, [&](std::string_view k, element f) {
      for (const char* name : names) {
        if (k != name) continue;
        if (auto bytes = lenient_uint(f)) out.firmware_geometry.emplace_back(fmt::format("{}.{}", page, k), *bytes);
      }
    });
  }

  void read_scsi_geometry(element v, SavedResult& out) const {
    fields(v, "reported.scsi", [&](std::string_view k, element f) {
      if (k == "read_capacity16") {
        fields(f, "reported.scsi.read_capacity16", [&](std::string_view k2, element g) {
          if (k2 == "physical_block_bytes" || k2 == "lowest_aligned_bytes") {
            if (auto bytes = lenient_uint(g))
              out.firmware_geometry.emplace_back(fmt::format("scsi.{}", k2), *bytes);
          }
        });
      } else if (k == "block_limits") {
        fields(f, "reported.scsi.block_limits", [&](std::string_view k2, element g) {
          if (k2 == "optimal_transfer_length_granularity_bytes" || k2 == "optimal_transfer_length_bytes" ||
              k2 == "optimal_unmap_granularity_bytes") {
            if (auto bytes = lenient_uint(g))
              out.firmware_geometry.emplace_back(fmt::format("scsi.{}", k2), *bytes);
          }
        });
      }
    });
  }

  void read_detected(element v, SavedResult& out) const {
    fields(v, "detected", [&](std::string_view k, element f) {
      const std::string where = fmt::format("detected.{}", k);
      if (k == "slc_cache") {  // its unit fields are not read; the write unit measured inside it is
        fields(f, where, [&](std::string_view ck, element g) {
          if (ck == "write_unit" && !is_null(g)) {
            read_unit(g, where + ".write_unit", out.write_unit_in_cache);
          }
        });
        if (charts_) read_cache_curve(f, where, out.charts.slc_cache);
        return;
      }
      if (charts_ && (k == "parallelism" || k == "write_parallelism")) {
        read_parallel_values(f, where, k == "parallelism" ? out.charts.read_sweep : out.charts.write_sweep);
        return;
      }
      SavedUnit* unit = k == "read_page" ? &out.read_page : k == "write_unit" ? &out.write_unit
                      : k == "erase_block" ? &out.erase_block : nullptr;
      if (unit) read_unit(f, where, *unit);
    });
  }

  void read_unit(element f, const std::string& where, SavedUnit& unit) const {
    fields(f, where, [&](std::string_view uk, element g) {
      if (uk == "bytes") unit.bytes = optional_uint(g, where + ".bytes");
      else if (uk == "state") unit.state = text(g, where + ".state");
      else if (uk == "confidence") unit.confidence = number(g, where + ".confidence");
      else if (uk == "searched_up_to_bytes") unit.searched_up_to_bytes = optional_uint(g, where + "." + std::string(uk));
      else if (uk == "to_determine") unit.to_determine = text(g, where + ".to_determine");
      else if (uk == "best_candidate_bytes") unit.best_candidate_bytes = optional_uint(g, where + "." + std::string(uk));
      else if (uk == "best_candidate_support") unit.best_candidate_support = number(g, where + "." + std::string(uk));
    });
  }

  void read_mismatches(element v, SavedResult& out) const {
    elements(v, "mismatches", [&](element m) {
      SavedMismatch mismatch;
      fields(m, "mismatches[]", [&](std::string_view k, element f) {
        if (k == "field") mismatch.field = text(f, "mismatches[].field");
        else if (k == "severity") mismatch.severity = text(f, "mismatches[].severity");
        else if (k == "reported") mismatch.reported = lenient_uint(f);
        else if (k == "detected") mismatch.detected = lenient_uint(f);
      });
      out.mismatches.push_back(std::move(mismatch));
    });
  }

  void read_grids(element v, SavedResult& out) const {
    elements(v, "grids", [&](element g) {
      SavedGrid grid;
      fields(g, "grids[]", [&](std::string_view k, element f) {
        const std::string where = fmt::format("grids[].{}", k);
        auto latency = [&](element cell) { return number(cell, where); };
        if (k == "name") grid.name = text(f, where);
        else if (k == "op") grid.op = text(f, where);
        else if (k == "queue_depth") grid.queue_depth = static_cast<uint32_t>(optional_uint(f, where).value_or(1));
        else if (k == "sizes") grid.sizes = uint_list(f, where);
        else if (k == "offsets") grid.offsets = uint_list(f, where);
        else if (k == "median_us") grid.median_us = matrix<double>(f, where, latency);
        else if (detail_ != GridDetail::full) return;
        else if (k == "p10_us") grid.p10_us = matrix<double>(f, where, latency);
        else if (k == "p90_us") grid.p90_us = matrix<double>(f, where, latency);
        else if (k == "samples") {
          grid.samples = matrix<uint32_t>(f, where, [&](element cell) {
            uint64_t n = 0;
            check(cell.get_uint64().get(n), where);
            return static_cast<uint32_t>(std::min<uint64_t>(n, std::numeric_limits<uint32_t>::max()));
          });
        }
      });
      check_shape(grid);
      out.grids.push_back(std::move(grid));
    });
  }

  // Plots and comparisons index matrices by sizes x offsets: a document
  // whose matrices do not have that shape is refused here, once.
  void check_shape(const SavedGrid& grid) const {
    auto check_matrix = [&](const auto& m, const char* name, bool required) {
      if (m.empty() && !required) return;
      bool ok = m.size() == grid.sizes.size();
      for (const auto& row : m) ok = ok && row.size() == grid.offsets.size();
      if (!ok) {
        bad(fmt::format("grid \"{}\": {} is not {} sizes x {} offsets", grid.name, name, grid.sizes.size(),
                        grid.offsets.size()));
      }
    };
    check_matrix(grid.median_us, "median_us", true);
    check_matrix(grid.p10_us, "p10_us", detail_ == GridDetail::full);
    check_matrix(grid.p90_us, "p90_us", detail_ == GridDetail::full);
    check_matrix(grid.samples, "samples", detail_ == GridDetail::full);
  }

  // ---- The chart data (ChartData::read only): parallelism probes, the erase
  // ---- stream, the SLC cache curve, the audit's costs.
  void read_chart_top(std::string_view key, element v, SavedChartData& out) const {
    if (key == "parallelism_probe") read_sweep(v, "parallelism_probe", out.read_sweep);
    else if (key == "write_parallelism_probe") read_sweep(v, "write_parallelism_probe", out.write_sweep);
    else if (key == "write_probe") read_stream(v, out.stream);
    else if (key == "audit") read_audit_costs(v, out);
  }

  void read_sweep(element v, const std::string& where, SavedQueueSweep& sweep) const {
    if (is_null(v)) return;
    sweep.present = true;
    fields(v, where, [&](std::string_view k, element f) {
      const std::string at = fmt::format("{}.{}", where, k);
      if (k == "read_bytes" || k == "write_bytes") sweep.io_bytes = optional_uint(f, at).value_or(0);
      if (k != "queue_depths") return;
      elements(f, at, [&](element d) {
        SavedDepth depth;
        fields(d, at + "[]", [&](std::string_view dk, element g) {
          const std::string dat = fmt::format("{}[].{}", at, dk);
          if (dk == "queue_depth") depth.queue_depth = static_cast<uint32_t>(optional_uint(g, dat).value_or(0));
          else if (dk == "iops") depth.iops = number(g, dat);
          else if (dk == "p50_us") depth.p50_us = number(g, dat);
          else if (dk == "p99_us") depth.p99_us = number(g, dat);
        });
        sweep.depths.push_back(depth);
      });
    });
  }

  void read_parallel_values(element v, const std::string& where, SavedQueueSweep& sweep) const {
    fields(v, where, [&](std::string_view k, element f) {
      SavedParallelValue* value = k == "queue_depth_knee" ? &sweep.knee : k == "plateau_iops" ? &sweep.plateau : nullptr;
      if (value == nullptr) return;
      const std::string at = fmt::format("{}.{}", where, k);
      fields(f, at, [&](std::string_view vk, element g) {
        const std::string vat = fmt::format("{}.{}", at, vk);
        if (vk == "value") {
          if (!is_null(g)) value->value = number(g, vat);
        } else if (vk == "state") {
          value->state = text(g, vat);
        } else if (vk == "confidence") {
          value->confidence = number(g, vat);
        } else if (vk == "interval" && !is_null(g)) {
          std::vector<double> ends;
          elements(g, vat, [&](element e) { ends.push_back(number(e, vat)); });
          if (ends.size() != 2) bad(fmt::format("{} is not an array of 2 numbers", vat));
          value->interval = std::pair{ends[0], ends[1]};
        }
      });
    });
  }

  void read_stream(element v, SavedStream& stream) const {
    fields(v, "write_probe", [&](std::string_view k, element f) {
      if (k == "region") {
        fields(f, "write_probe.region", [&](std::string_view rk, element g) {
          if (rk == "offset") stream.region_offset = optional_uint(g, "write_probe.region.offset").value_or(0);
        });
      } else if (k == "stream" && !is_null(f)) {
        stream.present = true;
        fields(f, "write_probe.stream", [&](std::string_view sk, element g) {
          const std::string at = fmt::format("write_probe.stream.{}", sk);
          if (sk == "offset") stream.stream_offset = optional_uint(g, at);
          else if (sk == "chunk_bytes") stream.chunk_bytes = optional_uint(g, at).value_or(0);
          else if (sk == "streamed_bytes") stream.streamed_bytes = optional_uint(g, at).value_or(0);
          else if (sk == "latency_us") elements(g, at, [&](element e) { stream.latency_us.push_back(number(e, at)); });
        });
      }
    });
  }

  void read_cache_curve(element v, const std::string& where, SavedCacheCurve& cache) const {
    if (is_null(v)) return;
    read_unit(v, where, cache.unit);
    fields(v, where, [&](std::string_view k, element f) {
      const std::string at = fmt::format("{}.{}", where, k);
      if (k == "in_cache_bytes_per_s" && !is_null(f)) cache.in_cache_bytes_per_s = number(f, at);
      else if (k == "native_bytes_per_s" && !is_null(f)) cache.native_bytes_per_s = number(f, at);
      else if (k == "written_bytes") cache.written_bytes = optional_uint(f, at).value_or(0);
      else if (k == "cap_bytes") cache.cap_bytes = optional_uint(f, at).value_or(0);
      else if (k == "io_bytes") cache.io_bytes = optional_uint(f, at).value_or(0);
      else if (k == "curve") {
        elements(f, at, [&](element p) {
          std::pair<uint64_t, double> point{0, 0.0};
          fields(p, at + "[]", [&](std::string_view pk, element g) {
            if (pk == "written_bytes") point.first = optional_uint(g, at + "[].written_bytes").value_or(0);
            else if (pk == "bytes_per_s") point.second = number(g, at + "[].bytes_per_s");
          });
          cache.curve.push_back(point);
        });
      }
    });
  }

  void read_audit_costs(element v, SavedChartData& out) const {
    if (is_null(v)) return;
    out.audit_present = true;
    fields(v, "audit", [&](std::string_view k, element f) {
      if (k == "available") out.audit_available = boolean(f, "audit.available");
      else if (k == "reason") out.audit_reason = text(f, "audit.reason");
      else if (k == "checks") elements(f, "audit.checks", [&](element c) { read_costed_start(c, out.costed_starts); });
      else if (k == "at") elements(f, "audit.at", [&](element c) { read_costed_start(c, out.costed_at); });
    });
  }

  void read_costed_start(element v, std::vector<SavedCostedStart>& out) const {
    SavedCostedStart start;
    fields(v, "audit.checks[]", [&](std::string_view k, element f) {
      const std::string at = fmt::format("audit.checks[].{}", k);
      if (k == "field") start.field = text(f, at);
      else if (k == "layer") start.layer = text(f, at);
      else if (k == "disk_offset") start.disk_offset = optional_uint(f, at);
      else if (k == "value_bytes") start.value_bytes = optional_uint(f, at).value_or(0);
      else if (k == "ok") start.ok = boolean(f, at);
      else if (k == "costs") elements(f, at, [&](element c) { start.costs.push_back(read_cost(c)); });
    });
    if (!start.costs.empty()) out.push_back(std::move(start));
  }

  SavedCost read_cost(element v) const {
    SavedCost cost;
    fields(v, "audit.checks[].costs[]", [&](std::string_view k, element f) {
      const std::string at = fmt::format("audit.checks[].costs[].{}", k);
      auto optional_number = [&]() -> std::optional<double> {
        if (is_null(f)) return std::nullopt;
        return number(f, at);
      };
      if (k == "op") cost.op = text(f, at);
      else if (k == "grid") cost.grid = text(f, at);
      else if (k == "evidence") cost.evidence = text(f, at);
      else if (k == "request_bytes") cost.request_bytes = optional_uint(f, at).value_or(0);
      else if (k == "determined") cost.determined = boolean(f, at);
      else if (k == "significant") cost.significant = boolean(f, at);
      else if (k == "ratio") cost.ratio = optional_number();
      else if (k == "ratio_low") cost.ratio_low = optional_number();
      else if (k == "ratio_high") cost.ratio_high = optional_number();
    });
    return cost;
  }

  const std::string& file_;
  GridDetail detail_;
  bool charts_ = false;
};

}  // namespace

std::optional<std::pair<int, int>> parse_schema_version(const std::string& schema) {
  constexpr std::string_view prefix = "ssdprobe/";
  if (schema.size() <= prefix.size() || schema.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const char* first = schema.data() + prefix.size();
  const char* last = schema.data() + schema.size();
  int major = 0, minor = 0;
  auto [after_major, major_error] = std::from_chars(first, last, major);
  if (major_error != std::errc() || after_major == first || major < 0) return std::nullopt;
  if (after_major == last) return std::pair{major, 0};
  if (*after_major != '.') return std::nullopt;
  auto [after_minor, minor_error] = std::from_chars(after_major + 1, last, minor);
  if (minor_error != std::errc() || after_minor == after_major + 1 || after_minor != last || minor < 0) {
    return std::nullopt;
  }
  return std::pair{major, minor};
}

namespace {

// One parser per thread, reused: its buffers grow to the largest document
// once instead of once per file. The DOM parser picks the fastest kernel
// for this CPU at run time (on-demand parsing would fix it at build time).
simdjson::dom::parser& thread_parser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

// Reads a document file whole, refusing before reading anything what is not
// one: a FIFO (opened without blocking, so an absent writer cannot hang the
// command), a device (a disk would be read whole into memory), a directory,
// and a file larger than kMaxDocumentBytes.
simdjson::padded_string read_document_file(const std::string& file, const DocumentReader& reader) {
  const UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) reader.bad(std::string("cannot be read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) reader.bad(std::string("cannot be read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) reader.bad("cannot be read: it is a directory");
  if (!S_ISREG(st.st_mode)) reader.bad("is not a regular file (a FIFO, socket or device): not read");
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > kMaxDocumentBytes) {
    reader.bad(fmt::format("is {} bytes, more than the {} MiB a result document may be: not read", size,
                           kMaxDocumentBytes >> 20));
  }
  simdjson::padded_string text(static_cast<size_t>(size));
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd.get(), text.data() + done, static_cast<size_t>(size) - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) reader.bad(std::string("cannot be read: ") + std::strerror(errno));
    if (n == 0) break;  // shrank while being read: parse what is there
    done += static_cast<size_t>(n);
  }
  if (done == size) return text;
  return simdjson::padded_string(text.data(), done);
}

SavedResult read_parsed(simdjson::simdjson_result<element> parsed, const DocumentReader& reader,
                        const std::string& name, RowFacts row) {
  element doc;
  if (auto error = parsed.get(doc)) {
    if (error == simdjson::EMPTY) reader.bad("is empty");
    reader.bad(fmt::format("is not valid JSON or is cut short ({})", simdjson::error_message(error)));
  }
  SavedResult out;
  out.file = name;
  reader.read_document(doc, out);
  reader.read_fleet_identity(doc, out);
  reader.read_monitoring_fields(doc, out);
  reader.read_run_stop(doc, out);
  reader.read_wear(doc, out);
  if (row == RowFacts::read) read_row_facts(doc, out.row);
  return out;
}

}  // namespace

SavedResult read_saved_result(const std::string& file, GridDetail detail, ChartData charts, RowFacts row) {
  const DocumentReader reader(file, detail, charts);
  const simdjson::padded_string text = read_document_file(file, reader);
  return read_parsed(thread_parser().parse(text), reader, file, row);
}

SavedResult parse_saved_result(std::string_view text, const std::string& name, GridDetail detail,
                               ChartData charts, RowFacts row) {
  const DocumentReader reader(name, detail, charts);
  return read_parsed(thread_parser().parse(text.data(), text.size(), true), reader, name, row);
}

}  // namespace ssdprobe
