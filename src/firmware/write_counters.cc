#include "firmware/write_counters.h"

#include "firmware/json_values.h"
#include "firmware/nvme_logs.h"

namespace ssdprobe {

SmartWriteCounters counters_from_nvme_logs(const NvmeSmartLog* smart, const OcpSmartLog* ocp) {
  SmartWriteCounters c;
  if (smart != nullptr) {
    c.host_bytes_written = nvme_data_units_to_bytes(smart->data_units_written);
    if (c.host_bytes_written) c.host_source = "NVMe SMART/Health log data units written (x 512,000 B)";
  }
  if (ocp != nullptr && ocp->physical_media_units_written <= UINT64_MAX) {
    c.nand_bytes_written = static_cast<uint64_t>(ocp->physical_media_units_written);
    c.nand_source = "OCP C0h physical media units written (bytes)";
  }
  return c;
}

nlohmann::ordered_json write_counters_json(const SmartWriteCounters& counters) {
  nlohmann::ordered_json j;
  j["host_bytes_written"] = json_or_null(counters.host_bytes_written);
  j["host_source"] = counters.host_source;
  j["nand_bytes_written"] = json_or_null(counters.nand_bytes_written);
  j["nand_source"] = counters.nand_source;
  j["host_program_pages"] = json_or_null(counters.host_program_pages);
  j["ftl_program_pages"] = json_or_null(counters.ftl_program_pages);
  j["notes"] = counters.notes;
  return j;
}

}  // namespace ssdprobe
