#include "analysis/block_size_advice.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <fmt/format.h>

#include "analysis/block_size_policy.h"
#include "core/shell_command.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kOneKiB = 1024;  // mkfs's "k"
constexpr uint64_t kXfsLargestBlock = 64 * kOneKiB;      // mkfs.xfs -b size=128k: "Value is too large"
constexpr uint64_t kInnodbLargestPage = 64 * kOneKiB;    // innodb_page_size: 4k to 64k
constexpr uint64_t kPostgresLargestPage = 32 * kOneKiB;  // configure --with-blocksize: 1 to 32 (KiB)
constexpr uint64_t kPostgresPage = 8 * kOneKiB;

// The unit a block is chosen for, the block, and what the texts need.
struct Choice {
  uint64_t unit;
  const char* unit_name;  // "write unit" or "read page"
  uint64_t block;         // the physical block (analysis/block_size_policy.h)
  unsigned ashift;        // ZFS's, for that block
  std::string device;
};

// mkfs's size suffixes are binary: 16k = 16384.
std::string mkfs_size(uint64_t bytes) {
  return bytes % kOneKiB == 0 ? fmt::format("{}k", bytes / kOneKiB) : fmt::format("{}", bytes);
}

std::string running_kernel(const std::string& release) {
  return release.empty() ? std::string("The running kernel (release unknown)")
                         : fmt::format("The running kernel, {},", release);
}

// Why this block: the unit itself, or the nearest size that still lines up.
BlockSizeAdvice fit_item(const Choice& c, std::optional<uint64_t> read_page) {
  const std::string unit = fmt::format("{} {}", format_size(c.unit), c.unit_name);
  if (c.block == c.unit) {
    return {fmt::format("{} blocks", format_size(c.block)), "", true,
            fmt::format("the {} is a power of two, so it can be a block size: with {} blocks (clusters, records, "
                        "pages) and an aligned partition start every block written covers whole units; the cost is "
                        "space, since a file's last block is always whole", unit, format_size(c.block)), ""};
  }
  const bool matches_page = read_page && *read_page == c.block;
  return {fmt::format("{} blocks", format_size(c.block)), "", true,
          fmt::format("no block size equals the {}: block sizes are powers of two. {}, the largest power of two "
                      "that divides it, is the nearest useful choice: with an aligned partition start no block "
                      "straddles two units (any larger power of two would){}. One {} block written alone still "
                      "fills 1/{} of a unit: only writes gathered into whole {} pieces spare the drive a "
                      "read-modify-write", unit, format_size(c.block),
                      matches_page ? fmt::format(", and it matches the {} read page", format_size(c.block)) : "",
                      format_size(c.block), c.unit / c.block, format_size(c.unit)), ""};
}

BlockSizeAdvice xfs_item(const Choice& c, const std::string& release, uint64_t page_size) {
  const uint64_t block = std::min(c.block, kXfsLargestBlock);
  BlockSizeAdvice item{fmt::format("XFS with {} blocks", format_size(block)),
                       render_command({{"mkfs.xfs", "-f", "-b", "size=" + mkfs_size(block), c.device}}), false, "",
                       ""};
  const std::string capped = block < c.block ? " (mkfs.xfs accepts at most 64 KiB)" : "";
  const std::string page = format_size(page_size);
  if (block <= page_size) {
    item.applies = true;
    item.why = fmt::format("every file block, and every write back from the page cache, is {}{}; a block no "
                           "larger than the {} memory page mounts on any kernel", format_size(block), capped, page);
  } else if (xfs_large_blocks_supported(release)) {
    item.applies = true;
    item.why = fmt::format("every file block, and every write back from the page cache, is {}{}. {} mounts XFS "
                           "blocks larger than the {} memory page (added in Linux 6.12; the mount logs \"EXPERIMENTAL "
                           "large block size feature enabled\") and Debian 12's mkfs.xfs (xfsprogs 6.1) makes them. "
                           "Costs: each file's last block is a whole {}, and every kernel that mounts the disk later "
                           "must be 6.12 or newer (Debian 12's own 6.1 refuses it)", format_size(block), capped,
                           running_kernel(release), page, format_size(block));
  } else {
    item.why = fmt::format("{} cannot mount it. XFS blocks larger than the {} memory page need Linux 6.12 or newer "
                           "(Debian 12's own 6.1 refuses them). Debian 12's mkfs.xfs (xfsprogs 6.1) already makes "
                           "such a filesystem, so a 6.12 or newer kernel is all that is missing; until then keep "
                           "mkfs.xfs's 4 KiB blocks", running_kernel(release), page);
  }
  item.step_key = item.applies ? "mkfs_xfs_large_block" : "";
  return item;
}

