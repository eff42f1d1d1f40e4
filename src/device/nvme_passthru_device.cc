#include "device/nvme_passthru_device.h"

#include <fcntl.h>
#include <liburing.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>

#include "core/error.h"
#include "device/nvme_paths.h"
#include "device/psync_device.h"
#include "device/sysfs_text.h"
#include "device/uring_wait.h"

namespace ssdprobe {

namespace {

constexpr const char* kCapability = "NVMe passthrough needs CAP_SYS_ADMIN on this kernel (run as root)";
constexpr uint32_t kMaxTransferCap = 1u << 20;  // the same 1 MiB cap as the block engines

Error passthru_error(const std::string& path, int err) {
  if (err == EPERM || err == EACCES)
    return Error(ErrorCategory::permission, fmt::format("{}: {} ({})", path, kCapability, std::strerror(err)));
  if (err == EINVAL || err == EOPNOTSUPP || err == ENOTTY)
    return Error(ErrorCategory::unsupported,
                 fmt::format("{}: the kernel refuses io_uring NVMe passthrough ({}; needs Linux 5.19+)", path,
                             std::strerror(err)));
  return os_error("NVMe passthrough read on " + path, err);
}

uint64_t read_sectors(const std::filesystem::path& file) {
  std::ifstream in(file);
  uint64_t value = 0;
  in >> value;
  return in ? value : 0;
}

}  // namespace

struct NvmePassthruDevice::Ring {
  io_uring ring{};
};

NvmePassthruDevice::NvmePassthruDevice(UniqueFd fd, std::string path, NvmeIoTarget target, DeviceLimits limits,
                                       bool writable, uint32_t ring_entries)
    : fd_(std::move(fd)), path_(std::move(path)), target_(target), limits_(limits), writable_(writable),
      ring_(std::make_unique<Ring>()) {
  const int rc = io_uring_queue_init(ring_entries, &ring_->ring, IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
  if (rc < 0) {
    ring_.reset();
    throw Error(ErrorCategory::unsupported,
                fmt::format("io_uring with 128-byte SQEs is not available ({}; needs Linux 5.19+)", std::strerror(-rc)));
  }
  limits_.logical_block = target_.lba_bytes;
  limits_.max_queue_depth = ring_entries;
  slots_.resize(ring_entries);
  for (uint32_t i = ring_entries; i-- > 0;) free_slots_.push_back(i);
}

NvmePassthruDevice::~NvmePassthruDevice() {
  if (ring_) io_uring_queue_exit(&ring_->ring);
}

std::string NvmePassthruDevice::engine_description() const {
  return fmt::format("NVMe passthrough (io_uring URING_CMD on {}, nsid {}, {} B LBA), block layer bypassed, {}",
                     path_, target_.nsid, target_.lba_bytes, spin_description(requests_.spin()));
}

void NvmePassthruDevice::attach_buffers(std::span<AlignedBuffer> buffers) { buffers_ = buffers; }

void NvmePassthruDevice::submit(const IoRequest& request) {
  if (request.op == IoOp::write && !writable_)
    throw Error(ErrorCategory::refused, "write submitted to a device opened read-only");
  submit_command(request, buffers_[request.buffer_index].data());
}

void NvmePassthruDevice::submit_command(const IoRequest& request, void* buffer) {
  requests_.check_usable("NVMe passthrough");
  if (free_slots_.empty()) throw Error(ErrorCategory::internal, "more requests in flight than the ring holds");
  const nvme_uring_cmd cmd = build_nvme_io_command(request, buffer, target_);
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_->ring);
  if (sqe == nullptr) throw Error(ErrorCategory::internal, "io_uring submission queue full");
  const uint32_t slot = free_slots_.back();
  std::memset(sqe, 0, 2 * sizeof(io_uring_sqe));  // a 128-byte SQE
  sqe->opcode = IORING_OP_URING_CMD;
  sqe->fd = fd_.get();
  sqe->cmd_op = NVME_URING_CMD_IO;
  std::memcpy(sqe->cmd, &cmd, sizeof cmd);
  io_uring_sqe_set_data64(sqe, slot);
  free_slots_.pop_back();
  slots_[slot] = Slot{request.tag, request.length};
  // Queued only: wait_one() submits everything queued in one
  // io_uring_enter, as the block engine does (batches enter together).
  requests_.queued_one();
}

void NvmePassthruDevice::submit_queued() {
  requests_.submit_now(ring_->ring, "io_uring_submit_and_get_events (NVMe passthrough)");
}

IoCompletion NvmePassthruDevice::wait_one() {
  // Submit, then wait: two system calls, as the block engine does (see
  // UringDevice::wait_one for what one combined call cost on a loop device).
  return take(requests_.submit_then_wait(ring_->ring, "io_uring_submit (NVMe passthrough)",
                                         "io_uring_wait_cqe (NVMe passthrough)"));
}

std::optional<IoCompletion> NvmePassthruDevice::poll_one() {
  io_uring_cqe* cqe = ready_completion(ring_->ring);
  if (cqe == nullptr) return std::nullopt;
  return take(cqe);
}

IoCompletion NvmePassthruDevice::take(io_uring_cqe* cqe) {
  const auto slot = static_cast<uint32_t>(io_uring_cqe_get_data64(cqe));
  const int res = cqe->res;
  io_uring_cqe_seen(&ring_->ring, cqe);
  requests_.took_one();  // before anything that can throw: the count must stay exact
  const Slot done = slots_.at(slot);
  free_slots_.push_back(slot);
  // The status of this completion only: a later failure the kernel reports
  // (-EIO without a status) must not be described with an earlier status.
  last_nvme_status_ = res > 0 ? res : 0;
  const int64_t result = res == 0 ? int64_t{done.length} : res > 0 ? -EIO : res;
  return IoCompletion{done.tag, result};
}

void NvmePassthruDevice::abandon_in_flight() {
  requests_.abandon(ring_->ring);
}

uint64_t NvmePassthruDevice::now_ns() { return monotonic_raw_ns(); }

std::string NvmePassthruDevice::describe_failure(int64_t result) const {
  // The kernel completes a passthrough command with -EINTR when it cancelled
  // it: the command timed out and the controller was aborted or reset.
  // "Interrupted system call" would send the user looking for a signal.
  if (result == -EINTR)
    return "the kernel cancelled the NVMe command (it timed out, then the controller was reset; see dmesg)";
  if (result == -EIO && last_nvme_status_ != 0) return fmt::format("NVMe status 0x{:x}", last_nvme_status_);
  return Device::describe_failure(result);
}

void NvmePassthruDevice::verify() {
  AlignedBuffer probe(target_.lba_bytes);
  submit_command(IoRequest{IoOp::read, 0, target_.lba_bytes, 0, 0}, probe.data());
  IoCompletion done;
  try {
    done = wait_one();
  } catch (...) {
    abandon_in_flight();  // the read may still fill `probe`, which goes with this frame
    throw;
  }
  if (done.result < 0 && last_nvme_status_ == 0) throw passthru_error(path_, static_cast<int>(-done.result));
  if (done.result < 0) {
    throw Error(ErrorCategory::io, fmt::format("{}: NVMe Read of LBA {} failed: NVMe status 0x{:x}", path_,
                                               target_.base_offset / target_.lba_bytes, last_nvme_status_));
  }
}

namespace {

DeviceLimits limits_for(const NvmeNamespaceGeometry& geometry, uint64_t size_bytes) {
  const uint64_t lba = geometry.lba_bytes;
  DeviceLimits limits;
  limits.size_bytes = size_bytes;
  limits.logical_block = static_cast<uint32_t>(lba);
  uint64_t max_transfer = std::min<uint64_t>(kMaxTransferCap, kNvmeMaxBlocksPerCommand * lba);
  if (geometry.mdts_bytes) max_transfer = std::min(max_transfer, *geometry.mdts_bytes);
  limits.max_transfer = static_cast<uint32_t>(std::max(max_transfer, lba));
  return limits;
}

}  // namespace

std::unique_ptr<NvmePassthruDevice> open_nvme_passthru_device(const NvmeTarget& target,
                                                              const NvmeNamespaceGeometry& geometry, bool writable,
                                                              const std::string& sysfs_root) {
  const uint64_t lba = geometry.lba_bytes;
  NvmeIoTarget io{geometry.nsid, static_cast<uint32_t>(lba), 0};
  uint64_t size = geometry.namespace_lbas * lba;
  if (!target.partition.empty()) {
    const auto dir = std::filesystem::path(sysfs_root) / "class" / "block" / target.partition;
    io.base_offset = read_sectors(dir / "start") * kKernelSectorBytes;
    size = read_sectors(dir / "size") * kKernelSectorBytes;
  }
  UniqueFd fd(::open(target.generic_path().c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC));
  if (!fd.valid()) throw passthru_error(target.generic_path(), errno);
  return std::make_unique<NvmePassthruDevice>(std::move(fd), target.generic_path(), io, limits_for(geometry, size),
                                              writable);
}

}  // namespace ssdprobe
