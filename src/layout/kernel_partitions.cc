#include "layout/kernel_partitions.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <system_error>

#include "device/sysfs_text.h"
#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kSysfsSectorBytes = 512;  // sysfs `start` and `size` are in 512-byte units

// A decimal attribute that is entirely a number; nullopt otherwise.
template <typename Int>
std::optional<Int> read_number(const fs::path& path) {
  const auto text = read_sysfs_string(path);
  if (!text || text->empty()) return std::nullopt;
  Int value{};
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<uint64_t> read_sectors_as_bytes(const fs::path& path) {
  const auto sectors = read_number<uint64_t>(path);
  return sectors ? checked_mul(*sectors, kSysfsSectorBytes) : std::nullopt;
}

// The partition in sysfs directory `dir`, or nullopt when `dir` is not one
// (no `partition` file) or its numbers cannot be used.
std::optional<KernelPartition> read_partition(const fs::path& dir) {
  const auto number = read_number<int>(dir / "partition");
  if (!number || *number < 1) return std::nullopt;
  const auto start = read_sectors_as_bytes(dir / "start");
  const auto size = read_sectors_as_bytes(dir / "size");
  if (!start || !size) return std::nullopt;
  KernelPartition partition;
  partition.number = *number;
  partition.name = dir.filename().string();
  partition.start_bytes = *start;
  partition.size_bytes = *size;
  partition.alignment_offset = read_number<int64_t>(dir / "alignment_offset");
  return partition;
}

bool is_plain_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

}  // namespace

std::vector<KernelPartition> read_kernel_partitions(const std::string& disk_name, const std::string& sysfs_root) {
  std::vector<KernelPartition> partitions;
  if (!is_plain_name(disk_name)) return partitions;
  // error_code everywhere: a disk that goes away while we read is "no
  // partitions", never an exception.
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(sysfs_root) / "block" / disk_name, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code kind_ec;
    if (!it->is_directory(kind_ec)) continue;
    if (auto partition = read_partition(it->path())) partitions.push_back(std::move(*partition));
  }
  std::sort(partitions.begin(), partitions.end(),
            [](const KernelPartition& a, const KernelPartition& b) { return a.number < b.number; });
  return partitions;
}

}  // namespace ssdprobe
