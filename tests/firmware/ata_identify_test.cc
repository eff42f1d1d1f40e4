// ATA IDENTIFY DEVICE decoding from hand-built sectors, reported.ata, and
// what libata should put in sysfs.
#include "firmware/ata_identify.h"

#include <catch2/catch.hpp>

#include "firmware/ata_scsi_expectations.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::AtaSector;

namespace {

AtaSector ssd_sector(uint16_t word106) {
  AtaSector s;
  s.text(10, 10, "QM00001").text(23, 4, "2.5+").text(27, 20, "QEMU HARDDISK");
  s.word(83, 0x4400).word(100, 0x0000).word(101, 0x0020);  // LBA48, 0x200000 sectors
  s.word(60, 0xffff).word(61, 0x0fff);
  s.word(106, word106).word(169, 0x0001).word(69, 0x4020).word(217, 1);
  return s;
}

std::optional<int64_t> expected(const SysfsExpectation& e, const std::string& field) {
  for (const auto& f : e.fields)
    if (f.name == field) return f.value;
  return std::nullopt;
}

}  // namespace

TEST_CASE("Byte-swapped strings: serial words 10-19, firmware 23-26, model 27-46") {
  AtaSector s;
  s.text(10, 10, "S3YZNB0KB00864E").text(23, 4, "RVT02B6Q").text(27, 20, "Samsung SSD 860 EVO 500GB").seal();
  const auto id = decode_ata_identify(s.bytes());
  REQUIRE(id);
  CHECK(id->serial == "S3YZNB0KB00864E");
  CHECK(id->firmware == "RVT02B6Q");
  CHECK(id->model == "Samsung SSD 860 EVO 500GB");
  // The raw bytes really are swapped: "Sa" is stored as 'a', 'S'.
  CHECK(s.bytes()[54] == 'a');
  CHECK(s.bytes()[55] == 'S');
}

TEST_CASE("512e: word 106 = 0x6003 gives 8 logical sectors per 4 KiB physical") {
  const auto id = decode_ata_identify(ssd_sector(0x6003).seal().bytes());
  REQUIRE(id);
  CHECK(id->logical_sector_bytes == 512);
  CHECK(id->logical_per_physical_log2 == 3);
  CHECK(id->physical_sector_bytes == 4096);
  CHECK(id->trim_supported);
  CHECK(id->trim_deterministic);
  CHECK(id->trim_zeroes);
  CHECK(id->rotation_rate == 1);
  CHECK(id->capacity_sectors == 0x200000);
  CHECK(id->checksum_present);
  CHECK(id->checksum_valid);
}

TEST_CASE("16 KiB physical: word 106 = 0x6005") {
  const auto id = decode_ata_identify(ssd_sector(0x6005).seal().bytes());
  CHECK(id->physical_sector_bytes == 16384);
}

TEST_CASE("4Kn: word 106 bit 12 with words 117-118 giving the logical size in words") {
  AtaSector s = ssd_sector(0x5000);
  s.word(117, 2048).word(118, 0).seal();
  const auto id = decode_ata_identify(s.bytes());
  CHECK(id->logical_sector_bytes == 4096);
  CHECK(id->physical_sector_bytes == 4096);
  AtaSector both = ssd_sector(0x7001);  // bit 12 and bit 13: 4 KiB logical, 2 per physical
  both.word(117, 2048).seal();
  CHECK(decode_ata_identify(both.bytes())->physical_sector_bytes == 8192);
}

TEST_CASE("Word 106 is ignored unless bits 15:14 are 01b") {
  CHECK(decode_ata_identify(ssd_sector(0xe003).seal().bytes())->physical_sector_bytes == 512);
  CHECK(decode_ata_identify(ssd_sector(0x0003).seal().bytes())->physical_sector_bytes == 512);
  CHECK(decode_ata_identify(ssd_sector(0x4003).seal().bytes())->physical_sector_bytes == 512);  // bit 13 clear
}

