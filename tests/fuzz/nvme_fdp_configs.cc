// The FDP Configurations log (20h) from untrusted bytes: the header states
// the page size and the number of descriptors, every descriptor its own size
// and handle count; none of them may lead a read past the buffer.
#include "firmware/nvme_fdp.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto log = decode_fdp_configurations(in);
    FUZZ_CHECK(log.has_value() == (size >= kFdpConfigHeaderBytes));
    if (!log) return;
    FUZZ_CHECK(log->configs.size() <= size_t{log->numfdpc} + 1);
    size_t used = kFdpConfigHeaderBytes;
    for (const auto& c : log->configs) {
      FUZZ_CHECK(c.dsze >= kFdpConfigDescriptorBytes && c.ruht.size() <= c.nruh);
      FUZZ_CHECK(kFdpConfigDescriptorBytes + c.ruht.size() * kFdpRuhDescriptorBytes <= c.dsze);
      used += c.dsze;
    }
    FUZZ_CHECK(used <= size);
    const auto read = fdp_configurations_size(in, 1u << 20);
    FUZZ_CHECK(read && *read >= kFdpConfigHeaderBytes && *read <= (1u << 20));
  });
  return 0;
}