BlockSizeAdvice bigalloc_item(const Choice& c) {
  const std::string cluster = format_size(c.block);
  return {fmt::format("ext4 bigalloc with {} clusters", cluster),
          render_command({{"mkfs.ext4", "-F", "-b", "4096", "-O", "bigalloc", "-C", std::to_string(c.block), c.device}}),
          true,
          fmt::format("blocks stay 4 KiB but space is allocated in {0} clusters, so every extent starts and ends on "
                      "a {0} boundary and large writes reach the drive in whole clusters; a 4 KiB write into a file "
                      "is still a 4 KiB write. Cost: every file, directory and symlink with data takes at least one "
                      "cluster (a 1 KiB file uses {0}), up to {1} wasted per small file. Linux has had bigalloc since "
                      "3.2 and Debian 12's e2fsprogs 1.47 makes it. ext4 blocks larger than the memory page "
                      "(mkfs.ext4 -b 16384) are no alternative: Linux up to 6.18 at least refuses to mount them "
                      "(\"bad block size\")", cluster, format_size(c.block - kDefaultFilesystemBlock)),
          "mkfs_ext4_bigalloc"};
}

BlockSizeAdvice f2fs_item(const Choice& c) {
  return {"F2FS (log-structured)", render_command({{"mkfs.f2fs", "-f", c.device}}), true,
          fmt::format("no block size change is needed: F2FS keeps 4 KiB blocks but writes new data and metadata "
                      "sequentially into 2 MiB segments, so most writes reach the drive as long runs covering whole "
                      "{} {}s; an fsync of a small file still writes a few 4 KiB blocks. It needs F2FS in the kernel (a "
                      "module in Debian's kernels; some custom kernels leave it out)", format_size(c.unit),
                      c.unit_name),
          "mkfs_f2fs"};
}

BlockSizeAdvice zfs_item(const Choice& c) {
  const unsigned ashift = c.ashift;
  return {fmt::format("ZFS with ashift={}", ashift),
          render_command({{"zpool", "create", "-o", fmt::format("ashift={}", ashift), "POOL", c.device}}),
          false,
          fmt::format("ZFS writes every record in multiples of 2^ashift bytes: ashift={} makes that {}{}. ZFS is not "
                      "part of Linux (OpenZFS; on Debian 12 zfs-dkms from contrib) and could not be installed where "
                      "ssdprobe is tested, so this command is untested and applies only where the zfs module is "
                      "loaded; POOL is a name to choose", ashift, format_size(uint64_t{1} << ashift),
                      ashift == kZfsLargestAshift && (uint64_t{1} << ashift) < c.block ? ", the largest ZFS accepts"
                                                                                       : ""),
          ""};
}

BlockSizeAdvice database_item(const Choice& c) {
  const uint64_t innodb = std::min(c.block, kInnodbLargestPage);
  const uint64_t postgres = std::min(c.block, kPostgresLargestPage);
  const std::string postgres_text =
      postgres == kPostgresPage
          ? "PostgreSQL's 8 KiB page already matches"
          : fmt::format("PostgreSQL's 8 KiB page changes only by building PostgreSQL with ./configure "
                        "--with-blocksize={} and running a new initdb", postgres / kOneKiB);
  return {"database page size", "", true,
          fmt::format("a database that writes its own pages can make them {}: MySQL/MariaDB InnoDB "
                      "innodb_page_size={} (set before the data directory is initialized; it cannot change later); "
                      "{}; SQLite PRAGMA page_size={} before the first table is created (or before a VACUUM)",
                      format_size(innodb), mkfs_size(innodb), postgres_text, std::min(c.block, kInnodbLargestPage)),
          ""};
}

