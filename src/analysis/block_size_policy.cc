#include "analysis/block_size_policy.h"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kF2fsSegment = 2 << 20;      // 512 blocks of 4 KiB (f2fs_fs.h)
constexpr uint64_t kLargestSection = 1ull << 30;  // larger "erase blocks" are not ones

std::optional<uint64_t> known(std::optional<uint64_t> bytes) {
  return bytes && *bytes > 0 ? bytes : std::nullopt;
}

}  // namespace

BlockSizePolicy block_size_policy(std::optional<uint64_t> read_page, std::optional<uint64_t> write_unit) {
  read_page = known(read_page);
  write_unit = known(write_unit);
  BlockSizePolicy policy;
  if (write_unit && (*write_unit > kDefaultFilesystemBlock || !read_page)) {
    policy.unit = write_unit;
    policy.unit_name = "write unit";
  } else if (read_page) {
    policy.unit = std::max(*read_page, write_unit.value_or(0));
    policy.unit_name = *policy.unit == *read_page ? "read page" : "write unit";
  }
  if (!policy.unit) return policy;
  const uint64_t block = std::max(uint64_t{1} << std::countr_zero(*policy.unit), kDefaultFilesystemBlock);
  policy.physical_block = block;
  const auto log2 = static_cast<unsigned>(std::countr_zero(block));
  policy.ashift = std::clamp(log2, kZfsSmallestAshift, kZfsLargestAshift);
  policy.ashift_clamped = log2 > kZfsLargestAshift;
  return policy;
}

std::string block_size_sentence(const BlockSizePolicy& policy) {
  if (!policy.unit || *policy.unit <= kDefaultFilesystemBlock) return "4 KiB filesystem blocks are right";
  const std::string unit = fmt::format("the {} {}", format_size(*policy.unit), policy.unit_name);
  if (*policy.physical_block <= kDefaultFilesystemBlock) {
    return fmt::format("IO smaller than {} costs a whole one, and no block size above 4 KiB lines up with it: keep "
                       "4 KiB blocks", unit);
  }
  return fmt::format("IO smaller than {} costs a whole one: use {} blocks{}, ZFS ashift {}{}", unit,
                     format_size(*policy.physical_block),
                     *policy.physical_block < *policy.unit ? " (the largest power of two that divides it)" : "",
                     *policy.ashift, policy.ashift_clamped ? " (the largest OpenZFS accepts)" : "");
}

F2fsSections f2fs_sections(std::optional<uint64_t> erase_block, uint64_t partition_start,
                           const std::string& stripe_layer) {
  const uint64_t erase = known(erase_block).value_or(0);
  if (!stripe_layer.empty()) {
    return {std::nullopt, fmt::format("mkfs.f2fs keeps its default section (one 2 MiB segment): on {} a section "
                                      "cannot line up with each member's erase block", stripe_layer)};
  }
  if (erase == 0) return {std::nullopt, "no erase block was found: mkfs.f2fs keeps its default section of one 2 MiB segment"};
  if (erase % kF2fsSegment != 0 || erase > kLargestSection) {
    return {std::nullopt, fmt::format("the {} erase block is not a multiple of F2FS's 2 MiB segment: mkfs.f2fs keeps "
                                      "its default section of one segment", format_size(erase))};
  }
  if (erase == kF2fsSegment) {
    return {std::nullopt, "the 2 MiB erase block is one F2FS segment: mkfs.f2fs's default section already matches it"};
  }
  if (partition_start % erase != 0) {
    return {std::nullopt, fmt::format("mkfs.f2fs keeps its default section (one 2 MiB segment): F2FS lays its "
                                      "sections out from the partition's start, and a start at {} is not a multiple "
                                      "of the {} erase block, so sections of {} segments would straddle erase blocks "
                                      "(a partition starting at a multiple of {} would let -s {} cover one each)",
                                      format_size(partition_start), format_size(erase), erase / kF2fsSegment,
                                      format_size(erase), erase / kF2fsSegment)};
  }
  return {erase / kF2fsSegment, ""};
}

}  // namespace ssdprobe
