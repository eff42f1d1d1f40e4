// SD/eMMC card registers built field by field from the SD Physical Layer
// Specification and JESD84 layouts, decoded; the sysfs reader on a fake
// card device; the erase-size finding against a measured erase block.
#include "firmware/mmc_registers.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "firmware/mmc_findings.h"
#include "firmware/mmc_query.h"
#include "report/firmware_json.h"
#include "temp_tree.h"

using namespace ssdprobe;

namespace {

// A big-endian register whose fields are set by their [msb:lsb] bit
// positions, as the specifications' tables give them.
class RegisterBuilder {
 public:
  explicit RegisterBuilder(size_t bytes) : bytes_(bytes, 0) {}
  RegisterBuilder& set(unsigned msb, unsigned lsb, uint64_t value) {
    for (unsigned bit = lsb; bit <= msb; ++bit, value >>= 1) {
      uint8_t& byte = bytes_[bytes_.size() - 1 - bit / 8];
      const auto mask = static_cast<uint8_t>(1u << (bit % 8));
      byte = static_cast<uint8_t>((value & 1) ? byte | mask : byte & ~mask);
    }
    return *this;
  }
  RegisterBuilder& ascii(unsigned msb, const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) set(msb - 8 * i, msb - 8 * i - 7, static_cast<uint8_t>(text[i]));
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::string hex() const {
    std::string text;
    for (uint8_t b : bytes_) text += fmt::format("{:02x}", b);
    return text;
  }

 private:
  std::vector<uint8_t> bytes_;
};

// A 64 MiB standard-capacity card: 512 B blocks, C_SIZE_MULT 7 (x 512),
// C_SIZE 255 (256 units), erase sectors of 32 blocks, single-block erase.
RegisterBuilder sd_csd_v1() {
  RegisterBuilder r(kCsdBytes);
  r.set(127, 126, 0).set(119, 112, 0x26).set(103, 96, 0x32).set(95, 84, 0x5f5).set(83, 80, 9).set(79, 79, 1);
  r.set(73, 62, 255).set(49, 47, 7).set(46, 46, 1).set(45, 39, 31).set(25, 22, 9).set(0, 0, 1);
  return r;
}

// An 8 GiB high-capacity card: C_SIZE 16383 units of 512 KiB.
RegisterBuilder sd_csd_v2() {
  RegisterBuilder r(kCsdBytes);
  r.set(127, 126, 1).set(119, 112, 0x0e).set(103, 96, 0x32).set(95, 84, 0x5b5).set(83, 80, 9);
  r.set(69, 48, 16383).set(46, 46, 1).set(45, 39, 0x7f).set(25, 22, 9).set(12, 12, 1);
  return r;
}

RegisterBuilder sd_cid() {
  RegisterBuilder r(kCidBytes);
  r.set(127, 120, 0x03).ascii(119, "SD").ascii(103, "SU08G").set(63, 60, 8).set(59, 56, 0);
  r.set(55, 24, 0x12345678).set(19, 12, 23).set(11, 8, 7);
  return r;
}

}  // namespace

TEST_CASE("register_bits reads fields across byte boundaries", "[mmc]") {
  const auto reg = RegisterBuilder(4).set(19, 6, 0x2abc).set(31, 28, 0xf).bytes();
  CHECK(register_bits(reg, 19, 6) == 0x2abc);
  CHECK(register_bits(reg, 31, 28) == 0xf);
  CHECK(register_bits(reg, 5, 0) == 0);
  CHECK(register_bits(reg, 32, 30) == 0);  // past the register
  CHECK(register_bits(reg, 3, 4) == 0);    // msb below lsb
}

TEST_CASE("parse_register_hex takes exactly the register's digits", "[mmc]") {
  CHECK(parse_register_hex("00ff10Ab\n", 4) == std::vector<uint8_t>{0x00, 0xff, 0x10, 0xab});
  CHECK_FALSE(parse_register_hex("00ff10", 4));
  CHECK_FALSE(parse_register_hex("00ff10ab00", 4));
  CHECK_FALSE(parse_register_hex("00ff10xz", 4));
}

