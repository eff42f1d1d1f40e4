#include "device/whole_disks.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "device/sysfs_text.h"

namespace ssdprobe {

std::vector<std::string> whole_disks(const std::string& sysfs_root) {
  namespace fs = std::filesystem;
  std::vector<std::string> disks;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(sysfs_root) / "block", ec)) {
    const fs::path dir = entry.path();
    const std::string name = dir.filename().string();
    if (!fs::exists(dir / "device", ec) || name.rfind("sr", 0) == 0) continue;
    if (read_sysfs_text(dir / "hidden") == "1") continue;
    const std::string size = read_sysfs_text(dir / "size");
    if (size.empty() || size == "0") continue;
    disks.push_back("/dev/" + name);
  }
  std::sort(disks.begin(), disks.end());
  return disks;
}

}  // namespace ssdprobe
