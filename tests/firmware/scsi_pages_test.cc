// READ CAPACITY(16), VPD pages, INQUIRY and sense decoding; the SG_IO result
// checks; what sd should put in sysfs.
#include "firmware/scsi_pages.h"

#include <catch2/catch.hpp>

#include "firmware/ata_scsi_expectations.h"
#include "firmware/sgio_admin.h"
#include "firmware_test_util.h"
#include "report/firmware_json.h"

using namespace ssdprobe;
using firmware_test::Page;

namespace {

// 4 KiB physical on 512 B logical, lowest aligned LBA 0, thin provisioned.
Page read_capacity(uint64_t last_lba, uint32_t block, uint8_t exponent, uint16_t lowest_aligned) {
  Page p(32);
  p.be(0, last_lba, 8).be(8, block, 4).u8(12, 0x05).u8(13, static_cast<uint8_t>(0x20 | exponent));
  p.be(14, 0xc000u | lowest_aligned, 2);
  return p;
}

Page block_limits(uint16_t page_length) {
  Page p(4 + page_length);
  p.u8(1, 0xB0).be(2, page_length, 2);
  p.u8(4, 0x01).u8(5, 8);
  p.be(6, 8, 2);        // optimal transfer length granularity: 8 blocks
  p.be(8, 65535, 4);    // maximum transfer length
  if (page_length >= 0x3c) {
    p.be(12, 256, 4);   // optimal transfer length
    p.be(20, 4194304, 4).be(24, 64, 4).be(28, 8, 4).be(32, 0x80000000u | 2, 4).be(36, 1u << 20, 8);
  }
  return p;
}

std::optional<int64_t> expected(const SysfsExpectation& e, const std::string& field) {
  for (const auto& f : e.fields)
    if (f.name == field) return f.value;
  return std::nullopt;
}

}  // namespace

TEST_CASE("READ CAPACITY(16): capacity, protection, exponent, provisioning, alignment") {
  const auto c = decode_read_capacity16(read_capacity(976773167, 512, 3, 0).bytes());
  REQUIRE(c);
  CHECK(c->last_lba == 976773167);
  CHECK(c->block_length == 512);
  CHECK(c->capacity_bytes() == 500107862016u);
  CHECK(c->prot_en);
  CHECK(c->p_type == 2);
  CHECK(c->p_i_exponent == 2);
  CHECK(c->lbppbe == 3);
  CHECK(c->physical_block_bytes() == 4096u);
  CHECK(c->lbpme);
  CHECK(c->lbprz);
  CHECK(c->lowest_aligned_lba == 0);
  CHECK(decode_read_capacity16(read_capacity(7, 512, 3, 7).bytes())->lowest_aligned_lba == 7);
}

TEST_CASE("READ CAPACITY(16): fewer than 16 bytes is no answer") {
  auto bytes = read_capacity(1, 512, 0, 0).bytes();
  bytes.resize(15);
  CHECK_FALSE(decode_read_capacity16(bytes));
  bytes.resize(16);
  CHECK(decode_read_capacity16(bytes));
}

TEST_CASE("Block Limits VPD: full SBC-3 page") {
  const auto b = decode_block_limits_vpd(block_limits(0x3c).bytes());
  REQUIRE(b);
  CHECK(b->wsnz == true);
  CHECK(b->maximum_compare_and_write_length == 8);
  CHECK(b->optimal_transfer_length_granularity == 8);
  CHECK(b->maximum_transfer_length == 65535u);
  CHECK(b->optimal_transfer_length == 256u);
  CHECK(b->maximum_unmap_lba_count == 4194304u);
  CHECK(b->maximum_unmap_block_descriptor_count == 64u);
  CHECK(b->optimal_unmap_granularity == 8u);
  CHECK(b->ugavalid == true);
  CHECK(b->unmap_granularity_alignment == 2u);
  CHECK(b->maximum_write_same_length == (1u << 20));
}

TEST_CASE("Block Limits VPD: a short SBC-2 page leaves the later fields unset") {
  const auto b = decode_block_limits_vpd(block_limits(0x0c).bytes());
  REQUIRE(b);
  CHECK(b->optimal_transfer_length_granularity == 8);
  CHECK(b->optimal_transfer_length == 0u);  // bytes 12..15 are inside the 16-byte page
  CHECK_FALSE(b->maximum_unmap_lba_count);
  CHECK_FALSE(b->ugavalid);
}

