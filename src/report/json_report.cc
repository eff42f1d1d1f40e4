#include "report/json_report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fmt/format.h>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "core/output.h"
#include "firmware/nvme_format_advice.h"
#include "report/audit_render.h"
#include "report/enum_names.h"
#include "report/firmware_json.h"
#include "report/json_values.h"
#include "report/open_units_render.h"
#include "report/parallelism_render.h"
#include "report/utf8.h"
#include "report/verdict_render.h"
#include "report/zoned_write_render.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

json target_json(const ResultDocument& d) {
  const Topology& t = d.topology;
  return {{"path", d.path},
          {"kind", target_kind_name(d.kind)},
          {"size_bytes", t.size_bytes},
          {"model", text_or_null(t.model)},
          {"serial", text_or_null(t.serial)},
          {"firmware", text_or_null(t.firmware)},
          {"transport", t.transport},
          {"disk", text_or_null(t.disk_name)},
          {"partition", text_or_null(t.partition_name)},
          {"backing_file", text_or_null(t.backing_file)}};
}

// render(*value), or null when there is no value.
template <typename T, typename Render>
json rendered_or_null(const std::optional<T>& value, Render render) {
  return value ? render(*value) : json(nullptr);
}

json expectations_json(const std::vector<SysfsExpectation>& expectations) {
  json list = json::array();
  for (const auto& expectation : expectations) list.push_back(expectation_json(expectation));
  return list;
}

json reported_json(const Topology& t, const FirmwareSection& f) {
  return {{"logical_block_size", json_or_null(t.logical_block_size)},
          {"physical_block_size", json_or_null(t.physical_block_size)},
          {"minimum_io_size", json_or_null(t.minimum_io_size)},
          {"optimal_io_size", json_or_null(t.optimal_io_size)},
          {"alignment_offset", json_or_null(t.alignment_offset)},
          {"discard_granularity", json_or_null(t.discard_granularity)},
          {"discard_max_bytes", json_or_null(t.discard_max_bytes)},
          {"rotational", json_or_null(t.rotational)},
          {"max_sectors_kb", json_or_null(t.max_sectors_kb)},
          {"dma_alignment", json_or_null(t.dma_alignment)},
          {"write_cache", json_or_null(t.write_cache)},
          {"partition_start_bytes", t.partition_start_bytes},
          {"filesystem_block_size", json_or_null(t.filesystem_block_size)},
          {"kernel_version", t.kernel_version},
          {"source", "sysfs"},
          {"nvme", rendered_or_null(f.nvme, nvme_reported_json)},
          {"ata", rendered_or_null(f.ata, ata_reported_json)},
          {"scsi", rendered_or_null(f.scsi, scsi_reported_json)},
          {"smart", rendered_or_null(f.smart, smartctl_summary_json)},
          {"zoned", t.zoned ? zoned_reported_json(*t.zoned, f.zones) : json(nullptr)},
          {"mmc", rendered_or_null(f.mmc, mmc_reported_json)},
          {"scsi_host_driver", text_or_null(t.scsi_host_driver)},
          {"expectations", expectations_json(f.expectations)},
          {"identity_source", text_or_null(f.identity_source)}};
}

json detected_json(const DetectedUnit& unit) {
  json out = {{"bytes", json_or_null(unit.bytes)},
              {"state", unit_state_name(unit.state)},
              {"confidence", rounded(unit.confidence)},
              {"evidence", unit.evidence}};
  if (!unit.device_state.empty()) out["device_state"] = unit.device_state;
  if (unit.searched_up_to_bytes) out["searched_up_to_bytes"] = *unit.searched_up_to_bytes;
  if (!unit.to_determine.empty()) out["to_determine"] = unit.to_determine;
  if (!unit.regime.empty()) out["regime"] = unit.regime;
  if (unit.fit_dispersion) out["fit_dispersion"] = std::round(*unit.fit_dispersion * 100.0) / 100.0;
  if (unit.stall_floor_us) out["stall_floor_us"] = std::round(*unit.stall_floor_us);
  if (unit.best_candidate_bytes) {
    out["best_candidate_bytes"] = *unit.best_candidate_bytes;
    out["best_candidate_support"] = rounded(unit.best_candidate_support);
  }
  if (!unit.levels.empty()) {
    json levels = json::array();
    for (const auto& level : unit.levels) {
      levels.push_back({{"bytes", level.unit_bytes},
                        {"cost", unit_cost_key(level.cost)},
                        {"step_us", rounded(level.step_us)},
                        {"stderr_us", rounded(level.stderr_us)},
                        {"z", std::round(level.z * 10.0) / 10.0}});
      if (level.cost == UnitCost::per_stripe_round) levels.back()["stripe_units"] = level.stripe_units;
    }
    out["levels"] = levels;
  }
  return out;
}

