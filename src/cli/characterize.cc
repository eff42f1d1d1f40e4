// The main job (characterize) and its IO-free sibling (info): open the
// target, run the probes, fold analysis results into one ResultDocument and
// write it as text and/or JSON.
#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <iostream>

#include "analysis/mismatches.h"
#include "analysis/recommend.h"
#include "cli/commands.h"
#include "cli/progress.h"
#include "device/sim_profile.h"
#include "device/target.h"
#include "probes/read_grid_probe.h"
#include "report/json_report.h"
#include "report/text_report.h"

namespace ssdprobe {
namespace {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string default_target(const Options& options) {
  if (!options.target.empty()) return options.target;
  const std::string sim = std::string("sim:") + default_sim_name();
  if (!options.quiet) {
    fmt::print(stderr, "no target given: characterizing the built-in simulated drive {} (--list-sims lists "
                       "others; give /dev/nvme0n1 or a file to probe real storage)\n", sim);
  }
  return sim;
}

DetectedUnit needs_writes(const char* what) {
  DetectedUnit unit;
  unit.evidence = fmt::format("not measured: the {} only shows under writes, and write probes were not enabled", what);
  return unit;
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
  geometry.logical_block = t.logical_block_size.value_or(512);
  doc.recommendations = recommend(geometry, disk, part, doc.kind == TargetKind::partition);
  if (doc.kind == TargetKind::sim || doc.kind == TargetKind::file) {
    doc.recommendations.notes.push_back("replace DISK and PARTITION with the drive's device nodes");
  }
}

ResultDocument base_document(const Options& options, const Target& target) {
  ResultDocument doc;
  doc.started_at = utc_now_iso8601();
  doc.options = options.echo;
  doc.options["target"] = target.path;
  doc.path = target.path;
  doc.kind = target.kind;
  doc.topology = target.topology;
  doc.notes = target.notes;
  doc.write_unit = needs_writes("write unit");
  doc.erase_block = needs_writes("erase block");
  return doc;
}

void emit(const ResultDocument& doc, const Options& options) {
  if (options.json_path != "-") std::cout << render_text(doc) << std::flush;
  if (!options.json_path.empty()) write_json(to_json(doc), options.json_path);
}

GridPlan plan_for(const Target& target, const Options& options) {
  GridPlanInput input;
  input.target_size = target.device->limits().size_bytes;
  input.disk_start = target.topology.partition_start_bytes;
  input.logical_block = target.device->limits().logical_block;
  input.max_transfer = target.device->limits().max_transfer;
  input.region = options.region;
  return plan_read_grid(input);
}

}  // namespace

int run_characterize(const Options& given) {
  Options options = given;
  options.target = default_target(given);
  if (!options.json_path.empty()) check_json_destination(options.json_path);
  const auto started = std::chrono::steady_clock::now();
  Target target = open_target({options.target, true, parse_engine(options.engine), options.seed});
  const GridPlan plan = plan_for(target, options);

  ProgressLine progress(!options.quiet);
  ReadProbeOptions probe;
  probe.budget_s = options.budget_s;
  probe.queue_depth = options.queue_depth;
  probe.seed = options.seed;
  probe.progress = [&progress](const ReadProbeProgress& p) { progress.update(p); };
  const ReadProbeResult read = run_read_probe(*target.device, plan, probe);
  progress.finish();

  ResultDocument doc = base_document(options, target);
  for (const auto& note : plan.notes) doc.notes.push_back(note);
  doc.read_page = {read.verdict.bytes, read.verdict.confidence, read.verdict.evidence, read.verdict.levels};
  doc.mismatches = find_mismatches(doc.topology, doc.read_page);
  fill_recommendations(doc);
  doc.grids.push_back(GridReport{"read", "read", options.queue_depth, read.grid});
  doc.run = RunSummary{target.device->engine_description(), read.ios, read.rounds, read.elapsed_s, read.stop_reason};
  doc.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  emit(doc, options);
  return 0;
}

int run_info(const Options& given) {
  Options options = given;
  options.target = default_target(given);
  if (!options.json_path.empty()) check_json_destination(options.json_path);
  const Target target = open_target({options.target, false, EngineChoice::automatic, options.seed});
  ResultDocument doc = base_document(options, target);
  doc.read_page.evidence = "not measured: info does no timing IO";
  doc.write_unit.evidence = doc.read_page.evidence;
  doc.erase_block.evidence = doc.read_page.evidence;
  fill_recommendations(doc);
  emit(doc, options);
  return 0;
}

}  // namespace ssdprobe
