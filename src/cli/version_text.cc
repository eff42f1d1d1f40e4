#include "cli/version_text.h"

#include <fmt/format.h>

#include "ssdprobe_revision.h"
#include "ssdprobe_version.h"

namespace ssdprobe {

std::string version_text() {
  const std::string revision = SSDPROBE_REVISION;
  return fmt::format("ssdprobe {}{}", SSDPROBE_VERSION, revision.empty() ? "" : " (git " + revision + ")");
}

}  // namespace ssdprobe
