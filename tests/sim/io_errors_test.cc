// IO errors while probing, injected by FaultyDevice: a read grid on a
// simulated drive stops with Error(io) naming the failed IO (exit code 6),
// and a write run on a regular file stops with Error(io) after putting back
// every byte it had overwritten and deleting its journal; its document says
// which phase failed, that the restore ran, and which phases did not.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/error.h"
#include "core/random.h"
#include "device/sim_device.h"
#include "device/target.h"
#include "faulty_device.h"
#include "probes/grid_plan.h"
#include "probes/grid_probe.h"
#include "recording_device.h"
#include "run/pipeline.h"
#include "run/run_context.h"
#include "run/runs.h"
#include "runner/runner.h"
#include "safety/restore.h"
#include "safety/write_session.h"
#include "temp_tree.h"

using namespace ssdprobe;
using test_support::FaultyDevice;
using test_support::TempTree;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

GridPlan read_plan(Device& device) {
  GridPlanInput in;
  in.target_size = device.limits().size_bytes;
  in.logical_block = device.limits().logical_block;
  return plan_read_grid(in);
}

GridProbeOptions read_options(const GridPlan& plan, uint32_t queue_depth) {
  GridProbeOptions options;
  options.analysis = read_page_options(plan.candidates, 1);
  options.budget_s = 5;
  options.queue_depth = queue_depth;
  return options;
}

std::vector<PlannedIo> reads(size_t count) {
  std::vector<PlannedIo> plan;
  for (size_t i = 0; i < count; ++i) plan.push_back({IoOp::read, (1 + i) * kMiB + (i % 4) * 4096, 4096});
  return plan;
}

std::vector<char> file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

dev_t device_of(const fs::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_dev;
}

}  // namespace

TEST_CASE("FaultyDevice without faults changes nothing: the same grid, IO for IO", "[faulty]") {
  SimDevice plain_sim(*find_sim_profile("nvme-tlc-16k"), 1, false);
  RecordingDevice plain(plain_sim);
  SimDevice wrapped_sim(*find_sim_profile("nvme-tlc-16k"), 1, false);
  FaultyDevice faulty(wrapped_sim);
  RecordingDevice wrapped(faulty);

  const GridPlan plan = read_plan(plain_sim);
  const GridProbeResult a = run_grid_probe(plain, plan, read_options(plan, 2));
  const GridProbeResult b = run_grid_probe(wrapped, plan, read_options(plan, 2));
  CHECK(b.ios == a.ios);
  CHECK(b.elapsed_s == a.elapsed_s);
  CHECK(b.verdict.bytes == a.verdict.bytes);
  CHECK(b.verdict.confidence == a.verdict.confidence);
  REQUIRE(wrapped.requests.size() == plain.requests.size());
  for (size_t i = 0; i < plain.requests.size(); ++i) {
    INFO("IO #" << i);
    CHECK(wrapped.requests[i].offset == plain.requests[i].offset);
    CHECK(wrapped.requests[i].length == plain.requests[i].length);
  }
  CHECK(faulty.submits() == plain.requests.size());
  CHECK(faulty.faults_injected() == 0u);
}

TEST_CASE("FaultyDevice: a delay at IO #N adds exactly that much to IO #N's latency", "[faulty]") {
  SimDevice plain(*find_sim_profile("noisy-16k"), 3, false);
  SimDevice inner(*find_sim_profile("noisy-16k"), 3, false);
  FaultyDevice delayed(inner);
  delayed.delay_at(4, 7'000'000);  // 7 ms
  ProbeRunner plain_runner(plain, 1, 4096);
  ProbeRunner delayed_runner(delayed, 1, 4096);
  const auto plan = reads(12);
  const auto expected = plain_runner.run(plan);
  const auto got = delayed_runner.run(plan);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    INFO("IO #" << i);
    if (i == 4) {
      CHECK(got[i] - expected[i] == Approx(7000.0));
    } else {
      CHECK(got[i] == Approx(expected[i]).margin(1e-9));
    }
  }
  CHECK(delayed.faults_injected() == 1u);
}

