#include "firmware/write_counters.h"

#include <utility>

#include "firmware/nvme_logs.h"

namespace ssdprobe {

namespace {

std::optional<uint64_t> delta(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  if (!before || !after || *after < *before) return std::nullopt;
  return *after - *before;
}

}  // namespace

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

WritePhaseCounts write_phase_counts(const SmartWriteCounters& before, const SmartWriteCounters& after,
                                    uint64_t bytes_issued, std::string pattern) {
  WritePhaseCounts phase;
  phase.pattern = std::move(pattern);
  phase.bytes_issued = bytes_issued;
  phase.host_bytes_written = delta(before.host_bytes_written, after.host_bytes_written);
  phase.nand_bytes_written = delta(before.nand_bytes_written, after.nand_bytes_written);
  const auto& host = phase.host_bytes_written;
  const auto& nand = phase.nand_bytes_written;
  if (host && nand && *host > 0) phase.write_amplification = static_cast<double>(*nand) / *host;
  return phase;
}

WriteAmplification combine_write_phases(const SmartWriteCounters& last, WritePhaseCounts write_grid,
                                        WritePhaseCounts stream) {
  WriteAmplification w;
  w.host_source = last.host_source;
  w.nand_source = last.nand_source;
  w.write_grid = std::move(write_grid);
  w.stream = std::move(stream);
  w.notes = last.notes;
  if (!last.nand_bytes_written) w.notes.push_back("the drive exposes no NAND-side write counter with a known unit");
  return w;
}

}  // namespace ssdprobe
