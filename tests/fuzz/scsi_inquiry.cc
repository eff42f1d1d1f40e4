// Standard INQUIRY data from untrusted bytes.
#include "firmware/scsi_pages.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_rejection([&] {
    const auto inquiry = decode_standard_inquiry(fuzz::bytes(data, size));
    FUZZ_CHECK(inquiry.has_value() == (size >= 36));
    if (inquiry) fuzz::keep(*inquiry);
  });
  return 0;
}
