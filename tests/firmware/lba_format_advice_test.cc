// Which LBA format ssdprobe advises reformatting an NVMe namespace to
// (analysis/lba_format_advice.h), from Identify buffers: QEMU 7.2's captured
// namespace (eight formats: 512 B and 4 KiB, each with 0/8/16/64 B of
// metadata, all rated best) with the 4 KiB or the 512 B format in use, and
// hand-built lists for relative performance and metadata.
#include <catch2/catch.hpp>

#include "core/shell_command.h"
#include "firmware/nvme_format_advice.h"
#include "firmware/nvme_identify.h"
#include "firmware_test_util.h"

using namespace ssdprobe;
using firmware_test::LbaFormatSpec;
using firmware_test::nvme_namespace;

namespace {

using firmware_test::kIdCtrlFnaOffset;
using firmware_test::kIdNsFlbasOffset;
using firmware_test::read_data_bytes;

// QEMU's namespace as captured, with format `flbas` in use instead.
NvmeIdNs qemu_namespace(uint8_t flbas) {
  auto bytes = read_data_bytes("qemu72_nvme_id_ns_4k.bin");
  bytes.at(kIdNsFlbasOffset) = flbas;
  auto ns = decode_nvme_id_ns(bytes);
  REQUIRE(ns);
  return *ns;
}

// QEMU's controller as captured (FNA 0), with FNA set to `fna`.
NvmeIdCtrl qemu_controller(uint8_t fna) {
  auto bytes = read_data_bytes("qemu72_nvme_id_ctrl.bin");
  bytes.at(kIdCtrlFnaOffset) = fna;
  auto ctrl = decode_nvme_id_ctrl(bytes);
  REQUIRE(ctrl);
  return *ctrl;
}

NvmeFirmwareData drive(const NvmeIdNs& ns, std::optional<NvmeIdCtrl> ctrl = std::nullopt) {
  NvmeFirmwareData data;
  data.ns = ns;
  data.ctrl = std::move(ctrl);
  data.nsid = 1;
  return data;
}

NvmeIdNs built(const std::vector<LbaFormatSpec>& formats, uint8_t flbas) {
  auto ns = decode_nvme_id_ns(nvme_namespace(formats, flbas, 0x14).bytes());
  REQUIRE(ns);
  return *ns;
}

std::optional<LbaFormatAdvice> advice_for(const NvmeFirmwareData& data, const std::string& path = "/dev/nvme0n1") {
  return nvme_lba_format_advice(data, TargetKind::block, path, "nvme0n1");
}

}  // namespace

TEST_CASE("QEMU's captured controller reports FNA 0: a format applies to one namespace") {
  const auto ctrl = decode_nvme_id_ctrl(read_data_bytes("qemu72_nvme_id_ctrl.bin"));
  REQUIRE(ctrl);
  CHECK(ctrl->fna == 0);
  CHECK_FALSE(ctrl->format_applies_to_all_namespaces());
  CHECK(qemu_controller(0x01).format_applies_to_all_namespaces());
  CHECK_FALSE(qemu_controller(0x06).format_applies_to_all_namespaces());  // bits 1, 2: secure erase, crypto erase
}

TEST_CASE("512 B in use while QEMU's namespace offers 4 KiB: reformat to format 4") {
  const auto advice = advice_for(drive(qemu_namespace(0), qemu_controller(0)));
  REQUIRE(advice);
  CHECK(advice->in_use.index == 0);
  CHECK(advice->in_use.data_bytes == 512);
  CHECK(advice->suggested.index == 4);
  CHECK(advice->suggested.data_bytes == 4096);
  CHECK(advice->suggested.metadata_bytes == 0);
  CHECK(advice->step.key == "nvme_format");
  CHECK(advice->step.command == "nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=4");
  CHECK(advice->step.destroys_data);
  CHECK(advice->why ==
        "LBA format 0 is in use (512 B blocks, no metadata, relative performance 0: best); the drive also lists "
        "format 4 (4 KiB blocks, no metadata, relative performance 0: best), which it rates as well, and whose larger "
        "blocks keep every IO smaller than 4 KiB, or not aligned to it, from reaching the drive");
  CHECK(advice->step.purpose.find("count sectors of 512 B") != std::string::npos);
  REQUIRE(advice->all_namespaces == false);
  CHECK(advice->step.warning ==
        "erases every byte of namespace 1 (/dev/nvme0n1): every partition, filesystem and file on it is lost; the "
        "drive's other namespaces keep theirs (FNA bit 0 clear: a format applies to one namespace)");
}

TEST_CASE("4 KiB in use (QEMU's captured namespace): nothing to advise") {
  CHECK_FALSE(advice_for(drive(qemu_namespace(4), qemu_controller(0))));
  const auto as_captured = decode_nvme_id_ns(read_data_bytes("qemu72_nvme_id_ns_4k.bin"));
  REQUIRE(as_captured);
  CHECK_FALSE(advice_for(drive(*as_captured)));
}

