#include "report/firmware_json.h"

#include <fmt/format.h>
#include <string>

#include "firmware/nvme_capabilities.h"
#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

// A field's bits by their JSON keys, in bit order (firmware/nvme_capabilities.h's tables).
Json bit_flags(uint32_t value, std::span<const NvmeBitName> bits) {
  Json flags = Json::object();
  for (const NvmeBitName& b : bits) {
    if (b.json_key) flags[b.json_key] = (value & (1u << b.bit)) != 0;
  }
  return flags;
}

void put_ctrl_identity(const NvmeIdCtrl& c, Json& j) {
  j["vid"] = c.vid;
  j["ssvid"] = c.ssvid;
  j["ieee"] = c.ieee;
  j["ver"] = c.ver;
  j["version"] = nvme_version_string(c.ver);
  j["cntlid"] = c.cntlid;
  j["cntrltype"] = c.cntrltype;
  j["cmic"] = c.cmic;
  j["ctratt"] = c.ctratt;
  j["endgidmax"] = c.endgidmax;
  j["nn"] = c.nn;
  j["tnvmcap"] = json_u128(c.tnvmcap);
  j["unvmcap"] = json_u128(c.unvmcap);
}

void put_ctrl_limits(const NvmeIdCtrl& c, const NvmeDerivedSizes& s, Json& j) {
  j["mdts"] = c.mdts;
  j["mdts_bytes"] = json_or_null(s.mdts_bytes);
  j["oacs"] = c.oacs;
  j["oacs_bits"] = bit_flags(c.oacs, nvme_oacs_bit_names());
  j["oncs"] = c.oncs;
  j["oncs_bits"] = bit_flags(c.oncs, nvme_oncs_bit_names());
  j["vwc"] = c.vwc;
  j["awun"] = c.awun;
  j["awun_bytes"] = json_or_null(s.awun_bytes);
  j["awupf"] = c.awupf;
  j["awupf_bytes"] = json_or_null(s.awupf_bytes);
  j["acwu"] = c.acwu;
  j["acwu_bytes"] = json_or_null(s.acwu_bytes);
}

// NSFEAT bits by their spec names; OPTPERF is bits 5:4 since NVMe 2.1 (bit 4 before).
Json nsfeat_bits(uint8_t nsfeat) {
  return Json{{"thinp", (nsfeat & 0x01) != 0},    {"nsabp", (nsfeat & 0x02) != 0},
              {"dae", (nsfeat & 0x04) != 0},      {"uidreuse", (nsfeat & 0x08) != 0},
              {"optperf", (nsfeat >> 4) & 0x03},  {"mam", (nsfeat & 0x40) != 0}};
}

Json lba_formats(const NvmeIdNs& n) {
  Json list = Json::array();
  for (const auto& f : n.lbaf) list.push_back(Json{{"ds", f.ds}, {"ms", f.ms}, {"rp", f.rp}});
  return list;
}

void put_ns_capacity(const NvmeIdNs& n, const NvmeDerivedSizes& s, Json& j) {
  j["nsze"] = n.nsze;
  j["ncap"] = n.ncap;
  j["nuse"] = n.nuse;
  j["nsfeat"] = n.nsfeat;
  j["nsfeat_bits"] = nsfeat_bits(n.nsfeat);
  j["nlbaf"] = n.nlbaf;
  j["nulbaf"] = n.nulbaf;
  j["flbas"] = n.flbas;
  j["lbaf_in_use"] = n.lbaf_in_use();
  j["lbaf"] = lba_formats(n);
  j["lba_bytes"] = json_or_null(s.lba_bytes);
  j["nsze_bytes"] = json_or_null(s.nsze_bytes);
  j["ncap_bytes"] = json_or_null(s.ncap_bytes);
  j["nuse_bytes"] = json_or_null(s.nuse_bytes);
  j["nvmcap"] = json_u128(n.nvmcap);
  j["mc"] = n.mc;
  j["dpc"] = n.dpc;
  j["dps"] = n.dps;
  j["nmic"] = n.nmic;
  j["dlfeat"] = n.dlfeat;
}

struct SizeField {
  const char* name;
  uint16_t raw;
  std::optional<uint64_t> bytes;
};

