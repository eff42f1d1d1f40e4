// Other IO on the disk during a timed phase (issue 19): the stat file's
// fields, the subtraction of the run's own IO, and the one sentence the
// verdict may use (run/other_io.h), with its 5 % / 1 MiB threshold.
#include <catch2/catch.hpp>

#include "device/block_stat.h"
#include "report/run_context_text.h"
#include "run/other_io.h"
#include "run/write_bound.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

PhaseRecord timed(const char* name, IoCounts own, IoCounts other) {
  PhaseRecord p{name, PhaseState::done, "", 1.0, std::nullopt, std::nullopt, std::nullopt};
  p.other_io = OtherIo{"nvme0n1", own, other};
  return p;
}

}  // namespace

TEST_CASE("block stat: reads, sectors read, writes, sectors written, as bytes") {
  const auto c = parse_block_stat("  12345 7 98765 100 42 0 800 10 0 20 30 0 0 0 0 0 0\n");
  REQUIRE(c);
  CHECK(c->reads == 12345);
  CHECK(c->read_bytes == 98765ull * 512);
  CHECK(c->writes == 42);
  CHECK(c->write_bytes == 800ull * 512);
  CHECK_FALSE(parse_block_stat("1 2 3"));
  CHECK_FALSE(read_block_stat("../../etc"));
}

TEST_CASE("counts between two samples never go below zero") {
  const IoCounts d = io_counts_between({10, 100, 5, 50}, {12, 90, 9, 70});
  CHECK(d.reads == 2);
  CHECK(d.read_bytes == 0);
  CHECK(d.writes == 4);
  CHECK(d.write_bytes == 20);
}

TEST_CASE("other IO disturbs a phase from 5 % of its own bytes and 1 MiB") {
  const IoCounts own{1000, 200 * kMiB, 0, 0};
  CHECK_FALSE(other_io_disturbs({"sda", own, {10, 9 * kMiB, 0, 0}}));
  CHECK(other_io_disturbs({"sda", own, {10, 10 * kMiB, 0, 0}}));
  CHECK(other_io_disturbs({"sda", own, {0, 0, 3, 12 * kMiB}}));
  CHECK_FALSE(other_io_disturbs({"sda", {1, 4096, 0, 0}, {4, 64 * 1024, 0, 0}}));  // under 1 MiB
}

TEST_CASE("the disturbance sentence names the disk, the phases and the amounts; nothing when quiet") {
  ResultDocument doc;
  doc.phases.push_back(
      PhaseRecord{"write_session", PhaseState::done, "", 0.0, std::nullopt, std::nullopt, std::nullopt});
  doc.phases.push_back(timed("read_grid", {1000, 100 * kMiB, 0, 0}, {0, 0, 0, 0}));
  CHECK_FALSE(other_io_disturbance(doc));
  doc.phases.push_back(timed("read_parallelism", {1000, 100 * kMiB, 0, 0}, {12345, 48 * kMiB, 2, 2 * kMiB}));
  const auto sentence = other_io_disturbance(doc);
  REQUIRE(sentence);
  CHECK(*sentence == "other IO on nvme0n1 during the read parallelism (12345 reads, 48 MiB read; 2 writes, 2 MiB "
                     "written) may have disturbed its timings");
  doc.phases[1] = timed("read_grid", {1000, 100 * kMiB, 0, 0}, {7, 8 * kMiB, 0, 0});
  CHECK(other_io_disturbance(doc)->find("during the read grid (7 reads, 8 MiB read) and the read parallelism") !=
        std::string::npos);
}

TEST_CASE("the text report's other IO line and command line") {
  ResultDocument doc;
  std::string out;
  other_io_lines(out, doc, 100);
  CHECK(out.empty());  // sims and files: nothing measured
  doc.phases.push_back(timed("read_grid", {1000, 100 * kMiB, 0, 0}, {0, 0, 0, 0}));
  other_io_lines(out, doc, 0);
  CHECK(out == "Other IO: on nvme0n1 (the whole disk's counters less this run's IO) during read_grid (none)\n");
  CHECK(shell_command_text({"ssdprobe", "--json", "a b.json", "it's", "/dev/sdb"}) ==
        "ssdprobe --json 'a b.json' 'it'\\''s' /dev/sdb");
}

TEST_CASE("the --write bound adds every write phase's cap, and the restore only when content is restored") {
  const Region window{1ull << 30, 256 * kMiB};
  const WriteBound preserved = write_bound(window, true, 16ull << 30);
  CHECK(preserved.total() == (16ull << 30) + (1ull << 30) + 512 * kMiB + 384 * kMiB + 128 * kMiB + 256 * kMiB);
  CHECK(preserved.breakdown().find("SLC cache probe and the write grid inside the cache <= 16 GiB") != std::string::npos);
  CHECK(write_bound(window, false, 16ull << 30).total() == preserved.total() - 256 * kMiB);
  CHECK(preserved.breakdown().find("restore 256 MiB") != std::string::npos);
}
