// Recognising NVMe targets on a fake sysfs tree: namespace, partition,
// generic char device, controller, native multipath, and non-NVMe names.
#include "device/nvme_paths.h"

#include <catch2/catch.hpp>

#include "firmware_test_util.h"

using namespace ssdprobe;
using firmware_test::TempTree;

namespace {

const std::filesystem::path kPci = "devices/pci0000:00/0000:00:04.0/nvme/nvme0";

// nvme0 with namespace nvme0n1 (nsid 1, partition p1) and nvme0n2 (nsid 5),
// generic devices ng0n1 and ng0n2, laid out the way sysfs links them.
void build_single_controller(const TempTree& sys) {
  sys.write(kPci / "model", "Example");
  sys.write(kPci / "nvme0n1" / "nsid", "1");
  sys.dir(kPci / "nvme0n1" / "nvme0n1p1");
  sys.write(kPci / "nvme0n1" / "nvme0n1p1" / "partition", "1");
  sys.write(kPci / "nvme0n2" / "nsid", "5");
  sys.dir("devices/virtual/nvme-generic/ng0n1");
  sys.dir("devices/virtual/nvme-generic/ng0n2");
  sys.link("devices/virtual/nvme-generic/ng0n1/device", "../../../pci0000:00/0000:00:04.0/nvme/nvme0");
  sys.link("devices/virtual/nvme-generic/ng0n2/device", "../../../pci0000:00/0000:00:04.0/nvme/nvme0");
  sys.link(kPci / "nvme0n1" / "device", "..");
  sys.link(kPci / "nvme0n2" / "device", "..");
  sys.link("block/nvme0n1", "../" + (kPci / "nvme0n1").string());
  sys.link("block/nvme0n2", "../" + (kPci / "nvme0n2").string());
  sys.link("class/nvme/nvme0", "../../" + kPci.string());
  sys.link("class/nvme-generic/ng0n1", "../../devices/virtual/nvme-generic/ng0n1");
  sys.link("class/nvme-generic/ng0n2", "../../devices/virtual/nvme-generic/ng0n2");
}

}  // namespace

TEST_CASE("A namespace block device maps to its controller, generic device and nsid") {
  TempTree sys;
  build_single_controller(sys);
  const auto t = resolve_nvme_target("/dev/nvme0n2", sys.root().string());
  REQUIRE(t);
  CHECK(t->controller == "nvme0");
  CHECK(t->namespace_disk == "nvme0n2");
  CHECK(t->generic == "ng0n2");
  CHECK(t->partition.empty());
  CHECK(t->nsid == 5u);
  CHECK(t->controller_path() == "/dev/nvme0");
  CHECK(t->generic_path() == "/dev/ng0n2");
}

TEST_CASE("A partition maps to its namespace") {
  TempTree sys;
  build_single_controller(sys);
  const auto t = resolve_nvme_target("/dev/nvme0n1p1", sys.root().string());
  REQUIRE(t);
  CHECK(t->namespace_disk == "nvme0n1");
  CHECK(t->partition == "nvme0n1p1");
  CHECK(t->generic == "ng0n1");
  CHECK(t->nsid == 1u);
}

TEST_CASE("A generic char device maps to its namespace and controller") {
  TempTree sys;
  build_single_controller(sys);
  const auto t = resolve_nvme_target("/dev/ng0n1", sys.root().string());
  REQUIRE(t);
  CHECK(t->controller == "nvme0");
  CHECK(t->namespace_disk == "nvme0n1");
  CHECK(t->generic == "ng0n1");
  CHECK(t->nsid == 1u);
}

TEST_CASE("A controller maps to its first namespace") {
  TempTree sys;
  build_single_controller(sys);
  const auto t = resolve_nvme_target("/dev/nvme0", sys.root().string());
  REQUIRE(t);
  CHECK(t->controller == "nvme0");
  CHECK(t->namespace_disk == "nvme0n1");
  CHECK(t->generic == "ng0n1");
  CHECK(t->nsid == 1u);
}

TEST_CASE("Native multipath: the head's device link leads to the subsystem's live controller") {
  TempTree sys;
  const std::filesystem::path subsys = "devices/virtual/nvme-subsystem/nvme-subsys0";
  sys.write(subsys / "nvme0n1" / "nsid", "1");
  sys.link(subsys / "nvme0n1" / "device", "..");
  sys.write("devices/pci0000:00/0000:00:05.0/nvme/nvme1/state", "live");
  sys.write("devices/pci0000:00/0000:00:04.0/nvme/nvme0/state", "resetting");
  sys.link(subsys / "nvme0", "../../../pci0000:00/0000:00:04.0/nvme/nvme0");
  sys.link(subsys / "nvme1", "../../../pci0000:00/0000:00:05.0/nvme/nvme1");
  sys.link("block/nvme0n1", "../" + (subsys / "nvme0n1").string());
  sys.link("class/nvme-subsystem/nvme-subsys0", "../../" + subsys.string());
  sys.dir("class/nvme/nvme1");
  const auto t = resolve_nvme_target("/dev/nvme0n1", sys.root().string());
  REQUIRE(t);
  CHECK(t->controller == "nvme1");
  CHECK(t->generic.empty());  // no nvme-generic entry in this tree
  CHECK(t->nsid == 1u);
  const auto from_controller = resolve_nvme_target("/dev/nvme1", sys.root().string());
  REQUIRE(from_controller);
  CHECK(from_controller->namespace_disk == "nvme0n1");
}

TEST_CASE("Unknown to sysfs: names stay empty instead of guessed") {
  TempTree sys;
  const auto t = resolve_nvme_target("/dev/nvme3n1", sys.root().string());
  REQUIRE(t);
  CHECK(t->namespace_disk.empty());
  CHECK(t->controller.empty());
  CHECK(t->generic.empty());
  CHECK_FALSE(t->nsid);
  const auto c = resolve_nvme_target("/dev/nvme3", sys.root().string());
  REQUIRE(c);
  CHECK(c->controller == "nvme3");
  CHECK(c->namespace_disk.empty());
}

TEST_CASE("Non-NVMe names are not NVMe targets") {
  TempTree sys;
  for (const char* path : {"/dev/sda", "/dev/vda1", "/dev/loop0", "/dev/nvme0n", "/dev/nvme-fabrics", "/tmp/file"})
    CHECK_FALSE(resolve_nvme_target(path, sys.root().string()));
}

TEST_CASE("Symlinks are followed to the kernel name") {
  TempTree sys;
  build_single_controller(sys);
  TempTree dev;
  dev.write("nvme0n1p1", "");
  std::filesystem::create_directories(dev.root() / "disk" / "by-id");
  std::filesystem::create_symlink("../../nvme0n1p1", dev.root() / "disk" / "by-id" / "nvme-Example_SN-part1");
  CHECK(device_name_of((dev.root() / "disk" / "by-id" / "nvme-Example_SN-part1").string()) == "nvme0n1p1");
  const auto t = resolve_nvme_target((dev.root() / "disk" / "by-id" / "nvme-Example_SN-part1").string(),
                                     sys.root().string());
  REQUIRE(t);
  CHECK(t->partition == "nvme0n1p1");
}
