// `smartctl -j -a` output from untrusted text: parse_smartctl_json (which
// must never throw), the exit status bits and the write counters.
#include "firmware/smartctl_json.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::expect_rejection([&] {
    const SmartctlReport report = parse_smartctl_json(fuzz::text(data, size));
    if (report.has_data) FUZZ_CHECK(report.parsed);
    fuzz::keep(smartctl_exit_status_bits(report.exit_status));
    fuzz::keep(counters_from_smartctl(report));
  });
  return 0;
}
