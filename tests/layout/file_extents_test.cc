// A file's extents judged against the units (layout/file_extents.h) on
// hand-made FIEMAP arrays: which bytes are misaligned to which unit, how
// contiguous extents merge, the file's tail, holes, and the extent kinds
// that are counted apart; and the fix each filesystem gets.
#include <linux/fiemap.h>

#include <algorithm>
#include <cstdint>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "layout/file_audit.h"
#include "layout/file_extents.h"
#include "report/audit_render.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

const std::vector<ExtentUnit> kUnits = {{"4 KiB", 4 * KiB, Severity::error},
                                        {"read page", 16 * KiB, Severity::warning},
                                        {"write unit", 64 * KiB, Severity::warning}};

const UnitShare& share_of(const ExtentJudgement& j, const std::string& unit) {
  for (const auto& s : j.shares) {
    if (s.unit.name == unit) return s;
  }
  FAIL("no share for " << unit);
  return j.shares.front();
}

}  // namespace

TEST_CASE("extent flags classify what is judged and what is counted apart") {
  CHECK(classify_extent(0) == ExtentKind::data);
  CHECK(classify_extent(FIEMAP_EXTENT_LAST | FIEMAP_EXTENT_MERGED | FIEMAP_EXTENT_SHARED) == ExtentKind::data);
  CHECK(classify_extent(FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC) == ExtentKind::delalloc);
  CHECK(classify_extent(FIEMAP_EXTENT_UNKNOWN) == ExtentKind::unknown);
  CHECK(classify_extent(FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_ENCRYPTED) == ExtentKind::encoded);
  CHECK(classify_extent(FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED) == ExtentKind::inline_data);
  CHECK(classify_extent(FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED) == ExtentKind::not_aligned);
  CHECK(classify_extent(FIEMAP_EXTENT_UNWRITTEN) == ExtentKind::unwritten);
  CHECK(extent_kind_reason(ExtentKind::unwritten).find("never written") != std::string::npos);
}

TEST_CASE("an aligned file on an aligned filesystem has no misaligned bytes") {
  const std::vector<FileExtent> extents = {{0, 1 * MiB, 512 * KiB, 0}, {512 * KiB, 4 * MiB, 512 * KiB, FIEMAP_EXTENT_LAST}};
  const ExtentJudgement j = judge_extents(extents, 1 * MiB, 1 * MiB, kUnits);
  CHECK(j.data_bytes == 1 * MiB);
  CHECK(j.merged_count == 2);
  for (const auto& s : j.shares) CHECK(s.misaligned_bytes == 0);
  CHECK(j.worst.empty());
}

TEST_CASE("a partition start off the unit shifts every extent") {
  // Filesystem at sector 2049 (1 MiB + 512 B): every extent misses 4 KiB.
  const std::vector<FileExtent> extents = {{0, 0, 256 * KiB, 0}, {256 * KiB, 1 * MiB, 256 * KiB, FIEMAP_EXTENT_LAST}};
  const ExtentJudgement j = judge_extents(extents, 512 * KiB, 1 * MiB + 512, kUnits);
  CHECK(share_of(j, "4 KiB").misaligned_bytes == 512 * KiB);
  CHECK(j.share(share_of(j, "write unit")) == 1.0);
  REQUIRE(j.worst.size() == 2);
  CHECK(j.worst.front().disk_offset == 1 * MiB + 512);
}

TEST_CASE("starts, lengths and the phase between file and disk offsets decide") {
  const std::vector<FileExtent> extents = {
      {0, 64 * KiB, 64 * KiB, 0},            // aligned to everything
      {64 * KiB, 200 * KiB, 64 * KiB, 0},    // disk start 200 KiB: 8 KiB past 16 KiB and 64 KiB
      {128 * KiB, 512 * KiB, 48 * KiB, 0},   // length 48 KiB: a multiple of 16 KiB, not 64 KiB
      {176 * KiB, 1 * MiB, 16 * KiB, FIEMAP_EXTENT_LAST},  // file offset 176 KiB: off 64 KiB
  };
  const ExtentJudgement j = judge_extents(extents, 192 * KiB, 0, kUnits);
  CHECK(j.data_bytes == 192 * KiB);
  CHECK(share_of(j, "4 KiB").misaligned_bytes == 0);
  CHECK(share_of(j, "read page").misaligned_bytes == 64 * KiB);
  CHECK(share_of(j, "write unit").misaligned_bytes == 128 * KiB);
  CHECK(share_of(j, "write unit").misaligned_extents == 3);
  CHECK(j.worst.front().length == 64 * KiB);
}

