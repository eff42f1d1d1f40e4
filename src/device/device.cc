#include "device/device.h"

#include <cstring>

namespace ssdprobe {

std::string Device::describe_failure(int64_t result) const { return std::strerror(static_cast<int>(-result)); }

}  // namespace ssdprobe