TEST_CASE("A better relative performance at the same size is advised") {
  // Format 0 (in use) is rated good, format 2 best; both 512 B without metadata.
  const auto advice = advice_for(drive(built({{9, 0, 2}, {9, 8, 0}, {9, 0, 0}}, 0)));
  REQUIRE(advice);
  CHECK(advice->suggested.index == 2);
  CHECK(advice->suggested.rp == 0);
  CHECK(advice->in_use.rp == 2);
  CHECK(advice->why.find("relative performance 2: good") != std::string::npos);
  CHECK(advice->why.find(", which it rates better") != std::string::npos);
  CHECK(advice->why.find("larger blocks") == std::string::npos);
  CHECK(advice->step.purpose.find("count sectors") == std::string::npos);  // the sector size stays
  CHECK(advice->step.command == "nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=2");
}

TEST_CASE("Among the formats rated best, the largest data size") {
  const auto advice = advice_for(drive(built({{9, 0, 1}, {12, 0, 0}, {9, 0, 0}}, 0)));
  REQUIRE(advice);
  CHECK(advice->suggested.index == 1);
}

TEST_CASE("A format with metadata is never advised") {
  // 4 KiB with 8 B of metadata is rated best; the plain 4 KiB format only better.
  const auto advice = advice_for(drive(built({{9, 0, 2}, {12, 8, 0}, {12, 0, 1}}, 0)));
  REQUIRE(advice);
  CHECK(advice->suggested.index == 2);
  CHECK(advice->suggested.metadata_bytes == 0);
  // Only formats with metadata are better: nothing.
  CHECK_FALSE(advice_for(drive(built({{9, 0, 1}, {12, 8, 0}, {12, 16, 0}}, 0))));
  // QEMU's 512 B format with 8 B of metadata in use: it was set up for its metadata.
  CHECK_FALSE(advice_for(drive(qemu_namespace(1))));
}

TEST_CASE("Nothing when the best format is in use, larger ones are rated worse or above 4 KiB") {
  CHECK_FALSE(advice_for(drive(built({{9, 0, 0}, {12, 0, 1}}, 0))));  // the drive says 4 KiB is slower
  CHECK_FALSE(advice_for(drive(built({{12, 0, 0}, {9, 0, 0}}, 0))));  // 4 KiB in use, 512 B rated as well
  CHECK_FALSE(advice_for(drive(built({{9, 0, 0}, {13, 0, 0}, {16, 0, 0}}, 0))));  // Linux 6.1 cannot use 8 KiB
  CHECK_FALSE(advice_for(drive(built({{9, 0, 0}, {12, 0, 0}}, 5))));  // FLBAS names no listed format
}

TEST_CASE("FNA bit 0: the warning says every namespace is erased; unknown without Identify Controller") {
  const auto all = advice_for(drive(qemu_namespace(0), qemu_controller(0x01)));
  REQUIRE(all);
  REQUIRE(all->all_namespaces == true);
  CHECK(all->step.warning ==
        "erases every byte of every namespace of the drive, not only of namespace 1 (/dev/nvme0n1): the controller "
        "reports that a format applies to all namespaces (FNA bit 0 set)");
  const auto unknown = advice_for(drive(qemu_namespace(0)));
  REQUIRE(unknown);
  CHECK_FALSE(unknown->all_namespaces.has_value());
  CHECK(unknown->step.warning.find("and maybe of every other namespace of the drive: Identify Controller was not "
                                   "read") != std::string::npos);
}

TEST_CASE("A hostile device path stays one word of the command") {
  const std::string hostile = "/dev/disk/by-id/x'; rm -rf ~; echo '$(reboot)";
  const auto advice = advice_for(drive(qemu_namespace(0), qemu_controller(0)), hostile);
  REQUIRE(advice);
  CHECK(advice->step.command == "nvme format " + shell_quote(hostile) + " --namespace-id=1 --lbaf=4");
  CHECK(advice->step.command ==
        "nvme format '/dev/disk/by-id/x'\\''; rm -rf ~; echo '\\''$(reboot)' --namespace-id=1 --lbaf=4");
}

TEST_CASE("A partition's advice names its whole namespace; no NSID, no --namespace-id") {
  auto data = drive(qemu_namespace(0), qemu_controller(0));
  const auto partition = nvme_lba_format_advice(data, TargetKind::partition, "/dev/nvme0n1p2", "nvme0n1");
  REQUIRE(partition);
  CHECK(partition->step.command == "nvme format /dev/nvme0n1 --namespace-id=1 --lbaf=4");
  data.nsid.reset();
  const auto no_nsid = advice_for(data);
  REQUIRE(no_nsid);
  CHECK(no_nsid->step.command == "nvme format /dev/nvme0n1 --lbaf=4");
  CHECK(no_nsid->step.warning.find("erases every byte of the namespace /dev/nvme0n1:") != std::string::npos);
  CHECK_FALSE(nvme_lba_format_advice(data, TargetKind::file, "/srv/x.img", "nvme0n1"));
  CHECK_FALSE(nvme_lba_format_advice(std::nullopt, TargetKind::block, "/dev/nvme0n1", "nvme0n1"));
  NvmeFirmwareData without_namespace;
  without_namespace.ctrl = qemu_controller(0);
  CHECK_FALSE(nvme_lba_format_advice(without_namespace, TargetKind::block, "/dev/nvme0", "nvme0"));
}
