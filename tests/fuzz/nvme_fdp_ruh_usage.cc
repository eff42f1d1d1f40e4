// The Reclaim Unit Handle Usage log (21h) and the FDP Statistics log (22h)
// from untrusted bytes (both short fixed layouts): the handle count may
// promise more descriptors than the buffer holds.
#include "firmware/nvme_fdp.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto usage = decode_fdp_ruh_usage(in);
    FUZZ_CHECK(usage.has_value() == (size >= kFdpRuhUsageHeaderBytes));
    if (usage) {
      FUZZ_CHECK(usage->ruha.size() <= usage->nruh);
      FUZZ_CHECK(kFdpRuhUsageHeaderBytes + usage->ruha.size() * kFdpRuhUsageDescriptorBytes <= size);
      FUZZ_CHECK(usage->truncated == (usage->ruha.size() < usage->nruh));
      const auto read = fdp_ruh_usage_size(in, 1u << 20);
      FUZZ_CHECK(read && *read <= (1u << 20));
    }
    const auto stats = decode_fdp_statistics(in);
    FUZZ_CHECK(stats.has_value() == (size >= kFdpStatisticsBytes));
    if (stats) fuzz::keep(*stats);
  });
  return 0;
}