TEST_CASE("SD CSD version 1.0: capacity from C_SIZE, C_SIZE_MULT and READ_BL_LEN", "[mmc]") {
  const auto reg = parse_register_hex(sd_csd_v1().hex(), kCsdBytes);
  REQUIRE(reg);
  const auto csd = decode_sd_csd(*reg);
  REQUIRE(csd);
  CHECK(std::string(csd->version()) == "1.0");
  CHECK(csd->c_size == 255);
  CHECK(csd->c_size_mult == 7u);
  CHECK(csd->read_bl_len == 9);
  CHECK(csd->ccc == 0x5f5);
  CHECK(csd->capacity_bytes() == 64ull << 20);
  CHECK(csd->erase_blk_en);
  CHECK(csd->sector_size == 31);
  CHECK(csd->erase_sector_bytes() == 32 * 512);
  CHECK(csd->smallest_erase_bytes() == 512);
}

TEST_CASE("SD CSD 1.0 without ERASE_BLK_EN erases whole sectors", "[mmc]") {
  const auto csd = decode_sd_csd(sd_csd_v1().set(46, 46, 0).set(45, 39, 63).set(25, 22, 10).bytes());
  REQUIRE(csd);
  CHECK(csd->smallest_erase_bytes() == 64 * 1024);
}

TEST_CASE("SD CSD version 2.0 and 3.0: C_SIZE in 512 KiB units", "[mmc]") {
  const auto v2 = decode_sd_csd(sd_csd_v2().bytes());
  REQUIRE(v2);
  CHECK(std::string(v2->version()) == "2.0");
  CHECK(v2->c_size == 16383);
  CHECK(v2->c_size_mult == std::nullopt);
  CHECK(v2->capacity_bytes() == 8ull << 30);
  CHECK(v2->tmp_write_protect);
  CHECK_FALSE(v2->perm_write_protect);

  // 3.0 (SDUC) widens C_SIZE to [75:48]: 4 TiB needs bit 75.
  const uint64_t units = (4ull << 40) / (512 * 1024) - 1;
  const auto v3 = decode_sd_csd(RegisterBuilder(kCsdBytes).set(127, 126, 2).set(75, 48, units).bytes());
  REQUIRE(v3);
  CHECK(std::string(v3->version()) == "3.0");
  CHECK(v3->capacity_bytes() == 4ull << 40);
}

TEST_CASE("SD CSD: a reserved structure or a wrong length is not decoded", "[mmc]") {
  CHECK_FALSE(decode_sd_csd(sd_csd_v1().set(127, 126, 3).bytes()));
  CHECK_FALSE(decode_sd_csd(std::vector<uint8_t>(15, 0)));
}

TEST_CASE("eMMC CSD: erase group from ERASE_GRP_SIZE and ERASE_GRP_MULT", "[mmc]") {
  RegisterBuilder r(kCsdBytes);
  r.set(127, 126, 3).set(125, 122, 4).set(83, 80, 9).set(73, 62, 0xfff).set(49, 47, 7);
  r.set(46, 42, 31).set(41, 37, 15).set(36, 32, 3).set(25, 22, 9);
  const auto csd = decode_mmc_csd(r.bytes());
  REQUIRE(csd);
  CHECK(csd->spec_vers == 4);
  CHECK(csd->capacity_bytes() == std::nullopt);  // > 2 GB: size in EXT_CSD
  CHECK(csd->erase_group_bytes() == 32 * 16 * 512);
  r.set(73, 62, 1023);
  CHECK(decode_mmc_csd(r.bytes())->capacity_bytes() == 1024ull * 512 * 512);
}

TEST_CASE("SD SCR: physical layer version from SD_SPEC, SD_SPEC3, SD_SPEC4 and SD_SPECX", "[mmc]") {
  RegisterBuilder r(kScrBytes);
  r.set(59, 56, 2).set(55, 55, 1).set(54, 52, 3).set(51, 48, 0x5).set(35, 32, 0x3);
  auto scr = decode_sd_scr(r.bytes());
  REQUIRE(scr);
  CHECK(scr->physical_layer_version() == "2.00");
  CHECK(scr->data_stat_after_erase);
  CHECK(scr->sd_security == 3);
  CHECK(scr->sd_bus_widths == 5);
  CHECK(scr->cmd_support == 3);
  r.set(47, 47, 1);
  CHECK(decode_sd_scr(r.bytes())->physical_layer_version() == "3.0x");
  r.set(42, 42, 1);
  CHECK(decode_sd_scr(r.bytes())->physical_layer_version() == "4.xx");
  r.set(41, 38, 2);
  CHECK(decode_sd_scr(r.bytes())->physical_layer_version() == "6.xx");
  CHECK(decode_sd_scr(RegisterBuilder(kScrBytes).set(59, 56, 1).bytes())->physical_layer_version() == "1.10");
  CHECK(decode_sd_scr(RegisterBuilder(kScrBytes).set(59, 56, 7).bytes())->physical_layer_version().empty());
  CHECK_FALSE(decode_sd_scr(RegisterBuilder(kScrBytes).set(63, 60, 1).bytes()));
}

