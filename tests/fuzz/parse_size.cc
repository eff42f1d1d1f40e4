// Sizes as people type them ("4k", "16KiB", "1M"): parse_size from
// untrusted text. A size that parses prints (format_size) and parses back
// from its plain decimal form to the same value.
#include <string>

#include "core/units.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text(data, size);
  fuzz::expect_rejection([&] {
    const uint64_t value = parse_size(text, "fuzz size");
    fuzz::keep(format_size(value));
    FUZZ_CHECK(parse_size(std::to_string(value)) == value);
  });
  return 0;
}
