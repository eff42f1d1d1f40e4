// The main job (characterize) and its IO-free sibling (info): open the
// target, run the probes, fold the analysis into one ResultDocument and write
// it as text and/or JSON.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <optional>

#include "analysis/mismatches.h"
#include "analysis/recommend.h"
#include "cli/audit_run.h"
#include "cli/commands.h"
#include "cli/firmware_section.h"
#include "cli/parallelism_run.h"
#include "cli/progress.h"
#include "cli/terminal_width.h"
#include "cli/write_run.h"
#include "core/clock_text.h"
#include "core/error.h"
#include "core/output.h"
#include "device/sim_profile.h"
#include "device/target.h"
#include "firmware/nvme_passthru_open.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"
#include "report/json_report.h"
#include "report/result_reader.h"
#include "report/text_report.h"
#include "safety/confirm.h"
#include "core/interrupt.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

std::string default_target(const Options& options) {
  if (!options.target.empty()) return options.target;
  const std::string sim = std::string("sim:") + default_sim_name();
  if (!options.quiet) {
    print_quietly(stderr, fmt::format("no target given: characterizing the built-in simulated drive {} (--list-sims "
                                      "lists others; give /dev/nvme0n1 or a file to probe real storage)\n", sim));
  }
  return sim;
}

DetectedUnit needs_writes(const char* what) {
  DetectedUnit unit;
  unit.evidence = fmt::format("not measured: the {} only shows under writes, and write probes were not enabled "
                              "(--write)", what);
  return unit;
}

// The md array or striped LV the target already lives in, from the audit:
// the recommendations then keep it (chunk, stripes) instead of assuming a
// single drive.
StackForRecommendation existing_stack(const ResultDocument& doc) {
  StackForRecommendation stack;
  if (!doc.audit || !doc.audit->layout) return stack;
  for (const auto& s : doc.audit->layout->layout.stacks) {
    if (doc.kind == TargetKind::partition && s.start_disk_offset != doc.topology.partition_start_bytes) continue;
    if (s.md && s.md->level >= 0 && !stack.md) {
      stack.md = MdStripe{static_cast<unsigned>(s.md->level), static_cast<unsigned>(s.md->raid_disks),
                          static_cast<unsigned>(s.md->data_disks()),
                          s.md->chunk_bytes ? std::optional<uint64_t>(s.md->chunk_bytes) : std::nullopt};
    }
    if (s.lvm && !stack.lvm) {
      stack.lvm = LvmStripe{1, std::nullopt, std::nullopt};
      for (const auto& segment : s.lvm->segments) {
        if (segment.stripes > 1) {
          stack.lvm = LvmStripe{segment.stripes, segment.stripes, segment.stripe_bytes};
          break;
        }
      }
    }
  }
  return stack;
}

// "Nothing to change" when the audit found layers and every one is aligned.
std::optional<std::string> audit_verdict(const ResultDocument& doc) {
  if (!doc.audit || !doc.audit->layout || doc.audit->layout->lines.empty() || !doc.audit->layout->all_ok()) {
    return std::nullopt;
  }
  const LayoutAudit& a = *doc.audit->layout;
  return fmt::format("nothing to change: every layer on {} starts on a multiple of {} and its stripe settings "
                     "match the units checked ({} checks)", a.layout.disk_path, format_size(wanted_alignment(a.units)),
                     a.lines.size());
}

// Disk and partition nodes for the commands: the target itself when it is a
// whole disk, its parent disk when it is a partition.
void fill_recommendations(ResultDocument& doc) {
  const Topology& t = doc.topology;
  std::string disk = doc.path, part = first_partition_path(doc.path);
  if (doc.kind == TargetKind::partition) {
    disk = "/dev/" + t.disk_name;
    part = doc.path;
  } else if (doc.kind == TargetKind::sim || doc.kind == TargetKind::file) {
    disk = "DISK";
    part = "PARTITION";
  }
  GeometryForRecommendation geometry;
  geometry.read_page = doc.read_page.bytes;
  geometry.write_unit = doc.write_unit.bytes;
  geometry.erase_block = doc.erase_block.bytes;
  geometry.logical_block = t.logical_block_size.value_or(512);
  if (doc.parallelism) geometry.parallelism_advice = parallelism_advice(doc.parallelism->verdict);
  if (doc.write_parallelism) {
    for (auto& line : parallelism_advice(doc.write_parallelism->verdict)) geometry.parallelism_advice.push_back(line);
  }
  doc.recommendations = recommend(geometry, existing_stack(doc), disk, part, doc.kind == TargetKind::partition);
  doc.recommendations.verdict = audit_verdict(doc);
  if (doc.kind == TargetKind::sim || doc.kind == TargetKind::file) {
    doc.recommendations.notes.push_back("replace DISK and PARTITION with the drive's device nodes");
  }
}