TEST_CASE("FaultyDevice: a short transfer at IO #N reaches the device and fails the runner", "[faulty]") {
  SimDevice sim(*find_sim_profile("nvme-tlc-16k"), 1, false);
  FaultyDevice faulty(sim);
  faulty.short_at(3, 512);
  ProbeRunner runner(faulty, 1, 4096);
  const auto plan = reads(10);
  try {
    runner.run(plan);
    FAIL("no error");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.category() == ErrorCategory::io);
    CHECK(std::string(e.what()).find("short transfer of 3584 bytes") != std::string::npos);
    CHECK(std::string(e.what()).find(fmt::format("at offset {}", plan[3].offset)) != std::string::npos);
  }
  CHECK(sim.ios_served() == 4u);  // the short IO was served; nothing after it
}

TEST_CASE("an EIO during a read grid stops the probe with Error(io) naming the IO, exit code 6", "[io-errors]") {
  // IO #10 falls in the warm-up, #300 and #2000 in timed rounds.
  for (uint64_t at : {uint64_t{10}, uint64_t{300}, uint64_t{2000}}) {
    for (uint32_t qd : {1u, 4u}) {
      INFO(fmt::format("EIO at IO #{}, queue depth {}", at, qd));
      SimDevice sim(*find_sim_profile("nvme-tlc-16k"), 1, false);
      FaultyDevice faulty(sim);
      faulty.fail_at(at, EIO);
      RecordingDevice device(faulty);
      const GridPlan plan = read_plan(sim);
      try {
        run_grid_probe(device, plan, read_options(plan, qd));
        FAIL("the probe finished despite the EIO");
      } catch (const Error& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK(e.category() == ErrorCategory::io);
        CHECK(exit_code_for(e.category()) == 6);
        REQUIRE(device.requests.size() > at);
        const IoRequest& failed = device.requests[at];
        CHECK(message.find(fmt::format("read of {} bytes at offset {}", failed.length, failed.offset)) !=
              std::string::npos);
        CHECK(message.find(std::strerror(EIO)) != std::string::npos);
      }
      CHECK(faulty.faults_injected() == 1u);
      // The probe stops at the failure: at most the IOs already in flight
      // beside it were submitted after it.
      CHECK(device.requests.size() <= at + qd);
    }
  }
}

namespace {

// A regular file full of known random bytes (O_DIRECT needs a disk
// filesystem; the temporary directory is one on the machines we run on),
// and a journal directory on another filesystem.
struct FileWriteBed {
  TempTree target_tree{"ssdprobe-io-errors"};
  fs::path file = target_tree.path("disk.img");
  std::vector<char> original;
  std::unique_ptr<TempTree> journal_tree;
  fs::path journal_dir;

  FileWriteBed() {
    fill(file);
    original = file_bytes(file);
    REQUIRE(original.size() == kFileBytes);
    // The journal must live on another filesystem than the target: /dev/shm
    // (tmpfs, allowed explicitly as on a scratch machine), else the build
    // directory.
    fs::path journal_parent;
    for (const fs::path& candidate : {fs::path("/dev/shm"), fs::current_path()}) {
      std::error_code ec;
      if (fs::is_directory(candidate, ec) && ::access(candidate.c_str(), W_OK) == 0 &&
          device_of(candidate) != device_of(target_tree.root())) {
        journal_parent = candidate;
        break;
      }
    }
    INFO("target in " << target_tree.root());
    REQUIRE_FALSE(journal_parent.empty());  // no second filesystem for the journal: the test cannot run here
    journal_tree = std::make_unique<TempTree>("ssdprobe-io-errors-journal", journal_parent);
    journal_dir = journal_tree->path("journal");
  }

  static constexpr uint64_t kFileBytes = 48 * kMiB;

  static void fill(const fs::path& path) {
    std::vector<char> bytes(kFileBytes);
    Random random(0x5eed);
    for (size_t i = 0; i < bytes.size(); i += 8) {
      const uint64_t word = random.next();
      std::memcpy(&bytes[i], &word, 8);
    }
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(out.good());
  }  // closed: a write session refuses a file another descriptor has open

  std::unique_ptr<WriteSession> session(const Target& target, const Region& window) const {
    WriteSessionOptions session_options;
    session_options.journal_dir = journal_dir;
    session_options.preserve = true;
    session_options.region_given = true;
    session_options.journal_dir_options.allow_ram = true;
    session_options.journal_index = journal_dir.parent_path() / "index";  // this test's own (journal_index.h)
    return std::make_unique<WriteSession>(target, window, session_options);
  }

