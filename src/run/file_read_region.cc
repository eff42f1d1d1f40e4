#include "run/file_read_region.h"

#include <fcntl.h>

#include <cerrno>
#include <fmt/format.h>

#include "core/output.h"
#include "core/unique_fd.h"
#include "core/units.h"
#include "layout/fiemap.h"
#include "layout/file_filesystem.h"

namespace ssdprobe {
namespace {

std::string too_fragmented(const std::optional<FileExtent>& run, size_t extents, const std::string& why) {
  const std::string largest = run ? fmt::format("{} at file offset {}", format_size(run->length),
                                                format_exact_size(run->logical))
                                  : std::string("none (no written data)");
  return fmt::format("the file's extents are too fragmented for the grid: largest contiguous extent {} ({} "
                     "extents); a grid across extents would time boundaries shifted by where each extent lies, so "
                     "the read page is not determined here ({}). Probe the block device, or a file written in one "
                     "piece", largest, extents, why);
}

}  // namespace

FileReads plan_file_reads(const Target& target, const Region& asked, bool disk_image) {
  FileReads reads;
  if (target.kind != TargetKind::file || disk_image) return reads;
  // A file (or --region) too small for the grid whatever its extents is
  // refused as any small target is (Error(target): exit 3).
  (void)plan_read_grid(grid_plan_input(target, asked));
  const UniqueFd fd(::open(target.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  FiemapResult map;
  FileFilesystem fs;
  try {
    if (!fd.valid()) throw os_error(printable(target.path), errno);
    fs = file_filesystem(fd.get(), printable(target.path));
    if (!fs.offsets_unknown.empty()) throw Error(ErrorCategory::unsupported, fs.offsets_unknown);
    map = read_fiemap(fd.get(), printable(target.path));
  } catch (const Error& e) {
    reads.notes.push_back(fmt::format("where the file's data lies on the disk is not known ({}): its offsets are "
                                      "timed as file offsets, which need not be disk offsets", e.what()));
    return reads;
  }
  const uint64_t end = asked.length ? asked.offset + asked.length : UINT64_MAX;
  const std::optional<FileExtent> run = longest_data_run(map.extents, asked.offset, end);
  if (!run) {
    reads.skipped = too_fragmented(run, map.extents.size(), "no data extent in the region");
    return reads;
  }
  GridPlanInput input = grid_plan_input(target, {run->logical, run->length});
  // File offset X of the stretch is disk offset X + this (mod 2^64: the
  // plan's sums wrap back to the true disk offsets).
  input.disk_start = fs.disk_start + run->physical - run->logical;
  try {
    reads.plan = plan_read_grid(input);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::target) throw;
    reads.skipped = too_fragmented(run, map.extents.size(), e.what());
    return reads;
  }
  reads.mapping = FileReadMapping{fs.device, run->logical, fs.disk_start + run->physical, run->length,
                                  map.extents.size()};
  return reads;
}

}  // namespace ssdprobe
