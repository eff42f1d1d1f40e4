// reported.mmc: the card registers under their spec names in lower case,
// raw, with the sizes they imply in *_bytes beside them.
#include "report/firmware_json.h"

#include <fmt/format.h>

#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

Json sd_csd_json(const SdCsd& c) {
  Json j;
  j["csd_structure"] = c.csd_structure;
  j["version"] = c.version();
  j["taac"] = c.taac;
  j["nsac"] = c.nsac;
  j["tran_speed"] = c.tran_speed;
  j["ccc"] = c.ccc;
  j["read_bl_len"] = c.read_bl_len;
  j["read_bl_len_bytes"] = uint64_t{1} << c.read_bl_len;
  j["read_bl_partial"] = c.read_bl_partial;
  j["c_size"] = c.c_size;
  j["c_size_mult"] = json_or_null(c.c_size_mult);
  j["capacity_bytes"] = c.capacity_bytes();
  j["erase_blk_en"] = c.erase_blk_en;
  j["sector_size"] = c.sector_size;
  j["sector_size_bytes"] = c.erase_sector_bytes();
  j["smallest_erase_bytes"] = c.smallest_erase_bytes();
  j["wp_grp_size"] = c.wp_grp_size;
  j["write_bl_len"] = c.write_bl_len;
  j["write_bl_len_bytes"] = uint64_t{1} << c.write_bl_len;
  j["perm_write_protect"] = c.perm_write_protect;
  j["tmp_write_protect"] = c.tmp_write_protect;
  return j;
}

Json mmc_csd_json(const MmcCsd& c) {
  Json j;
  j["csd_structure"] = c.csd_structure;
  j["spec_vers"] = c.spec_vers;
  j["taac"] = c.taac;
  j["nsac"] = c.nsac;
  j["tran_speed"] = c.tran_speed;
  j["ccc"] = c.ccc;
  j["read_bl_len"] = c.read_bl_len;
  j["c_size"] = c.c_size;
  j["c_size_mult"] = c.c_size_mult;
  j["capacity_bytes"] = json_or_null(c.capacity_bytes());
  j["erase_grp_size"] = c.erase_grp_size;
  j["erase_grp_mult"] = c.erase_grp_mult;
  j["erase_group_bytes"] = c.erase_group_bytes();
  j["wp_grp_size"] = c.wp_grp_size;
  j["write_bl_len"] = c.write_bl_len;
  return j;
}

Json scr_json(const SdScr& s) {
  Json j;
  j["scr_structure"] = s.scr_structure;
  j["sd_spec"] = s.sd_spec;
  j["sd_spec3"] = s.sd_spec3;
  j["sd_spec4"] = s.sd_spec4;
  j["sd_specx"] = s.sd_specx;
  j["physical_layer_version"] = text_or_null(s.physical_layer_version());
  j["data_stat_after_erase"] = s.data_stat_after_erase;
  j["sd_security"] = s.sd_security;
  j["sd_bus_widths"] = s.sd_bus_widths;
  j["ex_security"] = s.ex_security;
  j["cmd_support"] = s.cmd_support;
  return j;
}

Json cid_json(const CardCid& c) {
  Json j;
  j["mid"] = c.mid;
  j["cbx"] = json_or_null(c.cbx);
  j["oid"] = c.oid;
  j["pnm"] = c.pnm;
  j["prv"] = fmt::format("{}.{}", c.prv_major, c.prv_minor);
  j["psn"] = c.psn;
  j["mdt"] = fmt::format("{:04}-{:02}", c.mdt_year, c.mdt_month);
  return j;
}

template <typename T, typename Render>
Json or_null(const std::optional<T>& value, Render render) {
  return value ? render(*value) : Json(nullptr);
}

}  // namespace

Json mmc_reported_json(const MmcCardData& card) {
  Json j;
  j["type"] = card.type;
  j["card"] = card.card;
  j["name"] = text_or_null(card.name);
  j["erase_size"] = json_or_null(card.erase_size);
  j["preferred_erase_size"] = json_or_null(card.preferred_erase_size);
  j["csd_raw"] = text_or_null(card.csd_hex);
  j["cid_raw"] = text_or_null(card.cid_hex);
  j["scr_raw"] = text_or_null(card.scr_hex);
  j["csd"] = card.sd_csd ? sd_csd_json(*card.sd_csd) : or_null(card.mmc_csd, mmc_csd_json);
  j["scr"] = or_null(card.scr, scr_json);
  j["cid"] = or_null(card.cid, cid_json);
  return j;
}

}  // namespace ssdprobe
