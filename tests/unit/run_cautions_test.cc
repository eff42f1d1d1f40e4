// What may have disturbed a run's timings (run/run_cautions.h), on documents
// built by hand: the busy-CPU line both ways (5 % of the waits, more than
// one reading's worth), the cautions with their numbers (other IO first),
// and a unit left open naming the caution as the likely reason, in its
// to_determine, the verdict's first action and the read page's note.
#include <catch2/catch.hpp>
#include <string>

#include "report/json_report.h"
#include "report/text_report.h"
#include "run/read_page_note.h"
#include "run/run_cautions.h"
#include "run/verdict_builder.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Waits of a phase: `ready` already there, `polled`, and `busy` slept
// because other work filled the CPUs.
WaitCounts waits(uint64_t ready, uint64_t polled, uint64_t busy) {
  WaitCounts w{ready, polled, {}};
  w.slept_because[static_cast<size_t>(SleepReason::cpus_busy)] = busy;
  return w;
}

PhaseRecord phase(const char* name, PhaseState state, std::optional<WaitCounts> counted) {
  PhaseRecord p{name, state, "", 1.0, PhaseHostCost{}, std::nullopt, std::nullopt};
  p.host->waits = counted;
  return p;
}

// A read-only run whose read grid settled without an answer.
ResultDocument open_read_page(std::optional<WaitCounts> read_grid_waits) {
  ResultDocument doc;
  doc.path = "/dev/sdz";
  doc.phases.push_back(phase("read_grid", PhaseState::done, read_grid_waits));
  doc.read_page.state = UnitState::undetermined;
  return doc;
}

}  // namespace

