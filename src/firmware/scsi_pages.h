// Decoders for the SCSI data ssdprobe reads through SG_IO (SBC-4 / SPC-5
// layouts, big-endian): the READ CAPACITY(16) parameter data, the Block
// Limits VPD page (B0h), the Unit Serial Number VPD page (80h), standard
// INQUIRY data, and sense data in fixed (70h/71h) and descriptor (72h/73h)
// format including the SAT ATA Status Return descriptor (09h). Pure functions
// over raw buffers; every read is bounds-checked. Fields a short buffer (or a
// short VPD page length) does not cover are nullopt, never guessed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ssdprobe {

inline constexpr size_t kReadCapacity16Bytes = 32;

struct ReadCapacity16 {
  uint64_t last_lba = 0;      // RETURNED LOGICAL BLOCK ADDRESS
  uint32_t block_length = 0;  // LOGICAL BLOCK LENGTH IN BYTES
  uint8_t p_type = 0;         // byte 12 bits 3:1
  bool prot_en = false;       // byte 12 bit 0
  uint8_t p_i_exponent = 0;   // byte 13 bits 7:4
  uint8_t lbppbe = 0;         // byte 13 bits 3:0: 2^lbppbe logical blocks per physical block
  bool lbpme = false, lbprz = false;  // byte 14 bits 7, 6
  uint16_t lowest_aligned_lba = 0;    // byte 14 bits 5:0, byte 15

  std::optional<uint64_t> capacity_bytes() const;
  std::optional<uint64_t> physical_block_bytes() const;
};

// Needs at least the 16 bytes up to LOWEST ALIGNED LOGICAL BLOCK ADDRESS.
std::optional<ReadCapacity16> decode_read_capacity16(std::span<const uint8_t> buffer);

// Block Limits VPD page (B0h). Counts are in logical blocks; 0 means "not
// reported" for the transfer lengths and granularities.
struct BlockLimitsVpd {
  uint16_t page_length = 0;
  std::optional<bool> wsnz;
  std::optional<uint8_t> maximum_compare_and_write_length;
  std::optional<uint16_t> optimal_transfer_length_granularity;
  std::optional<uint32_t> maximum_transfer_length;
  std::optional<uint32_t> optimal_transfer_length;
  std::optional<uint32_t> maximum_prefetch_length;
  std::optional<uint32_t> maximum_unmap_lba_count;
  std::optional<uint32_t> maximum_unmap_block_descriptor_count;
  std::optional<uint32_t> optimal_unmap_granularity;
  std::optional<bool> ugavalid;
  std::optional<uint32_t> unmap_granularity_alignment;
  std::optional<uint64_t> maximum_write_same_length;
};

// nullopt unless the buffer holds a 4-byte VPD header with page code B0h.
std::optional<BlockLimitsVpd> decode_block_limits_vpd(std::span<const uint8_t> buffer);

// Unit Serial Number VPD page (80h): the serial, trimmed; nullopt unless the
// page code is 80h.
std::optional<std::string> decode_unit_serial_vpd(std::span<const uint8_t> buffer);

struct StandardInquiry {
  uint8_t peripheral_device_type = 0;  // 0 = direct access block device
  bool removable = false;
  uint8_t version = 0;
  std::string vendor, product, revision;  // T10 vendor id, product id, revision, trimmed
};

// Needs the 36 bytes of the mandatory part.
std::optional<StandardInquiry> decode_standard_inquiry(std::span<const uint8_t> buffer);

// The pages read from one SCSI disk; each is missing on its own when its
// command failed or its data did not decode.
struct ScsiPages {
  std::optional<StandardInquiry> inquiry;
  std::optional<std::string> unit_serial;
  std::optional<ReadCapacity16> capacity;
  std::optional<BlockLimitsVpd> block_limits;

  bool any() const { return inquiry || unit_serial || capacity || block_limits; }
};

// SAT ATA Status Return descriptor (sense descriptor 09h): the ATA registers
// after the command.
struct AtaStatusReturn {
  bool extend = false;
  uint8_t error = 0, status = 0, device = 0;
  uint16_t count = 0;
  uint64_t lba = 0;  // 48 bits when extend is set, else 24
};

struct SenseData {
  uint8_t response_code = 0;  // 70h/71h fixed, 72h/73h descriptor
  bool descriptor_format = false;
  bool deferred = false;      // 71h/73h
  uint8_t sense_key = 0;
  std::optional<uint8_t> asc, ascq;   // absent when the sense data is too short
  std::optional<uint64_t> information;
  std::optional<AtaStatusReturn> ata_return;
};

// nullopt for an empty buffer or an unknown response code.
std::optional<SenseData> decode_sense(std::span<const uint8_t> buffer);

// "ILLEGAL REQUEST"; "reserved" for codes without a name.
const char* sense_key_name(uint8_t key);
// "ILLEGAL REQUEST, ASC/ASCQ 24h/00h (invalid field in CDB)".
std::string describe_sense(const SenseData& sense);
// RECOVERED ERROR or NO SENSE with ASC/ASCQ 00h/1Dh (ATA PASS-THROUGH
// INFORMATION AVAILABLE): how SAT bridges report a successful pass-through.
bool is_ata_passthrough_success(const SenseData& sense);

}  // namespace ssdprobe
