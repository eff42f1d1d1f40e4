#include "device/counting_device.h"

namespace ssdprobe {

void CountingDevice::submit(const IoRequest& request) {
  engine_->submit(request);  // counted once the engine took it
  if (request.op == IoOp::read) {
    ++counts_.reads;
    counts_.read_bytes += request.length;
  } else {
    ++counts_.writes;
    counts_.write_bytes += request.length;
  }
}

}  // namespace ssdprobe
