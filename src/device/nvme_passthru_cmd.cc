#include "device/nvme_passthru_cmd.h"

#include <fmt/format.h>

#include "core/error.h"

namespace ssdprobe {

nvme_uring_cmd build_nvme_io_command(const IoRequest& request, const void* buffer, const NvmeIoTarget& target) {
  const uint64_t lba = target.lba_bytes;
  const uint64_t offset = target.base_offset + request.offset;
  if (lba == 0 || request.length == 0 || offset % lba != 0 || request.length % lba != 0 ||
      request.length / lba > kNvmeMaxBlocksPerCommand) {
    throw Error(ErrorCategory::internal,
                fmt::format("NVMe IO of {} B at {} does not fit {} B logical blocks", request.length, offset, lba));
  }
  const uint64_t slba = offset / lba;
  const uint32_t nlb = static_cast<uint32_t>(request.length / lba - 1);
  nvme_uring_cmd cmd{};
  cmd.opcode = request.op == IoOp::read ? kNvmeCmdRead : kNvmeCmdWrite;
  cmd.nsid = target.nsid;
  cmd.addr = reinterpret_cast<uintptr_t>(buffer);
  cmd.data_len = request.length;
  cmd.cdw10 = static_cast<uint32_t>(slba & 0xffffffffu);
  cmd.cdw11 = static_cast<uint32_t>(slba >> 32);
  cmd.cdw12 = nlb & 0xffffu;
  return cmd;
}

}  // namespace ssdprobe
