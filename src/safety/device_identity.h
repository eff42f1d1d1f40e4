// Binds a journal to the exact device it was made for, and says how a
// device differs from a journal's binding. Names move (/dev/loop0 is another
// file after losetup -d and a re-attach; sdb becomes sdc after a reboot), so
// a path is never enough: size, logical block, serial, WWID, partition start
// and, for loop devices and files, the backing file's device and inode must
// all match too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "device/target.h"
#include "safety/journal.h"

namespace ssdprobe {

// The identity of `target`, open at `device_fd`, for a write window.
// `region_given`: the window came from --region (it may touch the first or
// last MiB). Reads fstat, sysfs and, for loop devices, LOOP_GET_STATUS64.
JournalIdentity identity_of(const Target& target, int device_fd, const Region& window, bool region_given,
                            const std::string& sysfs_root = "/sys");

// One line per field where `now` differs from `journaled`, naming the field
// and both values. With `device_named` (restore --device PATH) the path and
// device numbers are not compared: the user has said where the drive is now.
// A version 1 journal (no canonical path) binds only size and, where both
// are known, serial.
std::vector<std::string> identity_differences(const JournalIdentity& journaled, const JournalIdentity& now,
                                              bool device_named);

// Why nothing proves `now` is the device a version 1 journal was made for,
// or nullopt when something does (a version 2 journal binds the device's
// numbers, backing file and WWID). A version 1 journal binds only the size
// and the serial, and loop and virtio devices have no serial: a loop device
// re-attached to another file of the same size matches it. restore then
// needs --force.
std::optional<std::string> unproven_version1_binding(const JournalIdentity& journaled, const JournalIdentity& now);

// Do the write windows of two identities share a byte of storage? They do
// when they overlap in disk coordinates on one disk (a partition's window
// against its disk's), or in the coordinates of one backing file: a file
// target, and loop devices over that file at their offsets, are the same
// bytes under several names.
bool windows_share_storage(const JournalIdentity& a, const JournalIdentity& b);

}  // namespace ssdprobe
