// The audit of a disk image (a regular file holding a partition table), on
// images made by the real sfdisk and mkfs.ext4 in files the test creates:
// it is judged as the loop device `losetup FILE` makes of it (512 B logical
// and physical blocks, whatever the disk the file is stored on has), and
// every fix that runs a command attaches it first and names the loop device
// and its partitions through the variable that step sets, never FILE1 or a
// partx/fsck/mkfs on the file. And a filesystem block below 4 KiB: a warning
// with its cost where the drive's units are known, a note where not.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/shell_command.h"
#include "layout/audit.h"
#include "layout/audit_cost.h"
#include "layout/layout_source.h"
#include "run/audit_phase.h"
#include "shell_command.h"
#include "temp_tree.h"

using namespace ssdprobe;
using test_support::run_shell;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

void must_run(const std::string& command) {
  const auto [status, output] = run_shell(command);
  INFO(command << "\n" << output);
  REQUIRE(status == 0);
}

// A 64 MiB image: partition 1 at sector 63 (empty, with room to move to
// 1 MiB), partition 2 at 2 MiB holding an ext4 of 1 KiB blocks with a RAID
// stride nothing stripes.
void make_image(const std::string& image) {
  const std::string quoted = shell_quote(image);
  must_run("truncate -s 64M " + quoted);
  must_run("printf 'label: dos\\nstart=63, size=1985, type=83\\nstart=4096, size=126976, type=83\\n' | sfdisk -q " +
           quoted);
  must_run("mkfs.ext4 -q -F -b 1024 -E offset=2097152,stride=4,stripe_width=4 " + quoted + " 32768");
}

// The audit as `ssdprobe audit FILE` makes it: the file's target, whose
// topology is that of the disk the file is stored on (here said to have
// 4 KiB physical blocks, as /dev/vda under /var/tmp has).
LayoutAudit audit_image(const std::string& image, AuditUnits units) {
  Target target;
  target.path = image;
  target.kind = TargetKind::file;
  target.topology.logical_block_size = 512;
  target.topology.physical_block_size = 4096;
  const OpenedLayoutSource opened = open_layout_source(target);
  units.physical_block = 4096;
  LayoutAudit audit = audit_layout(read_disk_layout(opened.source), units);
  attach_fixes(audit, {});
  return audit;
}

const AuditLine& line_for(const LayoutAudit& a, const std::string& field) {
  for (const auto& line : a.lines) {
    if (line.field == field) return line;
  }
  FAIL("no line " << field);
  return a.lines.front();
}

bool any_note(const LayoutAudit& a, const std::string& text) {
  for (const auto& note : a.notes) {
    if (note.find(text) != std::string::npos) return true;
  }
  return false;
}

AuditUnits page16k() {
  AuditUnits u;
  u.read_page = 16 * KiB;
  u.write_unit = 16 * KiB;
  return u;
}

}  // namespace

TEST_CASE("a disk image is audited as the loop device losetup makes of it") {
  test_support::TempTree tree;
  const std::string image = (tree.root() / "disk.img").string();
  make_image(image);
  const LayoutAudit audit = audit_image(image, {});
  CHECK(audit.layout.image_file);
  CHECK(audit.units.physical_block == 512);
  CHECK(audit.units.logical_block == 512);
  CHECK(any_note(audit, "audited as the loop device `losetup` makes of it"));
  CHECK(any_note(audit, "not the 4096 B physical block of the disk it is stored on"));
  // 1 KiB blocks are whole 512 B blocks of the loop device: not a
  // read-modify-write of a 4 KiB physical block the loop device does not have.
  const AuditLine& block = line_for(audit, "partition[2].ext4.block_size");
  CHECK(block.ok);
  CHECK(block.message.find("read-modify-write") == std::string::npos);
}