TEST_CASE("Block Limits VPD: the page length never reads past the buffer") {
  Page p = block_limits(0x3c);
  p.be(2, 0xffff, 2);  // claims 64 KiB
  auto bytes = p.bytes();
  bytes.resize(16);
  const auto b = decode_block_limits_vpd(bytes);
  REQUIRE(b);
  CHECK(b->optimal_transfer_length == 256u);
  CHECK_FALSE(b->maximum_prefetch_length);
  CHECK_FALSE(decode_block_limits_vpd(Page(64).bytes()));  // page code 00h
}

TEST_CASE("Unit Serial Number VPD and standard INQUIRY") {
  Page serial(24);
  serial.u8(1, 0x80).be(2, 20, 2).ascii(4, "  WD-WX12345678   ", 20);
  CHECK(decode_unit_serial_vpd(serial.bytes()) == std::string("WD-WX12345678"));
  CHECK_FALSE(decode_unit_serial_vpd(block_limits(0x3c).bytes()));
  Page inquiry(36);
  inquiry.u8(0, 0x00).u8(1, 0x00).u8(2, 0x06).ascii(8, "ATA", 8).ascii(16, "QEMU HARDDISK", 16).ascii(32, "2.5+", 4);
  const auto q = decode_standard_inquiry(inquiry.bytes());
  REQUIRE(q);
  CHECK(q->vendor == "ATA");
  CHECK(q->product == "QEMU HARDDISK");
  CHECK(q->revision == "2.5+");
  CHECK(q->version == 6);
  CHECK_FALSE(decode_standard_inquiry(std::vector<uint8_t>(35)));
}

TEST_CASE("Fixed sense data: key, ASC/ASCQ, information") {
  Page p(18);
  p.u8(0, 0xf0).u8(2, 0x05).be(3, 0x1234, 4).u8(7, 10).u8(12, 0x24).u8(13, 0x00);
  const auto s = decode_sense(p.bytes());
  REQUIRE(s);
  CHECK_FALSE(s->descriptor_format);
  CHECK(s->sense_key == 5);
  CHECK(s->asc == 0x24);
  CHECK(s->ascq == 0x00);
  CHECK(s->information == 0x1234u);
  CHECK(describe_sense(*s) == "ILLEGAL REQUEST, ASC/ASCQ 24h/00h (invalid field in CDB)");
  auto short_sense = p.bytes();
  short_sense.resize(8);
  const auto cut = decode_sense(short_sense);
  REQUIRE(cut);
  CHECK(cut->sense_key == 5);
  CHECK_FALSE(cut->asc);
}

TEST_CASE("Descriptor sense data with an ATA Status Return descriptor") {
  Page p(22);
  p.u8(0, 0x72).u8(1, 0x01).u8(2, 0x00).u8(3, 0x1d).u8(7, 14);
  p.u8(8, 0x09).u8(9, 0x0c).u8(10, 0x01).u8(11, 0x00).u8(12, 0x00).u8(13, 0x01);
  p.u8(14, 0x00).u8(15, 0x78).u8(16, 0x00).u8(17, 0x56).u8(18, 0x00).u8(19, 0x34).u8(20, 0xe0).u8(21, 0x50);
  const auto s = decode_sense(p.bytes());
  REQUIRE(s);
  CHECK(s->descriptor_format);
  CHECK(s->sense_key == 1);
  CHECK(is_ata_passthrough_success(*s));
  REQUIRE(s->ata_return);
  CHECK(s->ata_return->extend);
  CHECK(s->ata_return->count == 1);
  CHECK(s->ata_return->lba == 0x345678u);
  CHECK(s->ata_return->device == 0xe0);
  CHECK(s->ata_return->status == 0x50);
  CHECK(describe_sense(*s).find("ATA pass through information available") != std::string::npos);
}

