// Whether an NVMe namespace should be reformatted to another of the LBA
// formats its Identify Namespace data lists, and the command that does it.
//
// The choice, among the formats without metadata (MS = 0) whose data size
// Linux can use (512 B to 4 KiB: many kernels, Debian 12's 6.1 among them,
// cannot use a logical block larger than the 4 KiB memory page): the best
// relative performance the drive reports (RP, 0 best .. 3 degraded), and of
// those the largest data size. It is advised when it is better than the
// format in use: a better RP, or the same RP with a larger data size. A
// format with metadata is never advised (its metadata, protection
// information, is a choice of its own, not a plain improvement), and a
// namespace formatted with metadata gets no advice either (it was set up for
// it). A larger data size the drive rates worse is not advised: the drive
// says it is slower.
//
// These are what the drive reports, not measurements.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"

namespace ssdprobe {

// One entry of the namespace's LBA Format list, as the spec encodes it.
struct LbaFormatEntry {
  uint8_t ds = 0;   // data size, log2 bytes
  uint16_t ms = 0;  // metadata bytes per LBA
  uint8_t rp = 0;   // relative performance, 0 best .. 3 degraded
};

struct NamespaceFormats {
  std::vector<LbaFormatEntry> formats;  // the list, indexed as `nvme format --lbaf` counts
  unsigned in_use = 0;                  // FLBAS's index
  std::optional<uint32_t> nsid;         // the namespace's ID; nullopt: not known
  // Identify Controller's FNA bit 0: a format of one namespace formats every
  // namespace of the drive. nullopt: Identify Controller was not read.
  std::optional<bool> format_applies_to_all_namespaces;
  std::string device;  // the node `nvme format` is run on (hostile: quoted when rendered)
};

struct LbaFormatChoice {
  unsigned index = 0;
  uint64_t data_bytes = 0;
  uint16_t metadata_bytes = 0;
  uint8_t rp = 0;
};

struct LbaFormatAdvice {
  LbaFormatChoice in_use, suggested;
  std::optional<bool> all_namespaces;  // the FNA bit, as NamespaceFormats had it
  std::string why;                     // the two formats and what the suggested one changes
  // key "nvme_format": `nvme format DEVICE [--namespace-id=N] --lbaf=M`,
  // destroys_data, its warning naming what the format erases.
  RecommendedCommand step;
};

// nullopt when the format in use is already the best (or has metadata, or
// is not in the list).
std::optional<LbaFormatAdvice> lba_format_advice(const NamespaceFormats& formats);

// "best", "better", "good", "degraded" (RP 0..3).
const char* relative_performance_name(uint8_t rp);

}  // namespace ssdprobe