json optional_rounded(const std::optional<double>& value) { return value ? json(rounded(*value)) : json(nullptr); }

// recommendations.block_size: null when no read page or write unit was found.
json block_size_json(const BlockSizePolicy& p) {
  if (!p.unit) return nullptr;
  auto bytes = [](const std::optional<uint64_t>& b) { return b ? json(*b) : json(nullptr); };
  return {{"text", block_size_sentence(p)}, {"unit_bytes", *p.unit}, {"unit", p.unit_name},
          {"physical_block_bytes", bytes(p.physical_block)},
          {"zfs_ashift", p.ashift ? json(*p.ashift) : json(nullptr)}, {"zfs_ashift_clamped", p.ashift_clamped},
          {"optimal_io_bytes", bytes(p.optimal_io)}};
}

// run.read_content: null when the grid's space was not sampled.
json read_content_json(const std::optional<ReadContent>& content) {
  if (!content) return nullptr;
  return {{"reads", content->reads}, {"bytes", content->bytes},
          {"only_byte", content->only_byte ? json(*content->only_byte) : json(nullptr)}};
}

json cache_recovery_json(const std::optional<CacheRecovery>& recovery) {
  if (!recovery) return nullptr;
  return {{"idle_s", rounded(recovery->idle_s)},
          {"state", unit_state_name(recovery->state)},
          {"bytes", json_or_null(recovery->bytes)},
          {"at_least_bytes", json_or_null(recovery->at_least_bytes)},
          {"evidence", recovery->evidence}};
}

// detected.slc_cache: the unit's fields, and the probe's measurements when it ran.
json slc_cache_json(const DetectedUnit& unit, const std::optional<SlcCacheDetail>& detail) {
  json out = detected_json(unit);
  if (!detail) return out;
  out["in_cache_bytes_per_s"] = optional_rounded(detail->in_cache_bytes_per_s);
  out["native_bytes_per_s"] = optional_rounded(detail->native_bytes_per_s);
  out["written_bytes"] = detail->written_bytes;
  out["cap_bytes"] = detail->cap_bytes;
  out["flat_stop_bytes"] = json_or_null(detail->flat_stop_bytes);
  out["ended_by"] = detail->ended_by;
  out["io_bytes"] = detail->io_bytes;
  out["idle_s"] = rounded(detail->idle_s);
  json curve = json::array();
  for (const auto& point : detail->curve) {
    curve.push_back({{"written_bytes", point.written_bytes}, {"bytes_per_s", rounded(point.bytes_per_s)}});
  }
  out["curve"] = curve;
  out["recovery"] = cache_recovery_json(detail->recovery);
  out["write_unit"] = detail->write_unit ? detected_json(*detail->write_unit) : json(nullptr);
  out["write_unit_written_bytes"] = detail->write_unit_written_bytes;
  return out;
}

// detected.write_stripe: the unit's fields, what it is made of and its tie
// to the parallelism probe (run/stripe_parallelism.h).
json write_stripe_json(const DetectedUnit& unit, const WriteStripeDetail& detail) {
  json out = detected_json(unit);
  out["program_unit_bytes"] = json_or_null(detail.program_unit_bytes);
  out["units"] = json_or_null(detail.units);
  out["parallel_units"] = json_or_null(detail.parallel_units);
  out["parallel_units_from"] = text_or_null(detail.parallel_units_from);
  out["agrees_with_parallel_units"] = json_or_null(detail.agrees);
  return out;
}

json rounded_list(const std::vector<double>& values) {
  json list = json::array();
  for (double v : values) list.push_back(rounded(v));
  return list;
}

