#include "cli/terminal_width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <string_view>

#include "report/text_wrap.h"

namespace ssdprobe {

size_t text_width_for(int fd) {
  // Narrower than 40 or wider than 1000 columns is a mistake, not a request.
  constexpr size_t kNarrowest = 40, kWidest = 1000;
  if (const char* columns = std::getenv("COLUMNS")) {
    const std::string_view text(columns);
    size_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size() && value >= kNarrowest && value <= kWidest) return value;
  }
  winsize size{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col >= kNarrowest) return size.ws_col;
  return kDefaultTextWidth;
}

}  // namespace ssdprobe