  Options options() const {
    Options options;
    options.target = file.string();
    options.write = true;
    options.yes = true;
    options.quiet = true;
    options.preserve = true;
    options.journal_dir = journal_dir.string();
    options.budget_s = 120;  // never reached: the fault ends the run first
    return options;
  }
};

// The write phases of the main job, write_session to restore, as the
// pipeline runs them.
std::vector<Phase> write_phases() {
  std::vector<Phase> phases;
  for (const Phase& phase : characterize_phases()) {
    if (phase.needs == Needs::writes && std::string(phase.name) != "read_written") phases.push_back(phase);
  }
  return phases;
}

}  // namespace

TEST_CASE("an IO error during write probes on a file restores every byte and deletes the journal", "[io-errors][write]") {
  // The target: a regular file full of known random bytes (O_DIRECT needs a
  // disk filesystem; the temporary directory is one on the machines we run on).
  const FileWriteBed bed;
  const fs::path& file = bed.file;
  const std::vector<char>& original = bed.original;
  const fs::path& journal_dir = bed.journal_dir;

  struct Fault {
    const char* name;
    uint64_t at;  // write number, counted per submit (warm-up included)
    bool short_write;
    const char* phase;     // the phase the fault falls in
    uint64_t cache_bytes;  // --cache-bytes (0: no SLC cache probe, the write grid writes first)
  };
  const Fault fault = GENERATE(values<Fault>({
      {"EIO at write #100", 100, false, "write_grid", 0},
      {"EIO at write #1 (warm-up)", 1, false, "write_grid", 0},
      {"short write at write #150", 150, true, "write_grid", 0},
      {"EIO at write #20 of the SLC cache probe", 20, false, "slc_cache", 1ull << 30},
  }));
  INFO(fault.name);

  Target target = open_target({.path = file.string(), .open_for_io = false, .seed = 1});
  REQUIRE(target.kind == TargetKind::file);
  const Region window{8 * kMiB, 32 * kMiB};
  auto session_owner = bed.session(target, window);
  WriteSession& session = *session_owner;
  open_engine(target, EngineChoice::psync, /*writable=*/true, 1, {}, session.device_fd());
  REQUIRE(target.device != nullptr);
  auto faulty_owner = std::make_unique<FaultyDevice>(std::move(target.device));
  FaultyDevice& faulty = *faulty_owner;
  if (fault.short_write) {
    faulty.short_at(fault.at, 4096);
  } else {
    faulty.fail_at(fault.at, EIO);
  }
  target.device = std::move(faulty_owner);

  Options options = bed.options();
  options.cache_bytes = fault.cache_bytes;
  SilentObserver observer;
  RunContext run(options, target, observer, {options.budget_s, true});
  run.write.window = window;
  run.write.session = std::move(session_owner);

  const std::optional<Error> stop = run_phases(run, write_phases());
  REQUIRE(stop.has_value());
  INFO(stop->what());
  CHECK(stop->category() == ErrorCategory::io);
  CHECK(exit_code_for(stop->category()) == 6);
  CHECK(std::string(stop->what()).find("write of") != std::string::npos);
  // The document: the write grid failed, the phases after it did not run,
  // the restore ran and says so, and the units were not measured.
  const PhaseRecord* grid = run.doc.phase_named(fault.phase);
  const PhaseRecord* stream = run.doc.phase_named("erase_stream");
  const PhaseRecord* restore = run.doc.phase_named("restore");
  REQUIRE(grid != nullptr);
  REQUIRE(stream != nullptr);
  REQUIRE(restore != nullptr);
  CHECK(grid->state == PhaseState::failed);
  CHECK(stream->state == PhaseState::not_run);
  CHECK(stream->reason.find(fault.phase) != std::string::npos);
  CHECK(restore->state == PhaseState::done);
  REQUIRE(run.doc.write_probe.has_value());
  CHECK(run.doc.write_probe->restored);
  CHECK_FALSE(run.doc.write_unit.bytes.has_value());
  CHECK(run.doc.erase_block.state == UnitState::not_measured);
  CHECK(run.doc.erase_block.evidence.find("stopped") != std::string::npos);
  CHECK(faulty.faults_injected() == 1u);
  CHECK(faulty.submits() == fault.at + 1);  // the writes before the fault reached the file

  // The journal was made, used and removed; the file is as it was.
  CHECK_FALSE(session.journal_path().empty());
  CHECK_FALSE(fs::exists(session.journal_path()));
  CHECK_FALSE(session.saved());
  std::vector<fs::path> left;
  for (const auto& entry : fs::directory_iterator(journal_dir)) left.push_back(entry.path());
  CHECK(left.empty());
  const std::vector<char> after = file_bytes(file);
  REQUIRE(after.size() == original.size());
  size_t first_difference = after.size();
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i] != original[i]) {
      first_difference = i;
      break;
    }
  }
  INFO("first differing byte at " << first_difference);
  CHECK(first_difference == after.size());
}

