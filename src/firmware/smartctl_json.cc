#include "firmware/smartctl_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <span>

#include "firmware/checked_math.h"
#include "firmware/nvme_logs.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::json;

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// ATA attributes (names as in smartmontools' drivedb.h) whose unit is known. A unit of
// 0 means "one logical sector" (the drive's logical_block_size, else 512 B).
struct AttributeUnit {
  const char* name;
  uint64_t bytes;
};
constexpr AttributeUnit kHostWriteAttributes[] = {
    {"Total_LBAs_Written", 0},             // 241 (Samsung, Seagate...), 246 (Crucial/Micron)
    {"Host_Writes_32MiB", 32 * kMiB},      // 225/241 Intel
    {"Host_Writes_MiB", kMiB},
    {"Host_Writes_GiB", kGiB},
    {"Lifetime_Writes_GiB", kGiB},         // 241 Kingston/Phison
    {"Total_Writes_GiB", kGiB},            // 241 SanDisk/WD
};
constexpr AttributeUnit kNandWriteAttributes[] = {
    {"NAND_Writes_1GiB", kGiB},            // 249 Intel
    {"NAND_Writes_32MiB", 32 * kMiB},      // 243 Intel
    {"NAND_Writes_GiB", kGiB},
    {"Total_NAND_Writes_GiB", kGiB},       // 233 SanDisk/WD
    {"Flash_Writes_GiB", kGiB},            // 233 Kingston/Phison
    {"Flash_Writes_32MiB", 32 * kMiB},
    {"Total_NAND_Prog_Ct_GiB", kGiB},      // 249
    {"Lifetime_NAND_Prg_GiB", kGiB},       // 234
};
// Not used: names whose unit is ambiguous ("NAND_GB_Written_TLC", GB or GiB)
// or that count only part of the NAND ("TLC_Writes_32MiB", "SLC_Writes_32MiB").

const Json* child(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::optional<uint64_t> get_u64(const Json& object, const char* key) {
  const Json* value = child(object, key);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_unsigned()) return value->get<uint64_t>();
  if (value->is_number_integer() && value->get<int64_t>() >= 0) return static_cast<uint64_t>(value->get<int64_t>());
  return std::nullopt;
}

std::optional<bool> get_bool(const Json& object, const char* key) {
  const Json* value = child(object, key);
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

std::string get_string(const Json& object, const char* key) {
  const Json* value = child(object, key);
  if (value == nullptr || !value->is_string()) return {};
  return value->get<std::string>();
}

int get_int(const Json& object, const char* key) {
  const Json* value = child(object, key);
  if (value == nullptr || !value->is_number_integer()) return 0;
  return static_cast<int>(value->get<int64_t>());
}

void parse_header(const Json& root, SmartctlReport& r) {
  const Json& tool = *child(root, "smartctl");
  r.exit_status = get_int(tool, "exit_status");
  if (const Json* messages = child(tool, "messages"); messages && messages->is_array()) {
    for (const auto& m : *messages) {
      if (auto text = get_string(m, "string"); !text.empty()) r.messages.push_back(text);
    }
  }
  if (const Json* device = child(root, "device")) {
    r.device_type = get_string(*device, "type");
    r.protocol = get_string(*device, "protocol");
  }
}

void parse_identity(const Json& root, SmartctlReport& r) {
  r.model = get_string(root, "model_name");
  r.serial = get_string(root, "serial_number");
  r.firmware = get_string(root, "firmware_version");
  r.logical_block_size = get_u64(root, "logical_block_size");
  r.physical_block_size = get_u64(root, "physical_block_size");
  r.rotation_rate = get_u64(root, "rotation_rate");
  if (const Json* capacity = child(root, "user_capacity")) r.user_capacity_bytes = get_u64(*capacity, "bytes");
  if (const Json* trim = child(root, "trim")) r.trim_supported = get_bool(*trim, "supported");
  if (const Json* status = child(root, "smart_status")) r.smart_passed = get_bool(*status, "passed");
}

void parse_nvme_log(const Json& root, SmartctlReport& r) {
  const Json* log = child(root, "nvme_smart_health_information_log");
  if (log == nullptr) return;
  r.nvme_data_units_read = get_u64(*log, "data_units_read");
  r.nvme_data_units_written = get_u64(*log, "data_units_written");
  r.nvme_host_reads = get_u64(*log, "host_reads");
  r.nvme_host_writes = get_u64(*log, "host_writes");
  r.nvme_percentage_used = get_u64(*log, "percentage_used");
}

void parse_ata_attributes(const Json& root, SmartctlReport& r) {
  const Json* attributes = child(root, "ata_smart_attributes");
  const Json* table = attributes ? child(*attributes, "table") : nullptr;
  if (table == nullptr || !table->is_array()) return;
  for (const auto& entry : *table) {
    AtaAttribute a{get_int(entry, "id"), get_string(entry, "name"), get_int(entry, "value"),
                   get_int(entry, "worst"), get_int(entry, "thresh"), std::nullopt};
    if (const Json* raw = child(entry, "raw")) a.raw = get_u64(*raw, "value");
    r.ata_attributes.push_back(std::move(a));
  }
}

void parse_device_statistics(const Json& root, SmartctlReport& r) {
  const Json* stats = child(root, "ata_device_statistics");
  const Json* pages = stats ? child(*stats, "pages") : nullptr;
  if (pages == nullptr || !pages->is_array()) return;
  for (const auto& page : *pages) {
    const Json* table = child(page, "table");
    if (table == nullptr || !table->is_array()) continue;
    for (const auto& entry : *table) {
      if (get_string(entry, "name") == "Logical Sectors Written") r.ata_logical_sectors_written = get_u64(entry, "value");
    }
  }
}

const AtaAttribute* find_attribute(const SmartctlReport& r, const char* name) {
  for (const auto& a : r.ata_attributes)
    if (a.name == name && a.raw) return &a;
  return nullptr;
}

// The first attribute of `table` the drive has, converted to bytes.
void attribute_bytes(const SmartctlReport& r, std::span<const AttributeUnit> table, std::optional<uint64_t>& bytes,
                     std::string& source) {
  const uint64_t sector = r.logical_block_size.value_or(512);
  for (const auto& unit : table) {
    const AtaAttribute* a = find_attribute(r, unit.name);
    if (a == nullptr) continue;
    bytes = checked_mul(*a->raw, unit.bytes == 0 ? sector : unit.bytes);
    source = fmt::format("smartctl ATA attribute {} {}", a->id, a->name);
    return;
  }
}

}  // namespace