TEST_CASE("Descriptor sense: a descriptor running past the data is ignored") {
  Page p(14);
  p.u8(0, 0x72).u8(1, 0x04).u8(2, 0x44).u8(7, 40).u8(8, 0x09).u8(9, 0x0c);
  const auto s = decode_sense(p.bytes());
  REQUIRE(s);
  CHECK(s->sense_key == 4);
  CHECK_FALSE(s->ata_return);
  CHECK(sense_key_name(0x0b) == std::string("ABORTED COMMAND"));
  CHECK_FALSE(decode_sense(std::vector<uint8_t>{0x45, 0, 5}));
  CHECK_FALSE(decode_sense({}));
}

TEST_CASE("SG_IO checks: OK, RECOVERED ERROR 00/1D, ILLEGAL REQUEST, ATA ERR, host status") {
  CHECK(sgio_check(SgioOutcome{}).ok);
  const std::vector<uint8_t> recovered = {0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 0};
  CHECK(sgio_check(SgioOutcome{1, 0x02, 0, 0x08, recovered, true}).ok);
  const std::vector<uint8_t> illegal = {0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x20, 0x00};
  const auto refused = sgio_check(SgioOutcome{1, 0x02, 0, 0x08, illegal, false});
  CHECK_FALSE(refused.ok);
  CHECK(refused.unsupported);
  CHECK(refused.problem.find("invalid command operation code") != std::string::npos);
  const std::vector<uint8_t> aborted = {0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14, 0x09, 0x0c, 0, 0x04,
                                        0,    0,    0,    0,    0, 0, 0, 0,  0,    0x51};
  const auto ata = sgio_check(SgioOutcome{1, 0x02, 0, 0x08, aborted, true});
  CHECK_FALSE(ata.ok);
  CHECK(ata.problem.find("aborted") != std::string::npos);
  CHECK_FALSE(sgio_check(SgioOutcome{1, 0, 0x07, 0, {}, false}).ok);
  CHECK_FALSE(sgio_check(SgioOutcome{1, 0x02, 0, 0, {}, false}).ok);
}

TEST_CASE("reported.scsi: counts in blocks and bytes") {
  const auto c = decode_read_capacity16(read_capacity(976773167, 512, 3, 0).bytes());
  const auto b = decode_block_limits_vpd(block_limits(0x3c).bytes());
  const auto j = scsi_reported_json(ScsiPages{std::nullopt, std::string("SER"), c, b});
  CHECK(j["inquiry"].is_null());
  CHECK(j["unit_serial"] == "SER");
  CHECK(j["read_capacity16"]["logical_blocks_per_physical_block_exponent"] == 3);
  CHECK(j["read_capacity16"]["physical_block_bytes"] == 4096);
  CHECK(j["block_limits"]["optimal_transfer_length_granularity_bytes"] == 4096);
  CHECK(j["block_limits"]["optimal_transfer_length_bytes"] == 131072);
  CHECK(j["block_limits"]["optimal_unmap_granularity_bytes"] == 4096);
}

TEST_CASE("sd expectations from READ CAPACITY(16) and Block Limits") {
  const auto c = *decode_read_capacity16(read_capacity(976773167, 512, 3, 0).bytes());
  const auto e = expected_scsi_sysfs(c, decode_block_limits_vpd(block_limits(0x3c).bytes()));
  CHECK(expected(e, "logical_block_size") == 512);
  CHECK(expected(e, "physical_block_size") == 4096);
  CHECK(expected(e, "alignment_offset") == 0);
  CHECK(expected(e, "minimum_io_size") == 4096);
  CHECK(expected(e, "optimal_io_size") == 131072);
  const auto without = expected_scsi_sysfs(c, std::nullopt);
  CHECK(expected(without, "optimal_io_size") == 0);
  CHECK(expected(without, "minimum_io_size") == 4096);
}

TEST_CASE("sd rejects an optimal transfer length above the maximum (the 0xFFF000 HBA case)") {
  Page p = block_limits(0x3c);
  p.be(8, 2048, 4).be(12, 0x7ff8, 4);  // OTL 32760 blocks ≈ 0xFFF000 bytes, above MTL
  const auto c = *decode_read_capacity16(read_capacity(1000, 512, 0, 0).bytes());
  const auto e = expected_scsi_sysfs(c, decode_block_limits_vpd(p.bytes()));
  CHECK(expected(e, "optimal_io_size") == 0);
}
