#include "core/clock_text.h"

#include <ctime>

namespace ssdprobe {

std::string utc_now_text(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[64];
  const size_t length = std::strftime(text, sizeof text, format, &tm);
  return std::string(text, length);
}

}  // namespace ssdprobe
