// Saved result documents from untrusted text (report/saved_result.h): a
// fleet's shared folder holds whatever anyone put there. The reader either
// returns data whose grids have the shape it promises or throws
// ssdprobe::Error naming the document.
#include <string>

#include "fuzz_target.h"
#include "report/saved_result.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // Byte 0 picks how much of the grids to read, so every level is fuzzed.
  const auto detail = static_cast<GridDetail>(data[0] % 3);
  fuzz::expect_rejection([&] {
    const SavedResult saved = parse_saved_result(fuzz::text(data + 1, size - 1), "fuzz.json", detail);
    FUZZ_CHECK(saved.schema_major == 1);
    for (const SavedGrid& grid : saved.grids) {
      FUZZ_CHECK(grid.median_us.size() == grid.sizes.size());
      for (const auto& row : grid.median_us) FUZZ_CHECK(row.size() == grid.offsets.size());
      if (detail == GridDetail::full) FUZZ_CHECK(grid.samples.size() == grid.sizes.size());
    }
    fuzz::keep(saved);
  });
  return 0;
}
