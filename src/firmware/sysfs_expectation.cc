#include "firmware/sysfs_expectation.h"

#include <fmt/format.h>

namespace ssdprobe {

namespace {

std::optional<int64_t> as_signed(const std::optional<uint64_t>& value) {
  if (!value) return std::nullopt;
  return static_cast<int64_t>(*value);
}

Severity severity_for(const SysfsExpectation& expected, const Topology& sysfs) {
  if (expected.kernel_model.empty() || kernel_matches_model(sysfs.kernel_version, expected.kernel_model))
    return Severity::warning;
  return Severity::info;
}

std::string message_for(const SysfsExpectation& expected, const ExpectedField& field, int64_t shown,
                        const Topology& sysfs) {
  std::string text = fmt::format("sysfs {} is {}, but {} implies {} ({})", field.name, shown, expected.source,
                                 *field.value, field.derivation);
  if (!expected.kernel_model.empty()) {
    text += fmt::format("; expectation modelled on Linux {}, running {}", expected.kernel_model,
                        sysfs.kernel_version.empty() ? "an unknown kernel" : sysfs.kernel_version);
  }
  return text;
}

}  // namespace

bool kernel_matches_model(const std::string& kernel_release, const std::string& model) {
  if (model.empty() || !kernel_release.starts_with(model)) return false;
  if (kernel_release.size() == model.size()) return true;
  const char next = kernel_release[model.size()];
  return next == '.' || next == '-' || next == '+';
}

std::optional<int64_t> sysfs_value(const Topology& sysfs, const std::string& field) {
  if (field == "logical_block_size") return as_signed(sysfs.logical_block_size);
  if (field == "physical_block_size") return as_signed(sysfs.physical_block_size);
  if (field == "minimum_io_size") return as_signed(sysfs.minimum_io_size);
  if (field == "optimal_io_size") return as_signed(sysfs.optimal_io_size);
  if (field == "discard_granularity") return as_signed(sysfs.discard_granularity);
  // A partition's alignment_offset is its own; expectations are for the disk.
  if (field == "alignment_offset") return sysfs.partition_name.empty() ? sysfs.alignment_offset : std::nullopt;
  if (field == "rotational" && sysfs.rotational) return *sysfs.rotational ? 1 : 0;
  return std::nullopt;
}

std::vector<Mismatch> compare_with_sysfs(const SysfsExpectation& expected, const Topology& sysfs) {
  std::vector<Mismatch> mismatches;
  for (const auto& field : expected.fields) {
    const auto shown = sysfs_value(sysfs, field.name);
    if (!field.value || !shown || *shown == *field.value) continue;
    mismatches.push_back(Mismatch{field.name, *shown, *field.value, severity_for(expected, sysfs),
                                  message_for(expected, field, *shown, sysfs)});
  }
  return mismatches;
}

}  // namespace ssdprobe
