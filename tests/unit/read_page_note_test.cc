// The note on a read page the grids did not show (run/read_page_note.h), on
// documents and verdicts built by hand: each combination of evidence (a
// read-only run, a --write run whose re-read found the page, one whose
// re-read found none, DRAM-like latencies, what the parallelism probe's
// strides say) and the sentences a user reads for it.
#include <catch2/catch.hpp>
#include <string>

#include "run/read_page_note.h"

using namespace ssdprobe;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr uint64_t KiB = 1024;

UnitVerdict ruled_out(double typical_us) {
  UnitVerdict v;
  v.state = UnitState::absent;
  v.settled = true;
  v.searched_up_to_bytes = 128 * KiB;
  v.typical_us = typical_us;
  return v;
}

UnitVerdict found(uint64_t bytes, double typical_us) {
  UnitVerdict v;
  v.state = UnitState::found;
  v.bytes = bytes;
  v.confidence = 0.998;
  v.typical_us = typical_us;
  return v;
}

UnitVerdict not_determined(double typical_us) {
  UnitVerdict v;
  v.state = UnitState::undetermined;
  v.typical_us = typical_us;
  return v;
}

// A read grid of 4 KiB and 32 KiB reads at four offsets: every cell near
// `small_us` (4 KiB) and `large_us` (32 KiB), offsets 2 % apart at most.
GridReport grid(const char* name, double small_us, double large_us) {
  GridReport report;
  report.name = name;
  report.grid = LatencyGrid({4 * KiB, 32 * KiB}, {0, 4 * KiB, 8 * KiB, 12 * KiB});
  const double shape[] = {1.0, 1.01, 0.99, 1.0};
  for (size_t column = 0; column < 4; ++column) {
    report.grid.cell(0, column) = {small_us * shape[column]};
    report.grid.cell(1, column) = {large_us * shape[column]};
  }
  return report;
}

StrideSummary stride(uint64_t bytes, bool serialized) {
  StrideSummary s;
  s.stride_bytes = bytes;
  s.pairs = 64;
  s.serialized = serialized;
  return s;
}

// The read parallelism section: powers of two from 4 KiB to 4 MiB, those
// below `interleave` serialized (0: none serialized) and those from `wrap`
// on (units x interleave: the same unit again), the knee at `knee`.
ParallelismSection parallelism(uint64_t interleave, std::optional<double> knee, bool interleave_found,
                               uint64_t wrap = 0) {
  ParallelismSection section;
  ParallelismVerdict& v = section.verdict;
  for (uint64_t s = 4 * KiB; s <= 4096 * KiB; s *= 2) {
    v.strides.push_back(stride(s, (interleave != 0 && s < interleave) || (wrap != 0 && s >= wrap)));
  }
  if (interleave_found) {
    v.interleave_bytes.value = static_cast<double>(interleave);
    v.interleave_bytes.state = UnitState::found;
    v.interleave_bytes.confidence = 0.99;
  } else {
    v.interleave_bytes.state = UnitState::undetermined;
  }
  if (knee) {
    v.queue_depth_knee.value = *knee;
    v.queue_depth_knee.state = UnitState::found;
  } else {
    v.queue_depth_knee.state = UnitState::undetermined;
  }
  return section;
}

ResultDocument doc_with(std::vector<GridReport> grids, std::optional<ParallelismSection> section) {
  ResultDocument doc;
  doc.topology.logical_block_size = 512;
  doc.grids = std::move(grids);
  doc.parallelism = std::move(section);
  return doc;
}

std::string note_of(const ResultDocument& doc, const ReadPageEvidence& ev) {
  const auto note = read_page_note(doc, ev);
  REQUIRE(note.has_value());
  UNSCOPED_INFO(*note);
  return *note;
}

}  // namespace

TEST_CASE("no note when the first grid found the page or did not finish", "[read_page_note]") {
  const ResultDocument doc = doc_with({grid("read", 60, 70)}, parallelism(16 * KiB, 32.0, true));
  CHECK_FALSE(read_page_note(doc, {found(16 * KiB, 60), std::nullopt, false, 1, false, std::nullopt}).has_value());
  CHECK_FALSE(read_page_note(doc, {std::nullopt, std::nullopt, true, 1, false, std::nullopt}).has_value());
}

TEST_CASE("a zoned device's reads below its write pointers rule out unwritten space", "[read_page_note]") {
  const ResultDocument doc = doc_with({grid("read", 180.0, 210.0)}, parallelism(16 * KiB, 32.0, true));
  const std::string note = note_of(doc, {ruled_out(180.0), std::nullopt, false, 1, true, std::nullopt});
  CHECK(has(note, "(1) never-written or trimmed space, which many drives answer from the mapping table without "
                  "sensing NAND: ruled out: the grid read only written data, below the zoned device's write "
                  "pointers;"));
  CHECK_FALSE(has(note, "this run wrote nothing"));
}