json first_look_json(const FirstLook& look) {
  if (look.request_bytes == 0) return nullptr;
  return {{"request_bytes", look.request_bytes},
          {"ios", look.ios},
          {"rounds", look.rounds},
          {"unit_bytes", look.unit ? json(*look.unit) : json(nullptr)},
          {"support", rounded(look.support)}};
}

json grid_json(const GridReport& report) {
  const LatencyGrid& g = report.grid;
  json median = json::array(), p10 = json::array(), p90 = json::array(), p99 = json::array(), count = json::array();
  for (size_t i = 0; i < g.sizes.size(); ++i) {
    json m = json::array(), a = json::array(), b = json::array(), c = json::array(), n = json::array();
    for (size_t j = 0; j < g.offsets.size(); ++j) {
      const CellSummary s = summarize_cell(g.cell(i, j));
      m.push_back(rounded(s.median_us));
      a.push_back(rounded(s.p10_us));
      b.push_back(rounded(s.p90_us));
      c.push_back(rounded(s.p99_us));
      n.push_back(s.count);
    }
    median.push_back(m);
    p10.push_back(a);
    p90.push_back(b);
    p99.push_back(c);
    count.push_back(n);
  }
  return {{"name", report.name}, {"op", report.op},       {"queue_depth", report.queue_depth},
          {"sizes", g.sizes},    {"offsets", g.offsets},  {"median_us", median},
          {"p10_us", p10},       {"p90_us", p90},         {"p99_us", p99},
          {"samples", count},    {"round_shift_us", rounded_list(report.round_shift_us)},
          {"first_look", first_look_json(report.first_look)}};
}

json write_stalls_json(const WriteStalls& s) {
  return {{"writes", s.writes},
          {"stalled", s.stalled},
          {"heavy", s.heavy()},
          {"median_us", rounded(s.median_us)},
          {"stalled_median_us", rounded(s.stalled_median_us)},
          {"threshold_us", rounded(s.threshold_us)}};
}

json write_probe_json(const std::optional<WriteProbeSummary>& w) {
  if (!w) return nullptr;
  json stream = json::array();
  for (double us : w->stream_latency_us) stream.push_back(rounded(us));
  return {{"region", {{"offset", w->offset}, {"length", w->length}}},
          {"preserved", w->preserved},
          {"journal", text_or_null(w->journal)},
          {"bytes_written", w->bytes_written},
          {"announced_bytes", w->announced_bytes},
          {"restored", w->nothing_written ? json(nullptr) : json(w->restored)},
          {"restore", text_or_null(w->restore_message)},
          {"restore_bytes_written", w->restore_bytes_written ? json(*w->restore_bytes_written) : json(nullptr)},
          {"write_amplification", rendered_or_null(w->write_amplification, write_amplification_json)},
          {"grid", {{"rounds", w->grid_rounds}, {"stop_reason", stop_reason_name(w->grid_stop_reason)},
                    {"stalls", rendered_or_null(w->grid_stalls, write_stalls_json)}}},
          {"stream", {{"offset", w->stream_offset}, {"chunk_bytes", w->stream_chunk_bytes}, {"streamed_bytes", w->streamed_bytes}, {"latency_us", stream}}}};
}

json option_json(const OptionValue& value) {
  struct Visitor {
    json operator()(std::monostate) const { return nullptr; }
    json operator()(bool b) const { return b; }
    json operator()(uint64_t n) const { return n; }
    json operator()(double d) const { return d; }
    json operator()(const std::string& s) const { return s; }
    json operator()(const Region& r) const { return {{"offset", r.offset}, {"length", r.length}}; }
  };
  return std::visit(Visitor{}, value);
}

json options_json(const OptionEcho& echo) {
  json out = json::object();
  for (const auto& [key, value] : echo.entries()) out[key] = option_json(value);
  return out;
}

json step_json(const RecommendedCommand& step) {
  return {{"key", step.key},
          {"command", step.command},
          {"purpose", step.purpose},
          {"destroys_data", step.destroys_data},
          {"warning", step.destroys_data ? json(step.warning) : json(nullptr)},
          {"alternative_group", step.alternative_group.empty() ? json(nullptr) : json(step.alternative_group)}};
}

