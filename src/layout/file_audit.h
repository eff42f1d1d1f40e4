// `ssdprobe audit FILE|DIR` on a mounted filesystem: where each file's data
// lies on the disk (FIEMAP plus the partition's start), judged against the
// drive's units (layout/file_extents.h), with the filesystem's own settings
// and the fix. Nothing is written; a directory is walked without following
// symbolic links and without leaving its filesystem, up to kMaxAuditFiles.
//
// The findings are AuditLines, one per file whose data is misaligned, so
// the verdict, the mismatches and the exit code treat them as the disk
// audit's: a unit the data misses at 4 KiB (the filesystem's start splits
// every block) is an error, the read page or write unit a warning.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "layout/audit.h"
#include "layout/file_extents.h"
#include "layout/file_filesystem.h"

namespace ssdprobe {

constexpr size_t kMaxAuditFiles = 10'000;

struct FileExtentReport {
  std::string path;                   // as found (raw bytes: renderers make it printable)
  ExtentJudgement judgement;
  std::optional<uint64_t> extent_size_hint;  // xfs fsx_extsize (0: none); none where not supported
  bool extents_cut = false;           // more extents than read (fiemap.h)
  std::string error;                  // why it could not be read, else ""
};

struct FileExtentsAudit {
  std::string root;                   // the FILE or DIR named
  bool directory = false;
  FileFilesystem filesystem;
  std::optional<uint64_t> directory_hint;  // a DIR's xfs extent size hint (new files inherit it)
  std::vector<ExtentUnit> units;
  std::vector<FileExtentReport> files;
  ExtentJudgement total;              // every file's judged bytes together (no worst extents)
  uint64_t skipped_links = 0, skipped_mounts = 0, skipped_special = 0;
  bool cut = false;                   // more than kMaxAuditFiles regular files
};

// The units extents are checked against: 4 KiB (error: every block IO
// splits), then the read page and the write unit where known (warning).
std::vector<ExtentUnit> extent_units(const AuditUnits& units);

// Reads and judges `path` (a regular file or a directory). Throws
// Error(target) for anything else, Error(unsupported) when the filesystem
// has no FIEMAP, os_error when `path` cannot be opened.
FileExtentsAudit read_file_extents(const std::string& path, const AuditUnits& units);

// The audit of those files: `lines` one per misaligned file (with its fix),
// the notes on what was not judged and why.
LayoutAudit file_extents_layout_audit(const FileExtentsAudit& files, const AuditUnits& units);

// What the fixes of the files before this one already gave, so that each
// step is given once: the filesystem's own steps (a stripe unit, a mkfs, the
// partition's move) with the first misaligned file, a directory's extent
// size hint with the first file in it. Later files point to that line.
struct FileFixesGiven {
  std::string filesystem_steps_field;  // "file[0].extents", empty until given
  std::string filesystem_steps_what;   // "recreate the filesystem with bigalloc clusters of 64 KiB"
  std::map<std::string, std::string> hinted_directories;  // directory -> the field whose fix hints it
};

// The fix for one file's misaligned data (file_audit_fix.cc): how the
// filesystem can be made to place it on the unit. `field` is its line's.
std::vector<FixStep> file_extent_fix(const FileExtentsAudit& files, const FileExtentReport& file,
                                     const std::string& field, FileFixesGiven& given);

}  // namespace ssdprobe
