#include "firmware/mmc_registers.h"

#include <fmt/format.h>

namespace ssdprobe {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool has_size(std::span<const uint8_t> reg, size_t bytes) { return reg.size() == bytes; }

unsigned field(std::span<const uint8_t> reg, unsigned msb, unsigned lsb) {
  return static_cast<unsigned>(register_bits(reg, msb, lsb));
}

// ASCII characters packed from bit `msb` down, one byte each.
std::string ascii_field(std::span<const uint8_t> reg, unsigned msb, unsigned chars) {
  std::string text;
  for (unsigned i = 0; i < chars; ++i) {
    const auto c = static_cast<char>(field(reg, msb - 8 * i, msb - 8 * i - 7));
    text += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return text;
}

constexpr uint64_t kHighCapacityUnit = 512 * 1024;  // C_SIZE unit of CSD 2.0 and 3.0

}  // namespace

std::optional<std::vector<uint8_t>> parse_register_hex(std::string_view text, size_t bytes) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  if (text.size() != 2 * bytes) return std::nullopt;
  std::vector<uint8_t> reg(bytes);
  for (size_t i = 0; i < bytes; ++i) {
    const int high = hex_digit(text[2 * i]), low = hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    reg[i] = static_cast<uint8_t>(high << 4 | low);
  }
  return reg;
}

uint64_t register_bits(std::span<const uint8_t> reg, unsigned msb, unsigned lsb) {
  if (msb < lsb || msb - lsb >= 64 || msb >= 8 * reg.size()) return 0;
  uint64_t value = 0;
  for (unsigned bit = msb + 1; bit-- > lsb;) {
    const size_t byte = reg.size() - 1 - bit / 8;
    value = value << 1 | ((reg[byte] >> (bit % 8)) & 1u);
  }
  return value;
}

const char* SdCsd::version() const {
  static const char* const names[] = {"1.0", "2.0", "3.0"};
  return csd_structure < 3 ? names[csd_structure] : "reserved";
}

uint64_t SdCsd::capacity_bytes() const {
  if (csd_structure != 0) return (c_size + 1) * kHighCapacityUnit;
  return (c_size + 1) << (c_size_mult.value_or(0) + 2 + read_bl_len);
}

uint64_t SdCsd::erase_sector_bytes() const { return uint64_t{sector_size + 1} << write_bl_len; }

uint64_t SdCsd::smallest_erase_bytes() const {
  return erase_blk_en ? uint64_t{1} << write_bl_len : erase_sector_bytes();
}

std::optional<SdCsd> decode_sd_csd(std::span<const uint8_t> reg) {
  if (!has_size(reg, kCsdBytes)) return std::nullopt;
  SdCsd c;
  c.csd_structure = field(reg, 127, 126);
  if (c.csd_structure > 2) return std::nullopt;
  c.taac = field(reg, 119, 112);
  c.nsac = field(reg, 111, 104);
  c.tran_speed = field(reg, 103, 96);
  c.ccc = field(reg, 95, 84);
  c.read_bl_len = field(reg, 83, 80);
  c.read_bl_partial = field(reg, 79, 79) != 0;
  if (c.csd_structure == 0) {
    c.c_size = register_bits(reg, 73, 62);
    c.c_size_mult = field(reg, 49, 47);
  } else {
    c.c_size = c.csd_structure == 1 ? register_bits(reg, 69, 48) : register_bits(reg, 75, 48);
  }
  c.erase_blk_en = field(reg, 46, 46) != 0;
  c.sector_size = field(reg, 45, 39);
  c.wp_grp_size = field(reg, 38, 32);
  c.write_bl_len = field(reg, 25, 22);
  c.perm_write_protect = field(reg, 13, 13) != 0;
  c.tmp_write_protect = field(reg, 12, 12) != 0;
  return c;
}

std::optional<uint64_t> MmcCsd::capacity_bytes() const {
  if (c_size == 0xFFF) return std::nullopt;
  return (c_size + 1) << (c_size_mult + 2 + read_bl_len);
}

