#include "firmware/byte_reader.h"

#include <fmt/format.h>

namespace ssdprobe {

std::string clean_ascii(std::string text) {
  for (char& c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == 0) c = ' ';
    else if (byte < 0x20 || byte > 0x7e) c = '?';
  }
  const size_t first = text.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  const size_t last = text.find_last_not_of(' ');
  return text.substr(first, last - first + 1);
}

std::string ByteReader::ascii(size_t offset, size_t length) const {
  if (!has(offset, length)) return {};
  return clean_ascii(std::string(reinterpret_cast<const char*>(bytes_.data() + offset), length));
}

std::string ByteReader::hex(size_t offset, size_t length) const {
  if (!has(offset, length)) return {};
  std::string text;
  text.reserve(length * 2);
  for (size_t i = 0; i < length; ++i) text += fmt::format("{:02x}", bytes_[offset + i]);
  return text;
}

}  // namespace ssdprobe