ResultDocument base_document(const Options& options, const Target& target) {
  ResultDocument doc;
  doc.started_at = utc_now_text(kIso8601Utc);
  doc.options = options.echo;
  doc.options.set("target", target.path);
  doc.path = target.path;
  doc.kind = target.kind;
  doc.topology = target.topology;
  doc.notes = target.notes;
  doc.write_unit = needs_writes("write unit");
  doc.erase_block = needs_writes("erase block");
  return doc;
}

// The report never throws for a failed write (standard output closed or
// gone), and shows no raw control character from a path, model or serial.
void emit(const ResultDocument& doc, const Options& options,
          std::string (*render)(const ResultDocument&, size_t) = render_text) {
  if (options.json_path != "-") print_quietly(stdout, printable(render(doc, text_width_for(STDOUT_FILENO)), true));
  if (!options.json_path.empty()) write_json(to_json(doc), options.json_path);
}

GridProbeResult read_grid(Target& target, const Options& options, const Region& region, double budget_s,
                          ProgressLine& progress) {
  const GridPlan plan = plan_read_grid(grid_plan_input(target, region));
  GridProbeOptions probe;
  probe.analysis = read_page_options(plan.candidates, options.seed);
  probe.budget_s = budget_s;
  probe.queue_depth = options.queue_depth;
  probe.seed = options.seed;
  probe.progress = [&progress](const GridProbeProgress& p) { progress.update(p); };
  GridProbeResult result = run_grid_probe(*target.device, plan, probe);
  progress.finish();
  return result;
}

// IO is issued in whole logical blocks, so a region must start and end on
// one; refuse before anything is confirmed or opened rather than round.
void check_region_alignment(const Target& target, const Region& region) {
  const uint64_t block = target.topology.logical_block_size.value_or(512);
  if (region.offset % block != 0 || region.length % block != 0) {
    throw Error(ErrorCategory::usage,
                fmt::format("--region {}:{} is not aligned to {}'s {} B logical block: give an offset and length "
                            "that are multiples of {} (e.g. 1M:256M)",
                            region.offset, region.length, target.path, block, block));
  }
}

// The bytes write probes may touch: --region, or the default window.
Region write_window(const Target& target, const Options& options) {
  if (options.region.offset == 0 && options.region.length == 0) return default_write_window(target.topology.size_bytes);
  Region window = options.region;
  if (window.length == 0 && window.offset < target.topology.size_bytes) window.length = target.topology.size_bytes - window.offset;
  if (window.offset + window.length > target.topology.size_bytes) {
    throw Error(ErrorCategory::usage, fmt::format("--region {}+{} runs past the end of {} ({} bytes)", window.offset,
                                                  window.length, target.path, target.topology.size_bytes));
  }
  return window;
}

// Safety first: claim, check and confirm before any IO is done.
std::unique_ptr<WriteSession> prepare_writes(const Target& target, const Region& window, const Options& options) {
  if (target.kind == TargetKind::sim) {
    // Nothing real to preserve, but asked (or refused without a terminal
    // and --yes) exactly as a real drive is: a script tested on a sim must
    // not first stop at the question on hardware.
    WritePlanSummary plan{target.path, target.topology.model, target.topology.serial, target.topology.size_bytes,
                          window.offset, window.length, false, "", true};
    confirm_write(plan, options.yes, ::isatty(STDIN_FILENO) != 0, stdin, stderr);
    return nullptr;
  }
  WriteSessionOptions session_options;
  session_options.journal_dir = options.journal_dir;
  session_options.preserve = options.preserve;
  session_options.region_given = options.region_given();
  session_options.journal_dir_options.allow_ram = options.allow_ram_journal;
  auto session = std::make_unique<WriteSession>(target, window, session_options);
  confirm_write(session->summary(), options.yes, ::isatty(STDIN_FILENO) != 0, stdin, stderr);
  return session;
}

// Plan notes (4 KiB sectors, capped sizes) go into the document once each:
// the read and write grids often plan the same adaptation.
void add_notes(ResultDocument& doc, const std::vector<std::string>& notes) {
  for (const auto& note : notes) {
    if (std::find(doc.notes.begin(), doc.notes.end(), note) == doc.notes.end()) doc.notes.push_back(note);
  }
}

void record_read(ResultDocument& doc, const GridProbeResult& read, const char* grid_name, uint32_t queue_depth,
                 const std::string& device_state) {
  doc.read_page = {read.verdict.bytes, read.verdict.state, read.verdict.confidence, read.verdict.evidence,
                   read.verdict.levels, device_state, {}, read.verdict.fit_dispersion};
  add_notes(doc, read.plan.notes);
  doc.grids.push_back(GridReport{grid_name, "read", queue_depth, read.grid, read.round_shifts_us});
}

