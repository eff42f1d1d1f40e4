// ATA IDENTIFY DEVICE (512 bytes) from untrusted bytes.
#include "firmware/ata_identify.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_rejection([&] {
    const auto id = decode_ata_identify(fuzz::bytes(data, size));
    FUZZ_CHECK(id.has_value() == (size >= kAtaIdentifyBytes));
    if (!id) return;
    FUZZ_CHECK(id->logical_sector_bytes != 0);
    FUZZ_CHECK(id->physical_sector_bytes != 0);
    fuzz::keep(*id);
  });
  return 0;
}
