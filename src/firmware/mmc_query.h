// Reads what the kernel's MMC core shows about the card behind an mmcblk
// disk (/sys/block/mmcblkN/device/): the card type, the erase size and
// preferred erase size it derived (bytes), and the raw CSD, CID and SCR
// registers, decoded (firmware/mmc_registers.h) as SD or MMC by the type.
// Reads only sysfs: no command reaches the card. EXT_CSD is in debugfs only
// (root, debugfs mounted) and is not read: a note says so for eMMC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firmware/mmc_registers.h"

namespace ssdprobe {

struct MmcCardData {
  std::string type;      // sysfs `type`: "SD", "MMC", "SDIO", "SDcombo"
  std::string card;      // the card's sysfs name, e.g. "mmc0:aaaa"
  std::string name;      // sysfs `name` (product name from the CID)
  std::optional<uint64_t> erase_size;            // bytes, sysfs `erase_size`
  std::optional<uint64_t> preferred_erase_size;  // bytes, sysfs `preferred_erase_size`
  std::string csd_hex, cid_hex, scr_hex;         // raw, as sysfs shows them ("" if absent)
  std::optional<SdCsd> sd_csd;
  std::optional<MmcCsd> mmc_csd;
  std::optional<SdScr> scr;
  std::optional<CardCid> cid;

  bool is_sd() const { return type.starts_with("SD"); }
};

// nullopt when `disk_name` has no MMC card device under `sysfs_root`.
// Registers that are missing or malformed stay nullopt and add a note.
std::optional<MmcCardData> read_mmc_card(const std::string& disk_name, const std::string& sysfs_root,
                                         std::vector<std::string>& notes);

}  // namespace ssdprobe