SmartctlReport parse_smartctl_json(std::string_view text) {
  SmartctlReport r;
  const Json root = Json::parse(text, nullptr, false);
  if (root.is_discarded() || !root.is_object() || child(root, "smartctl") == nullptr) return r;
  r.parsed = true;
  parse_header(root, r);
  r.has_data = (r.exit_status & 0x03) == 0;
  if (!r.has_data) return r;
  parse_identity(root, r);
  parse_nvme_log(root, r);
  parse_ata_attributes(root, r);
  parse_device_statistics(root, r);
  return r;
}

std::vector<std::string> smartctl_exit_status_bits(int exit_status) {
  static constexpr const char* kBits[8] = {
      "command line did not parse",
      "device open failed or returned no IDENTIFY data",
      "a SMART or other device command failed",
      "SMART status: disk failing",
      "prefail attributes at or below threshold",
      "some attributes were at or below threshold in the past",
      "device error log contains errors",
      "self-test log contains errors"};
  std::vector<std::string> names;
  for (int bit = 0; bit < 8; ++bit)
    if (exit_status & (1 << bit)) names.emplace_back(kBits[bit]);
  return names;
}

SmartWriteCounters counters_from_smartctl(const SmartctlReport& r) {
  SmartWriteCounters c;
  if (!r.has_data) return c;
  if (r.nvme_data_units_written) {
    c.host_bytes_written = nvme_data_units_to_bytes(*r.nvme_data_units_written);
    c.host_source = "smartctl NVMe data units written (x 512,000 B)";
  } else if (r.ata_logical_sectors_written) {
    c.host_bytes_written = checked_mul(*r.ata_logical_sectors_written, r.logical_block_size.value_or(512));
    c.host_source = "smartctl ATA device statistics Logical Sectors Written";
  } else {
    attribute_bytes(r, kHostWriteAttributes, c.host_bytes_written, c.host_source);
  }
  attribute_bytes(r, kNandWriteAttributes, c.nand_bytes_written, c.nand_source);
  if (const AtaAttribute* a = find_attribute(r, "Host_Program_Page_Count")) c.host_program_pages = a->raw;
  if (const AtaAttribute* a = find_attribute(r, "FTL_Program_Page_Count")) c.ftl_program_pages = a->raw;
  else if (const AtaAttribute* b = find_attribute(r, "Bckgnd_Program_Page_Cnt")) c.ftl_program_pages = b->raw;
  return c;
}

}  // namespace ssdprobe
