// Lifetime write counters of a drive, for measuring the write amplification
// that write probes cause (read before and after, compare the deltas).
//
// host_bytes_written: bytes the host wrote (NVMe SMART data units written ×
//   512,000 B, rounded up by the drive to whole units; ATA device statistics
//   "Logical Sectors Written" × logical sector size; or an ATA attribute with
//   a known unit).
// nand_bytes_written: bytes programmed into the NAND, from a counter whose
//   unit is known: OCP C0h physical media units written (bytes), or an ATA
//   attribute named in the table in smartctl_json.cc (e.g. 249
//   NAND_Writes_1GiB). Attributes with unknown units are never converted.
// On a drive with FDP enabled, the endurance group's FDP Statistics log
//   (22h) is used instead: HBMW and MBMW count bytes exactly (with metadata),
//   where the SMART data units round to 512,000 B; MBE (media bytes erased)
//   and the reclaim unit nominal size (RUNS) of the configuration in use
//   come with them.
// host_program_pages / ftl_program_pages: Micron/Crucial attributes 247
//   Host_Program_Page_Count and 248 FTL_Program_Page_Count (or
//   Bckgnd_Program_Page_Cnt on older Micron drives) count NAND pages
//   of undocumented size; they give write amplification as
//   (host + ftl) / host without a byte count, so they are kept as counts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

struct NvmeSmartLog;
struct OcpSmartLog;
struct NvmeFdp;
struct NvmeEnduranceLog;

struct SmartWriteCounters {
  std::optional<uint64_t> host_bytes_written;
  std::optional<uint64_t> nand_bytes_written;
  std::string host_source;  // "NVMe SMART data units written", "smartctl ata attribute 241 Total_LBAs_Written"...
  std::string nand_source;  // "" when no NAND-side counter was found
  std::optional<uint64_t> host_program_pages;
  std::optional<uint64_t> ftl_program_pages;
  std::optional<uint64_t> media_bytes_erased;  // FDP MBE
  std::optional<uint64_t> reclaim_unit_bytes;  // FDP RUNS of the configuration in use
  // What one step of the NAND-side counter is: 1 for byte counters (OCP,
  // FDP), 1,000,000,000 for LID 09h Media Units Written. A delta below
  // kMinCountedSteps steps has no ratio: the rounding would be the answer.
  uint64_t nand_step_bytes = 1;
  // LID 09h Endurance Estimate in bytes (nullopt: not reported), for the
  // question's share of the drive's endurance.
  std::optional<uint64_t> endurance_estimate_bytes;
  std::vector<std::string> notes;  // why a counter could not be read
};

inline constexpr uint64_t kMinCountedSteps = 10;

// From the FDP Statistics when FDP is enabled, else the NVMe SMART/Health
// log for the host and, for the media, the OCP C0h page or else the
// Endurance Group Information log's Media Units Written (in 1,000,000,000 B
// steps: a phase must move it kMinCountedSteps times to have a ratio). Any
// pointer may be null.
SmartWriteCounters counters_from_nvme_logs(const NvmeSmartLog* smart, const OcpSmartLog* ocp,
                                           const NvmeFdp* fdp = nullptr, const NvmeEnduranceLog* endurance = nullptr);

// One write phase's counter deltas: what the host wrote and, where the drive
// has a NAND-side counter, what was programmed; their ratio is the phase's
// write amplification. Counters tick in coarse units (NVMe: 512,000 B), so a
// small phase reads 0 and has no ratio. A delta is nullopt when either
// reading lacks the counter, the two readings name different sources, or it
// went backwards.
struct WritePhaseCounts {
  std::string pattern;  // what the phase wrote: "aligned whole-unit sequential writes"
  uint64_t bytes_issued = 0;
  std::optional<uint64_t> host_bytes_written, nand_bytes_written;
  std::optional<uint64_t> media_bytes_erased;  // FDP drives only
  std::optional<double> write_amplification;  // nand / host, when both are known and host > 0
  uint64_t nand_step_bytes = 1;  // the NAND counter's step (SmartWriteCounters)
};

// The write amplification of the write probes: the write grid and the
// sequential stream, each between two readings of the counters.
struct WriteAmplification {
  std::string host_source, nand_source;  // of the last reading
  WritePhaseCounts slc_cache, write_grid, stream;
  std::optional<uint64_t> reclaim_unit_bytes;  // FDP RUNS, of the last reading
  std::vector<std::string> notes;
};

WritePhaseCounts write_phase_counts(const SmartWriteCounters& before, const SmartWriteCounters& after,
                                    uint64_t bytes_issued, std::string pattern);

// `last` is the reading after the last phase: its sources and notes describe
// the counters, and a note says so when the drive has no NAND-side counter.
WriteAmplification combine_write_phases(const SmartWriteCounters& last, WritePhaseCounts write_grid,
                                        WritePhaseCounts stream, WritePhaseCounts slc_cache = {});

// The reclaim unit (FDP RUNS) beside the erase block the stream measured:
// how many measured erase blocks one reclaim unit spans, or that it is no
// whole multiple of them, or that the stream found none to compare with.
std::string reclaim_unit_note(uint64_t reclaim_unit_bytes, std::optional<uint64_t> erase_block_bytes);

}  // namespace ssdprobe
