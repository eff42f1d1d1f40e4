#include <cmath>

#include "report/enum_names.h"
#include "report/json_values.h"
#include "report/parallelism_render.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

// Counts (depths, units, bytes) are written as integers, rates and times
// to three decimals.
json value_json(const ParallelismValue& v, bool integer) {
  json value = nullptr;
  if (v.value) value = integer ? json(static_cast<uint64_t>(std::llround(*v.value))) : json(rounded(*v.value));
  json out = {{"value", value},
              {"state", unit_state_name(v.state)},
              {"confidence", rounded(v.confidence)},
              {"evidence", v.evidence}};
  if (v.low && v.high) out["interval"] = {rounded(*v.low), rounded(*v.high)};
  return out;
}

json verdict_json(const ParallelismVerdict& v) {
  return {{"queue_depth_knee", value_json(v.queue_depth_knee, true)},
          {"plateau_iops", value_json(v.plateau_iops, false)},
          {"parallel_units", value_json(v.parallel_units, true)},
          {"interleave_bytes", value_json(v.interleave_bytes, true)}};
}

// The busiest depth over one ring per core (null when the plateau was not
// suspect, so none was tried).
json more_rings_json(const HostBoundCheck& check) {
  if (!check.suspected) return nullptr;
  const MoreRingsCheck& r = check.more_rings;
  if (!r.timed) return {{"timed", false}, {"not_timed_because", r.not_timed_because}};
  return {{"timed", true},
          {"rings", r.rings},
          {"queue_depth", r.queue_depth},
          {"rounds", r.rounds},
          {"one_ring_iops", rounded(r.one_ring_iops)},
          {"iops", rounded(r.iops)},
          {"gain", rounded(r.gain)}};
}

// The engine's ceiling the busiest depth was judged against, its busy
// share and what more rings showed (null where no ceiling was measured).
json engine_ceiling_json(const std::optional<HostBoundCheck>& check) {
  if (!check) return nullptr;
  return {{"queue_depth", check->ceiling.queue_depth},
          {"ios", check->ceiling.ios},
          {"iops", rounded(check->ceiling.iops)},
          {"cpu_ns_per_io", rounded(check->ceiling.cpu_ns_per_io)},
          {"plateau_share", rounded(check->plateau_share)},
          {"host_busy", check->host_busy ? json(rounded(*check->host_busy)) : json(nullptr)},
          {"host_waited", check->host_waited ? json(rounded(*check->host_waited)) : json(nullptr)},
          {"suspected", check->suspected},
          {"more_rings", more_rings_json(*check)},
          {"host_bound", check->host_bound}};
}

json strides_json(const std::vector<StrideSummary>& strides) {
  json list = json::array();
  for (const auto& s : strides) {
    list.push_back({{"stride_bytes", s.stride_bytes},
                    {"pairs", s.pairs},
                    {"pair_p50_us", rounded(s.pair_p50_us)},
                    {"excess", rounded(s.excess)},
                    {"pair_p25_us", rounded(s.pair_p25_us)},
                    {"excess_p25", rounded(s.excess_p25)},
                    {"serialized", s.serialized}});
  }
  return list;
}

// The measured sweep and strides. The read probe's IO size is `read_bytes`;
// the write sweep names it `write_bytes` and adds its window as `region`
// (the same bytes as write_probe.region).
json probe_json(const ParallelismSection& p) {
  json depths = json::array();
  for (const auto& d : p.verdict.depths) {
    json segments = json::array();
    for (double iops : d.segment_iops) segments.push_back(rounded(iops));
    depths.push_back({{"queue_depth", d.queue_depth},
                      {"ios", d.ios},
                      {"iops", rounded(d.iops)},
                      {"segment_iops", segments},
                      {"p50_us", rounded(d.p50_us)},
                      {"p99_us", rounded(d.p99_us)},
                      {"host_busy", d.host_busy ? json(rounded(*d.host_busy)) : json(nullptr)},
                      {"host_waited", d.host_waited ? json(rounded(*d.host_waited)) : json(nullptr)}});
  }
  json out = {{p.verdict.op == IoOp::write ? "write_bytes" : "read_bytes", p.read_bytes}};
  if (p.window) out["region"] = {{"offset", p.window->offset}, {"length", p.window->length}};
  json rest = {{"rounds", p.rounds},
          {"levelled_off_at_depth", json_or_null(p.verdict.levelled_off_at)},
          {"engine_ceiling", engine_ceiling_json(p.verdict.host_check)},
          {"refined_depths", p.refined_depths},
          {"refinement_rounds", p.refinement_rounds},
          {"ios", p.ios},
          {"device_time_s", rounded(p.device_time_s)},
          {"budget_s", rounded(p.budget_s)},
          {"queue_depths", depths},
          {"single_p50_us", rounded(p.verdict.single_p50_us)},
          {"single_p25_us", rounded(p.verdict.single_p25_us)},
          {"strides", strides_json(p.verdict.strides)},
          {"interleave_multiples", strides_json(p.verdict.multiples)}};
  for (auto& [key, value] : rest.items()) out[key] = value;
  return out;
}

}  // namespace

void add_parallelism_json(json& document, const std::optional<ParallelismSection>& section) {
  if (!section) {
    document["detected"]["parallelism"] = verdict_json(parallelism_not_measured("no timing IO was done"));
    document["parallelism_probe"] = nullptr;
    return;
  }
  document["detected"]["parallelism"] = verdict_json(section->verdict);
  document["parallelism_probe"] = probe_json(*section);
}

void add_write_parallelism_json(json& document, const std::optional<ParallelismSection>& section, bool timed) {
  if (!section) {
    const char* why = timed ? "writes are timed only with --write" : "no timing IO was done";
    document["detected"]["write_parallelism"] = verdict_json(parallelism_not_measured(why, IoOp::write));
    document["write_parallelism_probe"] = nullptr;
    return;
  }
  document["detected"]["write_parallelism"] = verdict_json(section->verdict);
  document["write_parallelism_probe"] = probe_json(*section);
}

}  // namespace ssdprobe