TEST_CASE("the last extent's short length is the file's size, not a misplacement") {
  const std::vector<FileExtent> tail = {{0, 128 * KiB, 12 * KiB, FIEMAP_EXTENT_LAST}};
  CHECK(share_of(judge_extents(tail, 10 * KiB, 0, kUnits), "write unit").misaligned_bytes == 0);
  // The same short extent in the middle of a file is judged by its length.
  const std::vector<FileExtent> middle = {{0, 128 * KiB, 12 * KiB, 0}, {64 * KiB, 1 * MiB, 64 * KiB, FIEMAP_EXTENT_LAST}};
  CHECK(share_of(judge_extents(middle, 128 * KiB, 0, kUnits), "write unit").misaligned_bytes == 12 * KiB);
}

TEST_CASE("extents contiguous in the file and on the disk merge before judging") {
  // ext4 splits at 128 MiB and xfs where it likes: a split at 4 KiB is no
  // misplacement when the next piece follows on the disk.
  const std::vector<FileExtent> extents = {{0, 1 * MiB, 4 * KiB, 0},
                                           {4 * KiB, 1 * MiB + 4 * KiB, 60 * KiB, 0},
                                           {64 * KiB, 1 * MiB + 64 * KiB, 64 * KiB, FIEMAP_EXTENT_LAST}};
  const ExtentJudgement j = judge_extents(extents, 128 * KiB, 0, kUnits);
  CHECK(j.extent_count == 3);
  CHECK(j.merged_count == 1);
  CHECK(j.largest_data_extent == 128 * KiB);
  CHECK(share_of(j, "write unit").misaligned_bytes == 0);
}

TEST_CASE("holes are counted, not judged, and unwritten or delayed extents are counted apart") {
  const std::vector<FileExtent> extents = {
      {0, 1 * MiB, 64 * KiB, 0},
      // a 64 KiB hole at 64 KiB
      {128 * KiB, 2 * MiB, 64 * KiB, FIEMAP_EXTENT_UNWRITTEN},
      {192 * KiB, 0, 64 * KiB, FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN},
      {256 * KiB, 3 * MiB + 4 * KiB, 64 * KiB, FIEMAP_EXTENT_LAST},
  };
  const ExtentJudgement j = judge_extents(extents, 512 * KiB, 0, kUnits);
  CHECK(j.data_bytes == 128 * KiB);
  CHECK(j.hole_bytes == 64 * KiB + 192 * KiB);  // the hole and the unmapped end
  REQUIRE(j.unjudged.size() == 2);
  CHECK(j.unjudged[0] == std::pair{ExtentKind::unwritten, 64 * KiB});
  CHECK(j.unjudged[1] == std::pair{ExtentKind::delalloc, 64 * KiB});
  CHECK(share_of(j, "read page").misaligned_bytes == 64 * KiB);
  CHECK(j.share(share_of(j, "read page")) == 0.5);
}

TEST_CASE("the longest contiguous stretch of data, clipped to the region, is where a grid can run") {
  const std::vector<FileExtent> extents = {
      {0, 1 * MiB, 256 * KiB, 0},
      {256 * KiB, 1 * MiB + 256 * KiB, 256 * KiB, 0},  // continues the first: 512 KiB together
      {512 * KiB, 8 * MiB, 1 * MiB, FIEMAP_EXTENT_UNWRITTEN},  // larger, but never written
      {2 * MiB, 4 * MiB, 384 * KiB, FIEMAP_EXTENT_LAST},
  };
  auto run = longest_data_run(extents, 0, UINT64_MAX);
  REQUIRE(run);
  CHECK(run->logical == 0);
  CHECK(run->physical == 1 * MiB);
  CHECK(run->length == 512 * KiB);
  run = longest_data_run(extents, 192 * KiB, UINT64_MAX);  // --region 192K: only 320 KiB of the first left
  REQUIRE(run);
  CHECK(run->logical == 2 * MiB);
  CHECK(run->length == 384 * KiB);
  run = longest_data_run(extents, 300 * KiB, 400 * KiB);
  REQUIRE(run);
  CHECK(run->physical == 1 * MiB + 300 * KiB);
  CHECK(run->length == 100 * KiB);
  CHECK_FALSE(longest_data_run(extents, 600 * KiB, 1 * MiB));
}

TEST_CASE("extent units follow what is known") {
  AuditUnits units;
  CHECK(extent_units(units).size() == 1);
  units.read_page = 16 * KiB;
  units.write_unit = 48 * KiB;
  const auto checked = extent_units(units);
  REQUIRE(checked.size() == 3);
  CHECK(checked[2].bytes == 48 * KiB);
  CHECK(checked[2].severity == Severity::warning);
}

