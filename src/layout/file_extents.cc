#include "layout/file_extents.h"

#include <linux/fiemap.h>

#include <algorithm>

namespace ssdprobe {

ExtentKind classify_extent(uint32_t flags) {
  if (flags & FIEMAP_EXTENT_DATA_INLINE) return ExtentKind::inline_data;
  if (flags & FIEMAP_EXTENT_DELALLOC) return ExtentKind::delalloc;  // also sets UNKNOWN
  if (flags & FIEMAP_EXTENT_UNKNOWN) return ExtentKind::unknown;
  if (flags & FIEMAP_EXTENT_ENCODED) return ExtentKind::encoded;    // compressed, encrypted
  if (flags & (FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_TAIL)) return ExtentKind::not_aligned;
  if (flags & FIEMAP_EXTENT_UNWRITTEN) return ExtentKind::unwritten;
  return ExtentKind::data;
}

const char* extent_kind_name(ExtentKind kind) {
  switch (kind) {
    case ExtentKind::data: return "data";
    case ExtentKind::inline_data: return "inline";
    case ExtentKind::unknown: return "unknown";
    case ExtentKind::delalloc: return "delalloc";
    case ExtentKind::encoded: return "encoded";
    case ExtentKind::not_aligned: return "not_aligned";
    case ExtentKind::unwritten: return "unwritten";
  }
  return "data";
}

std::string extent_kind_reason(ExtentKind kind) {
  switch (kind) {
    case ExtentKind::data: return "judged";
    case ExtentKind::inline_data: return "stored inside the filesystem's metadata: it has no place of its own";
    case ExtentKind::unknown: return "the filesystem does not say where it is";
    case ExtentKind::delalloc: return "not placed yet (delayed allocation): the filesystem chooses its place when it writes it";
    case ExtentKind::encoded: return "compressed or encrypted: the bytes on the disk are not the file's bytes at these offsets";
    case ExtentKind::not_aligned: return "packed with other data (a tail): its offsets are not block aligned by design";
    case ExtentKind::unwritten:
      return "preallocated and never written (reads as zeros): no IO reaches it until it is written, and then the "
             "filesystem may convert it in pieces";
  }
  return "";
}

std::vector<FileExtent> merge_contiguous(std::span<const FileExtent> extents) {
  std::vector<FileExtent> merged;
  for (const FileExtent& e : extents) {
    if (e.length == 0) continue;
    if (!merged.empty()) {
      FileExtent& last = merged.back();
      const bool continues = last.logical + last.length == e.logical && last.physical + last.length == e.physical &&
                             classify_extent(last.flags) == classify_extent(e.flags);
      if (continues && classify_extent(e.flags) == ExtentKind::data) {
        last.length += e.length;
        last.flags |= e.flags;
        continue;
      }
    }
    merged.push_back(e);
  }
  return merged;
}

namespace {

// The units `e` is misaligned to; the file's last extent is held only to
// its starts (its length is what is left of the file).
std::vector<size_t> missed_units(const FileExtent& e, uint64_t disk_offset, bool last,
                                 std::span<const ExtentUnit> units) {
  std::vector<size_t> missed;
  for (size_t i = 0; i < units.size(); ++i) {
    const uint64_t u = units[i].bytes;
    if (u == 0) continue;
    const bool miss = e.logical % u != 0 || disk_offset % u != 0 || (!last && e.length % u != 0);
    if (miss) missed.push_back(i);
  }
  return missed;
}

void add_unjudged(ExtentJudgement& j, ExtentKind kind, uint64_t bytes) {
  for (auto& [k, b] : j.unjudged) {
    if (k == kind) {
      b += bytes;
      return;
    }
  }
  j.unjudged.emplace_back(kind, bytes);
}

void keep_worst(ExtentJudgement& j, JudgedExtent extent) {
  constexpr size_t kWorst = 3;
  j.worst.push_back(std::move(extent));
  std::stable_sort(j.worst.begin(), j.worst.end(),
                   [](const JudgedExtent& a, const JudgedExtent& b) { return a.length > b.length; });
  if (j.worst.size() > kWorst) j.worst.resize(kWorst);
}

// Bytes of [0, file_bytes) that no extent covers: holes, and an unmapped
// end after truncate.
uint64_t unmapped_bytes(std::span<const FileExtent> merged, uint64_t file_bytes) {
  uint64_t mapped = 0;
  for (const FileExtent& e : merged) {
    if (e.logical >= file_bytes) continue;
    mapped += std::min(e.length, file_bytes - e.logical);
  }
  return file_bytes > mapped ? file_bytes - mapped : 0;
}

}  // namespace

std::optional<FileExtent> longest_data_run(std::span<const FileExtent> extents, uint64_t from, uint64_t to) {
  std::optional<FileExtent> best;
  for (FileExtent e : merge_contiguous(extents)) {
    if (classify_extent(e.flags) != ExtentKind::data) continue;
    const uint64_t start = std::max(e.logical, from);
    const uint64_t end = std::min(e.logical + e.length, to);
    if (end <= start) continue;
    e.physical += start - e.logical;
    e.logical = start;
    e.length = end - start;
    if (!best || e.length > best->length) best = e;
  }
  return best;
}

ExtentJudgement judge_extents(std::span<const FileExtent> extents, uint64_t file_bytes, uint64_t disk_start,
                              std::span<const ExtentUnit> units) {
  ExtentJudgement j;
  j.file_bytes = file_bytes;
  j.extent_count = extents.size();
  for (const ExtentUnit& u : units) j.shares.push_back({u, 0, 0});
  const std::vector<FileExtent> merged = merge_contiguous(extents);
  j.merged_count = merged.size();
  j.hole_bytes = unmapped_bytes(merged, file_bytes);
  for (size_t i = 0; i < merged.size(); ++i) {
    const FileExtent& e = merged[i];
    const ExtentKind kind = classify_extent(e.flags);
    if (kind != ExtentKind::data) {
      add_unjudged(j, kind, e.length);
      continue;
    }
    j.data_bytes += e.length;
    j.largest_data_extent = std::max(j.largest_data_extent, e.length);
    const uint64_t disk_offset = disk_start + e.physical;
    const bool last = i + 1 == merged.size() || e.logical + e.length >= file_bytes;
    JudgedExtent judged{e.logical, disk_offset, e.length, kind, {}};
    for (const size_t u : missed_units(e, disk_offset, last, units)) {
      j.shares[u].misaligned_bytes += e.length;
      j.shares[u].misaligned_extents += 1;
      judged.misses.push_back(units[u].name);
    }
    if (!judged.misses.empty()) keep_worst(j, std::move(judged));
  }
  return j;
}

}  // namespace ssdprobe
