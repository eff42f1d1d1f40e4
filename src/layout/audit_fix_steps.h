// The fix builders of audit_fix.cc, one file per kind of layer: partition
// starts (audit_fix_partition.cc), md and LVM (audit_fix_volume.cc),
// filesystem settings (audit_fix_fs.cc). Internal to the layout layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "layout/audit.h"
#include "layout/fix_command.h"
#include "layout/volume_names.h"

namespace ssdprobe {

// Where a finding's layer is: the disk, the stack it belongs to, and what
// prices a move.
struct FixTarget {
  const DiskLayout& layout;
  const LayoutStack& stack;
  const AuditUnits& units;
  const FixContext& context;
  FixWord disk;  // the disk's node; for a disk image, the loop device the fix attaches it to
  FixWord node;  // the partition's node, or the disk's when the stack is the whole disk
};

// A step that changes settings in place: one command (layout/fix_command.h).
FixStep in_place(const FixCommand& command, std::string purpose);
// `purpose` with ". Note: NOTE" after it when there is a note (a name from
// the disk that stands as a placeholder, and why).
std::string with_note(std::string purpose, const std::string& note);

// A step the user words (a backup, a restore): no command.
FixStep by_hand(std::string purpose, std::string cost);

// The array's node for a command: /dev/md/NAME, or the placeholder, with
// `why_not` set to why its name was not pasted (layout/volume_names.h).
std::string md_node_for_command(const MdSuperblock& md, std::string& why_not);
// The smallest multiple of 4 KiB, the read page and the write unit at or
// above `value`: what a chunk, stripe or metadata node should be.
uint64_t covering(uint64_t value, const AuditUnits& units);

// lcm(a, b), or nullopt when it does not fit 64 bits (values read from a
// damaged disk: std::lcm would be undefined).
std::optional<uint64_t> checked_lcm(uint64_t a, uint64_t b);

std::vector<FixStep> partition_start_fix(const FixTarget& t);
std::vector<FixStep> kernel_start_fix(const FixTarget& t, int number);
// `what` is the field after the stack's prefix: "md.chunk", "lvm.pe_start"...
std::vector<FixStep> volume_fix(const FixTarget& t, const AuditLine& line, const std::string& what);
std::vector<FixStep> filesystem_fix(const FixTarget& t, const AuditLine& line, const std::string& what);
// Back up, recreate the filesystem with `mkfs`, restore: when no setting
// can be changed in place.
std::vector<FixStep> recreate_filesystem(const FixTarget& t, const FixCommand& mkfs, const std::string& why);

}  // namespace ssdprobe