json lba_format_choice_json(const LbaFormatChoice& c) {
  return {{"index", c.index}, {"data_bytes", c.data_bytes}, {"metadata_bytes", c.metadata_bytes}, {"rp", c.rp}};
}

// recommendations.lba_format: the drive's better LBA format and the command
// that reformats the namespace to it, or null.
json lba_format_json(const std::optional<LbaFormatAdvice>& advice) {
  if (!advice) return nullptr;
  return {{"in_use", lba_format_choice_json(advice->in_use)},
          {"suggested", lba_format_choice_json(advice->suggested)},
          {"all_namespaces", advice->all_namespaces ? json(*advice->all_namespaces) : json(nullptr)},
          {"why", advice->why},
          {"step", step_json(advice->step)}};
}

json recommendations_json(const Recommendations& r, const std::optional<LbaFormatAdvice>& lba_format) {
  json commands = json::object();  // by key, as before steps existed
  json steps = json::array();
  for (const auto& step : r.steps) {
    if (!commands.contains(step.key)) commands[step.key] = step.command;
    steps.push_back(step_json(step));
  }
  json block_size_advice = json::array();
  for (const auto& item : r.block_size_advice) {
    block_size_advice.push_back({{"what", item.what},
                                 {"command", item.command.empty() ? json(nullptr) : json(item.command)},
                                 {"applies", item.applies},
                                 {"why", item.why},
                                 {"step", item.step_key.empty() ? json(nullptr) : json(item.step_key)}});
  }
  return {{"partition_start_bytes", r.partition_start_bytes},
          {"partition_alignment_bytes", r.partition_alignment_bytes},
          {"filesystem_block_bytes", r.filesystem_block_bytes},
          {"block_size", block_size_json(r.block_size)},
          {"commands", commands},
          {"steps", steps},
          {"verdict", r.verdict ? json(*r.verdict) : json(nullptr)},
          {"notes", r.notes},
          {"block_size_advice", block_size_advice},
          {"lba_format", lba_format_json(lba_format)}};
}

json io_counts_json(const IoCounts& c) {
  return {{"reads", c.reads}, {"read_bytes", c.read_bytes}, {"writes", c.writes}, {"write_bytes", c.write_bytes}};
}

json other_io_json(const std::optional<OtherIo>& o) {
  if (!o) return nullptr;
  json out = io_counts_json(o->other);
  out["disk"] = o->disk;
  out["own"] = io_counts_json(o->own);
  return out;
}

// CPU per IO of a phase that did IO: what the engine and the probe cost
// the host per request (polling shows as more CPU than sleeping).
json cpu_ns_per_io_json(const std::optional<PhaseHostCost>& host) {
  if (!host || !host->ios || *host->ios == 0) return nullptr;
  return std::round(host->cpu_s * 1e9 / static_cast<double>(*host->ios));
}

// How the engine waited for the phase's completions: the counts and their
// one-word summary (polled, asleep, mixed).
json waits_json(const std::optional<PhaseHostCost>& host) {
  if (!host || !host->waits) return nullptr;
  const WaitCounts& w = *host->waits;
  const char* waited = waited_name(w);
  json because = json::object();
  for (const SleepReason reason : kSleepReasons) because[sleep_reason_name(reason)] = w.slept_for(reason);
  return {{"waited", waited ? json(waited) : json(nullptr)},
          {"ready", w.ready},
          {"polled", w.polled},
          {"asleep", w.slept()},
          {"asleep_because", because}};
}

// How the engine waited over the whole run: every phase's waits together.
json engine_waited_json(const std::vector<PhaseRecord>& phases) {
  const std::optional<WaitCounts> all = total_waits(phases);
  const char* waited = all ? waited_name(*all) : nullptr;
  return waited ? json(waited) : json(nullptr);
}

json phases_json(const std::vector<PhaseRecord>& phases) {
  json out = json::array();
  for (const auto& p : phases) {
    out.push_back({{"name", p.name},
                   {"state", phase_state_name(p.state)},
                   {"reason", p.reason.empty() ? json(nullptr) : json(p.reason)},
                   {"device_time_s", rounded(p.device_time_s)},
                   {"wall_s", p.host ? json(rounded(p.host->wall_s)) : json(nullptr)},
                   {"cpu_s", p.host ? json(rounded(p.host->cpu_s)) : json(nullptr)},
                   {"cpu_ns_per_io", cpu_ns_per_io_json(p.host)},
                   {"waits", waits_json(p.host)},
                   {"other_io", other_io_json(p.other_io)},
                   {"writes", p.writes ? write_phase_json(*p.writes) : json(nullptr)}});
  }
  return out;
}

