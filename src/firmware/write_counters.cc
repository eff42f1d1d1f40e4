#include "firmware/write_counters.h"

#include <fmt/format.h>
#include <utility>

#include "core/units.h"
#include "firmware/nvme_endurance_log.h"
#include "firmware/nvme_fdp.h"
#include "firmware/nvme_logs.h"

namespace ssdprobe {

namespace {

std::optional<uint64_t> delta(const std::optional<uint64_t>& before, const std::optional<uint64_t>& after) {
  if (!before || !after || *after < *before) return std::nullopt;
  return *after - *before;
}

std::optional<uint64_t> fits_64(uint128 value) {
  if (value > UINT64_MAX) return std::nullopt;
  return static_cast<uint64_t>(value);
}

// FDP Statistics count while FDP is enabled; a drive with FDP disabled keeps
// the SMART counters.
bool use_fdp_statistics(const NvmeFdp* fdp) {
  return fdp != nullptr && fdp->statistics && fdp->feature && fdp->feature->fdpe;
}

SmartWriteCounters counters_from_fdp(const NvmeFdp& fdp) {
  SmartWriteCounters c;
  c.host_bytes_written = fits_64(fdp.statistics->hbmw);
  if (c.host_bytes_written) c.host_source = "FDP Statistics log 22h host bytes with metadata written (HBMW)";
  c.nand_bytes_written = fits_64(fdp.statistics->mbmw);
  if (c.nand_bytes_written) c.nand_source = "FDP Statistics log 22h media bytes with metadata written (MBMW)";
  c.media_bytes_erased = fits_64(fdp.statistics->mbe);
  return c;
}

}  // namespace

SmartWriteCounters counters_from_nvme_logs(const NvmeSmartLog* smart, const OcpSmartLog* ocp, const NvmeFdp* fdp,
                                           const NvmeEnduranceLog* endurance) {
  std::optional<uint64_t> estimate;
  if (endurance != nullptr && endurance->endurance_estimate > 0)
    estimate = nvme_billions_to_bytes(endurance->endurance_estimate);
  if (use_fdp_statistics(fdp)) {
    SmartWriteCounters c = counters_from_fdp(*fdp);
    if (const FdpConfiguration* config = fdp->active_configuration()) c.reclaim_unit_bytes = config->runs;
    c.endurance_estimate_bytes = estimate;
    return c;
  }
  SmartWriteCounters c;
  c.endurance_estimate_bytes = estimate;
  if (smart != nullptr) {
    c.host_bytes_written = nvme_data_units_to_bytes(smart->data_units_written);
    if (c.host_bytes_written) c.host_source = "NVMe SMART/Health log data units written (x 512,000 B)";
  }
  if (ocp != nullptr && ocp->physical_media_units_written <= UINT64_MAX) {
    c.nand_bytes_written = static_cast<uint64_t>(ocp->physical_media_units_written);
    c.nand_source = "OCP C0h physical media units written (bytes)";
  } else if (endurance != nullptr) {
    c.nand_bytes_written = nvme_billions_to_bytes(endurance->media_units_written);
    if (c.nand_bytes_written) {
      c.nand_source = fmt::format("NVMe Endurance Group Information log 09h media units written, endurance group {} "
                                  "(x 1,000,000,000 B)", endurance->endgid);
      c.nand_step_bytes = kNvmeEnduranceUnitBytes;
    }
  }
  return c;
}

WritePhaseCounts write_phase_counts(const SmartWriteCounters& before, const SmartWriteCounters& after,
                                    uint64_t bytes_issued, std::string pattern) {
  WritePhaseCounts phase;
  phase.pattern = std::move(pattern);
  phase.bytes_issued = bytes_issued;
  // Two readings from different counters (FDP statistics once, SMART the
  // next, when one command failed in between) have no delta.
  if (before.host_source == after.host_source)
    phase.host_bytes_written = delta(before.host_bytes_written, after.host_bytes_written);
  if (before.nand_source == after.nand_source)
    phase.nand_bytes_written = delta(before.nand_bytes_written, after.nand_bytes_written);
  phase.media_bytes_erased = delta(before.media_bytes_erased, after.media_bytes_erased);
  phase.nand_step_bytes = after.nand_step_bytes;
  const auto& host = phase.host_bytes_written;
  const auto& nand = phase.nand_bytes_written;
  // A coarse counter (LID 09h: 1,000,000,000 B steps) reads 0 or 1 step for
  // a small phase: no ratio until the rounding is at most a tenth of it.
  const bool counted = after.nand_step_bytes <= 1 || (nand && *nand >= kMinCountedSteps * after.nand_step_bytes);
  if (host && nand && *host > 0 && counted) phase.write_amplification = static_cast<double>(*nand) / *host;
  return phase;
}

WriteAmplification combine_write_phases(const SmartWriteCounters& last, WritePhaseCounts write_grid,
                                        WritePhaseCounts stream, WritePhaseCounts slc_cache) {
  WriteAmplification w;
  w.slc_cache = std::move(slc_cache);
  w.host_source = last.host_source;
  w.nand_source = last.nand_source;
  w.write_grid = std::move(write_grid);
  w.stream = std::move(stream);
  w.reclaim_unit_bytes = last.reclaim_unit_bytes;
  w.notes = last.notes;
  if (!last.nand_bytes_written) w.notes.push_back("the drive exposes no NAND-side write counter with a known unit");
  if (last.nand_bytes_written && last.nand_step_bytes > 1) {
    w.notes.push_back(fmt::format("the media counter steps by {} B (rounded up by the drive): a phase that moved it "
                                  "fewer than {} steps has no write amplification, and a small one reads 0",
                                  last.nand_step_bytes, kMinCountedSteps));
  }
  return w;
}

std::string reclaim_unit_note(uint64_t reclaim_unit_bytes, std::optional<uint64_t> erase_block_bytes) {
  const std::string runs = fmt::format("the FDP reclaim unit nominal size (RUNS) is {}", format_size(reclaim_unit_bytes));
  if (!erase_block_bytes || *erase_block_bytes == 0) return runs + "; the erase stream found no erase block to compare it with";
  const uint64_t eb = *erase_block_bytes;
  if (reclaim_unit_bytes == eb) return fmt::format("{}, the erase block the stream measured", runs);
  if (reclaim_unit_bytes > eb && reclaim_unit_bytes % eb == 0)
    return fmt::format("{}: {} erase blocks of the {} the stream measured (a reclaim unit spans several erase units "
                       "that the drive erases together)", runs, reclaim_unit_bytes / eb, format_size(eb));
  return fmt::format("{}, {:.3g} times the erase block the stream measured ({}): not a whole number of them",
                     runs, static_cast<double>(reclaim_unit_bytes) / static_cast<double>(eb), format_size(eb));
}

}  // namespace ssdprobe
