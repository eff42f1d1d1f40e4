// A simulated drive behind the Device seam. Each request gets a latency from
// the profile's model (sim_latency.h) and is served by one of the profile's
// parallel units: at queue depth > 1 requests on different units overlap,
// requests on the same unit wait for each other. Time is virtual: now_ns()
// only moves when wait_one() delivers a completion, so a run is exactly
// repeatable for a given seed, whatever the host machine is doing (a
// profile's host delays model a loaded host, from the same seed).
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "core/random.h"
#include "device/device.h"
#include "device/sim_latency.h"
#include "device/sim_profile.h"

namespace ssdprobe {

class SimDevice : public Device {
 public:
  SimDevice(const SimProfile& profile, uint64_t seed, bool writable);

  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override;
  bool writable() const override { return writable_; }
  void attach_buffers(std::span<AlignedBuffer> buffers) override;
  void submit(const IoRequest& request) override;
  IoCompletion wait_one() override;
  uint64_t now_ns() override { return now_ns_; }
  void idle(uint64_t ns) override;

  const SimProfile& profile() const { return model_.profile(); }
  // Behave like the psync engine: one IO in flight at a time.
  void limit_to_one_in_flight() { limits_.max_queue_depth = 1; }
  uint64_t ios_served() const { return ios_served_; }

 private:
  struct Pending {
    uint64_t done_ns;
    uint64_t sequence;  // FIFO among equal completion times
    IoCompletion completion;
    bool operator>(const Pending& other) const {
      return done_ns != other.done_ns ? done_ns > other.done_ns : sequence > other.sequence;
    }
  };

  // Gives a read its bytes: zeros where a never-written drive has no data
  // (unwritten_reads_skip_nand), elsewhere a mark of data in each sector.
  void fill_read(const IoRequest& request);

  SimLatencyModel model_;
  std::span<AlignedBuffer> buffers_;
  Random host_random_;  // host delays only: drawn from their own stream, so a profile without them is unchanged
  DeviceLimits limits_;
  bool writable_;
  std::vector<uint64_t> unit_free_ns_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
  uint64_t now_ns_ = 0;
  uint64_t sequence_ = 0;
  uint64_t ios_served_ = 0;
};

}  // namespace ssdprobe
