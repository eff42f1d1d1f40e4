// The part of a zoned target a read run uses: its written data only. Above
// a write pointer the controller answers a read without touching flash
// (zeros, or an error on some devices), so timing it would describe the
// controller, and a page found there would be nobody's page. With no
// --region the run reads the longest stretch of written data; a --region
// that reaches above a write pointer is refused, as is a device with
// nothing written.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/target.h"
#include "device/zone_report.h"
#include "probes/grid_plan.h"
#include "run/run_context.h"
#include "run/run_options.h"

namespace ssdprobe {

struct ZonedReadRegion {
  Region region;                   // what the read probes use
  std::vector<std::string> notes;  // what was readable, for the document
};

// `zones`: the disk's zone report; the target is `size` bytes from disk
// byte `disk_start` (a partition's start; 0 for the whole disk); `given`:
// --region (length 0 and offset 0: none). Throws Error(target) when no
// zone holds data, Error(usage) when `given` is not all written data.
ZonedReadRegion zoned_read_region(std::span<const Zone> zones, const std::string& path, uint64_t disk_start,
                                  uint64_t size, const Region& given);

// At set-up: what a timed run on `target` reads, and why.
struct ZonedReads {
  std::vector<std::string> notes;  // what was readable
  bool in_written_data = false;    // every read lies below a write pointer
  std::string skipped;             // why the read phases do not run, when they do not
};

// The options the run uses, the read region chosen in them (unchanged for
// a target that is not zoned). On a --write run --region chose the zones to
// write (safety/zone_choice.h), not where to read, and with nothing written
// the reads are skipped rather than the zone-safe writes refused. Without a
// zone report (an old kernel, a failed ioctl) the reads go where they would
// and a note says what that means.
Options with_zoned_read_region(const Target& target, const Options& options, ZonedReads& reads);

// The first read grid's plan. On a zoned target whose written data is too
// short for it the refusal says that the region is the written data, and a
// --write run skips its reads instead (its zone-safe writes need none).
GridPlan plan_first_read_grid(const Target& target, const Options& used, const Options& asked, ZonedReads& reads);

// The phase skip of the read phases of a zoned --write run with nothing
// (or too little) written: RunContext::reads_skipped.
std::optional<std::string> skip_reads_if_nothing_written(const RunContext& run);

// run.read_region of the document: the region the read probes used, with
// its length spelt out (none when they were skipped), and what chose it
// (docs/result-json.md).
std::optional<Region> read_region(const Target& target, const Options& used, const ZonedReads& reads);
std::string read_region_source(const Options& asked, const ZonedReads& reads);

}  // namespace ssdprobe