void put_ns_io_hints(const NvmeIdNs& n, const NvmeDerivedSizes& s, Json& j) {
  const SizeField fields[] = {
      {"npwg", n.npwg, s.npwg_bytes},       {"npwa", n.npwa, s.npwa_bytes},
      {"npdg", n.npdg, s.npdg_bytes},       {"npda", n.npda, s.npda_bytes},
      {"nows", n.nows, s.nows_bytes},       {"nawun", n.nawun, s.nawun_bytes},
      {"nawupf", n.nawupf, s.nawupf_bytes}, {"nacwu", n.nacwu, s.nacwu_bytes},
      {"nabsn", n.nabsn, s.nabsn_bytes},    {"nabo", n.nabo, s.nabo_bytes},
      {"nabspf", n.nabspf, s.nabspf_bytes}, {"noiob", n.noiob, s.noiob_bytes},
  };
  for (const auto& field : fields) {
    j[field.name] = field.raw;
    j[std::string(field.name) + "_bytes"] = json_or_null(field.bytes);
  }
  j["mssrl"] = n.mssrl;
  j["mcl"] = n.mcl;
  j["msrc"] = n.msrc;
}

void put_ns_ids(const NvmeIdNs& n, Json& j) {
  j["anagrpid"] = n.anagrpid;
  j["nsattr"] = n.nsattr;
  j["nvmsetid"] = n.nvmsetid;
  j["endgid"] = n.endgid;
  j["nguid"] = n.nguid;
  j["eui64"] = n.eui64;
}

Json nvm_json(const NvmeNvmIdNs& nvm, const NvmeDerivedSizes& s) {
  Json j;
  j["lbstm"] = nvm.lbstm;
  j["pic"] = nvm.pic;
  j["pifa"] = nvm.pifa;
  j["npdgl"] = nvm.npdgl;
  j["npdgl_bytes"] = json_or_null(s.npdgl_bytes);
  j["npdal"] = nvm.npdal;
  j["npdal_bytes"] = json_or_null(s.npdal_bytes);
  j["nprg"] = nvm.nprg;
  j["npra"] = nvm.npra;
  j["nors"] = nvm.nors;
  return j;
}

// The OCP C0h fields added after the first version of this section (kept
// after it so the older fields keep their order).
void put_ocp_versions_and_lifetime(const OcpSmartLog& log, Json& j) {
  j["dssd_specification_version"] = fmt::format("{}.{}.{}.{}", log.dssd_major_version, log.dssd_minor_version,
                                                log.dssd_point_version, log.dssd_errata_version);
  j["nvme_base_errata_version"] = log.nvme_base_errata_version;
  j["nvme_command_set_errata_version"] = log.nvme_command_set_errata_version;
  j["security_version_number"] = log.security_version_number;
  j["total_nuse"] = log.total_nuse;
  j["plp_start_count"] = json_u128(log.plp_start_count);
  j["endurance_estimate"] = json_u128(log.endurance_estimate);
  j["pcie_link_retraining_count"] = log.pcie_link_retraining_count;
  j["power_state_change_count"] = log.power_state_change_count;
  j["lowest_permitted_firmware_revision"] = log.lowest_permitted_firmware_revision;
}

Json json_bytes_of_units(uint128 units) { return json_or_null(nvme_data_units_to_bytes(units)); }

}  // namespace

Json nvme_smart_json(const NvmeSmartLog& log) {
  Json j;
  j["critical_warning"] = log.critical_warning;
  j["composite_temperature_kelvin"] = log.composite_temperature;
  j["available_spare"] = log.available_spare;
  j["available_spare_threshold"] = log.available_spare_threshold;
  j["percentage_used"] = log.percentage_used;
  j["data_units_read"] = json_u128(log.data_units_read);
  j["data_units_read_bytes"] = json_bytes_of_units(log.data_units_read);
  j["data_units_written"] = json_u128(log.data_units_written);
  j["data_units_written_bytes"] = json_bytes_of_units(log.data_units_written);
  j["host_read_commands"] = json_u128(log.host_read_commands);
  j["host_write_commands"] = json_u128(log.host_write_commands);
  j["controller_busy_time"] = json_u128(log.controller_busy_time);
  j["power_cycles"] = json_u128(log.power_cycles);
  j["power_on_hours"] = json_u128(log.power_on_hours);
  j["unsafe_shutdowns"] = json_u128(log.unsafe_shutdowns);
  j["media_errors"] = json_u128(log.media_errors);
  j["num_err_log_entries"] = json_u128(log.num_err_log_entries);
  j["warning_temp_time"] = log.warning_temp_time;
  j["critical_comp_time"] = log.critical_comp_time;
  return j;
}

