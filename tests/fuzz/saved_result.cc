// Saved result documents from untrusted text (report/saved_result.h): a
// fleet's shared folder holds whatever anyone put there. The reader either
// returns data whose grids have the shape it promises or throws
// ssdprobe::Error naming the document. With the row facts read (compare
// --ndjson), the row is one line of valid JSON whatever the document held.
#include <nlohmann/json.hpp>
#include <string>

#include "compare/ndjson_rows.h"
#include "fuzz_target.h"
#include "report/saved_result.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // Byte 0 picks how much of the grids to read, so every level is fuzzed,
  // and (its next bit, seeds keep their level) whether the row facts are.
  const auto detail = static_cast<GridDetail>(data[0] % 3);
  const RowFacts facts = (data[0] / 3) % 2 ? RowFacts::read : RowFacts::skip;
  fuzz::expect_rejection([&] {
    const SavedResult saved =
        parse_saved_result(fuzz::text(data + 1, size - 1), "fuzz.json", detail, ChartData::skip, facts);
    FUZZ_CHECK(saved.schema_major == 1);
    for (const SavedGrid& grid : saved.grids) {
      FUZZ_CHECK(grid.median_us.size() == grid.sizes.size());
      for (const auto& row : grid.median_us) FUZZ_CHECK(row.size() == grid.offsets.size());
      if (detail == GridDetail::full) FUZZ_CHECK(grid.samples.size() == grid.sizes.size());
    }
    if (facts == RowFacts::read) {
      const std::string line = ndjson_row(saved);
      FUZZ_CHECK(line.find('\n') == line.size() - 1);
      FUZZ_CHECK(nlohmann::json::accept(line));
    }
    fuzz::keep(saved);
  });
  return 0;
}
