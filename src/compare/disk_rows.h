// The rows of `ssdprobe info --all-disks` (cli/disk_table.h gathers them):
// one whole disk each, with the units of its serial's latest saved run, and
// their text table and JSON array.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

// The latest saved run of a drive: which document, and its units.
struct LastRun {
  std::string file, started_at;
  SavedUnit read_page, write_unit, erase_block;
};

struct DiskRow {
  std::string device, model, serial, transport;
  uint64_t size_bytes = 0;
  std::optional<uint64_t> logical_block, physical_block, minimum_io, optimal_io;
  std::optional<LastRun> last_run;            // --results held a run of this serial
  std::string worst_severity, worst_finding;  // "" when the audit found nothing
  std::string error;                          // why the disk could not be listed; "" when it could
};

// A drive as saved runs name it: model and serial together, since a
// placeholder serial ("0000", "To be filled by O.E.M.") or a cloned VM's can
// repeat across models.
using DriveKey = std::pair<std::string, std::string>;  // model, serial

// --results DIR: the latest timed run of each drive (by started_at), read
// without grids; runs without a serial are left out. Throws Error(usage)
// when DIR does not exist; documents that cannot be read are named in a
// warning and left out.
std::map<DriveKey, LastRun> latest_runs_by_drive(const std::string& dir);

std::string render_disk_rows_text(const std::vector<DiskRow>& rows);
std::string render_disk_rows_json(const std::vector<DiskRow>& rows);  // an array, one object per row

}  // namespace ssdprobe
