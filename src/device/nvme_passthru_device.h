// The NVMe passthrough engine: a Device that sends NVMe Read (and, only when
// constructed writable, Write) commands straight to a namespace through
// io_uring IORING_OP_URING_CMD on its generic char device /dev/ngXnY. The
// block layer's splitting, merging and scheduling are bypassed: each request
// is exactly one NVMe command. The ring is set up with
// IORING_SETUP_SQE128 | IORING_SETUP_CQE32 (the 80-byte nvme_uring_cmd lives
// in the big SQE). Only this file and uring_device.cc include liburing.
//
// Contract (beyond device.h): offsets are relative to the target (a
// partition's start is added as base_offset_bytes), lengths are multiples of
// the namespace LBA size and at most limits().max_transfer. A completion's
// result is the length on success, -errno from the kernel, or -EIO when the
// drive returned an NVMe status (last_nvme_status() keeps it).
// now_ns() is CLOCK_MONOTONIC_RAW.
//
// Requirements: Linux 5.19+ (URING_CMD, big SQEs), a kernel with NVMe
// generic char devices, and CAP_SYS_ADMIN on Linux 6.1 (later kernels allow
// reads to anyone who can open /dev/ngXnY). Namespaces whose LBA format
// carries metadata are refused.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.h"
#include "device/completion_spin.h"
#include "device/device.h"
#include "device/nvme_passthru_cmd.h"
#include "device/nvme_paths.h"

struct io_uring_cqe;

namespace ssdprobe {

class NvmePassthruDevice : public Device {
 public:
  // `fd` is /dev/ngXnY opened O_RDONLY (O_RDWR when writable). Throws
  // Error(unsupported) when io_uring cannot set up 128-byte SQEs.
  NvmePassthruDevice(UniqueFd fd, std::string path, NvmeIoTarget target, DeviceLimits limits, bool writable,
                     uint32_t ring_entries = 64);
  ~NvmePassthruDevice() override;

  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override;
  bool writable() const override { return writable_; }
  void attach_buffers(std::span<AlignedBuffer> buffers) override;
  void submit(const IoRequest& request) override;
  void submit_queued() override;
  IoCompletion wait_one() override;
  std::optional<IoCompletion> poll_one() override;
  void abandon_in_flight() override;
  unsigned abandoned_requests() const override { return requests_.abandoned_requests(); }
  void set_completion_spin(uint32_t max_us) override { requests_.spin().set_limit_us(max_us); }
  std::optional<WaitCounts> wait_counts() const override { return requests_.spin().counts(); }
  bool uses_io_uring() const override { return true; }
  uint64_t now_ns() override;
  std::string describe_failure(int64_t result) const override;

  // Reads the target's first logical block once and throws Error(permission)
  // naming CAP_SYS_ADMIN or Error(unsupported) if the kernel refuses
  // passthrough, Error(io) if the drive fails it. Call before timing.
  void verify();
  int last_nvme_status() const { return last_nvme_status_; }

 private:
  struct Ring;
  struct Slot {
    uint64_t tag = 0;
    uint32_t length = 0;
  };
  void submit_command(const IoRequest& request, void* buffer);
  // Decodes one completion queue entry, marks it seen and frees its slot.
  IoCompletion take(io_uring_cqe* cqe);

  UniqueFd fd_;
  std::string path_;
  NvmeIoTarget target_;
  DeviceLimits limits_;
  bool writable_;
  std::unique_ptr<Ring> ring_;
  std::span<AlignedBuffer> buffers_;
  std::vector<Slot> slots_;             // indexed by the SQE's user_data
  std::vector<uint32_t> free_slots_;
  int last_nvme_status_ = 0;
  RingRequests requests_;               // queued, in the kernel, abandoned; how wait_one waits
};

// What the engine needs to know about a namespace. The firmware layer reads
// it from Identify (firmware/nvme_passthru_open.h), so this layer never
// decodes admin data.
struct NvmeNamespaceGeometry {
  uint32_t nsid = 0;
  uint64_t lba_bytes = 0;                // the LBA format in use (metadata-free)
  uint64_t namespace_lbas = 0;           // NSZE
  std::optional<uint64_t> mdts_bytes;    // largest transfer the controller takes
};

// Opens `target`'s generic char device and offsets a partition by its sysfs
// start; the caller checks with verify() that passthrough works. Throws
// Error(permission) naming CAP_SYS_ADMIN.
std::unique_ptr<NvmePassthruDevice> open_nvme_passthru_device(const NvmeTarget& target,
                                                              const NvmeNamespaceGeometry& geometry, bool writable,
                                                              const std::string& sysfs_root = "/sys");

}  // namespace ssdprobe
