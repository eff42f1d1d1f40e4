// The stripe's tie to the parallelism probe: the probe's unit count (write
// pairs first, then read pairs) beside the stripe's program units, agreeing
// or not, and nothing made up when no probe found a count.
#include <catch2/catch.hpp>

#include "run/stripe_parallelism.h"

using namespace ssdprobe;

namespace {

ParallelismSection found_units(double units, double interleave) {
  ParallelismSection section;
  section.verdict.parallel_units = {units, UnitState::found, 0.99, "", {}, {}};
  section.verdict.interleave_bytes = {interleave, UnitState::found, 0.99, "", {}, {}};
  return section;
}

ResultDocument striped(uint32_t units) {
  ResultDocument doc;
  doc.write_stripe.bytes = 16384ull * units;
  doc.write_stripe.state = UnitState::found;
  doc.write_stripe.evidence = "stripe";
  doc.write_stripe_detail.program_unit_bytes = 16384;
  doc.write_stripe_detail.units = units;
  return doc;
}

}  // namespace

TEST_CASE("a stripe of as many program units as the write pairs' units agrees") {
  ResultDocument doc = striped(4);
  doc.parallelism = found_units(8, 16384);  // the read pairs' count is the fallback only
  doc.write_parallelism = found_units(4, 16384);
  tie_stripe_to_parallelism(doc);
  CHECK(doc.write_stripe_detail.parallel_units == 4u);
  CHECK(doc.write_stripe_detail.parallel_units_from == "write_parallelism");
  CHECK(doc.write_stripe_detail.agrees == true);
  CHECK(doc.write_stripe.evidence.find("write pairs found 4 parallel units every 16 KiB: as many as") !=
        std::string::npos);
}

TEST_CASE("read pairs stand in when the write pairs found no count, and a different count disagrees") {
  ResultDocument doc = striped(4);
  doc.parallelism = found_units(8, 16384);
  doc.write_parallelism = ParallelismSection{};  // nothing found
  tie_stripe_to_parallelism(doc);
  CHECK(doc.write_stripe_detail.parallel_units_from == "parallelism");
  CHECK(doc.write_stripe_detail.agrees == false);
  CHECK(doc.write_stripe.evidence.find("found 8 parallel units every 16 KiB, not the stripe's 4") != std::string::npos);
}

TEST_CASE("no count found, or no write grid: nothing tied") {
  ResultDocument doc = striped(4);
  tie_stripe_to_parallelism(doc);
  CHECK_FALSE(doc.write_stripe_detail.parallel_units);
  CHECK_FALSE(doc.write_stripe_detail.agrees);
  CHECK(doc.write_stripe.evidence == "stripe");
  ResultDocument read_only;  // write_stripe not measured
  read_only.parallelism = found_units(4, 16384);
  tie_stripe_to_parallelism(read_only);
  CHECK_FALSE(read_only.write_stripe_detail.parallel_units);
}

TEST_CASE("a count beside a stripe that was not found is recorded, with no agreement") {
  ResultDocument doc;
  doc.write_stripe.state = UnitState::undetermined;
  doc.write_parallelism = found_units(8, 16384);
  tie_stripe_to_parallelism(doc);
  CHECK(doc.write_stripe_detail.parallel_units == 8u);
  CHECK_FALSE(doc.write_stripe_detail.agrees);
  CHECK(doc.write_stripe.evidence.find("but no stripe was found to compare them with") != std::string::npos);
}