namespace {

FileExtentsAudit one_misaligned_file(const std::string& type, uint64_t disk_start) {
  FileExtentsAudit files;
  files.root = "-dir/my db;rm";
  files.filesystem.type = type;
  files.filesystem.device = "/dev/loop7p1";
  files.filesystem.disk = "/dev/loop7";
  files.filesystem.disk_start = disk_start;
  files.units = {{"4 KiB", 4 * KiB, Severity::error}, {"write unit", 64 * KiB, Severity::warning}};
  FileExtentReport f;
  f.path = files.root;
  const std::vector<FileExtent> extents = {{0, 8 * KiB, 64 * KiB, FIEMAP_EXTENT_LAST}};
  f.judgement = judge_extents(extents, 64 * KiB, disk_start, files.units);
  files.files.push_back(f);
  files.total = f.judgement;
  return files;
}

}  // namespace

TEST_CASE("an xfs file's fix sets the hint and copies the file, names quoted") {
  FileExtentsAudit files = one_misaligned_file("xfs", 1 * MiB);
  files.filesystem.stripe_unit_bytes = 128 * KiB;  // a multiple of the unit: no stripe steps
  const LayoutAudit audit = file_extents_layout_audit(files, AuditUnits{});
  REQUIRE(audit.lines.size() == 1);
  const AuditLine& line = audit.lines.front();
  CHECK(line.field == "file[0].extents");
  CHECK(line.severity == Severity::warning);
  REQUIRE(line.fix.size() == 5);
  CHECK(line.fix[0].command == "xfs_io -c 'extsize 65536' ./-dir");
  CHECK(line.fix[2].command == "xfs_io -f -c 'extsize 65536' './-dir/my db;rm.ssdprobe-aligned'");
  CHECK(line.fix[3].command ==
        "cp --reflink=never --preserve=mode,ownership,timestamps -- '-dir/my db;rm' '-dir/my db;rm.ssdprobe-aligned'");
  CHECK(line.fix[3].moves_data);
  CHECK(line.fix[4].command == "mv -T -- '-dir/my db;rm.ssdprobe-aligned' '-dir/my db;rm'");
}

TEST_CASE("an xfs without a stripe unit on the unit gets one first, by a mount of its own") {
  FileExtentsAudit files = one_misaligned_file("xfs", 1 * MiB);
  files.filesystem.stripe_unit_bytes = 48 * KiB;
  files.filesystem.allocation_group_bytes = 65536 * 4 * KiB;
  const LayoutAudit audit = file_extents_layout_audit(files, AuditUnits{});
  REQUIRE(audit.lines.size() == 1);
  const auto& fix = audit.lines.front().fix;
  REQUIRE(fix.size() == 8);
  CHECK(fix[0].command.empty());
  CHECK(fix[1].command == "dir=$(mktemp -d) && mount -o sunit=128,swidth=128 /dev/loop7p1 \"$dir\" && "
                          "umount \"$dir\" && rmdir \"$dir\"");
  CHECK(fix[3].command == "xfs_io -c 'extsize 65536' ./-dir");
}

TEST_CASE("an xfs a mount cannot give the stripe unit is made again with it") {
  FileExtentsAudit files = one_misaligned_file("xfs", 1 * MiB);
  files.filesystem.stripe_unit_bytes = 4 * KiB;
  files.filesystem.allocation_group_bytes = 93750 * 4 * KiB;  // what the kernel refused to mount with sunit=128
  auto fix = file_extents_layout_audit(files, AuditUnits{}).lines.at(0).fix;
  REQUIRE(fix.size() == 3);
  CHECK(fix[1].command == "mkfs.xfs -f -d su=64k,sw=1 /dev/loop7p1");
  CHECK(fix[1].destroys_data);
  files.filesystem.stripe_unit_bytes.reset();  // made without one: "does not support data alignment"
  files.filesystem.allocation_group_bytes = 65536 * 4 * KiB;
  fix = file_extents_layout_audit(files, AuditUnits{}).lines.at(0).fix;
  REQUIRE(fix.size() == 3);
  CHECK(fix[0].purpose.find("made without a stripe unit") != std::string::npos);
}