// Units no larger than 4 KiB, or none above 4 KiB that a power of two divides.
BlockSizeAdvice small_unit_item(std::optional<uint64_t> read_page, std::optional<uint64_t> write_unit) {
  std::string units;
  if (read_page) units = fmt::format("read page ({})", format_size(*read_page));
  if (write_unit) units += fmt::format("{}write unit ({})", units.empty() ? "" : " and ", format_size(*write_unit));
  return {"4 KiB blocks", "", true,
          fmt::format("the {} {} at most 4 KiB: the default 4 KiB blocks of XFS, ext4 and F2FS already cover them, "
                      "so no larger block is needed", units, read_page && write_unit ? "are" : "is"),
          ""};
}

BlockSizeAdvice no_match_item(const Choice& c) {
  return {"no block size above 4 KiB", "", true,
          fmt::format("no power of two above 4 KiB divides the {} {}, so no larger block lines up with its units; "
                      "keep 4 KiB blocks{}", format_size(c.unit), c.unit_name,
                      c.unit % kDefaultFilesystemBlock == 0 ? ", which never straddle a unit once the partition start is aligned"
                                                  : " (some of them straddle a unit whatever the start)"),
          ""};
}

}  // namespace

std::optional<KernelVersion> parse_kernel_release(std::string_view release) {
  const char* const end = release.data() + release.size();
  KernelVersion version;
  const auto major = std::from_chars(release.data(), end, version.major);
  if (major.ec != std::errc{} || major.ptr == end || *major.ptr != '.') return std::nullopt;
  const auto minor = std::from_chars(major.ptr + 1, end, version.minor);
  if (minor.ec != std::errc{}) return std::nullopt;
  return version;
}

bool xfs_large_blocks_supported(std::string_view kernel_release) {
  const auto version = parse_kernel_release(kernel_release);
  return version && *version >= kXfsLargeBlockKernel;
}

std::vector<BlockSizeAdvice> filesystem_block_advice(std::optional<uint64_t> read_page,
                                                     std::optional<uint64_t> write_unit,
                                                     const std::string& kernel_release, uint64_t page_size,
                                                     const std::string& device) {
  if (read_page == 0) read_page.reset();
  if (write_unit == 0) write_unit.reset();
  if (!read_page && !write_unit) return {};
  const BlockSizePolicy policy = block_size_policy(read_page, write_unit);
  if (*policy.unit <= kDefaultFilesystemBlock) return {small_unit_item(read_page, write_unit)};
  const Choice c{*policy.unit, policy.unit_name, *policy.physical_block, *policy.ashift, device};
  if (c.block <= kDefaultFilesystemBlock) return {no_match_item(c)};
  return {fit_item(c, read_page), xfs_item(c, kernel_release, page_size), bigalloc_item(c), f2fs_item(c),
          zfs_item(c), database_item(c)};
}

void append_block_size_advice(Recommendations& r, const GeometryForRecommendation& g, const std::string& device) {
  r.block_size_advice = filesystem_block_advice(g.read_page, g.write_unit, g.kernel_release, g.page_size, device);
  const std::string warning = fmt::format("creates a new filesystem on {}: every file on it is lost", device);
  for (auto& item : r.block_size_advice) {
    if (const RecommendedCommand* existing = find_step(r, item.step_key)) {
      item.command = existing->command;  // mkfs_f2fs: keep its -s (sections per erase block)
    } else if (!item.step_key.empty()) {
      r.steps.push_back({item.step_key, item.command,
                         fmt::format("{} on {} (the block size advice says what it changes and costs)", item.what,
                                     device), true, warning, "filesystem"});
    }
    std::string note = fmt::format("{}{}: {}", item.what, item.applies ? "" : " (not usable here)", item.why);
    if (!item.command.empty() && item.step_key.empty()) note += fmt::format(". Command: {}", item.command);
    r.notes.push_back(std::move(note));
  }
}

}  // namespace ssdprobe
