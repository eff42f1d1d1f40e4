// reported.nvme.endurance_group: the Endurance Group Information log (09h).
#include "report/firmware_json.h"

#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

// Billions of bytes in bytes; null when 0 means "not reported" or the bytes
// do not fit in 64 bits.
Json bytes_of_billions(uint128 units, bool zero_is_unknown) {
  if (zero_is_unknown && units == 0) return nullptr;
  return json_or_null(nvme_billions_to_bytes(units));
}

Json warning_bits(uint8_t warning) {
  return Json{{"spare_below_threshold", (warning & kEnduranceWarningSpare) != 0},
              {"reliability_degraded", (warning & kEnduranceWarningDegraded) != 0},
              {"read_only", (warning & kEnduranceWarningReadOnly) != 0}};
}

}  // namespace

Json nvme_endurance_json(const NvmeEnduranceLog& log) {
  Json j;
  j["endgid"] = log.endgid;
  j["critical_warning"] = log.critical_warning;
  j["critical_warning_bits"] = warning_bits(log.critical_warning);
  j["available_spare"] = log.available_spare;
  j["available_spare_threshold"] = log.available_spare_threshold;
  j["percentage_used"] = log.percentage_used;
  j["endurance_estimate"] = json_u128(log.endurance_estimate);
  j["endurance_estimate_bytes"] = bytes_of_billions(log.endurance_estimate, true);
  j["data_units_read"] = json_u128(log.data_units_read);
  j["data_units_read_bytes"] = bytes_of_billions(log.data_units_read, false);
  j["data_units_written"] = json_u128(log.data_units_written);
  j["data_units_written_bytes"] = bytes_of_billions(log.data_units_written, false);
  j["media_units_written"] = json_u128(log.media_units_written);
  j["media_units_written_bytes"] = bytes_of_billions(log.media_units_written, false);
  j["host_read_commands"] = json_u128(log.host_read_commands);
  j["host_write_commands"] = json_u128(log.host_write_commands);
  j["media_data_integrity_errors"] = json_u128(log.media_data_integrity_errors);
  j["error_log_entries"] = json_u128(log.error_log_entries);
  j["total_capacity_bytes"] = log.total_capacity_bytes == 0 ? Json(nullptr) : json_u128(log.total_capacity_bytes);
  j["unallocated_capacity_bytes"] =
      log.total_capacity_bytes == 0 ? Json(nullptr) : json_u128(log.unallocated_capacity_bytes);
  return j;
}

}  // namespace ssdprobe
