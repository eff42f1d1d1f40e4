// The passthrough engine's refusals, which need no NVMe drive: non-NVMe
// paths, a namespace without a generic device, metadata LBA formats, and a
// descriptor that takes no NVMe commands (the ring and verify() path run
// for real against /dev/zero; not /dev/null, which accepts every URING_CMD
// as a no-op since Linux 6.1).
#include "firmware/nvme_passthru_open.h"

#include <fcntl.h>

#include <catch2/catch.hpp>

#include "core/error.h"
#include "firmware_test_util.h"

using namespace ssdprobe;
using firmware_test::nvme_controller;
using firmware_test::nvme_namespace;
using firmware_test::TempTree;

namespace {

class IdentifyOnlyAdmin : public NvmeAdmin {
 public:
  explicit IdentifyOnlyAdmin(std::vector<uint8_t> ns) : ns_(std::move(ns)) {}
  std::vector<uint8_t> identify_ctrl() override { return nvme_controller(5).bytes(); }
  std::vector<uint8_t> identify_ns(uint32_t) override { return ns_; }
  std::vector<uint8_t> identify_ns_nvm(uint32_t) override { throw Error(ErrorCategory::unsupported, "no"); }
  std::vector<uint8_t> smart_log() override { throw Error(ErrorCategory::unsupported, "no"); }
  std::vector<uint8_t> log_page(uint8_t, uint32_t) override { throw Error(ErrorCategory::unsupported, "no"); }
  std::optional<uint32_t> nsid() override { return 1; }

 private:
  std::vector<uint8_t> ns_;
};

ErrorCategory category_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.category();
  }
  FAIL("no ssdprobe::Error thrown");
  return ErrorCategory::internal;
}

}  // namespace

TEST_CASE("Passthrough refuses non-NVMe paths and namespaces without a generic device") {
  TempTree sys;
  CHECK(category_of([&] { open_nvme_passthru("/dev/sda", false, sys.root().string()); }) == ErrorCategory::unsupported);
  CHECK(category_of([&] { open_nvme_passthru("/dev/nvme0n1", false, sys.root().string()); }) ==
        ErrorCategory::unsupported);
}

TEST_CASE("Passthrough refuses an LBA format with metadata") {
  TempTree sys;
  sys.dir("class/nvme-generic/ng0n1");
  const auto opener = [](const std::string&) -> std::unique_ptr<NvmeAdmin> {
    return std::make_unique<IdentifyOnlyAdmin>(nvme_namespace({{12, 8, 0}}, 0, 0).bytes());
  };
  try {
    open_nvme_passthru("/dev/ng0n1", false, sys.root().string(), opener);
    FAIL("expected a refusal");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::unsupported);
    CHECK(std::string(e.what()).find("metadata") != std::string::npos);
  }
}

TEST_CASE("A descriptor that takes no NVMe commands fails verify() as unsupported") {
  UniqueFd fd(::open("/dev/zero", O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  DeviceLimits limits;
  limits.size_bytes = 1 << 20;
  const auto category = category_of([&] {
    NvmePassthruDevice device(std::move(fd), "/dev/zero", NvmeIoTarget{1, 512, 0}, limits, false);
    CHECK(device.limits().logical_block == 512);
    CHECK(device.engine_description().find("NVMe passthrough") != std::string::npos);
    device.verify();
  });
  CHECK(category == ErrorCategory::unsupported);
}

TEST_CASE("A read-only passthrough device refuses writes before touching the drive") {
  UniqueFd fd(::open("/dev/zero", O_RDONLY | O_CLOEXEC));
  DeviceLimits limits;
  limits.size_bytes = 1 << 20;
  std::unique_ptr<NvmePassthruDevice> device;
  try {
    device = std::make_unique<NvmePassthruDevice>(std::move(fd), "/dev/zero", NvmeIoTarget{1, 512, 0}, limits, false);
  } catch (const Error& e) {
    SUCCEED("io_uring unavailable here: " << e.what());
    return;
  }
  std::vector<AlignedBuffer> buffers;
  buffers.emplace_back(4096);
  device->attach_buffers(buffers);
  CHECK(category_of([&] { device->submit(IoRequest{IoOp::write, 0, 512, 0, 1}); }) == ErrorCategory::refused);
}
