// What the kernel should show in sysfs given what the firmware reports, and
// the comparison with what it does show. The expectation builders live next
// to their decoders (nvme_expectations.h, ata_scsi_expectations.h); this file
// holds the shared shape and the comparison, so every source is compared the
// same way and mismatches are named by the sysfs field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/verdicts.h"
#include "device/topology.h"

namespace ssdprobe {

// The kernel's PAGE_SIZE on the machines ssdprobe runs on: the largest LBA
// size the NVMe driver of 6.1 takes, and sd's floor for an optimal transfer.
inline constexpr uint64_t kKernelPageBytes = 4096;

struct ExpectedField {
  std::string name;               // sysfs queue attribute: "minimum_io_size", "rotational"...
  std::optional<int64_t> value;   // bytes (0/1 for rotational); nullopt: no expectation
  std::string derivation;         // "NPWG=3 → (3+1) × 4096 B LBA", for the message
};

struct SysfsExpectation {
  std::string source;  // "NVMe Identify", "ATA IDENTIFY DEVICE", "SCSI READ CAPACITY(16)"
  // Kernel release the rules were modelled on ("6.1"), or "" when the rules
  // have not changed across the kernels ssdprobe supports. When it is set and
  // the running kernel is a different release, differences are reported with
  // severity "info" (the kernel may legitimately differ), else "warning".
  std::string kernel_model;
  std::vector<ExpectedField> fields;
};

// The sysfs value of `field` in `sysfs` (rotational as 0/1), nullopt if
// sysfs lacks it or the name is unknown. alignment_offset is nullopt for a
// partition target (its offset is the partition's, expectations the disk's).
std::optional<int64_t> sysfs_value(const Topology& sysfs, const std::string& field);

// One Mismatch per field with both an expectation and a sysfs value that
// differ: field = the sysfs name, reported = sysfs, detected = expected.
std::vector<Mismatch> compare_with_sysfs(const SysfsExpectation& expected, const Topology& sysfs);

// True if `kernel_release` ("6.1.0-18-amd64") is the release `model` ("6.1").
bool kernel_matches_model(const std::string& kernel_release, const std::string& model);

}  // namespace ssdprobe
