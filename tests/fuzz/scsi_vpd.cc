// INQUIRY VPD pages from untrusted bytes: Unit Serial Number (80h) and Block
// Limits (B0h). Each decoder also sees the other's pages (it must reject
// them by page code) and pages whose length field lies.
#include "firmware/scsi_pages.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto serial = decode_unit_serial_vpd(in);
    if (serial) FUZZ_CHECK(size >= 4 && data[1] == 0x80);
    const auto limits = decode_block_limits_vpd(in);
    if (limits) FUZZ_CHECK(size >= 4 && data[1] == 0xB0);
    fuzz::keep(serial);
    fuzz::keep(limits);
  });
  return 0;
}
