#include "device/counting_device.h"

namespace ssdprobe {

CountingDevice::~CountingDevice() {
  if (counted_into_ == nullptr) return;
  IoCounts& into = counted_into_->counts_;
  into.reads += counts_.reads;
  into.read_bytes += counts_.read_bytes;
  into.writes += counts_.writes;
  into.write_bytes += counts_.write_bytes;
}

std::unique_ptr<Device> CountingDevice::another_ring() {
  std::unique_ptr<Device> engine = engine_->another_ring();
  if (!engine) return nullptr;
  return std::make_unique<CountingDevice>(std::move(engine), this);
}

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
