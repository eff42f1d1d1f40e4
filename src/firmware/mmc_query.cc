#include "firmware/mmc_query.h"

#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>

#include "device/sysfs_text.h"

namespace ssdprobe {

namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& file) { return read_sysfs_string(file).value_or(""); }

std::optional<uint64_t> number_of(const fs::path& file) {
  const std::string text = text_of(file);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Decodes one register file; a register that is there but does not parse
// adds a note naming it.
template <typename Decoded, typename Decode>
std::optional<Decoded> decode_file(const std::string& hex, size_t bytes, const char* what, Decode decode,
                                   std::vector<std::string>& notes) {
  if (hex.empty()) return std::nullopt;
  const auto reg = parse_register_hex(hex, bytes);
  std::optional<Decoded> decoded;
  if (reg) decoded = decode(*reg);
  if (!decoded) notes.push_back(fmt::format("card register {} '{}' could not be decoded", what, hex));
  return decoded;
}

void decode_registers(MmcCardData& card, std::vector<std::string>& notes) {
  if (card.is_sd()) {
    card.sd_csd = decode_file<SdCsd>(card.csd_hex, kCsdBytes, "CSD", decode_sd_csd, notes);
    card.scr = decode_file<SdScr>(card.scr_hex, kScrBytes, "SCR", decode_sd_scr, notes);
    card.cid = decode_file<CardCid>(card.cid_hex, kCidBytes, "CID", decode_sd_cid, notes);
  } else if (card.type == "MMC") {
    card.mmc_csd = decode_file<MmcCsd>(card.csd_hex, kCsdBytes, "CSD", decode_mmc_csd, notes);
    card.cid = decode_file<CardCid>(card.cid_hex, kCidBytes, "CID", decode_mmc_cid, notes);
    notes.push_back("eMMC EXT_CSD (erase group and write-protect sizes of high-capacity devices) is only in debugfs "
                    "and is not read");
  } else {
    notes.push_back(fmt::format("MMC card type '{}': registers not decoded", card.type));
  }
}

}  // namespace

std::optional<MmcCardData> read_mmc_card(const std::string& disk_name, const std::string& sysfs_root,
                                         std::vector<std::string>& notes) {
  const fs::path link = fs::path(sysfs_root) / "block" / disk_name / "device";
  std::error_code ec;
  const fs::path dir = fs::canonical(link, ec);
  if (ec || !fs::exists(dir / "type", ec)) return std::nullopt;
  MmcCardData card;
  card.type = text_of(dir / "type");
  card.card = dir.filename().string();
  card.name = text_of(dir / "name");
  card.erase_size = number_of(dir / "erase_size");
  card.preferred_erase_size = number_of(dir / "preferred_erase_size");
  card.csd_hex = text_of(dir / "csd");
  card.cid_hex = text_of(dir / "cid");
  card.scr_hex = text_of(dir / "scr");
  decode_registers(card, notes);
  return card;
}

}  // namespace ssdprobe
