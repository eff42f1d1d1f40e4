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

json strides_json(const std::vector<StrideSummary>& strides) {
  json list = json::array();
  for (const auto& s : strides) {
    list.push_back({{"stride_bytes", s.stride_bytes},
                    {"pairs", s.pairs},
                    {"pair_p50_us", rounded(s.pair_p50_us)},
                    {"excess", rounded(s.excess)},
                    {"serialized", s.serialized}});
  }
  return list;
}

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
                      {"p99_us", rounded(d.p99_us)}});
  }
  return {{"read_bytes", p.read_bytes},
          {"rounds", p.rounds},
          {"ios", p.ios},
          {"device_time_s", rounded(p.device_time_s)},
          {"budget_s", rounded(p.budget_s)},
          {"queue_depths", depths},
          {"single_p50_us", rounded(p.verdict.single_p50_us)},
          {"strides", strides_json(p.verdict.strides)},
          {"interleave_multiples", strides_json(p.verdict.multiples)}};
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

}  // namespace ssdprobe
