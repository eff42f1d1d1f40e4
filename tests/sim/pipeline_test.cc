// A run as a pipeline of phases (run/pipeline.h, run/runs.h): what the
// document says about each phase when the run finishes, is cut by
// --budget, is interrupted by a signal, or has a phase fail.
#include <csignal>

#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "core/interrupt.h"
#include "device/target.h"
#include "report/json_report.h"
#include "report/text_report.h"
#include "run/pipeline.h"
#include "run/runs.h"
#include "run/write_phases.h"

using namespace ssdprobe;

namespace {

Options sim_options(const std::string& sim, bool write, double budget_s = 60.0) {
  Options options;
  options.target = sim;
  options.write = write;
  options.yes = write;
  options.quiet = true;
  options.budget_s = budget_s;
  return options;
}

const PhaseRecord& record(const ResultDocument& doc, const std::string& name) {
  const PhaseRecord* found = doc.phase_named(name);
  if (found == nullptr) FAIL("no phase " << name << " in the document");
  return *found;
}

std::vector<std::string> names(const std::vector<PhaseRecord>& phases) {
  std::vector<std::string> out;
  for (const auto& p : phases) out.push_back(p.name);
  return out;
}

// Raises SIGINT (handled by the run's InterruptGuard: only a flag is set)
// when a grid named `grid` reports its first round.
class InterruptingObserver final : public RunObserver {
 public:
  explicit InterruptingObserver(std::string grid) : grid_(std::move(grid)) {}
  void grid_progress(const GridProbeProgress& p) override {
    if (!raised_ && p.name == grid_) {
      raised_ = true;
      std::raise(SIGINT);
    }
  }
  void message(const std::string&) override {}
  void warn(const std::string&) noexcept override {}
  void finish() noexcept override {}

 private:
  std::string grid_;
  bool raised_ = false;
};

}  // namespace

TEST_CASE("a read-only run records every phase: the write phases skipped with the reason", "[pipeline]") {
  SilentObserver quiet;
  const RunResult result = characterize(sim_options("sim:nvme-tlc-16k", false), quiet);
  REQUIRE_FALSE(result.stopped_by);
  const ResultDocument& doc = result.doc;
  CHECK(names(doc.phases) == std::vector<std::string>{"pending_journals", "read_grid", "write_session", "slc_cache",
                                                      "write_grid", "erase_stream", "write_parallelism",
                                                      "open_units", "write_grid_in_cache", "restore", "read_written",
                                                      "read_parallelism", "kernel_check", "firmware", "audit",
                                                      "verdict"});
  for (const char* write_phase : {"write_session", "slc_cache", "write_grid", "erase_stream", "write_parallelism",
                                  "open_units", "write_grid_in_cache", "restore"}) {
    CHECK(record(doc, write_phase).state == PhaseState::skipped);
    CHECK(record(doc, write_phase).reason == "write probes were not enabled (--write)");
  }
  CHECK(record(doc, "read_grid").state == PhaseState::done);
  CHECK(record(doc, "firmware").state == PhaseState::skipped);
  CHECK(record(doc, "verdict").state == PhaseState::done);
  // The phases' device time adds up to what the run reports (the read
  // parallelism probe is outside run.device_time_s, as documented).
  REQUIRE(doc.run.has_value());
  CHECK(record(doc, "read_grid").device_time_s == Approx(doc.run->device_time_s));
  REQUIRE(doc.parallelism.has_value());
  CHECK(record(doc, "read_parallelism").device_time_s == Approx(doc.parallelism->device_time_s));
  CHECK(render_text(doc).find("Run stopped") == std::string::npos);
  // What each phase cost the host: every IO the read grid issued is counted
  // (its timed ones, run.ios, and the few warm-up reads before them), and a
  // skipped phase has no cost at all.
  // A simulated drive does not poll: no wait counts.
  REQUIRE(record(doc, "read_grid").host.has_value());
  const PhaseHostCost& grid = *record(doc, "read_grid").host;
  REQUIRE(grid.ios.has_value());
  CHECK(*grid.ios >= doc.run->ios);
  CHECK(*grid.ios <= doc.run->ios + doc.run->ios / 20);
  CHECK(grid.cpu_s >= 0.0);
  CHECK(grid.wall_s > 0.0);
  CHECK_FALSE(grid.waits.has_value());
  CHECK_FALSE(record(doc, "firmware").host.has_value());
}

