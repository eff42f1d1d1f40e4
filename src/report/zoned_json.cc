#include <string>

#include "report/firmware_json.h"
#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

Json zone_report_json(const ZoneSummary& s) {
  return Json{{"zones", s.zones},
              {"zone_bytes", json_or_null(s.zone_bytes)},
              {"zone_capacity_bytes", json_or_null(s.zone_capacity_bytes)},
              {"zone_capacity_min_bytes", json_or_null(s.zone_capacity_min_bytes)},
              {"zone_capacity_max_bytes", json_or_null(s.zone_capacity_max_bytes)},
              {"conventional", s.conventional},
              {"sequential_write_required", s.sequential_write_required},
              {"sequential_write_preferred", s.sequential_write_preferred},
              {"not_write_pointer", s.not_write_pointer},
              {"empty", s.empty},
              {"implicitly_open", s.implicitly_open},
              {"explicitly_open", s.explicitly_open},
              {"closed", s.closed},
              {"read_only", s.read_only},
              {"full", s.full},
              {"offline", s.offline},
              {"reset_recommended", s.reset_recommended},
              {"written_bytes", s.written_bytes},
              {"conventional_bytes", s.conventional_bytes}};
}

// A 0's based limit with FFFFFFFFh for "no limit": the count, or null.
Json limit_json(std::optional<uint64_t> limit) { return json_or_null(limit); }

void put_zns_ns(const NvmeZnsIdNs& z, const NvmeZnsSizes& s, Json& j) {
  j["zoc"] = z.zoc;
  j["zoc_bits"] = Json{{"vzcap", z.vzcap()}, {"zae", z.zae()}};
  j["ozcs"] = z.ozcs;
  j["ozcs_bits"] = Json{{"razb", z.razb()}, {"zrwasup", z.zrwasup()}};
  j["mar"] = z.mar;
  j["max_active_zones"] = limit_json(z.max_active_zones());
  j["mor"] = z.mor;
  j["max_open_zones"] = limit_json(z.max_open_zones());
  for (const auto& [name, value] : {std::pair{"rrl", z.rrl}, {"frl", z.frl}, {"rrl1", z.rrl1}, {"rrl2", z.rrl2},
                                    {"rrl3", z.rrl3}, {"frl1", z.frl1}, {"frl2", z.frl2}, {"frl3", z.frl3}}) {
    j[name] = value;
  }
  j["numzrwa"] = z.numzrwa;
  j["zrwafg"] = z.zrwafg;
  j["zrwafg_bytes"] = json_or_null(s.zrwafg_bytes);
  j["zrwasz"] = z.zrwasz;
  j["zrwasz_bytes"] = json_or_null(s.zrwasz_bytes);
  j["zrwacap"] = z.zrwacap;
  j["zsze"] = json_or_null(s.zsze);
  j["zone_bytes"] = json_or_null(s.zone_bytes);
  j["zdes"] = json_or_null(s.zdes);
  j["zone_descriptor_extension_bytes"] = json_or_null(s.zone_descriptor_extension_bytes);
}

// The extensions of the formats the namespace lists (NLBAF+1+NULBAF).
Json lbafe_json(const NvmeZnsIdNs& z, size_t formats) {
  Json list = Json::array();
  for (size_t i = 0; i < formats && i < z.lbafe.size(); ++i) {
    list.push_back(Json{{"zsze", z.lbafe[i].zsze}, {"zdes", z.lbafe[i].zdes}});
  }
  return list;
}

}  // namespace

Json nvme_zns_json(const NvmeFirmwareData& data) {
  const NvmeZnsSizes sizes = data.zns_sizes();
  Json j = Json::object();
  j["identify_ns_zns"] = data.zns_ns.has_value();
  j["identify_ctrl_zns"] = data.zns_ctrl.has_value();
  if (data.zns_ns) {
    put_zns_ns(*data.zns_ns, sizes, j);
    j["lbafe"] = lbafe_json(*data.zns_ns, data.ns ? data.ns->lbaf.size() : 0);
  }
  j["zasl"] = data.zns_ctrl ? Json(data.zns_ctrl->zasl) : Json(nullptr);
  j["zasl_bytes"] = json_or_null(sizes.zasl_bytes);
  return j;
}

Json zoned_reported_json(const ZonedLimits& limits, const std::optional<ZoneSummary>& report) {
  return Json{{"model", limits.model},
              {"zoned", limits.zoned()},
              {"zone_bytes", json_or_null(limits.zone_bytes())},
              {"chunk_bytes", json_or_null(limits.chunk_bytes)},
              {"nr_zones", json_or_null(limits.nr_zones)},
              {"max_open_zones", json_or_null(limits.max_open_zones)},
              {"max_active_zones", json_or_null(limits.max_active_zones)},
              {"zone_append_max_bytes", json_or_null(limits.zone_append_max_bytes)},
              {"source", "sysfs"},
              {"report", report ? zone_report_json(*report) : Json(nullptr)}};
}

}  // namespace ssdprobe