TEST_CASE("busy CPUs disturb a phase from 5 % of its waits and more than one reading's worth", "[run_cautions]") {
  CHECK(kCpusBusyDisturbingWaits == 1000);
  CHECK(completion_waits(waits(10, 20, 30)) == 60);
  CHECK_FALSE(cpus_busy_disturbs(waits(0, 0, 0)));
  CHECK_FALSE(cpus_busy_disturbs(waits(0, 95'001, 4'999)));  // just under 5 %
  CHECK(cpus_busy_disturbs(waits(0, 95'000, 5'000)));         // 5 %
  CHECK(cpus_busy_disturbs(waits(0, 50, 182'750)));           // the busy host of issue 37
  // All of a short phase's waits, but no more than one reading covers.
  CHECK_FALSE(cpus_busy_disturbs(waits(0, 0, 1000)));
  CHECK(cpus_busy_disturbs(waits(0, 0, 1001)));
  // Sleeps for other reasons are no sign of a busy host.
  WaitCounts slow = waits(0, 0, 0);
  slow.slept_because[static_cast<size_t>(SleepReason::slow_device)] = 50'000;
  CHECK_FALSE(cpus_busy_disturbs(slow));
}

TEST_CASE("the cautions: nothing on a quiet run, other IO first, then the busy CPUs with their numbers",
          "[run_cautions]") {
  ResultDocument doc;
  doc.phases.push_back(phase("read_grid", PhaseState::done, waits(100, 180'000, 2'000)));
  doc.phases.push_back(PhaseRecord{"firmware", PhaseState::done, "", 0.0, std::nullopt, std::nullopt, std::nullopt});
  CHECK(run_cautions(doc).empty());
  CHECK_FALSE(phase_disturbance(doc, "read_grid"));

  doc.phases[0].host->waits = waits(36, 14, 182'750);
  doc.phases[0].other_io = OtherIo{"sdz", {1000, 100 * kMiB, 0, 0}, {7, 8 * kMiB, 0, 0}};
  doc.phases.push_back(phase("read_parallelism", PhaseState::done, waits(500, 500, 9'000)));
  const std::vector<std::string> cautions = run_cautions(doc);
  REQUIRE(cautions.size() == 2);
  CHECK(cautions[0] == "other IO on sdz during the read grid (7 reads, 8 MiB read) may have disturbed its timings");
  CHECK(cautions[1] == "other work filled the host's CPUs during the read grid (at 182750 of its 182800 waits for a "
                       "completion) and the read parallelism (at 9000 of its 10000 waits for a completion), which "
                       "may have disturbed their timings");

  const auto both = phase_disturbance(doc, "read_grid");
  REQUIRE(both);
  CHECK(both->idle_place() == "an idle host and disk");
  CHECK(both->words == "other IO on sdz during the read grid (7 reads, 8 MiB read) and other work filled the host's "
                       "CPUs at 182750 of its 182800 waits for a completion");
  const auto busy = phase_disturbance(doc, "read_parallelism");
  REQUIRE(busy);
  CHECK(busy->idle_place() == "an idle host");
  CHECK(busy->words == "other work filled the host's CPUs at 9000 of the read parallelism's 10000 waits for a "
                       "completion");
  CHECK_FALSE(phase_disturbance(doc, "write_grid"));  // not in the run
}

TEST_CASE("the verdict lists every caution; a quiet run has none", "[run_cautions]") {
  ResultDocument quiet = open_read_page(waits(100, 180'000, 500));
  quiet.verdict = build_verdict(quiet, RunFacts{true, false, 60.0, false});
  CHECK(quiet.verdict.cautions.empty());

  ResultDocument busy = open_read_page(waits(36, 14, 182'750));
  busy.verdict = build_verdict(busy, RunFacts{true, false, 60.0, false});
  REQUIRE(busy.verdict.cautions.size() == 1);
  CHECK(has(busy.verdict.cautions[0], "other work filled the host's CPUs during the read grid (at 182750 of its "
                                      "182800 waits for a completion)"));
  CHECK(to_json(busy)["verdict"]["cautions"].size() == 1);
  CHECK(has(render_text(busy), "  - caution: other work filled the host's CPUs"));
}

TEST_CASE("a unit left open under a caution names it as the likely reason, and the rerun on an idle host",
          "[run_cautions]") {
  ResultDocument quiet = open_read_page(waits(100, 180'000, 500));
  quiet.verdict = build_verdict(quiet, RunFacts{true, false, 60.0, false});
  CHECK(quiet.read_page.to_determine ==
        "rerun with --budget 120 on an idle drive (the grid settled without a confident answer)");

  ResultDocument busy = open_read_page(waits(36, 14, 182'750));
  busy.verdict = build_verdict(busy, RunFacts{true, false, 60.0, false});
  CHECK(busy.read_page.to_determine ==
        "rerun with --budget 60 on an idle host: other work filled the host's CPUs at 182750 of the read grid's "
        "182800 waits for a completion, the likely reason the read grid settled without a confident answer");
  REQUIRE(busy.verdict.first_action);
  CHECK(busy.verdict.first_action->command == "ssdprobe --budget 60 /dev/sdz");

  // Cut by --budget as well: twice the budget, still on an idle host.
  ResultDocument cut = open_read_page(waits(36, 14, 182'750));
  cut.phases[0].state = PhaseState::budget;
  cut.verdict = build_verdict(cut, RunFacts{true, false, 60.0, false});
  CHECK(cut.read_page.to_determine.rfind("rerun with --budget 120 on an idle host: other work filled", 0) == 0);
  CHECK(has(cut.read_page.to_determine, "the likely reason the read grid did not settle within --budget"));

  // A write unit its grid left open under other IO.
  ResultDocument write = open_read_page(std::nullopt);
  write.read_page = {16384, UnitState::found, 0.998, "e", {}, "", {}, {}, {}, {}, {}, 0.0, {}};
  write.phases.push_back(phase("write_grid", PhaseState::done, std::nullopt));
  write.phases.back().other_io = OtherIo{"sdz", {1000, 100 * kMiB, 1000, 100 * kMiB}, {0, 0, 50, 20 * kMiB}};
  write.write_unit.state = UnitState::undetermined;
  write.verdict = build_verdict(write, RunFacts{true, true, 60.0, false});
  CHECK(write.write_unit.to_determine ==
        "rerun with --write --budget 60 on an idle disk: other IO on sdz during the write grid (50 writes, 20 MiB "
        "written), the likely reason the write grid settled without a confident answer");
}

TEST_CASE("the read page's note names a caution over the read grid as the likely reason", "[run_cautions]") {
  UnitVerdict flat;
  flat.state = UnitState::undetermined;
  flat.typical_us = 70.0;
  const ReadPageEvidence evidence{flat, std::nullopt, false, 1, false, std::nullopt};
  ResultDocument quiet = open_read_page(waits(100, 180'000, 500));
  CHECK(has(*read_page_note(quiet, evidence), "its noise still allows one that matters (a larger --budget would "
                                              "tell)"));
  const ResultDocument busy = open_read_page(waits(36, 14, 182'750));
  const std::string note = *read_page_note(busy, evidence);
  CHECK(note.rfind("read page not determined: the read grid shows no step, but its noise still allows one that "
                   "matters; other work filled the host's CPUs at 182750 of the read grid's 182800 waits for a "
                   "completion, the likely reason for that noise: the same run on an idle host would tell. ",
                   0) == 0);

  UnitVerdict leaning = flat;
  leaning.leading = 16384;
  leaning.leading_support = 0.55;
  CHECK(*read_page_note(busy, {leaning, std::nullopt, false, 1, false, std::nullopt}) ==
        "read page not determined: the read grid leaned to 16 KiB (only 55 % of bootstrap resamples agree), so a page "
        "may well be there; other work filled the host's CPUs at 182750 of the read grid's 182800 waits for a "
        "completion, the likely reason it stayed unsure: the same run on an idle host would tell");
}
