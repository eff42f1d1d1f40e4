// The Device seam: everything ssdprobe can time IO against.
//
// Implementations: PsyncDevice and UringDevice (a real block device, partition
// or regular file opened with O_DIRECT), SimDevice (a simulated drive with a
// known geometry and a virtual clock). The probe runner (src/probe/runner.h)
// is the only caller that takes timestamps: it reads now_ns() just before
// submit() and just after wait_one() returns. Backends only move bytes; the
// simulated one also owns the clock so that its timings are deterministic.
//
// Contract for every implementation:
//  - offsets and lengths are multiples of limits().logical_block and lie
//    inside [0, limits().size_bytes); the caller checks this (the planner
//    does), implementations may assume it.
//  - at most limits().max_queue_depth requests are in flight at once.
//  - buffers are attached once, before the first submit(); a request names
//    its buffer by index and the buffer is at least `length` bytes.
//  - a read-only device (writable() == false) never issues a write: submit()
//    of a write throws Error(refused) without touching the medium.
//  - errors: submit(), submit_queued() and wait_one() throw ssdprobe::Error;
//    a failed IO is reported in IoCompletion::result as -errno, not thrown.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/aligned_buffer.h"
#include "device/io_counts.h"

namespace ssdprobe {

enum class IoOp { read, write };

struct IoRequest {
  IoOp op = IoOp::read;
  uint64_t offset = 0;
  uint32_t length = 0;
  uint32_t buffer_index = 0;
  uint64_t tag = 0;  // returned unchanged in the completion
};

struct IoCompletion {
  uint64_t tag = 0;
  int64_t result = 0;  // bytes transferred, or -errno
};

struct DeviceLimits {
  uint64_t size_bytes = 0;
  uint32_t logical_block = 512;     // every offset and length is a multiple
  uint32_t max_transfer = 1u << 20; // largest single request, bytes
  uint32_t max_queue_depth = 1;
};

class Device {
 public:
  virtual ~Device() = default;

  virtual const DeviceLimits& limits() const = 0;
  // The IO path in one line, for the report: "io_uring, O_DIRECT, fixed buffers".
  virtual std::string engine_description() const = 0;
  virtual bool writable() const = 0;

  virtual void attach_buffers(std::span<AlignedBuffer> buffers) = 0;
  // Starts one request, at the latest when submit_queued() or wait_one() is
  // next called (the io_uring engines queue, and submit everything queued
  // in one system call); it may complete before submit() returns (psync).
  virtual void submit(const IoRequest& request) = 0;
  // Hands every queued request to the kernel now, without waiting, and
  // moves completions that finished meanwhile to where poll_one() finds
  // them. The runner calls it while it reaps a long batch (runner.h), so
  // the device is not left short of requests until the batch is done.
  // Engines that start each request in submit() keep the default.
  virtual void submit_queued() {}
  // Blocks until one submitted request completes and returns it.
  virtual IoCompletion wait_one() = 0;
  // A completion that is already available, without blocking or a system
  // call, or nothing. After each wait_one() the runner reaps every ready
  // completion this way, queueing each one's replacement as it goes.
  // Engines that cannot tell without blocking (psync, simulated drives,
  // whose clocks advance per wait) keep the default: nothing.
  virtual std::optional<IoCompletion> poll_one() { return std::nullopt; }

  // After a failure the runner cannot act on (an engine system call failed,
  // or anything else threw while requests were out): waits for every request
  // the kernel accepted and drops its completion, then refuses further IO.
  // No request may still be moving bytes when the caller frees the buffers
  // or restores written content, and a later probe must never be handed a
  // stale completion. Best effort: it never throws. Engines that complete
  // every request inside wait_one (psync, simulated drives) have nothing out.
  virtual void abandon_in_flight() {}
  // After abandon_in_flight: requests the kernel still held when it gave up
  // waiting (30 s). Written content must not be restored in this process
  // while any is out: a late probe write would land on top of it.
  virtual unsigned abandoned_requests() const { return 0; }

  // How long wait_one may poll for a completion before it sleeps, in
  // microseconds (0: always sleep). Engines that cannot poll ignore it.
  virtual void set_completion_spin(uint32_t max_us) { (void)max_us; }
  // How the engine's waits for completions ended so far (io_uring engines);
  // none for engines that do not poll (psync, simulated drives).
  virtual std::optional<WaitCounts> wait_counts() const { return std::nullopt; }
  // An io_uring engine (block or NVMe passthrough): its ceiling on this host
  // can be measured with NOPs (runner/engine_ceiling.h).
  virtual bool uses_io_uring() const { return false; }
  // The same target through an engine of its own (its own ring, its own
  // descriptor for the same open file), read-only, for a submitter on
  // another core (probes/more_rings_probe.h). None where the engine cannot
  // (psync, NVMe passthrough, simulated drives).
  virtual std::unique_ptr<Device> another_ring() { return nullptr; }
  // Whether another_ring() can give one here, without making it.
  virtual bool opens_other_rings() const { return false; }

  // Nothing to do for `ns` nanoseconds, with nothing in flight: the SLC cache
  // probe lets a drive empty its cache. Real engines sleep, in slices, and
  // return early when a signal asked the run to stop (the caller's next IO
  // raises it); a simulated drive moves its virtual clock.
  virtual void idle(uint64_t ns);
  // The time source the runner stamps with, in nanoseconds. Real devices use
  // CLOCK_MONOTONIC_RAW; simulated ones return their virtual clock.
  virtual uint64_t now_ns() = 0;

  // Words for a failed completion's result (-errno), for the error the
  // runner raises. An engine overrides it where the kernel's errno means
  // something else on its path (NVMe passthrough: -EINTR is a command the
  // kernel cancelled after a timeout, not a signal).
  virtual std::string describe_failure(int64_t result) const;
};

}  // namespace ssdprobe
