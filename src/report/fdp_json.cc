// reported.nvme.fdp: the FDP feature, logs and the configuration in use,
// under the spec's field names in lower case (docs/result-json.md).
#include "report/firmware_json.h"

#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

constexpr uint8_t kEventPidValid = 0x01, kEventNsidValid = 0x02, kEventLocationValid = 0x04;

Json configuration_json(const FdpConfiguration& c) {
  Json types = Json::array();
  for (uint8_t t : c.ruht) types.push_back(fdp_ruh_type_name(t));
  return Json{{"dsze", c.dsze},       {"fdpa", c.fdpa},       {"rgif", c.rgif()},   {"fdpvwc", c.fdpvwc()},
              {"fdpcv", c.fdpcv()},   {"vss", c.vss},         {"nrg", c.nrg},       {"nruh", c.nruh},
              {"maxpids", c.maxpids}, {"nnss", c.nnss},       {"runs", c.runs},     {"erutl", c.erutl},
              {"ruht", c.ruht},       {"ruht_names", types}};
}

Json configurations_json(const FdpConfigurationsLog& log) {
  Json list = Json::array();
  for (const auto& c : log.configs) list.push_back(configuration_json(c));
  return Json{{"numfdpc", log.numfdpc}, {"version", log.version}, {"lsize", log.lsize},
              {"truncated", log.truncated}, {"configs", list}};
}

Json ruh_usage_json(const FdpRuhUsageLog& log) {
  size_t host = 0, controller = 0, unused = 0;
  for (uint8_t a : log.ruha) {
    if (a == 0) ++unused;
    if ((a & 0x1) != 0) ++host;
    if ((a & 0x2) != 0) ++controller;
  }
  return Json{{"nruh", log.nruh},   {"truncated", log.truncated},      {"ruha", log.ruha},
              {"host_specified", host}, {"controller_specified", controller}, {"unused", unused}};
}

Json statistics_json(const FdpStatistics& s) {
  Json ratio = nullptr;
  if (s.hbmw > 0) ratio = rounded(static_cast<double>(s.mbmw) / static_cast<double>(s.hbmw));
  return Json{{"hbmw", json_u128(s.hbmw)}, {"mbmw", json_u128(s.mbmw)}, {"mbe", json_u128(s.mbe)},
              {"mbmw_per_hbmw", ratio}};
}

// Fields the event's flags do not mark valid are null.
Json event_json(const FdpEvent& e) {
  auto valid = [&](uint8_t flag, auto value) { return (e.flags & flag) != 0 ? Json(value) : Json(nullptr); };
  return Json{{"type", e.type},
              {"type_name", fdp_event_type_name(e.type)},
              {"flags", e.flags},
              {"pid", valid(kEventPidValid, e.pid)},
              {"timestamp_ms", e.timestamp_ms},
              {"nsid", valid(kEventNsidValid, e.nsid)},
              {"rgid", valid(kEventLocationValid, e.rgid)},
              {"ruhid", valid(kEventLocationValid, e.ruhid)},
              {"nlbam", e.nlbam},
              {"lba", json_or_null(e.lba)}};
}

Json events_json(const std::optional<FdpEventsLog>& log) {
  if (!log) return nullptr;
  Json list = Json::array();
  for (const auto& e : log->events) list.push_back(event_json(e));
  return Json{{"numfdpe", log->numfdpe}, {"truncated", log->truncated}, {"events", list}};
}

template <typename T, typename F>
Json part_or_null(const std::optional<T>& part, F render) {
  return part ? render(*part) : Json(nullptr);
}

}  // namespace

Json nvme_fdp_json(const NvmeFdp& fdp) {
  Json j;
  j["endgid"] = fdp.endgid;
  j["endgid_source"] = fdp.endgid_source;
  j["fdpe"] = fdp.feature ? Json(fdp.feature->fdpe) : Json(nullptr);
  j["fdpcidx"] = fdp.feature ? Json(fdp.feature->fdpcidx) : Json(nullptr);
  const FdpConfiguration* in_use = fdp.active_configuration();
  j["configuration_in_use"] = in_use ? configuration_json(*in_use) : Json(nullptr);
  j["configurations"] = part_or_null(fdp.configurations, configurations_json);
  j["ruh_usage"] = part_or_null(fdp.ruh_usage, ruh_usage_json);
  j["statistics"] = part_or_null(fdp.statistics, statistics_json);
  j["host_events"] = events_json(fdp.host_events);
  j["controller_events"] = events_json(fdp.controller_events);
  return j;
}

}  // namespace ssdprobe
