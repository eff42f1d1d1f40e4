// A file target's read grid in disk offsets. A file's offsets are disk
// offsets only inside one stretch of it that is contiguous on the disk
// (FIEMAP: layout/fiemap.h), so the first read grid is kept to the longest
// such stretch of data in the asked region, its slots placed by where they
// lie on the disk; a file with no stretch long enough for the grid has its
// read grid skipped, saying so, instead of timing a grid whose boundaries
// are shifted by an unknown amount.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "device/target.h"
#include "probes/grid_plan.h"
#include "report/result.h"

namespace ssdprobe {

struct FileReads {
  std::optional<GridPlan> plan;            // the grid in the stretch; none: plan as for any target
  std::optional<FileReadMapping> mapping;  // where it is (run.file_mapping)
  std::string skipped;                     // why the read grid does not run, when it does not
  std::vector<std::string> notes;          // extents that could not be read, and what that means
};

// Nothing for a target that is not a regular file, for a disk image (its
// offsets are the image's own: the audit prices its partitions' starts in
// them), or for a file on a filesystem with no FIEMAP (a note says its
// offsets are timed as they are).
FileReads plan_file_reads(const Target& target, const Region& asked, bool disk_image);

}  // namespace ssdprobe