// Many drives answer a read of never-written or trimmed space from the
// mapping table without sensing NAND, so a drive that is new, or mostly
// empty, shows no read page however long it is probed. After --write the
// window has been written (by the probes and then by the restore, which
// writes the saved content back), so when the first grid found no page the
// read grid is repeated inside the window. It gets what is left of the
// budget, at least a quarter of it.
std::optional<GridProbeResult> reread_written_window(Target& target, const Options& options, const Region& window,
                                                     double budget_left_s, ProgressLine& progress) {
  try {
    return read_grid(target, options, window, std::max(budget_left_s, options.budget_s / 4.0), progress);
  } catch (const Error& e) {
    if (e.category() != ErrorCategory::target) throw;
    return std::nullopt;  // the window is too small for a read grid: keep the first answer
  }
}

void record_write_results(ResultDocument& doc, const WriteRunResult& writes) {
  const UnitVerdict& w = writes.grid.verdict;
  doc.write_unit = {w.bytes, w.state, w.confidence, w.evidence, w.levels, "random writes inside the write window", {},
                    w.fit_dispersion};
  const EraseBlockVerdict& e = writes.stream.verdict;
  // No stall up to the searched size is an absence within that range only;
  // the evidence and searched_up_to_bytes say how far that is.
  doc.erase_block = {e.bytes, e.bytes ? UnitState::found : UnitState::absent, e.confidence, e.evidence, {}, writes.stream.device_state,
                     e.searched_up_to_bytes, {}};
  doc.grids.push_back(GridReport{"write", "write", 1, writes.grid.grid, writes.grid.round_shifts_us});
  add_notes(doc, writes.grid.plan.notes);
  doc.write_probe = writes.summary;
  doc.write_parallelism = writes.parallelism;
}

// A parallelism probe that an IO error stopped: a note in the document
// (what stopped it, and that the rest stands) and a warning now.
void note_probe_failure(ResultDocument& doc, ProgressLine& progress, const ParallelismSection& section,
                        const std::string& probe, const std::string& rest_stands) {
  if (section.failure.empty()) return;
  const std::string why = probe + " stopped early: " + section.failure;
  doc.notes.push_back(why + "; " + rest_stands);
  progress.warn(why);
}

// An audit against units measured earlier: they become the document's
// detected units, marked as read from the file, and a document about another
// drive is said so (the audit still runs: the user may know better).
void use_saved_units(ResultDocument& doc, const MeasuredUnits& saved, const std::string& file) {
  const std::string evidence = fmt::format("from {} (measured on {})", file, saved.path);
  auto take = [&](DetectedUnit& unit, const std::optional<uint64_t>& bytes) {
    if (!bytes) return;
    unit.bytes = bytes;
    unit.state = UnitState::found;
    unit.evidence = evidence;
  };
  take(doc.read_page, saved.read_page);
  take(doc.write_unit, saved.write_unit);
  take(doc.erase_block, saved.erase_block);
  const Topology& t = doc.topology;
  if ((!saved.model.empty() && saved.model != t.model) || (!saved.serial.empty() && saved.serial != t.serial)) {
    doc.notes.push_back(fmt::format("{} describes another drive (model '{}', serial '{}'; this one: '{}', '{}'): the "
                                    "units may not apply", file, saved.model, saved.serial, t.model, t.serial));
  }
}

}  // namespace

