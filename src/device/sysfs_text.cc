#include "device/sysfs_text.h"

#include <sys/sysmacros.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <ios>
#include <iterator>
#include <string_view>
#include <system_error>

namespace ssdprobe {

dev_t read_sysfs_dev(const std::filesystem::path& path) {
  unsigned maj = 0, min = 0;
  const std::string text = read_sysfs_text(path);
  return std::sscanf(text.c_str(), "%u:%u", &maj, &min) == 2 ? makedev(maj, min) : 0;
}

std::string dev_number_text(dev_t dev) { return std::to_string(major(dev)) + ":" + std::to_string(minor(dev)); }

std::string trim_whitespace(std::string_view text) {
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::optional<std::string> read_sysfs_string(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string content;
  try {
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    // libstdc++'s filebuf throws when read() fails, whatever the stream's
    // exception mask. Some attributes of USB and SAS disks fail every read
    // (ENXIO, EINVAL in a QEMU guest): such an attribute reads as missing.
    return std::nullopt;
  }
  if (in.bad()) return std::nullopt;
  return trim_whitespace(content);
}

std::string read_sysfs_text(const std::filesystem::path& path) { return read_sysfs_string(path).value_or(""); }

}  // namespace ssdprobe
