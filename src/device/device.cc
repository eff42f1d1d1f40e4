#include "device/device.h"

#include <algorithm>
#include <cstring>
#include <ctime>

#include "core/interrupt.h"

namespace ssdprobe {

void Device::idle(uint64_t ns) {
  constexpr uint64_t kSliceNs = 100'000'000;  // a signal is noticed within 0.1 s
  while (ns > 0 && !interrupt_requested()) {
    const uint64_t slice = std::min(ns, kSliceNs);
    const timespec wait{static_cast<time_t>(slice / 1'000'000'000), static_cast<long>(slice % 1'000'000'000)};
    nanosleep(&wait, nullptr);  // a signal cuts it short: the loop asks again
    ns -= slice;
  }
}

std::string Device::describe_failure(int64_t result) const { return std::strerror(static_cast<int>(-result)); }

}  // namespace ssdprobe
