#include "plot/picture_mark.h"

#include <array>
#include <cstdint>

#include "report/output_kinds.h"

namespace ssdprobe {
namespace {

constexpr size_t kSignatureBytes = 8;
// The header chunk: length (4), type "IHDR" (4), 13 bytes of data, CRC (4).
constexpr size_t kHeaderChunkEnd = kSignatureBytes + 4 + 4 + 13 + 4;

std::array<uint32_t, 256> crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

void append_be32(std::string& out, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xff);
}

// A tEXt chunk: length, type, keyword NUL text, CRC over type and data.
std::string text_chunk(const std::string& keyword, const std::string& text) {
  const std::string type_and_data = "tEXt" + keyword + '\0' + text;
  std::string chunk;
  append_be32(chunk, static_cast<uint32_t>(type_and_data.size() - 4));
  chunk += type_and_data;
  append_be32(chunk, png_crc32(type_and_data));
  return chunk;
}

std::string marked_png(std::string bytes) {
  if (bytes.size() < kHeaderChunkEnd || bytes.compare(kSignatureBytes + 4, 4, "IHDR") != 0) return bytes;
  bytes.insert(kHeaderChunkEnd, text_chunk("Software", kPictureMaker));
  return bytes;
}

std::string marked_svg(std::string bytes) {
  const std::string comment = std::string("<!-- made by ") + kPictureMaker + " -->\n";
  size_t at = 0;
  if (bytes.starts_with("<?xml")) {
    const size_t end = bytes.find("?>");
    if (end == std::string::npos) return bytes;
    at = bytes.find('\n', end);
    at = at == std::string::npos ? end + 2 : at + 1;
  }
  bytes.insert(at, comment);
  return bytes;
}

}  // namespace

uint32_t png_crc32(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = crc_table();
  uint32_t c = 0xffffffffU;
  for (unsigned char byte : bytes) c = table[(c ^ byte) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffU;
}

std::string marked_picture(std::string bytes, ImageFormat format) {
  return format == ImageFormat::png ? marked_png(std::move(bytes)) : marked_svg(std::move(bytes));
}

}  // namespace ssdprobe