// duration_s to the microsecond, not to rounded()'s millisecond: `info` and
// `audit` of a file take about a millisecond or less, which three decimals
// would write as 0, the value older documents gave them for "not recorded".
double to_microsecond(double seconds) { return std::round(seconds * 1e6) / 1e6; }

// run.file_mapping: a file target's read grid, kept to one stretch of the
// file that is contiguous on the disk.
json file_mapping_json(const std::optional<FileReadMapping>& m) {
  if (!m) return nullptr;
  return {{"device", m->device}, {"file_offset", m->file_offset}, {"disk_offset", m->disk_offset},
          {"length", m->length}, {"extents", m->extents}};
}

}  // namespace

json to_json(const ResultDocument& d) {
  json mismatches = json::array();
  for (const auto& m : d.mismatches) {
    mismatches.push_back({{"field", m.field},
                          {"reported", json_or_null(m.reported)},
                          {"detected", json_or_null(m.detected)},
                          {"severity", severity_name(m.severity)},
                          {"message", m.message}});
  }
  json grids = json::array();
  for (const auto& grid : d.grids) grids.push_back(grid_json(grid));
  json doc = {{"schema", kResultSchema},
              {"tool", {{"name", "ssdprobe"}, {"version", SSDPROBE_VERSION}}},
              {"started_at", d.started_at},
              {"ended_at", text_or_null(d.ended_at)},
              {"duration_s", to_microsecond(d.duration_s)},
              {"hostname", text_or_null(d.hostname)},
              {"command_line", d.command_line},
              {"options", options_json(d.options)},
              {"target", target_json(d)},
              {"reported", reported_json(d.topology, d.firmware)},
              {"detected",
               {{"read_page", detected_json(d.read_page)},
                {"write_unit", detected_json(d.write_unit)},
                {"write_stripe", write_stripe_json(d.write_stripe, d.write_stripe_detail)},
                {"erase_block", detected_json(d.erase_block)},
                {"slc_cache", slc_cache_json(d.slc_cache, d.slc_cache_detail)},
                {"open_units", open_units_json(d.open_units)}}},
              {"mismatches", mismatches},
              {"verdict", verdict_json(d.verdict)},
              {"recommendations",
               recommendations_json(d.recommendations, nvme_lba_format_advice(d.firmware.nvme, d.kind, d.path,
                                                                              d.topology.disk_name))},
              {"grids", grids},
              {"notes", d.notes}};
  doc["write_probe"] = write_probe_json(d.write_probe);
  doc["zoned_write"] = zoned_write_json(d.zoned_write);
  doc["audit"] = audit_json(d.audit);
  if (d.run) {
    doc["run"] = {{"engine", d.run->engine},
                  {"engine_waited", engine_waited_json(d.phases)},
                  {"ios", d.run->ios}, {"rounds", d.run->rounds},
                  {"device_time_s", rounded(d.run->device_time_s)},
                  {"stop_reason", stop_reason_name(d.run->stop_reason)},
                  {"read_region", d.run->read_region ? json{{"offset", d.run->read_region->offset},
                                                            {"length", d.run->read_region->length},
                                                            {"source", d.run->read_region_source}}
                                                      : json(nullptr)},
                  {"read_content", read_content_json(d.run->read_content)},
                  {"file_mapping", file_mapping_json(d.run->file_mapping)}};
  } else {
    doc["run"] = nullptr;
  }
  add_parallelism_json(doc, d.parallelism);
  add_write_parallelism_json(doc, d.write_parallelism, d.parallelism.has_value());
  doc["phases"] = phases_json(d.phases);
  // The one question a script asks first of a stopped run, without walking phases.
  doc["interrupted"] = std::any_of(d.phases.begin(), d.phases.end(),
                                   [](const PhaseRecord& p) { return p.state == PhaseState::interrupted; });
  return doc;
}

}  // namespace ssdprobe
