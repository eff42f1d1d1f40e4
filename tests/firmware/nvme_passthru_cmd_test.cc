// The NVMe Read/Write command the passthrough engine submits, built from an
// IoRequest: opcode, nsid, buffer, SLBA in CDW10/11, 0's based NLB in CDW12.
#include "device/nvme_passthru_cmd.h"

#include <catch2/catch.hpp>

#include "core/error.h"

using namespace ssdprobe;

TEST_CASE("A 16 KiB read at 1 MiB on 4 KiB LBAs") {
  char buffer[16] = {};
  const IoRequest request{IoOp::read, 1 << 20, 16384, 0, 42};
  const nvme_uring_cmd cmd = build_nvme_io_command(request, buffer, NvmeIoTarget{1, 4096, 0});
  CHECK(cmd.opcode == 0x02);
  CHECK(cmd.nsid == 1);
  CHECK(cmd.addr == reinterpret_cast<uintptr_t>(buffer));
  CHECK(cmd.data_len == 16384);
  CHECK(cmd.cdw10 == 256);  // SLBA
  CHECK(cmd.cdw11 == 0);
  CHECK(cmd.cdw12 == 3);    // 4 blocks, 0's based
  CHECK(cmd.cdw13 == 0);
  CHECK(cmd.metadata == 0);
  CHECK(cmd.metadata_len == 0);
  CHECK(cmd.flags == 0);
}

TEST_CASE("A write uses opcode 01h; a one-block IO has NLB 0") {
  char buffer[1] = {};
  const nvme_uring_cmd cmd =
      build_nvme_io_command(IoRequest{IoOp::write, 512, 512, 0, 0}, buffer, NvmeIoTarget{7, 512, 0});
  CHECK(cmd.opcode == 0x01);
  CHECK(cmd.nsid == 7);
  CHECK(cmd.cdw10 == 1);
  CHECK(cmd.cdw12 == 0);
}

TEST_CASE("SLBA above 32 bits is split across CDW10 and CDW11") {
  char buffer[1] = {};
  const uint64_t offset = (uint64_t{5} << 32) * 512 + 3 * 512;  // LBA 5·2^32 + 3
  const nvme_uring_cmd cmd =
      build_nvme_io_command(IoRequest{IoOp::read, offset, 4096, 0, 0}, buffer, NvmeIoTarget{1, 512, 0});
  CHECK(cmd.cdw10 == 3);
  CHECK(cmd.cdw11 == 5);
  CHECK(cmd.cdw12 == 7);
}

TEST_CASE("A partition's start is added to the offset") {
  char buffer[1] = {};
  const nvme_uring_cmd cmd = build_nvme_io_command(IoRequest{IoOp::read, 4096, 4096, 0, 0}, buffer,
                                                   NvmeIoTarget{1, 4096, 2048 * 512});
  CHECK(cmd.cdw10 == 256 + 1);
}

TEST_CASE("The largest command is 65536 blocks; requests off the LBA grid are refused") {
  char buffer[1] = {};
  const nvme_uring_cmd max =
      build_nvme_io_command(IoRequest{IoOp::read, 0, 65536u * 512, 0, 0}, buffer, NvmeIoTarget{1, 512, 0});
  CHECK(max.cdw12 == 0xffff);
  CHECK_THROWS_AS(build_nvme_io_command(IoRequest{IoOp::read, 0, 65537u * 512, 0, 0}, buffer, NvmeIoTarget{1, 512, 0}),
                  Error);
  CHECK_THROWS_AS(build_nvme_io_command(IoRequest{IoOp::read, 512, 4096, 0, 0}, buffer, NvmeIoTarget{1, 4096, 0}),
                  Error);
  CHECK_THROWS_AS(build_nvme_io_command(IoRequest{IoOp::read, 0, 512, 0, 0}, buffer, NvmeIoTarget{1, 4096, 0}), Error);
  CHECK_THROWS_AS(build_nvme_io_command(IoRequest{IoOp::read, 0, 0, 0, 0}, buffer, NvmeIoTarget{1, 4096, 0}), Error);
}

TEST_CASE("The command fits the 80 bytes of a 128-byte SQE's command area") {
  STATIC_REQUIRE(sizeof(nvme_uring_cmd) <= 80);
}
