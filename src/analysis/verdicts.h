// What a run concludes about a drive, as domain values: the detected units,
// where the reported geometry disagrees with them, and what to do about it.
// Analysis produces these; firmware adds its own mismatches; only the report
// layer turns them (and their enums) into text or JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/block_size_policy.h"
#include "analysis/step_model.h"

namespace ssdprobe {

// Which of three things a unit without bytes means.
enum class UnitState {
  found,         // bytes set
  absent,        // no level, and any level large enough to matter is ruled out
  undetermined,  // the data neither show nor rule one out: a larger --budget would tell
  not_measured,  // no probe ran for it (e.g. write units without --write)
};

struct DetectedUnit {
  std::optional<uint64_t> bytes;
  UnitState state = UnitState::not_measured;
  double confidence = 0.0;
  std::string evidence;
  std::vector<LevelEstimate> levels;  // every level found (grid probes)
  std::string device_state;           // what the drive had been through (write probes)
  std::optional<uint64_t> searched_up_to_bytes;  // ruled out: the largest unit (erase block: period) that could show
  std::optional<double> fit_dispersion;           // grid probes: residual / dof of the fitted levels
  // What would tell, when the unit is not determined or not measured ("rerun
  // with --budget 120"), or search further when it is ruled out; set with the
  // verdict (run/unit_answers.h), empty when found.
  std::string to_determine;
  // Write units: the drive state the writes met ("native": after an SLC
  // cache was exhausted; "slc_cache": inside one; "unknown": no cache drop
  // was seen, so a cache larger than what was written may have taken them).
  // Empty for units where it does not apply.
  std::string regime;
  // Read page and write unit, state undetermined: the unit the fit of all the
  // data picked, which too few bootstrap resamples agreed on, and their share
  // (UnitVerdict::leading, leading_support). What a picture that needs a unit
  // (a heatmap folded at it) can use, named as a candidate, never as found.
  // Erase block: the period the stream's stalls recur at, and the share of
  // its writes that stalled (EraseBlockVerdict::recurs_every_bytes).
  std::optional<uint64_t> best_candidate_bytes;
  double best_candidate_support = 0.0;
  // Erase block with no period found: what a stall must add to a typical
  // write for the stream to see it (EraseBlockVerdict::stall_floor_us).
  std::optional<double> stall_floor_us;
};

enum class Severity {
  info,     // worth knowing; the kernel or drive may legitimately differ
  warning,  // likely costs performance or misleads a tool
  error,    // the reported value is wrong in a way that breaks alignment
};

struct Mismatch {
  std::string field;                  // the reported field's name, e.g. "minimum_io_size"
  std::optional<int64_t> reported;
  std::optional<int64_t> detected;
  Severity severity = Severity::warning;
  std::string message;
};

// One command of a recommendation: a single shell line that runs without
// prompting once its device nodes are right.
struct RecommendedCommand {
  std::string key;      // parted, sfdisk, sgdisk, mdadm, pvcreate, vgcreate, lvcreate, mkfs_xfs, mkfs_ext4, mkfs_f2fs
  std::string command;
  std::string purpose;  // what it makes, and which names in it are placeholders
  bool destroys_data = false;
  std::string warning;  // non-empty exactly when destroys_data: what becomes unreachable, naming the device
  // Steps sharing a group are alternatives (run one of them): "partition"
  // (parted, sfdisk, sgdisk) and "filesystem" (mkfs_*); empty: always run.
  std::string alternative_group;
};

// One way to use a block larger than 4 KiB when the read page or write unit
// is larger (analysis/block_size_advice.h): what it is, the command when
// there is one, and whether the running kernel can use it.
struct BlockSizeAdvice {
  std::string what;      // "XFS with 16 KiB blocks"
  std::string command;   // empty: words only (a database setting)
  bool applies = false;  // usable on the running kernel with Debian 12's tools, as far as ssdprobe knows
  std::string why;       // what it changes, what it costs, what it needs when it does not apply
  std::string step_key;  // the step in Recommendations::steps that runs `command`, or empty
};

struct Recommendations {
  uint64_t partition_start_bytes = 1 << 20;
  uint64_t partition_alignment_bytes = 1 << 20;
  uint64_t filesystem_block_bytes = 4096;  // what the plan's mkfs commands use
  BlockSizePolicy block_size;              // the sizes to address the drive in (analysis/block_size_policy.h)
  std::vector<RecommendedCommand> steps;  // in the order they would be run; keys are unique
  std::vector<std::string> notes;
  std::vector<BlockSizeAdvice> block_size_advice;  // empty when no read page or write unit was determined
  // Set by the caller that audited the layout already on the drive (e.g.
  // "nothing to change"); recommend() leaves it empty.
  std::optional<std::string> verdict;
};

}  // namespace ssdprobe