int run_characterize(const Options& given) {
  Options options = given;
  options.target = default_target(given);
  if (!options.json_path.empty()) check_json_destination(options.json_path);
  const auto started = std::chrono::steady_clock::now();
  Target target = open_target({.path = options.target, .open_for_io = false, .seed = options.seed});
  check_region_alignment(target, options.region);
  Region window;
  std::unique_ptr<WriteSession> session;
  if (options.write) {
    window = write_window(target, options);
    session = prepare_writes(target, window, options);
  }
  open_engine(target, parse_engine(options.engine), options.write, options.seed, nvme_passthru_opener(),
              session ? session->device_fd() : -1);
  target.device->set_completion_spin(options.spin_us);
  // From here a signal stops the run between IOs with exit 130 and a message,
  // never mid-write (the write phase restores the saved content first).
  const InterruptGuard signals;

  ProgressLine progress(!options.quiet);
  // One --budget for the whole run: 10 % is kept for the parallelism probe
  // (cli/parallelism_run.h); of the rest, with write probes the read grid
  // gets half and the write probes what is left.
  const double grids_budget_s = options.budget_s * (1.0 - kParallelismBudgetShare);
  const GridProbeResult read = read_grid(target, options, options.region,
                                         options.write ? grids_budget_s / 2.0 : grids_budget_s, progress);
  ResultDocument doc = base_document(options, target);
  record_read(doc, read, "read", options.queue_depth, "");
  uint64_t ios = read.ios;
  double device_time = read.elapsed_s;
  double parallelism_time = 0.0;  // the write sweep's (with --write)
  if (options.write) {
    const WriteRunResult writes = run_write_probes(target, window, session.get(), options,
                                                   std::max(grids_budget_s - read.elapsed_s, 0.0), progress,
                                                   doc.read_page.bytes);
    record_write_results(doc, writes);
    ios += writes.grid.ios + writes.stream.stream.latency_us.size() * 2;
    device_time += writes.grid.elapsed_s + writes.stream.elapsed_s;
    // The write sweep's time is not in run.device_time_s (like the read
    // probe's), but it is spent: what follows gets what is left after it.
    parallelism_time += writes.parallelism.device_time_s;
    note_probe_failure(doc, progress, writes.parallelism, "the write parallelism probe",
                       "the other results are complete and the window was restored as usual");
    if (!read.verdict.bytes) {
      const auto again = reread_written_window(target, options, window, grids_budget_s - device_time - parallelism_time,
                                               progress);
      if (again) {
        ios += again->ios;
        device_time += again->elapsed_s;
        if (again->verdict.bytes) {
          record_read(doc, *again, "read-written", options.queue_depth,
                      "read inside the write window after the write probes wrote it: the first read grid, over "
                      "space that may never have been written, found no page");
        } else {
          doc.grids.push_back(GridReport{"read-written", "read", options.queue_depth, again->grid, again->round_shifts_us});
        }
      }
    }
  }
  // Last, so the grids and the stream run on the drive exactly as before it
  // existed; it gets what they left of --budget, at least its share.
  doc.parallelism = run_parallelism(target, options, doc.read_page.bytes,
                                    std::max(options.budget_s - device_time - parallelism_time,
                                             options.budget_s * kParallelismBudgetShare));
  note_probe_failure(doc, progress, *doc.parallelism, "the parallelism probe", "the grids' results above are complete");
  if (!doc.read_page.bytes) {
    doc.notes.push_back("no read page found: if the probed range was never written or was trimmed, many drives "
                        "answer reads from the mapping table without sensing NAND; probe a range that holds data"
                        + std::string(options.write ? "" : " (with --write, the written window is re-read)"));
  }
  doc.mismatches = find_mismatches(doc.topology, {&doc.read_page, &doc.write_unit, &doc.erase_block});
  add_firmware_section(doc, doc.write_unit.bytes ? doc.write_unit.bytes : doc.read_page.bytes);
  add_audit(doc, target, options);
  fill_recommendations(doc);
  doc.run = RunSummary{target.device->engine_description(), ios, read.rounds, device_time, read.stop_reason};
  doc.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  emit(doc, options);
  return 0;
}

namespace {

// The commands that do no timing IO (info, audit): the target classified but
// not opened for IO, and every unit "not measured" for the reason given.
struct UntimedRun {
  Options options;
  Target target;
  ResultDocument doc;
};

UntimedRun untimed_run(const Options& given, const std::string& why_not_measured) {
  Options options = given;
  options.target = default_target(given);
  if (!options.json_path.empty()) check_json_destination(options.json_path);
  Target target = open_target({.path = options.target, .open_for_io = false, .seed = options.seed});
  ResultDocument doc = base_document(options, target);
  doc.read_page.evidence = "not measured: " + why_not_measured;
  doc.write_unit.evidence = doc.read_page.evidence;
  doc.erase_block.evidence = doc.read_page.evidence;
  return {std::move(options), std::move(target), std::move(doc)};
}

}  // namespace

int run_info(const Options& given) {
  UntimedRun run = untimed_run(given, "info does no timing IO");
  add_firmware_section(run.doc, std::nullopt);
  fill_recommendations(run.doc);
  emit(run.doc, run.options);
  return 0;
}

int run_audit(const Options& given) {
  UntimedRun run = untimed_run(given, "audit does no timing IO (run ssdprobe on the target to check against the "
                                      "measured page and to price misalignment)");
  const Options& options = run.options;
  ResultDocument& doc = run.doc;
  if (!options.units_from.empty()) use_saved_units(doc, read_measured_units(options.units_from), options.units_from);
  add_audit(doc, run.target, options);
  if (!doc.audit->layout) throw Error(ErrorCategory::target, doc.audit->unavailable_reason);
  fill_recommendations(doc);
  emit(doc, options, render_audit_text);
  return 0;
}

}  // namespace ssdprobe