// A run must never spend wear it did not announce: each write phase's
// record says what it wrote, and together they are what the write probes
// wrote, within the bound the question stated.
TEST_CASE("each write phase records what it wrote; together, no more than the question announced", "[pipeline]") {
  SilentObserver quiet;
  const RunResult result = characterize(sim_options("sim:nvme-tlc-16k", true), quiet);
  REQUIRE_FALSE(result.stopped_by);
  const ResultDocument& doc = result.doc;
  REQUIRE(doc.write_probe.has_value());
  // The phases that write (the restore only where there is something real to
  // put back, never on a sim); the session's set-up and the re-read do not.
  const std::vector<std::string> write_phases = {"slc_cache", "write_grid", "erase_stream", "write_parallelism",
                                                 "open_units", "write_grid_in_cache", "restore"};
  uint64_t total = 0;
  for (const auto& p : doc.phases) {
    INFO(p.name);
    const bool writes = std::find(write_phases.begin(), write_phases.end(), p.name) != write_phases.end();
    const bool ran = p.state != PhaseState::skipped && p.state != PhaseState::not_run;
    CHECK(p.writes.has_value() == (writes && ran));
    if (!p.writes) continue;
    total += p.writes->bytes_issued;
    CHECK_FALSE(p.writes->host_bytes_written.has_value());  // a simulated drive counts nothing itself
  }
  for (const char* writing : {"write_grid", "erase_stream", "write_parallelism", "open_units"}) {
    INFO(writing);
    REQUIRE(record(doc, writing).writes.has_value());
    CHECK(record(doc, writing).writes->bytes_issued > 0);
  }
  CHECK_FALSE(record(doc, "write_session").writes.has_value());
  CHECK_FALSE(record(doc, "read_written").writes.has_value());
  CHECK(total == doc.write_probe->bytes_written);
  CHECK(doc.write_probe->announced_bytes > 0);
  CHECK(total <= doc.write_probe->announced_bytes);

  const std::string text = render_text(doc);
  CHECK(text.find("Written by phase: ") != std::string::npos);
  CHECK(text.find("the question announced") != std::string::npos);
  const auto json = to_json(doc);
  CHECK(json["write_probe"]["announced_bytes"] == doc.write_probe->announced_bytes);
  for (const auto& phase : json["phases"]) {
    if (phase["name"] == "write_grid") CHECK(phase["writes"]["bytes_issued"].get<uint64_t>() > 0);
    if (phase["name"] == "read_grid") CHECK(phase["writes"].is_null());
  }
}

TEST_CASE("a run whose read grid --budget cuts says so for that phase", "[pipeline]") {
  SilentObserver quiet;
  const RunResult result = characterize(sim_options("sim:noisy-16k", false, 0.05), quiet);
  REQUIRE_FALSE(result.stopped_by);
  const PhaseRecord& read = record(result.doc, "read_grid");
  REQUIRE(result.doc.run.has_value());
  CHECK(result.doc.run->stop_reason == GridStopReason::budget);
  CHECK(read.state == PhaseState::budget);
  CHECK(read.reason.find("--budget") != std::string::npos);
}

TEST_CASE("a signal during the write grid keeps what finished and names what did not", "[pipeline]") {
  InterruptingObserver observer("write");
  const RunResult result = characterize(sim_options("sim:nvme-tlc-16k", true), observer);
  clear_interrupt();
  REQUIRE(result.stopped_by.has_value());
  CHECK(result.stopped_by->category() == ErrorCategory::interrupted);
  const ResultDocument& doc = result.doc;
  CHECK(record(doc, "read_grid").state == PhaseState::done);
  CHECK(record(doc, "write_session").state == PhaseState::done);
  CHECK(record(doc, "write_grid").state == PhaseState::interrupted);
  for (const char* later : {"erase_stream", "write_parallelism", "read_written", "read_parallelism", "firmware",
                            "audit"}) {
    INFO(later);
    CHECK(record(doc, later).state == PhaseState::not_run);
    CHECK(record(doc, later).reason.find("during the write_grid phase") != std::string::npos);
  }
  // The phases that run after a stop did: the restore (nothing real to put
  // back on a sim), the kernel check and the verdict.
  CHECK(record(doc, "restore").state == PhaseState::skipped);
  CHECK(record(doc, "kernel_check").state == PhaseState::done);
  CHECK(record(doc, "verdict").state == PhaseState::done);
  // The read page found before the signal stands; the units the stopped
  // phases were to measure say why they have no answer.
  CHECK(doc.read_page.bytes == 16384u);
  CHECK(doc.write_unit.state == UnitState::not_measured);
  CHECK(doc.write_unit.evidence.find("interrupted") != std::string::npos);
  CHECK(doc.erase_block.state == UnitState::not_measured);
  CHECK(doc.erase_block.evidence.find("write_grid") != std::string::npos);
  // The interrupted grid's writes are not in write_probe.bytes_written: said.
  bool uncounted_noted = false;
  for (const auto& note : doc.notes) uncounted_noted |= note.find("bytes_written counts only") != std::string::npos;
  CHECK(uncounted_noted);
  // ... but the phase's own record counts them.
  REQUIRE(record(doc, "write_grid").writes.has_value());
  CHECK(record(doc, "write_grid").writes->bytes_issued > 0);
  CHECK_FALSE(record(doc, "erase_stream").writes.has_value());  // not run
  // What a person and a script read.
  const std::string text = render_text(doc);
  // The first line is the verdict, which leads with where the run stopped;
  // the paragraph after it lists what finished and what did not.
  CHECK(text.rfind("INCONCLUSIVE: run stopped in the write_grid phase (interrupted by signal", 0) == 0);
  CHECK(text.substr(0, text.find('\n')) == doc.verdict.summary);
  CHECK(text.find("\nRun stopped in the write_grid phase (interrupted by signal") != std::string::npos);
  const auto json = to_json(doc);
  CHECK(json["phases"][4]["name"] == "write_grid");
  CHECK(json["phases"][4]["state"] == "interrupted");
  CHECK(json["detected"]["read_page"]["bytes"] == 16384);
}

