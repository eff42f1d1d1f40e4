// The audit's judgments on hand-built layouts: the seed articles' cases
// (sector 63, sector 3, GPT at 34, xfs su=12k on a 16 KiB page, an ext4
// stride that disagrees with the md chunk, pvcreate --dataalignment 192k)
// are each named with the right field, and an aligned stack is all OK.
#include <catch2/catch.hpp>

#include "layout/audit.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * 1024;

AuditUnits page16k() {
  AuditUnits u;
  u.logical_block = 512;
  u.physical_block = 512;
  u.read_page = 16 * KiB;
  return u;
}

LayoutStack partition_at(int number, uint64_t start, uint64_t size = 64 * MiB) {
  LayoutStack s;
  PartitionEntry p;
  p.number = number;
  p.start_bytes = start;
  p.size_bytes = size;
  s.partition = p;
  s.start_disk_offset = start;
  s.size_bytes = size;
  return s;
}

DiskLayout dos_disk(std::vector<LayoutStack> stacks) {
  DiskLayout d;
  d.disk_path = "/dev/test";
  d.disk_size_bytes = 1024 * MiB;
  d.table = PartitionTable{};
  d.table->scheme = "dos";
  for (const auto& s : stacks) d.table->partitions.push_back(*s.partition);
  d.stacks = std::move(stacks);
  return d;
}

