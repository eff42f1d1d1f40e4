#include "report/text_wrap.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace ssdprobe {

size_t text_columns(std::string_view text) {
  size_t columns = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++columns;  // not a continuation byte
  }
  return columns;
}

namespace {

// "16 KiB", "49.80 us": a number and its unit stay on one line.
bool is_unit(std::string_view word) {
  for (const char* unit : {"B", "KiB", "MiB", "GiB", "TiB", "us", "ms", "s", "%"}) {
    if (word == unit || (word.size() > std::string_view(unit).size() && word.rfind(unit, 0) == 0 &&
                         !std::isalnum(static_cast<unsigned char>(word[std::string_view(unit).size()])))) {
      return true;  // also "KiB," and "us)"
    }
  }
  return false;
}

}  // namespace

std::string wrapped(std::string_view first, std::string_view text, size_t width, size_t hang) {
  std::string out(first);
  size_t column = text_columns(first);
  const size_t floor = hang + 20;  // never fold into a column narrower than this
  const size_t limit = width == 0 ? SIZE_MAX : std::max(width, floor);
  bool line_has_word = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t space = text.find(' ', at);
    while (space != std::string_view::npos && space > at && std::isdigit(static_cast<unsigned char>(text[space - 1]))) {
      const size_t next_end = std::min(text.find(' ', space + 1), text.size());
      if (!is_unit(text.substr(space + 1, next_end - space - 1))) break;
      space = next_end == text.size() ? std::string_view::npos : next_end;
    }
    const size_t end = space == std::string_view::npos ? text.size() : space;
    const std::string_view word = text.substr(at, end - at);
    const size_t need = text_columns(word) + (line_has_word ? 1 : 0);
    if (line_has_word && column + need > limit) {
      out += "\n" + std::string(hang, ' ');
      column = hang;
      line_has_word = false;
    }
    if (line_has_word) {
      out += ' ';
      ++column;
    }
    out += word;
    column += text_columns(word);
    line_has_word = line_has_word || !word.empty();
    at = end == text.size() ? end : end + 1;
  }
  return out + "\n";
}

}  // namespace ssdprobe
