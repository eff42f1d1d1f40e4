// READ CAPACITY(16) parameter data from untrusted bytes, and the capacity
// and physical block size derived from it (overflow must give nullopt).
#include "firmware/scsi_pages.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_rejection([&] {
    const auto capacity = decode_read_capacity16(fuzz::bytes(data, size));
    FUZZ_CHECK(capacity.has_value() == (size >= 16));
    if (!capacity) return;
    fuzz::keep(capacity->capacity_bytes());
    fuzz::keep(capacity->physical_block_bytes());
  });
  return 0;
}