const AuditLine* line_for(const LayoutAudit& a, const std::string& field) {
  for (const auto& line : a.lines) {
    if (line.field == field) return &line;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("a DOS partition at sector 63 is named, with what it misses by") {
  const auto audit = audit_layout(dos_disk({partition_at(1, 63 * 512)}), page16k());
  const AuditLine* line = line_for(audit, "partition[1].start");
  REQUIRE(line != nullptr);
  CHECK_FALSE(line->ok);
  CHECK(line->severity == Severity::error);
  CHECK(line->legacy_case.find("sector 63") != std::string::npos);
  REQUIRE(line->misses.size() >= 3);
  CHECK(line->misses[0].unit == "4 KiB");
  CHECK(line->misses[0].remainder == (63 * 512) % 4096);  // 3584 B past a 4 KiB boundary
  bool page_named = false;
  for (const auto& m : line->misses) page_named |= m.unit == "read page" && m.remainder == (63 * 512) % (16 * KiB);
  CHECK(page_named);
  REQUIRE(line->suggested_bytes);
  CHECK(*line->suggested_bytes == 1 * MiB);
  CHECK_FALSE(audit.all_ok());
  const auto mismatches = audit_mismatches(audit);
  REQUIRE(mismatches.size() == 1);
  CHECK(mismatches[0].field == "partition[1].start");
  CHECK(mismatches[0].reported == 63 * 512);
  CHECK(mismatches[0].detected == static_cast<int64_t>(MiB));
}

TEST_CASE("a partition at 1536 B and a GPT partition at sector 34 are named as such") {
  auto gpt = dos_disk({partition_at(1, 34 * 512), partition_at(2, 3 * 512)});
  gpt.table->scheme = "gpt";
  const auto audit = audit_layout(gpt, page16k());
  const AuditLine* p1 = line_for(audit, "partition[1].start");
  const AuditLine* p2 = line_for(audit, "partition[2].start");
  REQUIRE(p1 != nullptr);
  REQUIRE(p2 != nullptr);
  CHECK(p1->legacy_case.find("sector 34") != std::string::npos);
  CHECK(p2->legacy_case.find("1536 B") != std::string::npos);
  CHECK(p1->severity == Severity::error);
  CHECK(p2->severity == Severity::error);
}

TEST_CASE("a start on 4 KiB but not on the read page is a warning; the erase block is not a start check") {
  auto u = page16k();
  u.erase_block = 4 * MiB;
  const auto audit = audit_layout(dos_disk({partition_at(1, 8 * KiB), partition_at(2, 1 * MiB)}), u);
  const AuditLine* p1 = line_for(audit, "partition[1].start");
  const AuditLine* p2 = line_for(audit, "partition[2].start");
  REQUIRE(p1 != nullptr);
  REQUIRE(p2 != nullptr);
  CHECK(p1->severity == Severity::warning);
  CHECK(p1->legacy_case.empty());
  CHECK(p2->ok);  // on 1 MiB; the 4 MiB erase block buys a remapping drive nothing measured
  CHECK(wanted_alignment(u) == 1 * MiB);
}

TEST_CASE("an aligned stack is all OK and recommends nothing") {
  auto s = partition_at(1, 1 * MiB);
  s.filesystem = FilesystemInfo{"xfs", 4096, std::nullopt, std::nullopt, {}, {}, {}, 512, {}, "", {}, {}};
  s.filesystem_disk_offset = 1 * MiB;
  s.filesystem_container = "partition";
  const auto audit = audit_layout(dos_disk({s}), page16k());
  CHECK(audit.all_ok());
  CHECK(audit_mismatches(audit).empty());
  CHECK(line_for(audit, "partition[1].xfs.block_size") != nullptr);
}

TEST_CASE("xfs su=12k on a 16 KiB page is named as xfs.sunit") {
  auto s = partition_at(1, 1 * MiB);
  s.filesystem = FilesystemInfo{"xfs", 4096, 12 * KiB, 12 * KiB, {}, {}, {}, 512, {}, "", {}, {}};
  s.filesystem_container = "partition";
  const auto audit = audit_layout(dos_disk({s}), page16k());
  const AuditLine* line = line_for(audit, "partition[1].xfs.sunit");
  REQUIRE(line != nullptr);
  CHECK_FALSE(line->ok);
  CHECK(line->severity == Severity::warning);
  CHECK(line->misses.at(0).unit == "read page");
  CHECK(line->misses.at(0).remainder == 12 * KiB);
}

TEST_CASE("a filesystem on md must stripe like the array; a chunk that splits a page is named") {
  LayoutStack s;  // whole-disk md member, raid5 of 4: 3 data disks
  MdSuperblock md;
  md.minor_version = 2;
  md.data_offset_bytes = 1 * MiB;
  md.chunk_bytes = 24 * KiB;  // not a multiple of the 16 KiB page
  md.level = 5;
  md.raid_disks = 4;
  md.role = 0;
  s.md = md;
  s.filesystem = FilesystemInfo{"ext4", 4096, 16 * KiB, 48 * KiB, {}, {}, {}, {}, 16, "", {}, {}};
  s.filesystem_container = "md";
  s.filesystem_disk_offset = 1 * MiB;
  DiskLayout d;
  d.disk_path = "/dev/test";
  d.stacks = {s};
  const auto audit = audit_layout(d, page16k());
  const AuditLine* chunk = line_for(audit, "md.chunk");
  REQUIRE(chunk != nullptr);
  CHECK_FALSE(chunk->ok);
  const AuditLine* stride = line_for(audit, "ext4.stride");
  REQUIRE(stride != nullptr);
  CHECK_FALSE(stride->ok);
  CHECK(*stride->suggested_bytes == 24 * KiB);
  const AuditLine* width = line_for(audit, "ext4.stripe_width");
  REQUIRE(width != nullptr);
  CHECK_FALSE(width->ok);
  CHECK(*width->suggested_bytes == 72 * KiB);
  const AuditLine* data = line_for(audit, "md.data_offset");
  REQUIRE(data != nullptr);
  CHECK(data->ok);
}

TEST_CASE("LVM: the data area start composes with the partition start; each LV start is checked") {
  auto s = partition_at(2, 1 * MiB);
  LvmPhysicalVolume pv;
  pv.pe_start_bytes = 192 * KiB;  // pvcreate --dataalignment 192k
  pv.extent_bytes = 4 * MiB;
  pv.vg_name = "vg0";
  pv.segments = {LvmSegment{"root", 0, 0, 10, 1, 0}, LvmSegment{"data", 0, 10, 5, 1, 0}};
  s.lvm = pv;
  const auto audit = audit_layout(dos_disk({s}), page16k());
  const AuditLine* pe = line_for(audit, "partition[2].lvm.pe_start");
  REQUIRE(pe != nullptr);
  CHECK(*pe->disk_offset == 1 * MiB + 192 * KiB);
  CHECK_FALSE(pe->ok);  // 1216 KiB: on the 16 KiB page, off 1 MiB
  CHECK(pe->severity == Severity::info);
  const AuditLine* data = line_for(audit, "partition[2].lvm.lv[data].start");
  REQUIRE(data != nullptr);
  CHECK(*data->disk_offset == 1 * MiB + 192 * KiB + 10 * 4 * MiB);
  const AuditLine* extent = line_for(audit, "partition[2].lvm.extent_size");
  REQUIRE(extent != nullptr);
  CHECK(extent->ok);
}

TEST_CASE("a kernel partition that disagrees with the table is an error") {
  auto d = dos_disk({partition_at(1, 1 * MiB)});
  d.kernel_partitions = {KernelPartition{1, "test1", 63 * 512, 64 * MiB, 0}};
  const auto audit = audit_layout(d, page16k());
  const AuditLine* line = line_for(audit, "partition[1].kernel_start");
  REQUIRE(line != nullptr);
  CHECK(line->severity == Severity::error);
  CHECK(*line->suggested_bytes == 1 * MiB);
}

TEST_CASE("--at judges any offset the same way") {
  const AuditLine line = audit_start("at", "a start", 3 * 512, page16k());
  CHECK_FALSE(line.ok);
  CHECK(line.misses.at(0).remainder == 1536);
  CHECK(audit_start("at", "a start", 2 * MiB, page16k()).ok);
}

TEST_CASE("a btrfs node smaller than the read page is named") {
  auto s = partition_at(1, 1 * MiB);
  s.filesystem = FilesystemInfo{"btrfs", 4096, {}, {}, {}, {}, 8 * KiB, 4096, {}, "", {}, {}};
  s.filesystem_container = "partition";
  const auto audit = audit_layout(dos_disk({s}), page16k());
  const AuditLine* node = line_for(audit, "partition[1].btrfs.node_size");
  REQUIRE(node != nullptr);
  CHECK_FALSE(node->ok);
  CHECK(node->misses.at(0).unit == "read page");
  auto big = s;
  big.filesystem->node_bytes = 16 * KiB;
  CHECK(audit_layout(dos_disk({big}), page16k()).all_ok());
}
