// Builds the NVMe Read/Write command the passthrough engine hands to the
// kernel in an io_uring URING_CMD (struct nvme_uring_cmd from
// <linux/nvme_ioctl.h>, cmd_op NVME_URING_CMD_IO). Pure, so it is tested
// without a drive.
//
//   opcode  02h Read / 01h Write (NVM command set)
//   nsid    the namespace
//   addr    the data buffer, data_len its length in bytes
//   cdw10   SLBA bits 31:0, cdw11 SLBA bits 63:32
//   cdw12   bits 15:0 NLB, the number of logical blocks, 0's based
// SLBA = (base_offset + request.offset) / lba_bytes, NLB = length / lba_bytes - 1.
#pragma once

#include <linux/nvme_ioctl.h>

#include <cstdint>

#include "device/device.h"

namespace ssdprobe {

inline constexpr uint8_t kNvmeCmdWrite = 0x01;
inline constexpr uint8_t kNvmeCmdRead = 0x02;
inline constexpr uint32_t kNvmeMaxBlocksPerCommand = 65536;  // NLB is 16 bits, 0's based

struct NvmeIoTarget {
  uint32_t nsid = 1;
  uint32_t lba_bytes = 512;
  uint64_t base_offset = 0;  // bytes added to every request offset (a partition's start)
};

// Throws Error(internal) when the request breaks the Device contract for
// this namespace: length 0, offset or length not a multiple of the LBA size,
// or more than 65536 blocks.
nvme_uring_cmd build_nvme_io_command(const IoRequest& request, const void* buffer, const NvmeIoTarget& target);

}  // namespace ssdprobe