TEST_CASE("a read-only run over unwritten-looking space: three reasons, what would tell each", "[read_page_note]") {
  // sim:fresh-16k read-only: fast reads (no sense), 8 units every 16 KiB.
  const ResultDocument doc = doc_with({grid("read", 15.0, 22.0)}, parallelism(16 * KiB, 32.0, true));
  const std::string note = note_of(doc, {ruled_out(15.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(note.rfind("no read page up to 128 KiB (ruled out) in the read grid: a read that straddles a boundary costs "
                   "no more than one inside a unit. A page hides from a read grid in three ways: ", 0) == 0);
  CHECK(has(note, "(1) never-written or trimmed space, which many drives answer from the mapping table without "
                  "sensing NAND: not tested, as this run wrote nothing; --write (the run then re-reads the window it "
                  "wrote) or --region over space that holds data would tell (the 4 KiB reads at 15.0 us were fast "
                  "enough to have sensed no NAND, which fits);"));
  CHECK(has(note, "(2) neighbouring pages on different dies, which a read that straddles them senses in parallel (it "
                  "costs the slower of two senses, not their sum): the parallelism probe found reads 16 KiB apart on "
                  "different units and closer ones on the same unit: a page smaller than 16 KiB shares a unit with its "
                  "neighbour, so only a page of 16 KiB or a multiple of it could hide this way; but the 4 KiB reads "
                  "took 15.0 us, fast enough to have sensed no NAND, which fits (1) or (3) better: a read that senses "
                  "pages in parallel still pays one sense; a read grid at a deeper queue (--qd 32, the queue depth "
                  "knee), where the units are busy and a straddling read waits for the busier of its two, would "
                  "tell;"));
  CHECK(has(note, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): "
                  "fits: 4 KiB reads took a median of 15.0 us (32 KiB: 22.0 us), every offset of a size within 2 % of "
                  "the others, fast enough to have sensed no NAND (a TLC or QLC sense takes 40 us and more)"));
  CHECK(has(note, "never-written"));  // tests/sim/cli_fresh_drive.sh looks for it
}

TEST_CASE("a read-only run at NAND latencies: page-less media less likely, parallel sensing open",
          "[read_page_note]") {
  // Reads that sense a page each; the smallest stride already overlapped
  // (8 units every 4 KiB: 32 KiB apart is the same unit again).
  const ResultDocument doc = doc_with({grid("read", 70.0, 80.0)}, parallelism(4 * KiB, 32.0, false, 32 * KiB));
  const std::string note = note_of(doc, {ruled_out(70.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "--region over space that holds data would tell;"));  // no remark on fast reads
  CHECK(has(note, "the parallelism probe found reads 4 KiB apart already on different units, so neighbouring pages "
                  "sit on different units, as this needs; a read grid at a deeper queue (--qd 32, the queue depth "
                  "knee)"));
  CHECK_FALSE(has(note, "fits (1) or (3) better"));
  CHECK(has(note, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): "
                  "less likely: 4 KiB reads took a median of 70.0 us (32 KiB: 80.0 us), every offset of a size within "
                  "2 % of the others, slower than page-less media answers (under 25 us), unless it sits behind a slow "
                  "link (SATA, USB, a network)"));
}

TEST_CASE("a --write run whose re-read found the page: unwritten space, the other reasons excluded",
          "[read_page_note]") {
  const ResultDocument doc =
      doc_with({grid("read", 15.0, 22.0), grid("read-written", 65.0, 115.0)}, parallelism(16 * KiB, 32.0, true));
  const std::string note = note_of(doc, {ruled_out(15.0), found(16 * KiB, 65.0), true, 1, false, std::nullopt});
  CHECK(note == "read page 16 KiB found on written space only: the first read grid ruled one out up to 128 KiB, the "
                "re-read of the window this run wrote found 16 KiB. The first grid's space was most likely never "
                "written or trimmed, and answered from the mapping table without sensing NAND (its 4 KiB reads took "
                "15.0 us, 65.0 us on written space); neighbouring pages sensed in parallel and page-less media are "
                "not the reason, as the page shows on written space at the same queue depth");
}

TEST_CASE("a --write run whose re-read found none, and written space reads slower: parallel sensing fits",
          "[read_page_note]") {
  // A drive whose neighbouring pages sit on different dies: unwritten space
  // is fast, written space senses NAND, and no step shows on either.
  const ResultDocument doc =
      doc_with({grid("read", 15.0, 22.0), grid("read-written", 70.0, 80.0)},
               parallelism(4 * KiB, 32.0, false, 32 * KiB));
  const std::string note = note_of(doc, {ruled_out(15.0), ruled_out(70.0), true, 1, false, std::nullopt});
  CHECK(has(note, "(1) never-written or trimmed space, which many drives answer from the mapping table without "
                  "sensing NAND: not the reason here: the re-read of the window this run wrote (and restored) shows "
                  "none either: no read page up to 128 KiB (ruled out); its 4 KiB reads took 70.0 us, against 15.0 us "
                  "in the first grid;"));
  CHECK(has(note, "so neighbouring pages sit on different units, as this needs; written space reads slower than the "
                  "first grid's (70.0 us against 15.0 us), so it senses NAND, yet shows no page: this fits; a read "
                  "grid at a deeper queue (--qd 32, the queue depth knee)"));
  CHECK(has(note, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): "
                  "unlikely: page-less media reads written and unwritten space alike, and the written window's 4 KiB "
                  "reads took 70.0 us against 15.0 us in the first grid"));
  CHECK_FALSE(has(note, "not tested"));
}

TEST_CASE("a --write run over space that read as zeros: the re-read of the written window decides, ruled out",
          "[read_page_note]") {
  // The first grid's answer was made not determined (its reads returned only
  // zeros); the re-read of the window the run wrote shows no page: the note
  // leads with that answer, as the verdict does, never with "not determined".
  const ResultDocument doc =
      doc_with({grid("read", 15.0, 22.0), grid("read-written", 70.0, 80.0)}, parallelism(16 * KiB, 32.0, true));
  const ReadContent zeros{32, 32 * 128 * KiB, uint8_t{0}};
  const std::string note = note_of(doc, {not_determined(15.0), ruled_out(70.0), true, 1, false, zeros});
  CHECK(note.rfind("no read page up to 128 KiB (ruled out) in the written window: the first read grid's space reads "
                   "as never written or trimmed, so the re-read of the window this run wrote decides", 0) == 0);
  CHECK_FALSE(has(note, "read page not determined"));
  CHECK(has(note, "not the reason here: the re-read of the window this run wrote (and restored) shows none either"));
}

TEST_CASE("a --write run whose re-read did not settle either", "[read_page_note]") {
  const ResultDocument doc =
      doc_with({grid("read", 70.0, 80.0), grid("read-written", 70.0, 80.0)}, parallelism(16 * KiB, 32.0, true));
  const std::string note = note_of(doc, {ruled_out(70.0), not_determined(70.0), true, 1, false, std::nullopt});
  CHECK(has(note, "not the reason here: the re-read of the window this run wrote (and restored) shows no step either, "
                  "though its noise still allows one (a larger --budget would tell)"));
  UnitVerdict leaning = not_determined(70.0);
  leaning.leading = 16 * KiB;
  leaning.leading_support = 0.62;
  const std::string leans = note_of(doc, {ruled_out(70.0), leaning, true, 1, false, std::nullopt});
  CHECK(has(leans, "(1) never-written or trimmed space, which many drives answer from the mapping table without "
                   "sensing NAND: the likeliest: the re-read of the window this run wrote leaned to 16 KiB (only 62 % "
                   "of bootstrap resamples agree), so a page may show on written space; a larger --budget would "
                   "tell;"));
}

TEST_CASE("flat DRAM-like latencies, read-only and with --write", "[read_page_note]") {
  // sim:flat-dram: 10 us everywhere, nothing serializes at any stride.
  const ResultDocument ro = doc_with({grid("read", 9.8, 17.5)}, parallelism(0, std::nullopt, false));
  const std::string read_only = note_of(ro, {ruled_out(9.8), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(read_only, "no stride of the parallelism probe (4 KiB to 4 MiB) made concurrent reads wait for each "
                       "other, so it cannot say which unit a page sits on (nothing queues per unit: page-less media, "
                       "space answered without a sense, or a mapping that strides cannot see)"));
  CHECK(has(read_only, "a read grid at a deeper queue (--qd 32), where the units are busy"));
  CHECK(has(read_only, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page "
                       "cache): fits: 4 KiB reads took a median of 9.8 us (32 KiB: 17.5 us), every offset of a size "
                       "within 2 % of the others, fast enough to have sensed no NAND"));
  CHECK(has(read_only, "not tested, as this run wrote nothing"));

  const ResultDocument rw =
      doc_with({grid("read", 9.8, 17.5), grid("read-written", 9.9, 17.6)}, parallelism(0, std::nullopt, false));
  const std::string written = note_of(rw, {ruled_out(9.8), ruled_out(9.9), true, 1, false, std::nullopt});
  CHECK(has(written, "not the reason here: the re-read of the window this run wrote (and restored) shows none "
                     "either: no read page up to 128 KiB (ruled out); its 4 KiB reads took 9.9 us, against 9.8 us in "
                     "the first grid;"));
  CHECK(has(written, "but the written window's 4 KiB reads took 9.9 us, fast enough to have sensed no NAND, which "
                     "fits (3) better: a read that senses pages in parallel still pays one sense"));
  CHECK(has(written, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): "
                     "fits: in the written window, 4 KiB reads took a median of 9.9 us (32 KiB: 17.6 us), every offset "
                     "of a size within 2 % of the others, fast enough to have sensed no NAND (a TLC or QLC sense takes "
                     "40 us and more)"));
}

TEST_CASE("the stride structure excludes parallel sensing when neighbouring pages share a unit",
          "[read_page_note]") {
  // Every stride up to 4 MiB serialized: one unit for everything the grid sees.
  ResultDocument doc = doc_with({grid("read", 70.0, 80.0)}, parallelism(8192 * KiB, std::nullopt, false));
  std::string note = note_of(doc, {ruled_out(70.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "(2) neighbouring pages on different dies, which a read that straddles them senses in parallel (it "
                  "costs the slower of two senses, not their sum): not the reason here: every stride of the "
                  "parallelism probe up to 4 MiB made concurrent reads wait for each other (one unit), so a page of "
                  "4 MiB or less shares a unit with its neighbour and cannot hide this way;"));
  // An interleave larger than any page the grid looks for.
  doc.parallelism = parallelism(256 * KiB, 32.0, true);
  note = note_of(doc, {ruled_out(70.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "not the reason here: the parallelism probe found reads 256 KiB apart on different units and closer "
                  "ones on the same unit: a page smaller than 256 KiB shares a unit with its neighbour, so only a page "
                  "of 256 KiB or a multiple of it could hide this way, and the grid looks for none larger than "
                  "128 KiB;"));
  // No parallelism section (psync, --max-qd 1).
  doc.parallelism.reset();
  note = note_of(doc, {ruled_out(70.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "the parallelism probe did not measure which units neighbouring blocks sit on; a read grid at a "
                  "deeper queue (--qd 32)"));
}

TEST_CASE("a grid already run at a deep queue makes parallel sensing unlikely", "[read_page_note]") {
  const ResultDocument doc = doc_with({grid("read", 70.0, 80.0)}, parallelism(16 * KiB, 32.0, true));
  CHECK(has(note_of(doc, {ruled_out(70.0), std::nullopt, false, 32, false, std::nullopt}),
            "the read grid already ran at --qd 32, at or past the queue depth knee (32), where a straddling read "
            "waits for the busier of its two units, which makes this unlikely"));
  CHECK(has(note_of(doc, {ruled_out(70.0), std::nullopt, false, 4, false, std::nullopt}),
            "the read grid ran at --qd 4, where a straddling read waits for the busier of its two units more often "
            "than at 1; a deeper queue (--qd 32, the queue depth knee) would tell"));
  // No knee, no unit count (sim:flat-dram at --qd 32): nothing to judge the depth by.
  const ResultDocument flat = doc_with({grid("read", 9.8, 17.5)}, parallelism(0, std::nullopt, false));
  CHECK(has(note_of(flat, {ruled_out(9.8), std::nullopt, false, 32, false, std::nullopt}),
            "the read grid ran at --qd 32, where a straddling read waits for the busier of its two units more often "
            "than at 1; the parallelism probe found no queue depth knee to say whether --qd 32 keeps every unit "
            "busy"));
  CHECK(has(note_of(flat, {ruled_out(9.8), std::nullopt, false, 8, false, std::nullopt}), "; a deeper queue (--qd 32) would tell"));
  // Latencies at a deep queue include waiting: their level does not tell.
  ResultDocument queued = doc_with({grid("read", 48.0, 56.0)}, parallelism(16 * KiB, 48.0, true));
  queued.grids[0].queue_depth = 32;
  const std::string note = note_of(queued, {ruled_out(48.0), std::nullopt, false, 32, false, std::nullopt});
  CHECK(has(note, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): not "
                  "determined by this run: 4 KiB reads took a median of 48.0 us (32 KiB: 56.0 us), every offset of a "
                  "size within 2 % of the others, but at --qd 32 every read also waits for the others in the queue, "
                  "so their level does not say whether they sensed NAND; a grid at --qd 1 would tell"));
}

TEST_CASE("a --write run whose re-read did not run says why, and unwritten space stays open", "[read_page_note]") {
  ResultDocument doc = doc_with({grid("read", 15.0, 22.0)}, parallelism(16 * KiB, 32.0, true));
  doc.phases.push_back({"read_written", PhaseState::skipped, "the window is too small for a read grid", 0.0, std::nullopt, std::nullopt, std::nullopt});
  const std::string note = note_of(doc, {ruled_out(15.0), std::nullopt, true, 1, false, std::nullopt});
  CHECK(has(note, "(1) never-written or trimmed space, which many drives answer from the mapping table without "
                  "sensing NAND: not tested: --write re-reads the window it wrote, but it was skipped: the window is "
                  "too small for a read grid; --region over space that holds data would tell;"));
}

TEST_CASE("not determined: a step that shows is not explained away; a flat one lists the reasons",
          "[read_page_note]") {
  const ResultDocument doc = doc_with({grid("read", 70.0, 80.0)}, parallelism(16 * KiB, 32.0, true));
  UnitVerdict leaning = not_determined(70.0);
  leaning.leading = 16 * KiB;
  leaning.leading_support = 0.55;
  CHECK(note_of(doc, {leaning, std::nullopt, false, 1, false, std::nullopt}) ==
        "read page not determined: the read grid leaned to 16 KiB (only 55 % of bootstrap resamples agree), so a page "
        "may well be there; a larger --budget would tell");
  CHECK(note_of(doc, {leaning, ruled_out(70.0), true, 1, false, std::nullopt}) ==
        "read page not determined: the read grid leaned to 16 KiB (only 55 % of bootstrap resamples agree), so a page "
        "may well be there; a larger --budget would tell (the re-read of the window this run wrote ruled one out up "
        "to 128 KiB)");
  CHECK(has(note_of(doc, {leaning, found(16 * KiB, 70.0), true, 1, false, std::nullopt}),
            "read page 16 KiB found on written space only: the first read grid leaned to 16 KiB (only 55 % of "
            "bootstrap resamples agree), the re-read of the window this run wrote found 16 KiB. The first grid saw a "
            "step there too, only not confidently: a larger --budget over its range would tell whether that space "
            "reads the same"));
  const std::string flat = note_of(doc, {not_determined(70.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(flat.rfind("read page not determined: the read grid shows no step, but its noise still allows one that "
                   "matters (a larger --budget would tell). A page hides from a read grid in three ways: (1) ",
                   0) == 0);
}

TEST_CASE("4 KiB logical blocks: a page of one block cannot show, and reads that pay per block fit it",
          "[read_page_note]") {
  // Larger reads cost what a link takes to move them: nothing more to say.
  ResultDocument doc = doc_with({grid("read", 46.0, 53.0)}, parallelism(4 * KiB, 32.0, false, 32 * KiB));
  doc.topology.logical_block_size = 4096;
  std::string note = note_of(doc, {ruled_out(46.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "no read page up to 128 KiB (ruled out) in the read grid: a read that straddles a boundary costs no "
                  "more than one inside a unit. A page no larger than the 4 KiB logical block cannot show in any grid "
                  "(every read covers whole blocks). A larger page hides from a read grid in three ways: (1) "));
  CHECK_FALSE(has(note, "block by block"));
  // sim:fourkn-flat: every 4 KiB a read covers costs a sense of its own.
  doc.grids = {grid("read", 46.0, 298.0)};
  note = note_of(doc, {ruled_out(46.0), std::nullopt, false, 1, false, std::nullopt});
  CHECK(has(note, "(every read covers whole blocks). The reads look sensed block by block: each extra 4 KiB a read "
                  "covers costs 36.0 us more, far more than a link takes to move it (about 7 us on SATA, 1 us on "
                  "NVMe), as if every block were sensed on its own, one after another (unless the link is slower: USB "
                  "2, an SD card), which fits a page no larger than a block. A larger page hides from a read grid in "
                  "three ways: (1) "));
  CHECK(has(note, "(2) neighbouring pages on different dies, which a read that straddles them senses in parallel (it "
                  "costs the slower of two senses, not their sum): unlikely: the blocks a read covers are sensed one "
                  "after another (above), not in parallel; the parallelism probe found reads 4 KiB apart already on "
                  "different units"));
  CHECK(has(note, "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page cache): "
                  "less likely: 4 KiB reads took a median of 46.0 us (32 KiB: 298.0 us), every offset of a size within "
                  "2 % of the others, and larger reads pay per block (above)"));
  CHECK_FALSE(has(note, "--qd 32, the queue depth knee"));
}
