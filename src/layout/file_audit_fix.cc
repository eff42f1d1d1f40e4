// The fix for a file whose data is misaligned (file_audit.h). A file's
// extents are placed by its filesystem, so the fix is a setting that makes
// the filesystem place data on the unit, then a copy that writes the data
// again under it: xfs's extent size hint (per file or inherited from the
// directory), ext4's bigalloc cluster (only at mkfs time). Commands are
// argument lists (layout/fix_command.h), printed, never run.
#include <fmt/format.h>

#include <numeric>

#include "core/output.h"
#include "core/units.h"
#include "layout/audit_fix_steps.h"
#include "layout/file_audit.h"

namespace ssdprobe {
namespace {

// A path as a command's operand: one that starts with '-' would be read as
// an option by xfs_io, which takes no "--".
std::string operand(const std::string& path) { return path.starts_with("-") ? "./" + path : path; }

std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The unit every extent should be a multiple of: lcm of those checked.
uint64_t wanted_unit(const FileExtentsAudit& files) {
  uint64_t unit = 4096;
  for (const ExtentUnit& u : files.units) unit = checked_lcm(unit, u.bytes).value_or(unit);
  return unit;
}

FixStep extsize_step(const std::string& path, uint64_t unit, bool create, std::string purpose) {
  std::vector<FixWord> words = {"xfs_io"};
  if (create) words.emplace_back("-f");
  words.emplace_back("-c");
  words.emplace_back(fmt::format("extsize {}", unit));
  words.emplace_back(operand(path));
  return in_place(FixCommand(words), std::move(purpose));
}

// xfs puts a new extent's start on its stripe unit (the extent size hint
// only rounds lengths and file offsets: tested, a hinted copy on a
// filesystem without one started off the unit), and keeps a stripe unit
// from a mount that gives one: unmounted, mounted once with it on a
// directory of its own, mounted again.
// A mount sets a stripe unit only on an xfs made with one (Linux: "cannot
// change alignment: superblock does not support data alignment") and only
// one that divides the allocation group ("alignment check failed:
// sunit/swidth vs. agsize"): otherwise only mkfs.xfs can set it.
bool mount_can_set_stripe(const FileFilesystem& fs, uint64_t unit) {
  return fs.stripe_unit_bytes && fs.allocation_group_bytes && *fs.allocation_group_bytes % unit == 0;
}

// A filesystem made again with the setting that places data on the unit:
// a full backup, the mkfs (which destroys the data), the restore.
std::vector<FixStep> recreate_steps(std::string backup, FixCommand mkfs_command, std::string mkfs_purpose,
                                    std::string restore) {
  std::vector<FixStep> steps;
  steps.push_back(by_hand(std::move(backup), "a full backup"));
  FixStep mkfs = in_place(std::move(mkfs_command), std::move(mkfs_purpose));
  mkfs.destroys_data = true;
  mkfs.cost = "destroys the filesystem's data";
  steps.push_back(std::move(mkfs));
  steps.push_back(by_hand(std::move(restore), "restores everything"));
  return steps;
}

std::vector<FixStep> xfs_mkfs_steps(const FileFilesystem& fs, uint64_t unit) {
  const std::string why = fs.stripe_unit_bytes
                              ? fmt::format("the allocation group ({}) is not a multiple of it",
                                            format_size(fs.allocation_group_bytes.value_or(0)))
                              : std::string("the filesystem was made without a stripe unit");
  return recreate_steps(fmt::format("xfs starts new extents on its stripe unit, and a mount cannot set one of {} "
                                    "here: {}. Back up everything on {} and unmount it", format_size(unit), why,
                                    printable(fs.device)),
                        FixCommand({"mkfs.xfs", "-f", "-d", fmt::format("su={}k,sw=1", unit / 1024), fs.device}),
                        "recreate the filesystem with a stripe unit of the unit (mkfs sizes the groups to it)",
                        "mount it and restore the backup: every file is written anew on the unit");
}

std::vector<FixStep> xfs_stripe_steps(const FileFilesystem& fs, uint64_t unit) {
  const std::string options = fmt::format("sunit={},swidth={}", unit / 512, unit / 512);
  FixCommand make_dir{{"mktemp", "-d"}};
  make_dir.assigns = "dir";
  const FixWord dir = FixWord::variable("dir");
  std::vector<FixStep> steps;
  steps.push_back(by_hand(fmt::format("stop what uses the filesystem and unmount {}: xfs takes a stripe unit only "
                                      "when mounted", printable(fs.device)), "writes nothing"));
  steps.push_back({render_fix({make_dir, {{"mount", "-o", options, fs.device, dir}}, {{"umount", dir}},
                               {{"rmdir", dir}}}),
                   fmt::format("mount it once with {} (now: {}), which writes a stripe unit of {} to the superblock: "
                               "from then on xfs starts new extents on it. The disk's audit calls a stripe unit with "
                               "no RAID below a warning (space is rounded to it); for files on this drive it is the "
                               "unit their data should sit on", options,
                               fs.stripe_unit_bytes ? format_size(*fs.stripe_unit_bytes) : std::string("none"),
                               format_size(unit)),
                   false, false, "in place, no data moved"});
  steps.push_back(by_hand("mount the filesystem again where it was", "writes nothing"));
  return steps;
}

// A step given with an earlier file's fix, in words pointing to it.
FixStep given_above(const std::string& field, const std::string& what) {
  return by_hand(fmt::format("{} (the fix of {} above does it once for every file)", what, field), "writes nothing");
}

// The filesystem's own steps, given with the first file and pointed to by
// the others.
std::vector<FixStep> filesystem_steps_once(std::vector<FixStep> steps, std::string what, const std::string& field,
                                           FileFixesGiven& given) {
  if (!given.filesystem_steps_field.empty()) {
    return {given_above(given.filesystem_steps_field, given.filesystem_steps_what)};
  }
  given.filesystem_steps_field = field;
  given.filesystem_steps_what = std::move(what);
  return steps;
}

// xfs: the stripe unit where it misses the unit, the hint on the directory
// for new files, then the file copied into a new file that has the hint
// before any data, renamed over the old one.
std::vector<FixStep> xfs_fix(const FileFilesystem& fs, const FileExtentReport& f, uint64_t unit,
                             const std::string& field, FileFixesGiven& given) {
  const std::string copy = f.path + ".ssdprobe-aligned";
  const std::string size = format_size(f.judgement.file_bytes);
  std::vector<FixStep> steps;
  if (!fs.stripe_unit_bytes || *fs.stripe_unit_bytes % unit != 0) {
    // Restored from a backup onto a new filesystem, every file is written anew: no copy needed.
    if (!mount_can_set_stripe(fs, unit)) {
      return filesystem_steps_once(xfs_mkfs_steps(fs, unit),
                                   fmt::format("recreate the filesystem with a stripe unit of {}", format_size(unit)),
                                   field, given);
    }
    steps = filesystem_steps_once(xfs_stripe_steps(fs, unit),
                                  fmt::format("give the filesystem a stripe unit of {}", format_size(unit)), field,
                                  given);
  }
  const std::string directory = parent_of(f.path);
  const auto hinted = given.hinted_directories.find(directory);
  if (hinted == given.hinted_directories.end()) {
    given.hinted_directories.emplace(directory, field);
    steps.push_back(extsize_step(directory, unit, false,
                                 fmt::format("give the directory an extent size hint of {}: files created in it "
                                             "from now on inherit it and get their space in multiples of {}",
                                             format_size(unit), format_size(unit))));
  } else {
    steps.push_back(given_above(hinted->second, fmt::format("give {} an extent size hint of {}", printable(directory),
                                                            format_size(unit))));
  }
  steps.push_back(by_hand("stop whatever writes the file (a database, a VM) until the rename below; the copy "
                          "needs " + size + " free on this filesystem", "writes nothing"));
  steps.push_back(extsize_step(copy, unit, true,
                               "create an empty file beside it with the hint (xfs sets a hint only on a file that "
                               "holds no data yet)"));
  FixStep cp = in_place(FixCommand({"cp", "--reflink=never", "--preserve=mode,ownership,timestamps", "--",
                                    f.path, copy}),
                        "copy the data into it: written anew, it is placed in multiples of the hint "
                        "(--reflink=never: a reflinked copy would share the old extents)");
  cp.moves_data = true;
  cp.cost = "copies " + size;
  steps.push_back(std::move(cp));
  steps.push_back(in_place(FixCommand({"mv", "-T", "--", copy, f.path}),
                           "put the copy in the file's place (a rename: the old extents are freed)"));
  return steps;
}

// ext4: a cluster is the allocation unit only with bigalloc, chosen at
// mkfs time: advice, with the filesystem's data backed up and restored.
std::vector<FixStep> ext4_fix(const FileExtentsAudit& files, uint64_t unit) {
  const FileFilesystem& fs = files.filesystem;
  const std::string device = fs.device.empty() ? std::string("DEVICE") : fs.device;
  return recreate_steps(fmt::format("ext4 has no per-file placement hint; only a filesystem made with bigalloc "
                                    "clusters of {} (now: {}) places every file's data in multiples of it. Back "
                                    "up everything on {} and unmount it", format_size(unit),
                                    fs.cluster_bytes ? format_size(*fs.cluster_bytes) : std::string("no bigalloc"),
                                    printable(device)),
                        FixCommand({"mkfs.ext4", "-O", "bigalloc", "-C", std::to_string(unit), device}),
                        "recreate the filesystem with clusters of the unit (at mkfs time only)",
                        "mount it and restore the backup: every file is written anew on whole clusters");
}

}  // namespace

std::vector<FixStep> file_extent_fix(const FileExtentsAudit& files, const FileExtentReport& f,
                                     const std::string& field, FileFixesGiven& given) {
  const FileFilesystem& fs = files.filesystem;
  const uint64_t unit = wanted_unit(files);
  if (fs.disk_start % unit != 0) {
    // Every place the filesystem chooses is off by the partition's start.
    FixStep audit_disk = in_place(FixCommand({"ssdprobe", "audit", fs.disk}),
                     fmt::format("{} starts {} past a boundary of {} on {}: every extent of every file is off by "
                                 "that much, whatever the filesystem does; the partition's start is what to fix, "
                                 "and the disk's audit gives the move", printable(fs.device),
                                 format_size(fs.disk_start % unit), format_size(unit), printable(fs.disk)));
    audit_disk.cost = "writes nothing";
    return filesystem_steps_once({audit_disk}, fmt::format("move {}'s start", printable(fs.device)), field, given);
  }
  if (fs.type == "xfs") return xfs_fix(fs, f, unit, field, given);
  if (fs.type == "ext4") {
    return filesystem_steps_once(ext4_fix(files, unit),
                                 fmt::format("recreate the filesystem with bigalloc clusters of {}", format_size(unit)),
                                 field, given);
  }
  return {by_hand(fmt::format("{} has no setting that places a file's data in multiples of {}, and copying the "
                              "file places it as the filesystem likes: keep such files on xfs (an extent size hint) "
                              "or ext4 made with bigalloc", fs.type, format_size(unit)),
                  "writes nothing")};
}

}  // namespace ssdprobe