TEST_CASE("a disk image's fixes attach it to a loop device first and name its partitions through it") {
  test_support::TempTree tree;
  const std::string image = (tree.root() / "my disk.img").string();
  make_image(image);
  const LayoutAudit audit = audit_image(image, {});
  const std::string attach = "loop=$(losetup --find --show --partscan " + shell_quote(image) + ")";
  const std::string detach = "losetup --detach \"${loop:?}\"";

  const auto& move = line_for(audit, "partition[1].start").fix;
  REQUIRE(move.size() == 4);  // attach, sfdisk --move-data, partx, detach (no filesystem to check)
  CHECK(move[0].command == attach);
  CHECK(move[0].cost == "writes nothing");
  CHECK(move[1].command == "printf '%s\\n' 2048,1985 | sfdisk --move-data \"${loop:?}\" -N 1");
  CHECK(move[2].command == "partx --update --nr 1 \"${loop:?}\"");
  CHECK(move[3].command == detach);

  const auto& stride = line_for(audit, "partition[2].ext4.stride").fix;
  REQUIRE(stride.size() == 3);
  CHECK(stride[0].command == attach);
  CHECK(stride[1].command == "tune2fs -E stride=0,stripe_width=0 \"${loop:?}\"p2");
  CHECK(stride[2].command == detach);

  // No step past the first names the file: no partx, fsck or mkfs on it, no
  // "disk.img2" that exists nowhere.
  for (const auto& line : audit.lines) {
    for (size_t i = 1; i < line.fix.size(); ++i) {
      INFO(line.field << " step " << i + 1 << ": " << line.fix[i].command);
      CHECK(line.fix[i].command.find("disk.img") == std::string::npos);
    }
  }
}

TEST_CASE("a block device's fixes are as before: no loop device") {
  DiskLayout d;
  d.disk_path = "/dev/sdz";
  d.table = PartitionTable{};
  d.table->scheme = "dos";
  LayoutStack s;
  s.partition = PartitionEntry{1, 63 * 512, 64 * MiB, "0x83", "", false};
  s.start_disk_offset = 63 * 512;
  s.size_bytes = 64 * MiB;
  d.table->partitions.push_back(*s.partition);
  d.disk_size_bytes = 256 * MiB;
  d.stacks = {s};
  LayoutAudit audit = audit_layout(d, {});
  attach_fixes(audit, {});
  CHECK(line_for(audit, "partition[1].start").fix.at(0).command.starts_with("printf"));
}

TEST_CASE("a filesystem block below the drive's read page and write unit is a warning with what it costs") {
  test_support::TempTree tree;
  const std::string image = (tree.root() / "disk.img").string();
  make_image(image);
  LayoutAudit audit = audit_image(image, page16k());
  const AuditLine& block = line_for(audit, "partition[2].ext4.block_size");
  CHECK_FALSE(block.ok);
  CHECK(block.severity == Severity::warning);
  CHECK(block.message ==
        "block 1 KiB is smaller than the drive's read page and write unit: a lone block read senses a whole read "
        "page (16 KiB, 16x its size); a lone block write programs a whole write unit (16 KiB, 16x its size)");
  CHECK(block.suggested_bytes == 4096u);
  // Its fix makes the filesystem again with 4 KiB blocks, on the loop device.
  bool mkfs = false;
  for (const auto& step : block.fix) mkfs |= step.command == "mkfs.ext4 -F -b 4096 \"${loop:?}\"p2";
  CHECK(mkfs);

  SECTION("with grids, the latencies they measured for a block and a unit") {
    // Aligned 1 KiB reads 80 us, 16 KiB reads 100 us; writes 50 and 400 us.
    LatencyGrid read({1 * KiB, 16 * KiB}, {0, 512});
    read.cell(0, 0) = {79, 80, 81};
    read.cell(1, 0) = {99, 100, 101};
    LatencyGrid write({1 * KiB, 16 * KiB}, {0, 4096});
    write.cell(0, 0) = {50, 50, 50};
    write.cell(1, 0) = {400, 400, 400};
    attach_costs(audit, {{"read", "read", &read}, {"write", "write", &write}}, 1);
    const std::string& message = line_for(audit, "partition[2].ext4.block_size").message;
    CHECK(message.find("; measured (the read grid, aligned, one at a time): a 1 KiB read takes 80 us, a 16 KiB read "
                       "100 us, so reading 16 KiB in 16 lone blocks takes 12.8x as long as in one") != std::string::npos);
    CHECK(message.find("a 1 KiB write takes 50 us, a 16 KiB write 400 us, so writing 16 KiB in 16 lone blocks takes "
                       "2.0x as long as in one") != std::string::npos);
  }
}

