#include "run/stripe_parallelism.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

struct FoundUnits {
  uint32_t units = 0;
  std::optional<uint64_t> interleave;
  const char* from = "";
  const char* pairs = "";
};

std::optional<FoundUnits> found_units(const std::optional<ParallelismSection>& section, const char* from,
                                      const char* pairs) {
  if (!section) return std::nullopt;
  const ParallelismValue& units = section->verdict.parallel_units;
  if (units.state != UnitState::found || !units.value) return std::nullopt;
  FoundUnits found{static_cast<uint32_t>(*units.value), std::nullopt, from, pairs};
  const ParallelismValue& interleave = section->verdict.interleave_bytes;
  if (interleave.state == UnitState::found && interleave.value) found.interleave = static_cast<uint64_t>(*interleave.value);
  return found;
}

std::string interleave_text(const FoundUnits& found) {
  return found.interleave ? fmt::format(" every {}", format_size(*found.interleave)) : std::string();
}

std::string tie_sentence(const WriteStripeDetail& d, const FoundUnits& found) {
  if (!d.units) {
    return fmt::format("the parallelism probe's {} found {} parallel units{}, but no stripe was found to compare "
                       "them with", found.pairs, found.units, interleave_text(found));
  }
  if (*d.agrees) {
    return fmt::format("the parallelism probe's {} found {} parallel units{}: as many as the stripe's program units, "
                       "so a stripe is one program unit on each", found.pairs, found.units, interleave_text(found));
  }
  return fmt::format("the parallelism probe's {} found {} parallel units{}, not the stripe's {}: a stripe spans only "
                     "some of the units that serve concurrent IO, or the probe's units are not the ones a stripe "
                     "uses", found.pairs, found.units, interleave_text(found), *d.units);
}

}  // namespace

void tie_stripe_to_parallelism(ResultDocument& doc) {
  auto found = found_units(doc.write_parallelism, "write_parallelism", "write pairs");
  if (!found) found = found_units(doc.parallelism, "parallelism", "read pairs");
  WriteStripeDetail& d = doc.write_stripe_detail;
  if (!found || doc.write_stripe.state == UnitState::not_measured) return;
  d.parallel_units = found->units;
  d.parallel_units_from = found->from;
  if (d.units) d.agrees = *d.units == found->units;
  doc.write_stripe.evidence += "; " + tie_sentence(d, *found);
}

}  // namespace ssdprobe
