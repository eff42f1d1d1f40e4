// Decoders for the card registers the kernel's MMC core shows in sysfs
// (/sys/block/mmcblkN/device/{csd,cid,scr}): the SD Card Specific Data
// register in its three versions (1.0 standard capacity, 2.0 high/extended
// capacity, 3.0 ultra capacity), the SD Configuration Register, the Card
// Identification register of SD and of MMC/eMMC cards, and the eMMC CSD.
// Field names and bit positions are those of the SD Physical Layer
// Specification and JEDEC JESD84 (bit 0 is the register's least significant
// bit). Pure functions over the register bytes; a buffer of the wrong length
// or a structure version the spec reserves decodes to nullopt, never a guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ssdprobe {

inline constexpr size_t kCsdBytes = 16;
inline constexpr size_t kCidBytes = 16;
inline constexpr size_t kScrBytes = 8;

// The register as the kernel prints it (hex digits, most significant first,
// optionally ending in a newline) into `bytes` bytes; nullopt unless it is
// exactly 2 x `bytes` hex digits.
std::optional<std::vector<uint8_t>> parse_register_hex(std::string_view text, size_t bytes);

// Bits [msb:lsb] (msb - lsb < 64) of a big-endian register; 0 where the
// register is too short to hold them.
uint64_t register_bits(std::span<const uint8_t> reg, unsigned msb, unsigned lsb);

// SD CSD. Fields a version fixes or does not have are as the spec fixes them
// (version 2.0/3.0: READ_BL_LEN 9, ERASE_BLK_EN 1, SECTOR_SIZE 7Fh) or
// nullopt (C_SIZE_MULT only exists in version 1.0).
struct SdCsd {
  unsigned csd_structure = 0;  // [127:126]: 0 = 1.0, 1 = 2.0, 2 = 3.0
  unsigned taac = 0, nsac = 0, tran_speed = 0;
  unsigned ccc = 0;            // [95:84] card command classes
  unsigned read_bl_len = 0;    // [83:80] log2 of the read block length
  bool read_bl_partial = false;
  uint64_t c_size = 0;         // [73:62] (1.0), [69:48] (2.0), [75:48] (3.0)
  std::optional<unsigned> c_size_mult;  // [49:47], 1.0 only
  bool erase_blk_en = false;   // [46]: single write blocks can be erased
  unsigned sector_size = 0;    // [45:39]: erase sector = SECTOR_SIZE + 1 write blocks
  unsigned wp_grp_size = 0;    // [38:32]
  unsigned write_bl_len = 0;   // [25:22]
  bool perm_write_protect = false, tmp_write_protect = false;

  const char* version() const;               // "1.0", "2.0", "3.0"
  uint64_t capacity_bytes() const;           // user area, from C_SIZE (and C_SIZE_MULT, READ_BL_LEN)
  uint64_t erase_sector_bytes() const;       // (SECTOR_SIZE + 1) x 2^WRITE_BL_LEN
  uint64_t smallest_erase_bytes() const;     // one write block when ERASE_BLK_EN, else the sector
};
std::optional<SdCsd> decode_sd_csd(std::span<const uint8_t> reg);

// eMMC (MMC) CSD, JESD84. A device above 2 GB sets C_SIZE to FFFh and states
// its size in EXT_CSD SEC_COUNT instead: capacity_bytes() is then nullopt.
struct MmcCsd {
  unsigned csd_structure = 0;  // [127:126]
  unsigned spec_vers = 0;      // [125:122]
  unsigned taac = 0, nsac = 0, tran_speed = 0, ccc = 0;
  unsigned read_bl_len = 0;    // [83:80]
  uint64_t c_size = 0;         // [73:62]
  unsigned c_size_mult = 0;    // [49:47]
  unsigned erase_grp_size = 0; // [46:42]
  unsigned erase_grp_mult = 0; // [41:37]
  unsigned wp_grp_size = 0;    // [36:32]
  unsigned write_bl_len = 0;   // [25:22]

  std::optional<uint64_t> capacity_bytes() const;
  // (ERASE_GRP_SIZE + 1) x (ERASE_GRP_MULT + 1) write blocks.
  uint64_t erase_group_bytes() const;
};
std::optional<MmcCsd> decode_mmc_csd(std::span<const uint8_t> reg);

// SD Configuration Register (64 bits).
struct SdScr {
  unsigned scr_structure = 0;       // [63:60], 0 = version 1.0
  unsigned sd_spec = 0;             // [59:56]
  bool data_stat_after_erase = false;  // [55]: erased data reads as ones
  unsigned sd_security = 0;         // [54:52]
  unsigned sd_bus_widths = 0;       // [51:48]: bit 0 = 1 bit, bit 2 = 4 bit
  bool sd_spec3 = false;            // [47]
  unsigned ex_security = 0;         // [46:43]
  bool sd_spec4 = false;            // [42]
  unsigned sd_specx = 0;            // [41:38]
  unsigned cmd_support = 0;         // [35:32]

  // "1.0/1.01", "1.10", "2.00", "3.0x", "4.xx", "5.xx" ... from SD_SPEC,
  // SD_SPEC3, SD_SPEC4 and SD_SPECX; "" for a combination the spec does not list.
  std::string physical_layer_version() const;
};
std::optional<SdScr> decode_sd_scr(std::span<const uint8_t> reg);

// Card Identification. SD: OID is two ASCII characters, PNM five, the date
// [19:8] counts years from 2000. MMC: CBX [113:112], OID one byte (two hex
// digits), PNM six characters, the date [15:8] counts years from 1997 (the
// caller adds 16 for devices of EXT_CSD_REV > 4, which the CID alone cannot tell).
struct CardCid {
  unsigned mid = 0;            // manufacturer ID
  std::optional<unsigned> cbx; // MMC only
  std::string oid;             // OEM/application ID
  std::string pnm;             // product name
  unsigned prv_major = 0, prv_minor = 0;  // product revision n.m
  uint32_t psn = 0;            // product serial number
  unsigned mdt_year = 0, mdt_month = 0;
};
std::optional<CardCid> decode_sd_cid(std::span<const uint8_t> reg);
std::optional<CardCid> decode_mmc_cid(std::span<const uint8_t> reg);

}  // namespace ssdprobe
