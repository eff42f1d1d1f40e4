// The command builders with hostile names and paths: every command ssdprobe
// prints (core/shell_command.h, the recommendations, the audit's fixes),
// split the way a POSIX shell splits it (shell_words.h), must run exactly
// the words the builder meant and nothing else; and every fio job file
// (report/fio_jobs.h) made from a document holding those strings has no
// section or option the builder did not put there.
//
// Input, split on NUL: a selector byte string, then the disk path, the
// partition node, the md array's name, the volume group's name, the logical
// volume's name, and any further fields as the words of a command (the first
// of them its input lines when it starts with '<'). Spaces, quotes, ';',
// '$()', backquotes, newlines and bytes that are not UTF-8 are all fair.
//
// Checked for every rendered command line:
//  - the shell would substitute, glob or assign nothing (no unquoted $ ` * ?
//    [, no ~ or # starting a word, no unterminated quote) but ssdprobe's own
//    variables of the audit's fixes ("$dir", "${loop:?}"p1, set by
//    dir=$(mktemp -d) and loop=$(losetup ...)), resolved first;
//  - its simple commands are joined only by "|" after ssdprobe's own printf
//    and by "&&", and each runs a tool from the builders' list;
//  - render_command gives back exactly its argument list and input lines;
//  - a volume group, logical volume or array name that LVM or mdadm would
//    refuse is never pasted, even quoted: the commands are the same with
//    any other refused name in its place;
//  - a fio job file's lines are blank, "# " comments, or the builder's own
//    sections and options (fio runs exec_prerun= even with --readonly).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/recommend.h"
#include "core/shell_command.h"
#include "fio_job_lines.h"
#include "fuzz_target.h"
#include "layout/audit.h"
#include "layout/volume_names.h"
#include "report/fio_jobs.h"
#include "shell_words.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

const std::set<std::string>& tools() {
  static const std::set<std::string> names{
      "printf", "sfdisk",   "partx",    "e2fsck",   "xfs_repair", "mdadm",     "pvcreate",   "vgextend",
      "pvmove", "vgreduce", "pvremove", "vgchange", "lvconvert",  "tune2fs",   "mkdir",      "mount",
      "umount", "parted",   "sgdisk",   "vgcreate", "lvcreate",   "zpool",     "mkfs.xfs",   "mkfs.ext4",
      "mkfs.ext2", "mkfs.ext3", "mkfs.f2fs", "mkfs.btrfs", "mkfs.vfat", "mktemp", "rmdir", "losetup",
      "vgremove"};
  return names;
}

// The first ')' at or after `from` outside single quotes, or npos.
size_t unquoted_close(const std::string& line, size_t from) {
  for (size_t i = from; i < line.size(); ++i) {
    if (line[i] == '\'') {
      i = line.find('\'', i + 1);
      if (i == std::string::npos) return i;
    } else if (line[i] == ')') {
      return i;
    }
  }
  return std::string::npos;
}

// The shell variables of ssdprobe's own that the audit's fixes set and use
// (layout/fix_command.h): "NAME=$(COMMAND)" starting a command, "$NAME" and
// "${NAME:?}" as a word or its start. Each is replaced by what it stands
// for before the line is checked: an assignment by its command, a use by a
// plain word. A $ anywhere else still fails the check, and a name's words
// are always quoted, so none of these forms can come from a name.
std::string own_variables_resolved(std::string line) {
  for (const std::string name : {"dir", "loop"}) {
    for (const std::string& use : {"\"$" + name + "\"", "\"${" + name + ":?}\""}) {
      for (size_t at = line.find(use); at != std::string::npos; at = line.find(use, at)) {
        line.replace(at, use.size(), "/dev/" + name);
      }
    }
    const std::string assign = name + "=$(";
    for (size_t at = line.find(assign); at != std::string::npos; at = line.find(assign, at + 1)) {
      if (at != 0 && (at < 4 || line.compare(at - 4, 4, " && ") != 0)) continue;
      const size_t close = unquoted_close(line, at + assign.size());
      if (close == std::string::npos) break;  // left as it is: the check fails on it
      line.erase(close, 1);
      line.erase(at, assign.size());
    }
  }
  return line;
}

// Checks one command line the builders made; returns its simple commands.
std::vector<shell_words::Simple> checked(const std::string& printed) {
  const std::string line = own_variables_resolved(printed);
  const shell_words::Split split = shell_words::split(line);
  if (split.expands) std::fprintf(stderr, "command: %s\nwhy: %s\n", line.c_str(), split.why.c_str());
  FUZZ_CHECK(!split.expands);
  const auto commands = shell_words::simple_commands(split);
  for (const auto& simple : commands) {
    FUZZ_CHECK(!simple.argv.empty());
    if (tools().count(simple.argv[0]) == 0) std::fprintf(stderr, "command: %s\n", line.c_str());
    FUZZ_CHECK(tools().count(simple.argv[0]) == 1);
    FUZZ_CHECK(simple.ended_by.empty() || simple.ended_by == "&&" ||
               (simple.ended_by == "|" && simple.argv[0] == "printf"));
  }
  return commands;
}

