// The FDP Events log (23h) from untrusted bytes: NUMFDPE may exceed both the
// 63 events a page holds and the events the buffer holds.
#include "firmware/nvme_fdp.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto log = decode_fdp_events(in);
    FUZZ_CHECK(log.has_value() == (size >= kFdpEventsHeaderBytes));
    if (!log) return;
    FUZZ_CHECK(log->events.size() <= kFdpEventsMax && log->events.size() <= log->numfdpe);
    FUZZ_CHECK(kFdpEventsHeaderBytes + log->events.size() * kFdpEventBytes <= size);
    for (const auto& e : log->events) {
      FUZZ_CHECK(e.timestamp_ms < (uint64_t{1} << 48));
      fuzz::keep(fdp_event_type_name(e.type));
    }
  });
  return 0;
}