TEST_CASE("a filesystem block below 4 KiB with no unit known is OK by the physical block, with a note") {
  test_support::TempTree tree;
  const std::string image = (tree.root() / "disk.img").string();
  make_image(image);
  const LayoutAudit audit = audit_image(image, {});
  const AuditLine& block = line_for(audit, "partition[2].ext4.block_size");
  CHECK(block.ok);
  CHECK(block.message == "block 1 KiB: a multiple of the 512 B physical block; below 4 KiB (see the notes)");
  CHECK(any_note(audit, "1 KiB blocks are below 4 KiB; the drive's read page and write unit are not known here"));
}

// `ssdprobe audit FILE` reads a file as a disk image when its start holds a
// disk's layout, and by its extents otherwise (run/audit_phase.h). A table
// the reader cannot read is still a disk's: here a GPT whose primary and
// backup headers were zeroed, which leaves a protective MBR with no GPT
// behind it, as the audit of the image must say.
TEST_CASE("a file whose start holds a table, readable or not, is a disk image; zeros and data are files") {
  test_support::TempTree tree;
  const std::string gpt = tree.path("gpt.img").string(), broken = tree.path("broken-gpt.img").string();
  const std::string zeros = tree.path("zeros.img").string(), data = tree.path("data.db").string();
  for (const auto& image : {gpt, broken, zeros}) must_run("truncate -s 64M " + shell_quote(image));
  for (const auto& image : {gpt, broken}) {
    must_run("printf 'label: gpt\\nstart=2048, size=4096\\n' | sfdisk -q " + shell_quote(image));
  }
  const std::string zero_sector = "dd if=/dev/zero bs=512 count=1 conv=notrunc status=none of=" + shell_quote(broken);
  must_run(zero_sector + " seek=1");                  // the primary header
  must_run(zero_sector + " seek=" + std::to_string(64 * MiB / 512 - 1));  // the backup header
  must_run("seq 1 200000 > " + shell_quote(data));
  auto file_target = [](const std::string& path) {
    Target target;
    target.path = path;
    target.kind = TargetKind::file;
    return target;
  };
  const Options options;
  CHECK(is_disk_image(file_target(gpt), options));
  CHECK(is_disk_image(file_target(broken), options));
  CHECK_FALSE(is_disk_image(file_target(zeros), options));
  CHECK_FALSE(is_disk_image(file_target(data), options));
  Options extents;
  extents.extents = true;
  CHECK_FALSE(is_disk_image(file_target(gpt), extents));  // --extents: the file itself

  const LayoutAudit audit = audit_image(broken, page16k());
  CHECK(any_note(audit, "'PMBR' detected but no table could be read"));
  // Not "nothing to change": the table is a finding, and no command is
  // offered for a table nobody can read.
  CHECK_FALSE(audit.all_ok());
  const auto unread = std::find_if(audit.lines.begin(), audit.lines.end(),
                                   [](const AuditLine& line) { return line.field == "partition_table.unread"; });
  REQUIRE(unread != audit.lines.end());
  CHECK(unread->severity == Severity::error);
  CHECK_THAT(unread->message, Catch::Contains("no valid GPT header with 512-byte sectors") &&
                                 Catch::Contains("the kernel sees no partitions and none were audited"));
  CHECK_THAT(unread->fix_withheld, Catch::Contains("gdisk -l"));
  REQUIRE(unread->fix.size() == 1);
  CHECK(unread->fix[0].command.empty());
  CHECK(audit_image(gpt, page16k()).all_ok());
}