namespace {

// Stands in for whatever breaks the restore (memory, the journal's disk): the
// journal's file is cut to its first byte under the session.
PhaseOutcome cut_journal(RunContext& run) {
  fs::resize_file(run.write.session->journal_path(), 1);
  return PhaseOutcome::done();
}

}  // namespace

TEST_CASE("a restore that fails names the journal and the command that restores it", "[io-errors][write]") {
  const FileWriteBed bed;
  Target target = open_target({.path = bed.file.string(), .open_for_io = false, .seed = 1});
  const Region window{8 * kMiB, 8 * kMiB};
  auto session = bed.session(target, window);
  open_engine(target, EngineChoice::psync, /*writable=*/true, 1, {}, session->device_fd());
  const Options options = bed.options();
  SilentObserver observer;
  RunContext run(options, target, observer, {options.budget_s, true});
  run.write.window = window;
  run.write.session = std::move(session);
  std::vector<Phase> phases;
  for (const Phase& phase : characterize_phases()) {
    if (std::string(phase.name) == "write_session" || std::string(phase.name) == "restore") phases.push_back(phase);
  }
  phases.insert(phases.begin() + 1, Phase{.name = "cut_journal", .run = cut_journal});

  const std::optional<Error> stop = run_phases(run, phases);
  REQUIRE(stop.has_value());
  const std::string journal = run.write.session->journal_path().string();
  const std::string message = stop->what();
  INFO(message);
  CHECK(message.find("the window was NOT restored") == 0);
  CHECK(message.find("run ssdprobe restore " + journal) != std::string::npos);
  REQUIRE(run.doc.phase_named("restore") != nullptr);
  CHECK(run.doc.phase_named("restore")->state == PhaseState::failed);
  CHECK(fs::exists(journal));  // kept for the command it names
}

TEST_CASE("a journal that cannot be deleted after a verified restore is marked done, not restored again",
          "[io-errors][write]") {
  // Issue 18: when deleting the journal failed after a verified restore, the
  // run said "restored and verified" and left a journal that `ssdprobe
  // restore` would later write over the user's newer data.
  const FileWriteBed bed;
  Target target = open_target({.path = bed.file.string(), .open_for_io = false, .seed = 1});
  const Region window{8 * kMiB, 8 * kMiB};
  auto session = bed.session(target, window);
  session->save();
  // Deleting fails: the journal's name now refers to another file (as after
  // an unlink that failed, the journal itself stays).
  const fs::path journal = session->journal_path();
  const fs::path kept = bed.journal_dir / "kept.ssdpj";
  fs::rename(journal, kept);
  std::ofstream(journal) << "not the journal";

  const auto report = session->restore();
  REQUIRE(report.has_value());
  INFO(report->message);
  CHECK(report->journal_kept);
  CHECK(report->message.find("restored and verified") == 0);
  CHECK(report->message.find("marked restored") != std::string::npos);
  CHECK(bed.original == file_bytes(bed.file));
  session.reset();  // the claim on the file goes with it
  fs::remove(journal);  // the stand-in at the journal's name (itself an unreadable journal to the next run)

  // The journal left behind holds nothing to restore: a new write run on the
  // same window is not blocked by it, and restore refuses it...
  CHECK_NOTHROW(bed.session(target, window));
  try {
    restore_journal({kept, "", false, false, {.assume_yes = true}});
    FAIL("a journal marked restored was restored again");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::refused);
    CHECK(std::string(e.what()).find("is marked restored") != std::string::npos);
    CHECK(std::string(e.what()).find("--force") != std::string::npos);
  }
  CHECK(fs::exists(kept));
  // ...unless told to, which puts the saved content back and deletes it.
  const RestoreReport forced = restore_journal({kept, "", false, true, {.assume_yes = true}});
  CHECK(forced.message.find("journal " + kept.string() + " removed") != std::string::npos);
  CHECK_FALSE(fs::exists(kept));
  CHECK(bed.original == file_bytes(bed.file));
}