TEST_CASE("Word 209: LBA 0 offset within the physical sector") {
  AtaSector s = ssd_sector(0x6003);
  s.word(209, 0x4001).seal();
  const auto id = decode_ata_identify(s.bytes());
  CHECK(id->alignment_offset_bytes == 512u);
  CHECK(id->lowest_aligned_lba == 7);
  AtaSector invalid = ssd_sector(0x6003);
  invalid.word(209, 0x0001).seal();
  CHECK_FALSE(decode_ata_identify(invalid.bytes())->alignment_offset_bytes);
  CHECK(decode_ata_identify(invalid.bytes())->lowest_aligned_lba == 0);
}

TEST_CASE("A bad checksum is reported, a missing signature is not a bad checksum") {
  AtaSector s = ssd_sector(0x6003);
  s.seal();
  s.bytes()[100] ^= 0x01;
  const auto bad = decode_ata_identify(s.bytes());
  CHECK(bad->checksum_present);
  CHECK_FALSE(bad->checksum_valid);
  CHECK(ata_reported_json(*bad)["checksum_valid"] == false);
  AtaSector unsigned_sector = ssd_sector(0x6003);
  const auto none = decode_ata_identify(unsigned_sector.bytes());
  CHECK_FALSE(none->checksum_present);
  CHECK(ata_reported_json(*none)["checksum_valid"].is_null());
}

TEST_CASE("reported.ata carries the spec fields and the raw words") {
  AtaSector s = ssd_sector(0x6003);
  s.word(209, 0x4000).seal();
  const auto j = ata_reported_json(*decode_ata_identify(s.bytes()));
  CHECK(j["model"] == "QEMU HARDDISK");
  CHECK(j["serial"] == "QM00001");
  CHECK(j["firmware"] == "2.5+");
  CHECK(j["logical_sector_bytes"] == 512);
  CHECK(j["physical_sector_bytes"] == 4096);
  CHECK(j["alignment_offset_bytes"] == 0);
  CHECK(j["trim_supported"] == true);
  CHECK(j["rotation_rate"] == 1);
  CHECK(j["word106"] == 0x6003);
  CHECK(j["word209"] == 0x4000);
  CHECK(j["word217"] == 1);
  CHECK(j["checksum_valid"] == true);
}

TEST_CASE("A short sector is not IDENTIFY data") {
  CHECK_FALSE(decode_ata_identify(std::vector<uint8_t>(511)));
}

TEST_CASE("libata expectations: 512e SSD with TRIM") {
  const auto e = expected_ata_sysfs(*decode_ata_identify(ssd_sector(0x6003).seal().bytes()));
  CHECK(e.kernel_model.empty());
  CHECK(expected(e, "logical_block_size") == 512);
  CHECK(expected(e, "physical_block_size") == 4096);
  CHECK(expected(e, "minimum_io_size") == 4096);
  CHECK(expected(e, "alignment_offset") == 0);
  CHECK(expected(e, "discard_granularity") == 4096);
  CHECK(expected(e, "rotational") == 0);
  Topology t;
  t.kernel_version = "6.1.0";
  t.logical_block_size = 512;
  t.physical_block_size = 512;  // a kernel or bridge that lost word 106
  t.minimum_io_size = 512;
  t.rotational = false;
  const auto mismatches = compare_with_sysfs(e, t);
  REQUIRE(mismatches.size() == 2);
  CHECK(mismatches[0].field == "physical_block_size");
  CHECK(mismatches[0].severity == Severity::warning);
  CHECK(mismatches[1].field == "minimum_io_size");
}

TEST_CASE("libata expectations: word 209 alignment and a spinning disk") {
  AtaSector s = ssd_sector(0x6003);
  s.word(209, 0x4001).word(217, 7200).word(169, 0).seal();
  const auto e = expected_ata_sysfs(*decode_ata_identify(s.bytes()));
  CHECK(expected(e, "alignment_offset") == 3584);  // lowest aligned LBA 7 × 512
  CHECK(expected(e, "rotational") == 1);
  CHECK_FALSE(expected(e, "discard_granularity"));
}
