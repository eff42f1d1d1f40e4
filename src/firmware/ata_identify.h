// Decoder for the 512-byte ATA IDENTIFY DEVICE data (ACS-4 word numbers; each
// word is little-endian, strings hold two ASCII characters per word with the
// first in the high byte). Pure function over the raw sector; a buffer
// shorter than 512 bytes is rejected, every read is bounds-checked.
//
// Geometry words, read the way libata reads them:
//  - 106: valid when bits 15:14 = 01b. Bit 13 (with bit 14 set and bit 15
//         clear) says several logical sectors per physical, 2^(bits 3:0) of
//         them. Bit 12 says the logical sector is longer than 256 words, and
//         words 117-118 then give its length in words.
//  - 209: valid when bits 15:14 = 01b; bits 13:0 are the offset of LBA 0
//         within the first physical sector, in logical sectors.
//  - 169 bit 0: TRIM (DATA SET MANAGEMENT) supported. 69 bit 14: deterministic
//         read after TRIM, bit 5: zeroes after TRIM.
//  - 217: nominal media rotation rate; 1 = non-rotating (SSD), 0 = not reported.
//  - 255: integrity word; low byte A5h means the high byte is a checksum
//         making the byte sum of all 512 bytes 0 mod 256.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ssdprobe {

inline constexpr size_t kAtaIdentifyBytes = 512;

struct AtaIdentify {
  std::string model, serial, firmware;  // words 27-46, 10-19, 23-26, trimmed
  uint16_t word69 = 0, word106 = 0, word117 = 0, word118 = 0, word169 = 0, word209 = 0, word217 = 0, word255 = 0;

  uint64_t logical_sector_bytes = 512;
  unsigned logical_per_physical_log2 = 0;
  uint64_t physical_sector_bytes = 512;
  // Offset of LBA 0 inside physical sector 0 in bytes (word 209 × logical);
  // nullopt when word 209 is not valid.
  std::optional<uint64_t> alignment_offset_bytes;
  // The first LBA on a physical-sector boundary, as libata reports it in
  // READ CAPACITY(16) (and Linux × logical size as sysfs alignment_offset).
  uint64_t lowest_aligned_lba = 0;

  bool trim_supported = false, trim_deterministic = false, trim_zeroes = false;
  uint16_t rotation_rate = 0;
  uint64_t capacity_sectors = 0;  // words 100-103 (48-bit) or 60-61
  bool checksum_present = false;  // word 255 low byte is A5h
  bool checksum_valid = false;    // meaningful only when checksum_present
};

std::optional<AtaIdentify> decode_ata_identify(std::span<const uint8_t> buffer);

}  // namespace ssdprobe