TEST_CASE("a signal during the first read grid leaves the read page not measured, without the empty-drive note",
          "[pipeline]") {
  InterruptingObserver observer("read");
  const RunResult result = characterize(sim_options("sim:clean-4k", false), observer);
  clear_interrupt();
  REQUIRE(result.stopped_by.has_value());
  const ResultDocument& doc = result.doc;
  CHECK(record(doc, "read_grid").state == PhaseState::interrupted);
  CHECK(doc.read_page.state == UnitState::not_measured);
  CHECK_FALSE(doc.parallelism.has_value());
  for (const auto& note : doc.notes) CHECK(note.find("hides from a read grid") == std::string::npos);
  CHECK(record(doc, "verdict").state == PhaseState::done);
}

namespace {

// Phases made up for the pipeline's own rules.
PhaseOutcome finishes(RunContext&) { return PhaseOutcome::done(0.5); }
PhaseOutcome fails_with_io(RunContext&) { throw Error(ErrorCategory::io, "read of 4096 bytes at offset 0: EIO"); }
PhaseOutcome fails_refused(RunContext&) { throw Error(ErrorCategory::refused, "the journal changed"); }
PhaseOutcome throws_bad_alloc(RunContext&) { throw std::bad_alloc(); }
PhaseOutcome sees_stop(RunContext& run) {
  return run.stopped_by != nullptr ? PhaseOutcome::done() : PhaseOutcome::skipped("no stop seen");
}
std::optional<std::string> never_applies(const RunContext&) { return std::string("does not apply here"); }
// An `after` hook that leaves a note naming the last phase recorded.
void notes_last_phase(RunContext& run) { run.doc.notes.push_back("after " + run.doc.phases.back().name); }

struct FakeRun {
  Options options;
  Target target;
  SilentObserver observer;
  RunContext run{options, target, observer, {}};
};

}  // namespace

TEST_CASE("the pipeline: a failure stops the run, later phases are not run, the ones that must still run do",
          "[pipeline]") {
  FakeRun fake;
  const std::vector<Phase> phases = {
      {.name = "first", .run = finishes},
      {.name = "broken", .run = fails_with_io},
      {.name = "measures_write_unit", .run = finishes, .decides = {&ResultDocument::write_unit}},
      {.name = "not_for_this_run", .run = finishes, .skip_if = never_applies},
      {.name = "cleanup", .run = sees_stop, .runs_after_stop = true},
  };
  const std::optional<Error> stop = run_phases(fake.run, phases);
  REQUIRE(stop.has_value());
  CHECK(stop->category() == ErrorCategory::io);
  const auto& p = fake.run.doc.phases;
  REQUIRE(p.size() == 5);
  CHECK(p[0].state == PhaseState::done);
  CHECK(p[0].device_time_s == 0.5);
  CHECK(p[1].state == PhaseState::failed);
  CHECK(p[1].reason == "read of 4096 bytes at offset 0: EIO");
  CHECK(p[2].state == PhaseState::not_run);
  CHECK(p[2].reason == "failed: read of 4096 bytes at offset 0: EIO during the broken phase");
  CHECK(p[3].state == PhaseState::not_run);  // stopped before its own condition was asked
  CHECK(p[4].state == PhaseState::done);     // ran, and saw the stop
  CHECK(fake.run.doc.write_unit.state == UnitState::not_measured);
  CHECK(fake.run.doc.write_unit.evidence.find("during the broken phase") != std::string::npos);
}

