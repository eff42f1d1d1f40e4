// Regions "OFFSET:LENGTH" from untrusted text. A region that parses parses
// back from its plain decimal form to the same offset and length.
#include <string>

#include "core/units.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text(data, size);
  fuzz::expect_rejection([&] {
    const Region region = parse_region(text);
    const std::string again =
        std::to_string(region.offset) + ":" + (region.length == 0 ? "" : std::to_string(region.length));
    const Region back = parse_region(again);
    FUZZ_CHECK(back.offset == region.offset && back.length == region.length);
    fuzz::keep(format_size(region.offset));
    fuzz::keep(format_size(region.length));
  });
  return 0;
}
