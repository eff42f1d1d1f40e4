// Names read from a disk (an LVM volume group or logical volume, an md
// array) go into the audit's fix commands only when the tools themselves
// would accept them: a crafted name ("vg;touch$IFS/var/x;:") is then never
// pasted, even quoted, and the fix says in words what stands in its place.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "layout/layout.h"

namespace ssdprobe {

// lvm(8) "Valid names": 1 to 127 of a-z A-Z 0-9 + _ . -, not starting with
// '-', and not "." or "..".
bool lvm_accepts_name(std::string_view name);

// An array name mdadm creates: 1 to 32 characters of the POSIX portable
// filename set (a-z A-Z 0-9 . _ -), not starting with '-', not "." or "..".
bool mdadm_accepts_name(std::string_view name);

// The array's name without its "host:" prefix, as /dev/md/ shows it.
std::string md_short_name(const MdSuperblock& md);

// /dev/md/NAME for an array whose name mdadm accepts; nullopt otherwise.
std::optional<std::string> md_node(const MdSuperblock& md);

// The placeholder that stands for an array whose name is not pasted, and
// the words that say so (the name as read: the text report, the page and
// the JSON escape it as each does).
constexpr const char* kMdPlaceholder = "/dev/mdN";
std::string md_name_refused(const MdSuperblock& md);
// The same for a volume group.
constexpr const char* kVgPlaceholder = "VG";
std::string vg_name_refused(const std::string& vg_name);

}  // namespace ssdprobe
