#include "report/firmware_json.h"

#include "firmware/nvme_logs.h"
#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

Json attributes_json(const SmartctlReport& r) {
  Json list = Json::array();
  for (const auto& a : r.ata_attributes) {
    list.push_back({{"id", a.id}, {"name", a.name}, {"value", a.value}, {"worst", a.worst},
                    {"thresh", a.thresh}, {"raw", json_or_null(a.raw)}});
  }
  return list;
}

Json nvme_counters_json(const SmartctlReport& r) {
  if (!r.nvme_data_units_written && !r.nvme_data_units_read) return nullptr;
  std::optional<uint64_t> written_bytes;
  if (r.nvme_data_units_written) written_bytes = nvme_data_units_to_bytes(*r.nvme_data_units_written);
  return {{"data_units_read", json_or_null(r.nvme_data_units_read)},
          {"data_units_written", json_or_null(r.nvme_data_units_written)},
          {"data_units_written_bytes", json_or_null(written_bytes)},
          {"host_reads", json_or_null(r.nvme_host_reads)},
          {"host_writes", json_or_null(r.nvme_host_writes)},
          {"percentage_used", json_or_null(r.nvme_percentage_used)}};
}

Json write_counters_json(const SmartWriteCounters& counters) {
  Json j;
  j["host_bytes_written"] = json_or_null(counters.host_bytes_written);
  j["host_source"] = counters.host_source;
  j["nand_bytes_written"] = json_or_null(counters.nand_bytes_written);
  j["nand_source"] = counters.nand_source;
  j["host_program_pages"] = json_or_null(counters.host_program_pages);
  j["ftl_program_pages"] = json_or_null(counters.ftl_program_pages);
  j["notes"] = counters.notes;
  return j;
}

Json phase_json(const WritePhaseCounts& phase) {
  Json j = {{"pattern", phase.pattern}};
  j.update(write_phase_json(phase));
  return j;
}

}  // namespace

Json write_phase_json(const WritePhaseCounts& phase) {
  return {{"bytes_issued", phase.bytes_issued},
          {"host_bytes_written", json_or_null(phase.host_bytes_written)},
          {"nand_bytes_written", json_or_null(phase.nand_bytes_written)},
          {"write_amplification", json_or_null(phase.write_amplification)},
          {"media_bytes_erased", json_or_null(phase.media_bytes_erased)}};
}

Json smartctl_summary_json(const SmartctlReport& r) {
  Json j;
  j["exit_status"] = r.exit_status;
  j["exit_status_bits"] = smartctl_exit_status_bits(r.exit_status);
  j["has_data"] = r.has_data;
  j["messages"] = r.messages;
  j["device_type"] = r.device_type;
  j["protocol"] = r.protocol;
  j["model_name"] = r.model;
  j["serial_number"] = r.serial;
  j["firmware_version"] = r.firmware;
  j["logical_block_size"] = json_or_null(r.logical_block_size);
  j["physical_block_size"] = json_or_null(r.physical_block_size);
  j["rotation_rate"] = json_or_null(r.rotation_rate);
  j["user_capacity_bytes"] = json_or_null(r.user_capacity_bytes);
  j["trim_supported"] = json_or_null(r.trim_supported);
  j["smart_passed"] = json_or_null(r.smart_passed);
  j["nvme"] = nvme_counters_json(r);
  j["ata_attributes"] = attributes_json(r);
  j["write_counters"] = write_counters_json(counters_from_smartctl(r));
  return j;
}

Json write_amplification_json(const WriteAmplification& amplification) {
  return {{"host_source", amplification.host_source},
          {"nand_source", amplification.nand_source},
          {"write_grid", phase_json(amplification.write_grid)},
          {"stream", phase_json(amplification.stream)},
          {"reclaim_unit_bytes", json_or_null(amplification.reclaim_unit_bytes)},
          {"notes", amplification.notes},
          {"slc_cache", phase_json(amplification.slc_cache)},
          {"nand_step_bytes", amplification.stream.nand_step_bytes}};
}

Json expectation_json(const SysfsExpectation& expectation) {
  Json fields = Json::array();
  for (const auto& f : expectation.fields) {
    fields.push_back({{"name", f.name}, {"value", json_or_null(f.value)}, {"derivation", f.derivation}});
  }
  return {{"source", expectation.source}, {"kernel_model", expectation.kernel_model}, {"fields", fields}};
}

}  // namespace ssdprobe