uint64_t MmcCsd::erase_group_bytes() const {
  return (uint64_t{erase_grp_size} + 1) * (erase_grp_mult + 1) << write_bl_len;
}

std::optional<MmcCsd> decode_mmc_csd(std::span<const uint8_t> reg) {
  if (!has_size(reg, kCsdBytes)) return std::nullopt;
  MmcCsd c;
  c.csd_structure = field(reg, 127, 126);
  c.spec_vers = field(reg, 125, 122);
  c.taac = field(reg, 119, 112);
  c.nsac = field(reg, 111, 104);
  c.tran_speed = field(reg, 103, 96);
  c.ccc = field(reg, 95, 84);
  c.read_bl_len = field(reg, 83, 80);
  c.c_size = register_bits(reg, 73, 62);
  c.c_size_mult = field(reg, 49, 47);
  c.erase_grp_size = field(reg, 46, 42);
  c.erase_grp_mult = field(reg, 41, 37);
  c.wp_grp_size = field(reg, 36, 32);
  c.write_bl_len = field(reg, 25, 22);
  return c;
}

std::string SdScr::physical_layer_version() const {
  if (!sd_spec3) {
    if (sd_spec4 || sd_specx != 0) return "";
    if (sd_spec == 0) return "1.0/1.01";
    if (sd_spec == 1) return "1.10";
    if (sd_spec == 2) return "2.00";
    return "";
  }
  if (sd_spec != 2) return "";
  if (sd_specx == 0) return sd_spec4 ? "4.xx" : "3.0x";
  if (sd_specx > 5) return "";
  return fmt::format("{}.xx", sd_specx + 4);
}

std::optional<SdScr> decode_sd_scr(std::span<const uint8_t> reg) {
  if (!has_size(reg, kScrBytes)) return std::nullopt;
  SdScr s;
  s.scr_structure = field(reg, 63, 60);
  if (s.scr_structure != 0) return std::nullopt;
  s.sd_spec = field(reg, 59, 56);
  s.data_stat_after_erase = field(reg, 55, 55) != 0;
  s.sd_security = field(reg, 54, 52);
  s.sd_bus_widths = field(reg, 51, 48);
  s.sd_spec3 = field(reg, 47, 47) != 0;
  s.ex_security = field(reg, 46, 43);
  s.sd_spec4 = field(reg, 42, 42) != 0;
  s.sd_specx = field(reg, 41, 38);
  s.cmd_support = field(reg, 35, 32);
  return s;
}

std::optional<CardCid> decode_sd_cid(std::span<const uint8_t> reg) {
  if (!has_size(reg, kCidBytes)) return std::nullopt;
  CardCid c;
  c.mid = field(reg, 127, 120);
  c.oid = ascii_field(reg, 119, 2);
  c.pnm = ascii_field(reg, 103, 5);
  c.prv_major = field(reg, 63, 60);
  c.prv_minor = field(reg, 59, 56);
  c.psn = static_cast<uint32_t>(register_bits(reg, 55, 24));
  c.mdt_year = 2000 + field(reg, 19, 12);
  c.mdt_month = field(reg, 11, 8);
  return c;
}

std::optional<CardCid> decode_mmc_cid(std::span<const uint8_t> reg) {
  if (!has_size(reg, kCidBytes)) return std::nullopt;
  CardCid c;
  c.mid = field(reg, 127, 120);
  c.cbx = field(reg, 113, 112);
  c.oid = fmt::format("{:02x}", field(reg, 111, 104));
  c.pnm = ascii_field(reg, 103, 6);
  c.prv_major = field(reg, 55, 52);
  c.prv_minor = field(reg, 51, 48);
  c.psn = static_cast<uint32_t>(register_bits(reg, 47, 16));
  c.mdt_month = field(reg, 15, 12);
  c.mdt_year = 1997 + field(reg, 11, 8);
  return c;
}

}  // namespace ssdprobe