TEST_CASE("SD and MMC CID: manufacturer, OEM, name, revision, serial and date", "[mmc]") {
  const auto sd = decode_sd_cid(sd_cid().bytes());
  REQUIRE(sd);
  CHECK(sd->mid == 3);
  CHECK(sd->oid == "SD");
  CHECK(sd->pnm == "SU08G");
  CHECK(sd->prv_major == 8);
  CHECK(sd->prv_minor == 0);
  CHECK(sd->psn == 0x12345678);
  CHECK(sd->mdt_year == 2023);
  CHECK(sd->mdt_month == 7);
  CHECK(sd->cbx == std::nullopt);

  RegisterBuilder m(kCidBytes);
  m.set(127, 120, 0x15).set(113, 112, 1).set(111, 104, 0x01).ascii(103, "8GTF4R").set(55, 48, 0x21);
  m.set(47, 16, 0xcafef00d).set(15, 12, 11).set(11, 8, 5);
  const auto mmc = decode_mmc_cid(m.bytes());
  REQUIRE(mmc);
  CHECK(mmc->mid == 0x15);
  CHECK(mmc->cbx == 1u);
  CHECK(mmc->oid == "01");
  CHECK(mmc->pnm == "8GTF4R");
  CHECK(mmc->prv_major == 2);
  CHECK(mmc->prv_minor == 1);
  CHECK(mmc->psn == 0xcafef00d);
  CHECK(mmc->mdt_month == 11);
  CHECK(mmc->mdt_year == 2002);
}

TEST_CASE("read_mmc_card decodes the registers of the card behind an mmcblk disk", "[mmc]") {
  test_support::TempTree sys;
  const std::string card = "devices/pci0000:00/0000:00:05.0/mmc_host/mmc0/mmc0:4567";
  sys.write(card + "/type", "SD");
  sys.write(card + "/name", "SU08G");
  sys.write(card + "/erase_size", "512");
  sys.write(card + "/preferred_erase_size", "4194304");
  sys.write(card + "/csd", sd_csd_v2().hex());
  sys.write(card + "/cid", sd_cid().hex());
  sys.write(card + "/scr", "0235800000000000");
  sys.link("block/mmcblk0/device", "../../" + card);
  std::vector<std::string> notes;
  const auto data = read_mmc_card("mmcblk0", sys.root().string(), notes);
  REQUIRE(data);
  CHECK(notes.empty());
  CHECK(data->card == "mmc0:4567");
  CHECK(data->erase_size == 512u);
  CHECK(data->preferred_erase_size == 4194304u);
  REQUIRE(data->sd_csd);
  CHECK(data->sd_csd->capacity_bytes() == 8ull << 30);
  REQUIRE(data->scr);
  CHECK(data->scr->physical_layer_version() == "3.0x");
  REQUIRE(data->cid);
  CHECK(data->cid->pnm == "SU08G");

  const auto json = mmc_reported_json(*data);
  CHECK(json["csd"]["c_size"] == 16383);
  CHECK(json["csd"]["capacity_bytes"] == 8ull << 30);
  CHECK(json["cid"]["mdt"] == "2023-07");
  CHECK(json["preferred_erase_size"] == 4194304);

  sys.write(card + "/csd", "not hex");
  notes.clear();
  const auto broken = read_mmc_card("mmcblk0", sys.root().string(), notes);
  REQUIRE(broken);
  CHECK_FALSE(broken->sd_csd);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("CSD") != std::string::npos);
  CHECK_FALSE(read_mmc_card("mmcblk1", sys.root().string(), notes));
}

TEST_CASE("mmc_erase_findings: an allocation unit that no erase block divides", "[mmc]") {
  MmcCardData card;
  card.preferred_erase_size = 4u << 20;
  CHECK(mmc_erase_findings(card, std::nullopt).empty());
  CHECK(mmc_erase_findings(card, 4u << 20).empty());
  CHECK(mmc_erase_findings(card, 1u << 20).empty());
  const auto found = mmc_erase_findings(card, 3u << 20);
  REQUIRE(found.size() == 1);
  CHECK(found[0].field == "preferred_erase_size");
  CHECK(found[0].reported == 4 << 20);
  CHECK(found[0].detected == 3 << 20);
}
