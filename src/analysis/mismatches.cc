#include "analysis/mismatches.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

// A reported size smaller than the read page makes partitioning tools and
// mkfs align to too small a unit. For minimum_io_size, which those tools read,
// that is a warning; physical_block_size is capped by the kernel at the
// atomic write unit, so a smaller one is common and only information. A
// larger value is not contradicted by reads (it may describe the write unit).
void compare_size(const char* field, const std::optional<uint64_t>& reported, uint64_t page,
                  const char* severity_if_smaller, std::vector<Mismatch>& out) {
  if (!reported || *reported == 0 || *reported == page) return;
  Mismatch m;
  m.field = field;
  m.reported = static_cast<int64_t>(*reported);
  m.detected = static_cast<int64_t>(page);
  if (*reported < page) {
    m.severity = severity_if_smaller;
    m.message = fmt::format("{} is {} but reads crossing a {} boundary pay an extra sense: tools that align to {} "
                            "(parted, mkfs.xfs, LVM) will under-align",
                            field, format_size(*reported), format_size(page), field);
  } else {
    m.severity = "info";
    m.message = fmt::format("{} is {}, larger than the {} read page; reads do not contradict it (it may describe "
                            "the write unit, which needs --write to measure)",
                            field, format_size(*reported), format_size(page));
  }
  out.push_back(m);
}

void check_partition_start(const Topology& t, uint64_t page, std::vector<Mismatch>& out) {
  if (t.partition_name.empty() || t.partition_start_bytes % page == 0) return;
  Mismatch m;
  m.field = "partition_start";
  m.reported = static_cast<int64_t>(t.partition_start_bytes);
  m.detected = static_cast<int64_t>(page);
  m.severity = "warning";
  m.message = fmt::format("partition {} starts at byte {}, which is {} past a {} read page boundary: every "
                          "page-sized IO inside it straddles two pages",
                          t.partition_name, t.partition_start_bytes, t.partition_start_bytes % page,
                          format_size(page));
  out.push_back(m);
}

}  // namespace

std::vector<Mismatch> find_mismatches(const Topology& reported, const DetectedUnit& read_page) {
  std::vector<Mismatch> out;
  if (!read_page.bytes) return out;
  const uint64_t page = *read_page.bytes;
  compare_size("minimum_io_size", reported.minimum_io_size, page, "warning", out);
  compare_size("physical_block_size", reported.physical_block_size, page, "info", out);
  check_partition_start(reported, page, out);
  return out;
}

}  // namespace ssdprobe
