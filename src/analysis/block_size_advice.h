// What can use a block larger than 4 KiB when the measured read page or write
// unit is larger, on the running kernel: XFS blocks above the memory page,
// ext4 bigalloc clusters, F2FS, ZFS ashift and database page sizes, each
// with its command (none for databases) and whether it applies here.
//
// Block sizes are powers of two, so the block advised is the largest power of
// two that divides the unit (the write unit when it is above 4 KiB, else the
// read page): for a power-of-two unit the unit itself, for 48 KiB 16 KiB.
// Such a block never straddles a unit once the partition start is aligned.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/recommend.h"
#include "analysis/verdicts.h"

namespace ssdprobe {

struct KernelVersion {
  unsigned major = 0;
  unsigned minor = 0;
  auto operator<=>(const KernelVersion&) const = default;
};

// "6.18.44-fc-v782" -> 6.18, "6.1.0-18-amd64" -> 6.1; nullopt unless it
// starts with MAJOR.MINOR.
std::optional<KernelVersion> parse_kernel_release(std::string_view release);

// XFS mounts blocks larger than the memory page from Linux 6.12 (the large
// block size work merged for 6.12; earlier kernels refuse the mount).
inline constexpr KernelVersion kXfsLargeBlockKernel{6, 12};
bool xfs_large_blocks_supported(std::string_view kernel_release);

// The advice for these units; `device` is the node the mkfs commands name.
// Empty when neither unit is known; one item ("4 KiB blocks") when no known
// unit is above 4 KiB.
std::vector<BlockSizeAdvice> filesystem_block_advice(std::optional<uint64_t> read_page,
                                                     std::optional<uint64_t> write_unit,
                                                     const std::string& kernel_release, uint64_t page_size,
                                                     const std::string& device = "PARTITION");

// Adds the advice for `geometry` to `r`: block_size_advice, one note per item,
// and a "filesystem" step (mkfs_xfs_large_block, mkfs_ext4_bigalloc) for each
// mkfs command that applies here. Call after the other filesystem steps.
void append_block_size_advice(Recommendations& r, const GeometryForRecommendation& geometry,
                              const std::string& device);

}  // namespace ssdprobe
