#include "compare/fleet_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace ssdprobe {

namespace fs = std::filesystem;

FleetFiles find_fleet_files(const std::vector<std::string>& operands) {
  FleetFiles out;
  for (const std::string& operand : operands) {
    std::error_code ec;
    const fs::file_status status = fs::status(operand, ec);
    if (ec || !fs::exists(status)) {
      out.warnings.push_back(fmt::format("{}: does not exist", operand));
      continue;
    }
    if (!fs::is_directory(status)) {
      out.documents.push_back(operand);
      continue;
    }
    fs::recursive_directory_iterator walk(operand, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      out.warnings.push_back(fmt::format("{}: cannot be listed ({})", operand, ec.message()));
      continue;
    }
    for (const fs::recursive_directory_iterator end; walk != end; walk.increment(ec)) {
      if (ec) {
        out.warnings.push_back(fmt::format("{}: cannot be listed ({})", walk->path().string(), ec.message()));
        break;
      }
      if (walk->path().extension() != ".json") continue;
      std::error_code type_ec;
      if (walk->is_regular_file(type_ec)) {
        out.documents.push_back(walk->path().string());
      } else if (walk->is_symlink(type_ec) && !walk->exists(type_ec)) {
        // A result that moved or was deleted under a link: say so rather
        // than compare one drive fewer without a word.
        out.warnings.push_back(fmt::format("{}: a link to nothing (skipped)", walk->path().string()));
      }
    }
  }
  std::sort(out.documents.begin(), out.documents.end());
  out.documents.erase(std::unique(out.documents.begin(), out.documents.end()), out.documents.end());
  return out;
}

}  // namespace ssdprobe