Json ocp_smart_json(const OcpSmartLog& log) {
  Json j;
  j["physical_media_units_written"] = json_u128(log.physical_media_units_written);
  j["physical_media_units_read"] = json_u128(log.physical_media_units_read);
  j["bad_user_nand_blocks"] = log.bad_user_nand_blocks;
  j["bad_user_nand_blocks_normalized"] = log.bad_user_nand_blocks_normalized;
  j["bad_system_nand_blocks"] = log.bad_system_nand_blocks;
  j["bad_system_nand_blocks_normalized"] = log.bad_system_nand_blocks_normalized;
  j["xor_recovery_count"] = log.xor_recovery_count;
  j["uncorrectable_read_error_count"] = log.uncorrectable_read_error_count;
  j["soft_ecc_error_count"] = log.soft_ecc_error_count;
  j["end_to_end_detected_errors"] = log.end_to_end_detected_errors;
  j["end_to_end_corrected_errors"] = log.end_to_end_corrected_errors;
  j["system_data_percent_used"] = log.system_data_percent_used;
  j["refresh_counts"] = log.refresh_counts;
  j["user_data_erase_count_max"] = log.user_data_erase_count_max;
  j["user_data_erase_count_min"] = log.user_data_erase_count_min;
  j["thermal_throttling_event_count"] = log.thermal_throttling_event_count;
  j["thermal_throttling_status"] = log.thermal_throttling_status;
  j["pcie_correctable_error_count"] = log.pcie_correctable_error_count;
  j["incomplete_shutdowns"] = log.incomplete_shutdowns;
  j["percent_free_blocks"] = log.percent_free_blocks;
  j["capacitor_health"] = log.capacitor_health;
  j["unaligned_io"] = log.unaligned_io;
  j["nand_avg_erase_count"] = log.nand_avg_erase_count;
  j["log_page_version"] = log.log_page_version;
  put_ocp_versions_and_lifetime(log, j);
  return j;
}

Json nvme_reported_json(const NvmeFirmwareData& data) {
  const NvmeDerivedSizes sizes = data.sizes();
  Json j = Json::object();
  j["model"] = data.ctrl ? Json(data.ctrl->mn) : Json(nullptr);
  j["serial"] = data.ctrl ? Json(data.ctrl->sn) : Json(nullptr);
  j["firmware"] = data.ctrl ? Json(data.ctrl->fr) : Json(nullptr);
  j["identify_ctrl"] = data.ctrl.has_value();
  j["identify_ns"] = data.ns.has_value();
  if (data.ctrl) {
    put_ctrl_identity(*data.ctrl, j);
    put_ctrl_limits(*data.ctrl, sizes, j);
  }
  j["nsid"] = json_or_null(data.nsid);
  if (data.ns) {
    put_ns_capacity(*data.ns, sizes, j);
    put_ns_io_hints(*data.ns, sizes, j);
    put_ns_ids(*data.ns, j);
  }
  j["nvm"] = data.nvm ? nvm_json(*data.nvm, sizes) : Json(nullptr);
  j["smart"] = data.smart ? nvme_smart_json(*data.smart) : Json(nullptr);
  j["ocp"] = data.ocp ? ocp_smart_json(*data.ocp) : Json(nullptr);
  j["zns"] = data.zns_ns || data.zns_ctrl ? nvme_zns_json(data) : Json(nullptr);
  j["fdp"] = data.fdp ? nvme_fdp_json(*data.fdp) : Json(nullptr);
  j["endurance_group"] = data.endurance ? nvme_endurance_json(*data.endurance) : Json(nullptr);
  j["directives"] = data.directives ? nvme_directives_json(*data.directives, sizes.lba_bytes) : Json(nullptr);
  j["capabilities"] = nvme_capabilities_json(data);
  return j;
}

}  // namespace ssdprobe
