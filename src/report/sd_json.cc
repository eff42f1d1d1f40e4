#include "report/firmware_json.h"

#include <string>

#include "firmware/checked_math.h"
#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

Json capacity_json(const ReadCapacity16& c) {
  Json j;
  j["returned_logical_block_address"] = c.last_lba;
  j["logical_block_length"] = c.block_length;
  j["capacity_bytes"] = json_or_null(c.capacity_bytes());
  j["p_type"] = c.p_type;
  j["prot_en"] = c.prot_en;
  j["p_i_exponent"] = c.p_i_exponent;
  j["logical_blocks_per_physical_block_exponent"] = c.lbppbe;
  j["physical_block_bytes"] = json_or_null(c.physical_block_bytes());
  j["lbpme"] = c.lbpme;
  j["lbprz"] = c.lbprz;
  j["lowest_aligned_logical_block_address"] = c.lowest_aligned_lba;
  j["lowest_aligned_bytes"] = json_or_null(checked_mul(c.lowest_aligned_lba, c.block_length));
  return j;
}

template <typename T>
void put_blocks(Json& j, const char* name, const std::optional<T>& blocks, std::optional<uint64_t> lba) {
  j[name] = json_or_null(blocks);
  std::optional<uint64_t> bytes;
  if (blocks && lba && *blocks != 0) bytes = checked_mul(*blocks, *lba);
  j[std::string(name) + "_bytes"] = json_or_null(bytes);
}

Json limits_json(const BlockLimitsVpd& b, std::optional<uint64_t> lba) {
  Json j;
  j["page_length"] = b.page_length;
  j["wsnz"] = json_or_null(b.wsnz);
  j["maximum_compare_and_write_length"] = json_or_null(b.maximum_compare_and_write_length);
  put_blocks(j, "optimal_transfer_length_granularity", b.optimal_transfer_length_granularity, lba);
  put_blocks(j, "maximum_transfer_length", b.maximum_transfer_length, lba);
  put_blocks(j, "optimal_transfer_length", b.optimal_transfer_length, lba);
  j["maximum_prefetch_length"] = json_or_null(b.maximum_prefetch_length);
  put_blocks(j, "maximum_unmap_lba_count", b.maximum_unmap_lba_count, lba);
  j["maximum_unmap_block_descriptor_count"] = json_or_null(b.maximum_unmap_block_descriptor_count);
  put_blocks(j, "optimal_unmap_granularity", b.optimal_unmap_granularity, lba);
  j["ugavalid"] = json_or_null(b.ugavalid);
  j["unmap_granularity_alignment"] = json_or_null(b.unmap_granularity_alignment);
  j["maximum_write_same_length"] = json_or_null(b.maximum_write_same_length);
  return j;
}

Json inquiry_json(const StandardInquiry& q) {
  return Json{{"peripheral_device_type", q.peripheral_device_type},
              {"removable", q.removable},
              {"version", q.version},
              {"vendor", q.vendor},
              {"product", q.product},
              {"revision", q.revision}};
}

}  // namespace

Json ata_reported_json(const AtaIdentify& id) {
  Json j;
  j["model"] = id.model;
  j["serial"] = id.serial;
  j["firmware"] = id.firmware;
  j["logical_sector_bytes"] = id.logical_sector_bytes;
  j["physical_sector_bytes"] = id.physical_sector_bytes;
  j["alignment_offset_bytes"] = json_or_null(id.alignment_offset_bytes);
  j["lowest_aligned_lba"] = id.lowest_aligned_lba;
  j["trim_supported"] = id.trim_supported;
  j["trim_deterministic"] = id.trim_deterministic;
  j["trim_zeroes"] = id.trim_zeroes;
  j["rotation_rate"] = id.rotation_rate;
  j["solid_state"] = id.rotation_rate == 1;
  j["capacity_sectors"] = id.capacity_sectors;
  j["capacity_bytes"] = json_or_null(checked_mul(id.capacity_sectors, id.logical_sector_bytes));
  j["word106"] = id.word106;
  j["word117"] = id.word117;
  j["word118"] = id.word118;
  j["word209"] = id.word209;
  j["word217"] = id.word217;
  j["checksum_present"] = id.checksum_present;
  j["checksum_valid"] = id.checksum_present ? Json(id.checksum_valid) : nullptr;
  return j;
}

Json scsi_reported_json(const ScsiPages& pages) {
  std::optional<uint64_t> lba;
  if (pages.capacity && pages.capacity->block_length != 0) lba = pages.capacity->block_length;
  Json j;
  j["inquiry"] = pages.inquiry ? inquiry_json(*pages.inquiry) : Json(nullptr);
  j["unit_serial"] = json_or_null(pages.unit_serial);
  j["read_capacity16"] = pages.capacity ? capacity_json(*pages.capacity) : Json(nullptr);
  j["block_limits"] = pages.block_limits ? limits_json(*pages.block_limits, lba) : Json(nullptr);
  return j;
}

}  // namespace ssdprobe
