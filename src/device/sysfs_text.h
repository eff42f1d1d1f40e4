// Reading one sysfs attribute as text: the one reader every layer uses, so
// missing files, trailing newlines and padding (ATA model strings) are
// handled the same way everywhere.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace ssdprobe {

// The unit of sysfs `size` and `start`, `chunk_sectors` and BLKREPORTZONE:
// 512 B whatever the device's logical block.
inline constexpr uint64_t kKernelSectorBytes = 512;

// The whole attribute, white space trimmed at both ends; nullopt if the file
// is missing or unreadable.
std::optional<std::string> read_sysfs_string(const std::filesystem::path& path);

// `text` without leading and trailing white space.
std::string trim_whitespace(std::string_view text);

// The same, "" when missing.
std::string read_sysfs_text(const std::filesystem::path& path);

// A block device number as sysfs writes it ("MAJ:MIN", the `dev`
// attribute), and back; 0 when missing or unreadable.
dev_t read_sysfs_dev(const std::filesystem::path& path);
std::string dev_number_text(dev_t dev);

}  // namespace ssdprobe
