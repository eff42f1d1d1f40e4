#include "device/nvme_paths.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>
#include <system_error>
#include <vector>

#include "device/sysfs_text.h"

namespace ssdprobe {

namespace fs = std::filesystem;

namespace {

enum class NameKind { namespace_disk, generic, controller };

struct ParsedName {
  NameKind kind;
  std::string disk;       // nvme<X>n<Y>
  std::string generic;    // ng<X>n<Y>
  std::string partition;  // the name itself for a partition
};

std::optional<ParsedName> parse_name(const std::string& name) {
  static const std::regex ns(R"(nvme(\d+)n(\d+)(p\d+)?)");
  static const std::regex ng(R"(ng(\d+)n(\d+))");
  static const std::regex ctrl(R"(nvme\d+)");
  std::smatch m;
  if (std::regex_match(name, m, ns)) {
    const std::string x = m[1], y = m[2];
    return ParsedName{NameKind::namespace_disk, "nvme" + x + "n" + y, "ng" + x + "n" + y,
                      m[3].matched ? name : std::string()};
  }
  if (std::regex_match(name, m, ng)) {
    const std::string x = m[1], y = m[2];
    return ParsedName{NameKind::generic, "nvme" + x + "n" + y, name, {}};
  }
  if (std::regex_match(name, ctrl)) return ParsedName{NameKind::controller, {}, {}, {}};
  return std::nullopt;
}

bool path_exists(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

std::optional<uint32_t> read_u32(const fs::path& path) {
  const std::string text = read_sysfs_text(path);
  uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// Entries of `dir` whose names match `pattern`, in natural order (nvme2 before nvme10).
std::vector<std::string> matching_entries(const fs::path& dir, const std::regex& pattern) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (std::regex_match(name, pattern)) names.push_back(name);
  }
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return names;
}

// The controller behind a `device` link: "nvme0", or for a multipath head
// (link to nvme-subsysN) its first live controller; "" if unknown.
std::string controller_of(const fs::path& device_link) {
  std::error_code ec;
  const fs::path target = fs::canonical(device_link, ec);
  if (ec) return {};
  const std::string name = target.filename().string();
  static const std::regex ctrl(R"(nvme\d+)");
  if (std::regex_match(name, ctrl)) return name;
  if (!name.starts_with("nvme-subsys")) return {};
  const auto controllers = matching_entries(target, ctrl);
  for (const auto& c : controllers) {
    const std::string state = read_sysfs_text(target / c / "state");
    if (state.empty() || state == "live") return c;
  }
  return {};
}

// The first namespace disk of controller `ctrl`: listed under the
// controller, or under its subsystem when the namespaces are multipath heads.
std::string first_namespace_of(const std::string& ctrl, const fs::path& sysfs) {
  static const std::regex disk(R"(nvme\d+n\d+)");
  auto direct = matching_entries(sysfs / "class" / "nvme" / ctrl, disk);
  if (!direct.empty()) return direct.front();
  static const std::regex subsys(R"(nvme-subsys\d+)");
  const fs::path subsystems = sysfs / "class" / "nvme-subsystem";
  for (const auto& s : matching_entries(subsystems, subsys)) {
    if (!path_exists(subsystems / s / ctrl)) continue;
    auto heads = matching_entries(subsystems / s, disk);
    if (!heads.empty()) return heads.front();
  }
  return {};
}

void fill_from_disk(NvmeTarget& t, const fs::path& sysfs) {
  const fs::path block = sysfs / "block" / t.namespace_disk;
  if (!path_exists(block)) {
    t.namespace_disk.clear();
    return;
  }
  if (t.controller.empty()) t.controller = controller_of(block / "device");
  t.nsid = read_u32(block / "nsid");
}

}  // namespace

std::string device_name_of(const std::string& path) {
  std::error_code ec;
  const fs::path resolved = fs::canonical(path, ec);
  return (ec ? fs::path(path) : resolved).filename().string();
}

std::optional<NvmeTarget> resolve_nvme_target(const std::string& path, const std::string& sysfs_root) {
  const std::string name = device_name_of(path);
  const auto parsed = parse_name(name);
  if (!parsed) return std::nullopt;
  const fs::path sysfs(sysfs_root);
  NvmeTarget t;
  if (parsed->kind == NameKind::controller) {
    t.controller = name;
    t.namespace_disk = first_namespace_of(name, sysfs);
    if (t.namespace_disk.empty()) return t;
    t.generic = "ng" + t.namespace_disk.substr(4);
  } else {
    t.namespace_disk = parsed->disk;
    t.generic = parsed->generic;
    t.partition = parsed->partition;
  }
  const fs::path generic_dir = sysfs / "class" / "nvme-generic" / t.generic;
  if (!path_exists(generic_dir)) t.generic.clear();
  else if (t.controller.empty()) t.controller = controller_of(generic_dir / "device");
  fill_from_disk(t, sysfs);
  return t;
}

}  // namespace ssdprobe
