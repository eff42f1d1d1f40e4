// Parser for `smartctl -j -a DEVICE` output (smartmontools 7.x JSON format
// version 1). smartctl has no library API; its JSON is the conventional
// interface. Only the keys ssdprobe uses are read; a key that is missing or
// has an unexpected type leaves the field unset. Never throws: text that is
// not smartctl JSON gives a report with parsed == false.
//
// smartctl.exit_status is a bit mask: bit 0 command line did not parse,
// bit 1 device open failed (or no IDENTIFY data), bit 2 a SMART or other
// command failed, bit 3 SMART status "failing", bits 4-7 attribute, error
// and self-test log conditions. Bits 0 and 1 mean the output has no data.
// rotation_rate is smartctl's: 0 means "Solid State Device" (IDENTIFY word
// 217 = 1), absent means not reported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "firmware/write_counters.h"

namespace ssdprobe {

struct AtaAttribute {
  int id = 0;
  std::string name;           // smartctl's (drivedb) name: "Total_LBAs_Written"
  int value = 0, worst = 0, thresh = 0;
  std::optional<uint64_t> raw;  // raw.value
};

struct SmartctlReport {
  bool parsed = false;    // the text was JSON with a "smartctl" object
  int exit_status = 0;
  bool has_data = false;  // parsed and exit_status bits 0 and 1 clear
  std::vector<std::string> messages;  // smartctl.messages[].string
  std::string device_type, protocol;  // device.type ("nvme", "sat"), device.protocol ("NVMe", "ATA")
  std::string model, serial, firmware;
  std::optional<uint64_t> logical_block_size, physical_block_size, rotation_rate, user_capacity_bytes;
  std::optional<bool> trim_supported, smart_passed;
  // nvme_smart_health_information_log
  std::optional<uint64_t> nvme_data_units_read, nvme_data_units_written;
  std::optional<uint64_t> nvme_host_reads, nvme_host_writes, nvme_percentage_used;
  // ATA
  std::vector<AtaAttribute> ata_attributes;
  std::optional<uint64_t> ata_logical_sectors_written;  // ata_device_statistics, General Statistics
};

SmartctlReport parse_smartctl_json(std::string_view text);

// The names of the exit_status bits that are set: "device open failed"...
std::vector<std::string> smartctl_exit_status_bits(int exit_status);

// The write counters smartctl exposes (see write_counters.h): NVMe data units
// written; ATA device statistics or attributes with a known unit, looked up
// by name. An attribute whose unit is not in the table is not used.
SmartWriteCounters counters_from_smartctl(const SmartctlReport& report);

}  // namespace ssdprobe
