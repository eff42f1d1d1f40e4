// A file's extents (FIEMAP: layout/fiemap.h) judged against the drive's
// units. Pure: the ioctl reader hands its extents here, and unit tests feed
// hand-made ones.
//
// An extent is judged in disk offsets (the filesystem's start on its disk
// plus fe_physical). Extents that continue one another both in the file and
// on the disk are merged first: where the filesystem split a contiguous
// stretch says nothing about alignment. A merged extent is misaligned to a
// unit when its start in the file, its start on the disk or its length is
// not a multiple of the unit: file-offset IO of one unit then lands across
// two on the drive. The length of the file's last extent is the file's
// size, not a placement, so it is not held against it.
//
// Extents whose place on the disk is not a plain data location are counted
// apart, by kind, and never called misaligned: their bytes are not where
// FIEMAP says, or not there yet (extent_kind_reason says which).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analysis/verdicts.h"

namespace ssdprobe {

struct FileExtent {
  uint64_t logical = 0;   // fe_logical: offset in the file
  uint64_t physical = 0;  // fe_physical: offset on the filesystem's block device
  uint64_t length = 0;    // fe_length
  uint32_t flags = 0;     // fe_flags (FIEMAP_EXTENT_*)
};

// What an extent's flags say about its place (the first that applies, in
// this order: an inline or unknown place has no disk offset at all).
enum class ExtentKind { data, inline_data, unknown, delalloc, encoded, not_aligned, unwritten };
ExtentKind classify_extent(uint32_t fiemap_flags);
const char* extent_kind_name(ExtentKind kind);   // "data", "inline", "unknown", "delalloc"...
std::string extent_kind_reason(ExtentKind kind);  // why its bytes are not judged

// A unit the extents are checked against and what missing it costs.
struct ExtentUnit {
  std::string name;   // "4 KiB", "read page", "write unit"
  uint64_t bytes = 0;
  Severity severity = Severity::warning;
};

// Bytes of judged extents misaligned to one unit.
struct UnitShare {
  ExtentUnit unit;
  uint64_t misaligned_bytes = 0;
  uint64_t misaligned_extents = 0;
};

// One merged extent as judged (disk_offset = disk start + physical).
struct JudgedExtent {
  uint64_t logical = 0, disk_offset = 0, length = 0;
  ExtentKind kind = ExtentKind::data;
  std::vector<std::string> misses;  // the units it is misaligned to, by name
};

struct ExtentJudgement {
  uint64_t file_bytes = 0;      // st_size
  uint64_t extent_count = 0;    // as FIEMAP listed them
  uint64_t merged_count = 0;    // after merging contiguous ones
  uint64_t data_bytes = 0;      // in judged (data) extents
  uint64_t hole_bytes = 0;      // of [0, file_bytes) that no extent maps
  std::vector<std::pair<ExtentKind, uint64_t>> unjudged;  // bytes per kind that is not data
  std::vector<UnitShare> shares;                          // one per unit, in the order given
  std::vector<JudgedExtent> worst;                        // misaligned, most bytes first (up to 3)
  uint64_t largest_data_extent = 0;                       // merged, on the disk
  double share(const UnitShare& s) const { return data_bytes ? double(s.misaligned_bytes) / double(data_bytes) : 0; }
};

// Merges extents that continue one another in the file and on the disk
// and are of the same kind (FIEMAP lists them in file order).
std::vector<FileExtent> merge_contiguous(std::span<const FileExtent> extents);

// Judges `extents` (in file order) of a file of `file_bytes` whose
// filesystem starts at `disk_start` on its disk.
ExtentJudgement judge_extents(std::span<const FileExtent> extents, uint64_t file_bytes, uint64_t disk_start,
                              std::span<const ExtentUnit> units);

// The longest stretch of the file's data that is contiguous on the disk
// (merged data extents), clipped to file offsets [from, to): where a timed
// grid can run with file offsets that are disk offsets plus one constant.
// nullopt when no data extent lies there.
std::optional<FileExtent> longest_data_run(std::span<const FileExtent> extents, uint64_t from, uint64_t to);

}  // namespace ssdprobe