// A ShellCommand from the remaining fields renders to a line that gives it back.
void round_trip(const std::vector<std::string>& fields) {
  if (fields.empty()) return;
  ShellCommand command;
  size_t first = 0;
  if (fields[0].starts_with("<")) {
    command.input_lines = {fields[0].substr(1)};
    first = 1;
  }
  command.argv.assign(fields.begin() + static_cast<long>(std::min(first, fields.size())), fields.end());
  if (command.argv.empty()) return;
  const std::string line = render_command(command);
  const shell_words::Split split = shell_words::split(line);
  FUZZ_CHECK(!split.expands);
  const auto simple = shell_words::simple_commands(split);
  std::vector<std::string> expected_printf{"printf", "%s\\n"};
  if (!command.input_lines.empty()) {
    expected_printf.push_back(command.input_lines[0]);
    FUZZ_CHECK(simple.size() == 2);
    FUZZ_CHECK(simple[0].argv == expected_printf && simple[0].ended_by == "|");
    FUZZ_CHECK(simple[1].argv == command.argv);
  } else {
    FUZZ_CHECK(simple.size() == 1);
    FUZZ_CHECK(simple[0].argv == command.argv);
  }
}

struct Names {
  std::string disk = "/dev/sdb", node = "/dev/sdb1", md = "data", vg = "vg0", lv = "root";
};

DiskLayout hostile_layout(const Names& n, uint8_t shape) {
  DiskLayout d;
  d.disk_path = n.disk;
  d.disk_size_bytes = 512 * MiB;
  d.table = PartitionTable{};
  d.table->scheme = shape & 1 ? "gpt" : "dos";
  d.table->sector_bytes = 512;
  LayoutStack s;
  const uint64_t start = shape & 2 ? 63 * 512 : 1536;  // misaligned: every layer gets a fix
  s.partition = PartitionEntry{1, start, 128 * MiB, "0x83", "", false};
  s.node = n.node;
  s.start_disk_offset = start;
  s.size_bytes = 128 * MiB;
  d.table->partitions.push_back(*s.partition);
  if (shape & 4) {
    MdSuperblock md;
    md.data_offset_bytes = 3 * KiB;
    md.data_size_bytes = 100 * MiB;
    md.chunk_bytes = 12 * KiB;
    md.level = 5;
    md.raid_disks = 3;
    md.name = "host:" + n.md;
    s.md = md;
  }
  if (shape & 8) {
    LvmPhysicalVolume pv;
    pv.pe_start_bytes = 192 * KiB + 512;
    pv.extent_bytes = 4 * MiB + 4 * KiB;
    pv.vg_name = n.vg;
    LvmSegment segment;
    segment.lv_name = n.lv;
    segment.pv_start_extent = 1;
    segment.extent_count = 10;
    segment.stripes = shape & 16 ? 2 : 1;
    segment.stripe_bytes = shape & 16 ? 12 * KiB : 0;
    pv.segments = {segment};
    s.lvm = pv;
  }
  static const char* const kTypes[] = {"ext4", "xfs", "f2fs", "btrfs"};
  FilesystemInfo fs;
  fs.type = kTypes[(shape >> 5) & 3];
  fs.block_bytes = 1024;
  fs.stripe_unit_bytes = 12 * KiB;
  fs.stripe_width_bytes = 24 * KiB;
  fs.segment_bytes = 2 * MiB;
  fs.node_bytes = 12 * 1024;
  s.filesystem = fs;
  s.filesystem_container = s.lvm ? "lvm:" + n.lv : s.md ? "md" : "partition";
  s.filesystem_disk_offset = start;
  d.stacks = {s};
  return d;
}

// Every fix command of the hostile layout, each checked.
std::vector<std::string> fix_commands(const Names& n, uint8_t shape) {
  AuditUnits units;
  units.read_page = 16 * KiB;
  units.write_unit = 48 * KiB;
  units.erase_block = 24 * MiB;
  LayoutAudit audit = audit_layout(hostile_layout(n, shape), units);
  attach_fixes(audit, {});
  std::vector<std::string> commands;
  for (const AuditLine& line : audit.lines) {
    for (const FixStep& step : line.fix) {
      if (step.command.empty()) continue;
      checked(step.command);
      commands.push_back(step.command);
    }
  }
  return commands;
}

