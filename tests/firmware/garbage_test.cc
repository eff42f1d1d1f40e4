// Every decoder fed empty, truncated and random buffers of many lengths must
// neither crash nor read past the buffer. Each buffer is copied into an
// allocation of exactly its length, so AddressSanitizer or valgrind (run the
// suite under either) catch a read one byte past the end.
#include <catch2/catch.hpp>

#include <memory>
#include <random>

#include "firmware/ata_identify.h"
#include "firmware/nvme_capabilities.h"
#include "firmware/nvme_streams_findings.h"
#include "firmware/ata_scsi_expectations.h"
#include "firmware/nvme_expectations.h"
#include "firmware/nvme_fdp.h"
#include "firmware/nvme_identify.h"
#include "firmware/nvme_logs.h"
#include "firmware/nvme_reported.h"
#include "firmware/scsi_pages.h"
#include "firmware/smartctl_json.h"
#include "report/firmware_json.h"

using namespace ssdprobe;

namespace {

// Runs every decoder (and what is built on its result) over `bytes`.
void decode_everything(std::span<const uint8_t> bytes) {
  NvmeFirmwareData data;
  data.ctrl = decode_nvme_id_ctrl(bytes);
  data.ns = decode_nvme_id_ns(bytes);
  data.nvm = decode_nvme_nvm_id_ns(bytes);
  data.smart = decode_nvme_smart_log(bytes);
  data.ocp = decode_ocp_smart_log(bytes);
  data.zns_ns = decode_nvme_zns_id_ns(bytes);
  data.zns_ctrl = decode_nvme_zns_id_ctrl(bytes);
  NvmeFdp fdp;
  fdp.feature = decode_fdp_feature(bytes.size() >= 4 ? ByteReader(bytes).le32(0) : 0);
  fdp.configurations = decode_fdp_configurations(bytes);
  fdp.ruh_usage = decode_fdp_ruh_usage(bytes);
  fdp.statistics = decode_fdp_statistics(bytes);
  fdp.host_events = decode_fdp_events(bytes);
  data.fdp = fdp;
  data.directives = NvmeDirectives{.support = decode_directive_support(bytes), .streams = decode_streams_params(bytes)};
  (void)decode_nvme_endurance_group_list(bytes);
  (void)nvme_reported_json(data).dump();
  (void)undecoded_capabilities_note(nvme_capabilities(data));
  if (data.directives->streams) (void)compare_streams(*data.directives->streams, 4096, 16384, 1u << 24);
  if (data.ns) {
    (void)expected_nvme_sysfs(data.ctrl ? &*data.ctrl : nullptr, *data.ns);
    (void)nvme_firmware_findings(*data.ns, 16384);
  }
  if (const auto ata = decode_ata_identify(bytes)) {
    (void)ata_reported_json(*ata).dump();
    (void)expected_ata_sysfs(*ata);
  }
  const auto capacity = decode_read_capacity16(bytes);
  const auto limits = decode_block_limits_vpd(bytes);
  const auto serial = decode_unit_serial_vpd(bytes);
  const auto inquiry = decode_standard_inquiry(bytes);
  (void)scsi_reported_json(ScsiPages{inquiry, serial, capacity, limits}).dump();
  if (capacity) (void)expected_scsi_sysfs(*capacity, limits);
  if (const auto sense = decode_sense(bytes)) (void)describe_sense(*sense);
  (void)parse_smartctl_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

// Copies `source` into a heap block of exactly `length` bytes and decodes it.
void decode_exact(const std::vector<uint8_t>& source, size_t length) {
  auto block = std::make_unique<uint8_t[]>(length == 0 ? 1 : length);
  std::copy(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(length), block.get());
  decode_everything(std::span<const uint8_t>(block.get(), length));
}

std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t length) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> bytes(length);
  for (auto& b : bytes) b = static_cast<uint8_t>(byte(rng));
  return bytes;
}

}  // namespace

TEST_CASE("Decoders survive empty and truncated buffers of every length up to 600 bytes") {
  std::mt19937 rng(4);
  const auto source = random_bytes(rng, 4200);
  for (size_t length = 0; length <= 600; ++length) decode_exact(source, length);
  for (size_t length : {4095u, 4096u, 4097u}) decode_exact(source, length);
}

TEST_CASE("Decoders survive random buffers (many seeds, 4096 bytes and odd sizes)") {
  std::mt19937 rng(2026);
  for (int round = 0; round < 200; ++round) {
    const auto bytes = random_bytes(rng, 4096);
    decode_exact(bytes, bytes.size());
    decode_exact(bytes, 512);
    decode_exact(bytes, 32);
  }
}

TEST_CASE("Decoders survive all-0xFF and all-zero pages") {
  for (uint8_t fill : {uint8_t{0x00}, uint8_t{0xff}}) {
    const std::vector<uint8_t> bytes(4096, fill);
    for (size_t length : {0u, 1u, 2u, 8u, 14u, 16u, 32u, 36u, 64u, 512u, 4096u}) decode_exact(bytes, length);
  }
}

TEST_CASE("Sense and VPD headers that claim more data than the buffer holds") {
  // Descriptor sense claiming 255 additional bytes, with a descriptor chain.
  std::vector<uint8_t> sense = {0x72, 0x03, 0x11, 0x00, 0, 0, 0, 0xff, 0x09, 0x0c, 0x01};
  for (size_t length = 0; length <= sense.size(); ++length) decode_exact(sense, length);
  std::vector<uint8_t> vpd = {0x00, 0xB0, 0xff, 0xff, 0x01, 0x02, 0x03};
  for (size_t length = 0; length <= vpd.size(); ++length) decode_exact(vpd, length);
  std::vector<uint8_t> serial = {0x00, 0x80, 0x00, 0xfc, 'A', 'B'};
  for (size_t length = 0; length <= serial.size(); ++length) decode_exact(serial, length);
  CHECK(decode_unit_serial_vpd(serial) == std::string("AB"));
}
