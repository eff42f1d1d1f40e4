#include "layout/volume_names.h"

#include <fmt/format.h>


namespace ssdprobe {
namespace {

bool in_set(char c, std::string_view extra) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         extra.find(c) != std::string_view::npos;
}

bool name_of(std::string_view name, size_t longest, std::string_view extra) {
  if (name.empty() || name.size() > longest || name.front() == '-' || name == "." || name == "..") return false;
  for (char c : name) {
    if (!in_set(c, extra)) return false;
  }
  return true;
}

}  // namespace

bool lvm_accepts_name(std::string_view name) { return name_of(name, 127, "+_.-"); }

bool mdadm_accepts_name(std::string_view name) { return name_of(name, 32, "._-"); }

std::string md_short_name(const MdSuperblock& md) {
  const auto colon = md.name.find(':');
  return colon == std::string::npos ? md.name : md.name.substr(colon + 1);
}

std::optional<std::string> md_node(const MdSuperblock& md) {
  const std::string name = md_short_name(md);
  if (!mdadm_accepts_name(name)) return std::nullopt;
  return "/dev/md/" + name;
}

std::string md_name_refused(const MdSuperblock& md) {
  return fmt::format("the array's name on the disk, \"{}\", is not one mdadm accepts (letters, digits, . _ -), so it "
                     "is not pasted into the command: {} stands for the array's node (cat /proc/mdstat names it)",
                     md_short_name(md), kMdPlaceholder);
}

std::string vg_name_refused(const std::string& vg_name) {
  return fmt::format("the volume group's name on the disk, \"{}\", is not one LVM accepts (letters, digits, + _ . -), "
                     "so it is not pasted into the command: {} stands for it (vgs -o vg_name,vg_uuid lists it; "
                     "vgrename UUID NEWNAME gives it a valid name)", vg_name, kVgPlaceholder);
}

}  // namespace ssdprobe