TEST_CASE("ext4 is told bigalloc at mkfs time; a misaligned partition is told to fix the partition") {
  const LayoutAudit ext4 = file_extents_layout_audit(one_misaligned_file("ext4", 1 * MiB), AuditUnits{});
  REQUIRE(ext4.lines.size() == 1);
  const auto& fix = ext4.lines.front().fix;
  REQUIRE(fix.size() == 3);
  CHECK(fix[1].command == "mkfs.ext4 -O bigalloc -C 65536 /dev/loop7p1");
  CHECK(fix[1].destroys_data);
  const LayoutAudit shifted = file_extents_layout_audit(one_misaligned_file("xfs", 1 * MiB + 512), AuditUnits{});
  REQUIRE(shifted.lines.size() == 1);
  CHECK(shifted.lines.front().severity == Severity::error);
  REQUIRE(shifted.lines.front().fix.size() == 1);
  CHECK(shifted.lines.front().fix.front().command == "ssdprobe audit /dev/loop7");
}

// Issue 39: several misaligned files in one directory of one filesystem:
// the filesystem's steps and the directory's hint are given once, with the
// first file; the others point to it and keep only their own copy.
TEST_CASE("several files: the filesystem's steps and a directory's hint once, each file its own copy") {
  FileExtentsAudit files = one_misaligned_file("xfs", 1 * MiB);
  files.filesystem.stripe_unit_bytes = 48 * KiB;
  files.filesystem.allocation_group_bytes = 65536 * 4 * KiB;
  FileExtentReport second = files.files.front();
  second.path = "-dir/other";
  FileExtentReport elsewhere = files.files.front();
  elsewhere.path = "/srv/db/third";
  files.files.push_back(second);
  files.files.push_back(elsewhere);
  const LayoutAudit audit = file_extents_layout_audit(files, AuditUnits{});
  REQUIRE(audit.lines.size() == 3);
  auto commands = [](const AuditLine& line) {
    std::vector<std::string> out;
    for (const FixStep& step : line.fix) out.push_back(step.command);
    return out;
  };
  auto count = [](const std::vector<std::string>& all, const std::string& text) {
    return std::count_if(all.begin(), all.end(), [&](const std::string& c) { return c.find(text) != std::string::npos; });
  };
  std::vector<std::string> all;
  for (const AuditLine& line : audit.lines) {
    for (const auto& c : commands(line)) all.push_back(c);
  }
  CHECK(count(all, "mount -o sunit=128") == 1);            // the stripe unit: once
  CHECK(count(all, "xfs_io -c 'extsize 65536' ./-dir") == 1);  // -dir's hint: once
  CHECK(count(all, "xfs_io -c 'extsize 65536' /srv/db") == 1);  // another directory: its own
  CHECK(count(all, "cp --reflink=never") == 3);             // every file is copied
  // The second file points to the first for what that one gave.
  const AuditLine& second_line = audit.lines[1];
  REQUIRE_FALSE(second_line.fix.empty());
  CHECK(second_line.fix[0].command.empty());
  CHECK(second_line.fix[0].purpose.find("the fix of file[0].extents above") != std::string::npos);

  // ext4: the recreate steps once, the other files point to them.
  files.filesystem.type = "ext4";
  const LayoutAudit ext4 = file_extents_layout_audit(files, AuditUnits{});
  REQUIRE(ext4.lines.size() == 3);
  CHECK(ext4.lines[0].fix.size() == 3);
  REQUIRE(ext4.lines[2].fix.size() == 1);
  CHECK(ext4.lines[2].fix[0].purpose.find("bigalloc clusters of 64 KiB (the fix of file[0].extents above") !=
        std::string::npos);
}

// Past the text's 200 rows, the files with the most misaligned bytes are
// the ones shown, whatever their place in the walk.
TEST_CASE("a directory of more files than the text shows: the worst are the rows shown") {
  FileExtentsAudit files = one_misaligned_file("xfs", 1 * MiB);
  files.directory = true;
  const FileExtentReport misaligned = files.files.front();
  FileExtentReport aligned = misaligned;
  const std::vector<FileExtent> on_the_unit = {{0, 0, 64 * KiB, FIEMAP_EXTENT_LAST}};
  aligned.judgement = judge_extents(on_the_unit, 64 * KiB, 1 * MiB, files.units);
  files.files.clear();
  for (int i = 0; i < 250; ++i) {
    FileExtentReport f = i == 7 || i == 240 ? misaligned : aligned;
    f.path = fmt::format("dir/file{:03}", i);
    files.files.push_back(f);
  }
  std::string text;
  file_extents_text(text, files);
  CHECK(text.find("dir/file240:") != std::string::npos);
  CHECK(text.find("dir/file007:") < text.find("dir/file240:"));
  CHECK(text.find("dir/file240:") < text.find("dir/file000:"));
  CHECK(text.find("... 50 more files, none more misaligned than those above") != std::string::npos);
}