// A name LVM or mdadm would refuse is never pasted, even quoted: the
// commands are then the same whatever that name is (the same layout with
// another refused name in its place gives the same command lines).
void check_audit_fixes(const Names& n, uint8_t shape) {
  const std::vector<std::string> commands = fix_commands(n, shape);
  Names other = n;
  if (!lvm_accepts_name(n.vg) && !n.vg.empty()) other.vg = "another;vg";
  if (!lvm_accepts_name(n.lv) && !n.lv.empty()) other.lv = "another;lv";
  if (!mdadm_accepts_name(n.md) && !n.md.empty()) other.md = "another;md";
  if (other.vg == n.vg && other.lv == n.lv && other.md == n.md) return;
  const std::vector<std::string> without = fix_commands(other, shape);
  if (commands != without) {
    for (size_t i = 0; i < std::min(commands.size(), without.size()); ++i) {
      if (commands[i] != without[i]) std::fprintf(stderr, "%s\n  against\n%s\n", commands[i].c_str(), without[i].c_str());
    }
  }
  FUZZ_CHECK(commands == without);
}

void check_recommendations(const Names& n, uint8_t shape) {
  GeometryForRecommendation g;
  g.read_page = 16 * KiB;
  if (shape & 1) g.write_unit = 48 * KiB;
  if (shape & 2) g.erase_block = 24 * MiB;
  StackForRecommendation stack;
  if (shape & 4) {
    stack.md = MdStripe{};
    stack.md->level = 5;
    stack.md->member_count = 3;
  }
  if (shape & 8) {
    stack.lvm = LvmStripe{};
    stack.lvm->physical_volumes = 2;
  }
  stack.other_disks = {n.md, n.vg};  // more user-given paths
  const Recommendations r = recommend(g, stack, n.disk, n.node, shape & 16);
  for (const RecommendedCommand& step : r.steps) checked(step.command);
  for (const BlockSizeAdvice& item : r.block_size_advice) {
    if (!item.command.empty()) checked(item.command);
  }
}

// The job file of a timed run on `n.disk` whose model, serial, firmware,
// host, engine and start hold the other hostile fields.
void check_fio_jobs(const Names& n) {
  using nlohmann::json;
  const json doc = {
      {"schema", "ssdprobe/1"},
      {"hostname", n.md},
      {"started_at", n.lv},
      {"tool", {{"version", n.node}}},
      {"target", {{"path", n.disk}, {"kind", "block"}, {"model", n.vg}, {"serial", n.lv}, {"firmware", n.md},
                  {"size_bytes", 64 * MiB}}},
      {"options", {{"seed", 7}, {"engine", "auto"}}},
      {"run", {{"engine", n.node}, {"read_region", {{"offset", 0}, {"length", 0}, {"source", n.vg}}}}},
      {"detected", {{"read_page", {{"state", "found"}, {"bytes", 16 * KiB}, {"confidence", 0.99}}},
                    {"parallelism", {{"queue_depth_knee", {{"state", n.md}, {"evidence", n.lv}}}}}}},
      {"parallelism_probe", {{"read_bytes", 4096}, {"queue_depths", json::array({{{"queue_depth", 4}, {"iops", 1e5}}})}}},
      {"grids", json::array({{{"name", n.vg}, {"sizes", {16384}}, {"offsets", {0, 8192}},
                              {"median_us", {{90.0, 120.0}}}}})},
  };
  std::string text;
  try {
    text = fio_job_file(doc.dump(-1, ' ', false, json::error_handler_t::replace), {n.node, 0.5, true});
  } catch (const Error&) {
    return;  // a path fio would misread is refused
  }
  for (const std::string& line : test_support::foreign_fio_lines(text)) std::fprintf(stderr, "job file line %s\n", line.c_str());
  FUZZ_CHECK(test_support::foreign_fio_lines(text).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> fields(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      fields.emplace_back();
    } else {
      fields.back().push_back(static_cast<char>(data[i]));
    }
  }
  const uint8_t shape = fields[0].empty() ? 0 : static_cast<uint8_t>(fields[0][0]);
  Names n;
  std::string* slots[] = {&n.disk, &n.node, &n.md, &n.vg, &n.lv};
  for (size_t i = 0; i < std::size(slots) && i + 1 < fields.size(); ++i) *slots[i] = fields[i + 1];
  try {
    check_audit_fixes(n, shape);
    check_recommendations(n, shape);
  } catch (const Error&) {
    // a builder's documented refusal
  }
  check_fio_jobs(n);
  if (fields.size() > 6) round_trip({fields.begin() + 6, fields.end()});
  return 0;
}