TEST_CASE("the pipeline: a failure while stopping replaces the first error; a bug is an internal error",
          "[pipeline]") {
  FakeRun fake;
  const std::vector<Phase> phases = {
      {.name = "broken", .run = throws_bad_alloc},
      {.name = "restore_like", .run = fails_refused, .runs_after_stop = true},
  };
  const std::optional<Error> stop = run_phases(fake.run, phases);
  REQUIRE(stop.has_value());
  CHECK(stop->category() == ErrorCategory::refused);
  CHECK(fake.run.doc.phases[0].state == PhaseState::failed);
  CHECK(fake.run.doc.phases[1].state == PhaseState::failed);
  CHECK(fake.run.doc.phases[1].reason == "the journal changed");

  FakeRun alone;
  const std::vector<Phase> one = {{.name = "broken", .run = throws_bad_alloc}};
  const std::optional<Error> internal = run_phases(alone.run, one);
  REQUIRE(internal.has_value());
  CHECK(internal->category() == ErrorCategory::internal);
}

TEST_CASE("the pipeline: skipped phases say why; --write phases without --write are skipped, not run", "[pipeline]") {
  FakeRun fake;
  const std::vector<Phase> phases = {
      {.name = "needs_writes", .run = fails_with_io, .needs = Needs::writes},
      {.name = "not_for_this_run", .run = fails_with_io, .skip_if = never_applies},
  };
  CHECK_FALSE(run_phases(fake.run, phases).has_value());
  CHECK(fake.run.doc.phases[0].state == PhaseState::skipped);
  CHECK(fake.run.doc.phases[0].reason == "write probes were not enabled (--write)");
  CHECK(fake.run.doc.phases[1].state == PhaseState::skipped);
  CHECK(fake.run.doc.phases[1].reason == "does not apply here");
}

TEST_CASE("the pipeline: a phase's after hook runs once it finished and its record is in, never after a failure",
          "[pipeline]") {
  FakeRun fake;
  const std::vector<Phase> phases = {
      {.name = "first", .run = finishes, .after = notes_last_phase},
      {.name = "not_for_this_run", .run = finishes, .skip_if = never_applies, .after = notes_last_phase},
      {.name = "broken", .run = fails_with_io, .after = notes_last_phase},
      {.name = "cleanup", .run = finishes, .runs_after_stop = true},
  };
  CHECK(run_phases(fake.run, phases).has_value());
  CHECK(fake.run.doc.notes == std::vector<std::string>{"after first"});
}

TEST_CASE("write_probe.write_amplification is the cache fill's, the grid's and the stream's phase records",
          "[pipeline][write]") {
  FakeRun fake;  // a block device: the kind that has counters
  ResultDocument& doc = fake.run.doc;
  doc.write_probe = WriteProbeSummary{};
  doc.erase_block.bytes = 64ull << 20;
  // What the pipeline recorded around each phase: bytes issued, host and NAND deltas.
  auto record = [&](const char* name, uint64_t issued, uint64_t host, uint64_t nand) {
    WritePhaseCounts w;
    w.bytes_issued = issued;
    w.host_bytes_written = host;
    w.nand_bytes_written = nand;
    w.write_amplification = static_cast<double>(nand) / host;
    doc.phases.push_back({name, PhaseState::done, "", 0.0, std::nullopt, std::nullopt, w});
  };
  record("slc_cache", 8u << 20, 8u << 20, 8u << 20);
  record("write_grid", 1u << 20, 1u << 20, 3u << 20);
  record("erase_stream", 4u << 20, 4u << 20, 4u << 20);
  fake.run.write.last_reading.host_source = "FDP Statistics log 22h host bytes with metadata written (HBMW)";
  fake.run.write.last_reading.nand_source = "FDP Statistics log 22h media bytes with metadata written (MBMW)";
  fake.run.write.last_reading.reclaim_unit_bytes = 1ull << 30;

  summarize_write_counters(fake.run);
  REQUIRE(doc.write_probe->write_amplification);
  const WriteAmplification& w = *doc.write_probe->write_amplification;
  CHECK(w.host_source == fake.run.write.last_reading.host_source);
  CHECK(w.write_grid.pattern == "sub-unit and misaligned random writes");
  CHECK(w.write_grid.bytes_issued == 1u << 20);
  CHECK(w.write_grid.write_amplification == 3.0);
  CHECK(w.stream.nand_bytes_written == 4u << 20);
  CHECK(w.slc_cache.bytes_issued == 8u << 20);
  CHECK(w.reclaim_unit_bytes == 1ull << 30);
  // The reclaim unit beside the erase block the stream measured: 16 of them.
  CHECK(std::any_of(doc.notes.begin(), doc.notes.end(),
                    [](const std::string& n) { return n.find("16 erase blocks") != std::string::npos; }));

  FakeRun sim;  // a simulated drive has no counters: nothing to summarize
  sim.target.kind = TargetKind::sim;
  sim.run.doc.write_probe = WriteProbeSummary{};
  summarize_write_counters(sim.run);
  CHECK_FALSE(sim.run.doc.write_probe->write_amplification);
}
