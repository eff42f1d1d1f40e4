// The audit on partition tables no partitioning tool would write, built byte
// by byte in image files (table_image.h): partitions that overlap, entries
// past the end of the disk or over the table's own sectors, an entry that
// ends before it starts, a DOS chain of 20,000 logical partitions. Each is
// an error finding that names the partitions and sectors involved; no
// partition involved gets a command (a person decides first), no other
// partition's fix moves into them, and the long chain is read only up to
// the cap (kMaxTablePartitions).
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "core/unique_fd.h"
#include "layout/audit.h"
#include "layout/blkid_probe.h"
#include "layout/layout_reader.h"
#include "layout/partition_overlaps.h"
#include "table_image.h"
#include "temp_tree.h"

using namespace ssdprobe;
using table_image::DosEntry;
using table_image::GptEntry;

namespace {

constexpr uint64_t MiB = 1024 * 1024;

DiskLayout read_image(const std::string& image) {
  const UniqueFd fd(::open(image.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  LayoutSource source;
  source.fd = fd.get();
  source.path = image;
  source.size_bytes = std::filesystem::file_size(image);
  return read_disk_layout(source);
}

LayoutAudit audited(const std::string& image) {
  LayoutAudit audit = audit_layout(read_image(image), AuditUnits{});
  attach_fixes(audit, FixContext{});
  return audit;
}

const AuditLine& line_for(const LayoutAudit& audit, const std::string& field) {
  for (const auto& line : audit.lines) {
    if (line.field == field) return line;
  }
  FAIL("no line " << field);
  return audit.lines.front();
}

// The one step a finding gets when a person must decide: words, nothing run.
void check_withheld(const AuditLine& line, const std::string& words) {
  INFO(line.field << ": " << line.message);
  REQUIRE(line.fix.size() == 1);
  CHECK(line.fix[0].command.empty());
  CHECK_FALSE(line.fix[0].moves_data);
  CHECK_FALSE(line.fix[0].destroys_data);
  CHECK(line.fix[0].purpose.find("for a person to decide") != std::string::npos);
  CHECK(line.fix[0].purpose.find(words) != std::string::npos);
}

// Every finding of partition `number` gets only words.
void check_all_withheld(const LayoutAudit& audit, int number, const std::string& words) {
  const std::string prefix = "partition[" + std::to_string(number) + "].";
  size_t findings = 0;
  for (const auto& line : audit.lines) {
    if (line.ok || !line.field.starts_with(prefix)) continue;
    check_withheld(line, words);
    ++findings;
  }
  CHECK(findings > 0);
}

PartitionEntry entry(int number, uint64_t first_sector, uint64_t sectors, bool container = false) {
  return {number, first_sector * 512, sectors * 512, container ? "0x05" : "0x83", "", container};
}

}  // namespace

TEST_CASE("overlapping GPT entries are errors naming each other, and none of them is given a command") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("overlap.img").string();
  // p3 is p1 again; p2 starts one sector in and runs on; p4 starts right
  // after them, misaligned, with p5 right after it: its only aligned start
  // with room would be below, inside p2. p5 has room to move up.
  table_image::write_gpt(image, 204800,
                         {{2048, 40000}, {2049, 50000}, {2048, 40000}, {50100, 60099}, {60100, 70099}});
  const LayoutAudit audit = audited(image);

  const AuditLine& p2 = line_for(audit, "partition[2].overlap");
  CHECK_FALSE(p2.ok);
  CHECK(p2.severity == Severity::error);
  CHECK(p2.message ==
        "sectors 2049-50000 overlap partition 1 (sectors 2048-40000) and partition 3 (sectors 2048-40000): what is "
        "written to one partition is written over the other");
  for (const int number : {1, 3}) {
    const AuditLine& line = line_for(audit, "partition[" + std::to_string(number) + "].overlap");
    CHECK(line.severity == Severity::error);
    CHECK(line.message.starts_with("sectors 2048-40000 overlap partition "));
    CHECK(line.message.find("partition 2 (sectors 2049-50000)") != std::string::npos);
  }
  CHECK_FALSE(audit.all_ok());

  // p2's misaligned start is a finding too, but it gets no move: the
  // aligned start above it is inside p1 and p3.
  CHECK_FALSE(line_for(audit, "partition[2].start").ok);
  check_all_withheld(audit, 1, "partition 1 shares sectors with partition 3 and partition 2");
  check_all_withheld(audit, 2, "partition 2 shares sectors with partition 1 and partition 3");
  check_all_withheld(audit, 3, "shares sectors with");

  // p4 overlaps nothing: it keeps its fix, which names no sector in the
  // overlapped space (2048-50000).
  const AuditLine& p4 = line_for(audit, "partition[4].start");
  REQUIRE_FALSE(p4.fix.empty());
  const std::regex destination("(?:to|at) sector ([0-9]+)");
  for (const auto& step : p4.fix) {
    for (std::sregex_iterator m(step.purpose.begin(), step.purpose.end(), destination), end; m != end; ++m) {
      CHECK(std::stoull((*m)[1].str()) > 50000);
    }
    CHECK(step.purpose.find("for a person to decide") == std::string::npos);
  }
  const AuditLine& p5 = line_for(audit, "partition[5].start");
  REQUIRE_FALSE(p5.fix.empty());
  CHECK(p5.fix[0].moves_data);  // up to sector 61440: free space
  CHECK(p5.fix[0].purpose.find("to sector 61440") != std::string::npos);
}

TEST_CASE("GPT entries past the disk's end, over the table, or ending before they start are errors, never dropped") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("range.img").string();
  // 204800 sectors: the last is 204799, the last usable 204766.
  table_image::write_gpt(image, 204800,
                         {{2048, 40959}, {300000, 310000}, {200000, 210000}, {204790, 204799}, {5000, 100}});
  const LayoutAudit audit = audited(image);
  const PartitionTable& table = *audit.layout.table;
  REQUIRE(table.partitions.size() == 4);
  CHECK(table.partitions[1].number == 2);
  CHECK(table.partitions[1].start_bytes == 300000 * 512ull);
  REQUIRE(table.impossible.size() == 1);
  CHECK(table.impossible[0].number == 5);
  CHECK(table.usable_start_bytes == 34 * 512ull);
  CHECK(table.usable_end_bytes == 204767 * 512ull);

  CHECK(line_for(audit, "partition[2].range").message ==
        "sectors 300000-310000 lie past the end of the disk (its last sector is 204799): the table claims space the "
        "disk does not have");
  CHECK(line_for(audit, "partition[3].range").message.starts_with(
      "sectors 200000-210000 run past the end of the disk"));
  CHECK(line_for(audit, "partition[4].range").message.starts_with(
      "sectors 204790-204799 lie outside the sectors the gpt table leaves to partitions (sectors 34-204766)"));
  CHECK(line_for(audit, "partition[5].range").message.starts_with(
      "the table's entry 5 names sectors 5000-100: its last sector comes before its first"));
  for (const int number : {2, 3, 4, 5}) {
    const AuditLine& line = line_for(audit, "partition[" + std::to_string(number) + "].range");
    CHECK(line.severity == Severity::error);
    CHECK_FALSE(line.ok);
  }
  check_all_withheld(audit, 2, "partition 2 runs past the end of the disk");
  check_all_withheld(audit, 3, "partition 3 runs past the end of the disk");
  check_all_withheld(audit, 4, "partition 4 lies over the partition table's own sectors");
  check_all_withheld(audit, 5, "entry 5 names no place");
  CHECK(line_for(audit, "partition[1].start").ok);
  CHECK_FALSE(audit.all_ok());
}

TEST_CASE("a DOS partition past the end of the disk is an error, not only a note") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("dos.img").string();
  table_image::write_dos(image, 65536, {{0x83, 2048, 30000}, {0x83, 40000, 100000}});
  const LayoutAudit audit = audited(image);
  const AuditLine& line = line_for(audit, "partition[2].range");
  CHECK(line.severity == Severity::error);
  CHECK(line.message.starts_with("sectors 40000-139999 run past the end of the disk (its last sector is 65535)"));
  check_all_withheld(audit, 2, "runs past the end of the disk");
  CHECK(line_for(audit, "partition[1].start").ok);
}

TEST_CASE("a DOS chain of 20,000 logical partitions is read up to the cap, which is a finding") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("chain.img").string();
  {
    const table_image::Image disk(image, table_image::dos_chain_sectors(20000));
    table_image::write_dos_chain(disk, 0, 20000);
  }
  const LayoutAudit audit = audited(image);
  const PartitionTable& table = *audit.layout.table;
  CHECK(table.past_cap);
  REQUIRE(table.partitions.size() == kMaxTablePartitions);
  CHECK(table.partitions.front().container);
  CHECK(table.partitions[1].number == 5);
  CHECK(table.partitions.back().number == static_cast<int>(kMaxTablePartitions) + 3);  // 1, then 5 on
  CHECK(audit.layout.stacks.size() == kMaxTablePartitions - 1);                      // the container has none
  const AuditLine& cap = line_for(audit, "partition_table.entries");
  CHECK(cap.severity == Severity::error);
  CHECK(cap.message.starts_with("the table goes on past 4096 partitions or 4096 extended boot records: only the "
                                "first 4096 partitions were read and audited"));
  check_withheld(cap, "after looking at the whole table");
  // Partitions past the cap are unknown, so no partition is moved or recreated.
  check_all_withheld(audit, 5, "goes on past the 4096 partitions that were read");
  check_all_withheld(audit, 4099, "goes on past the 4096 partitions that were read");
}

TEST_CASE("a GPT with more used entries than the cap is read up to the cap, which is a finding") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("long-gpt.img").string();
  std::vector<GptEntry> entries;
  for (uint64_t i = 0; i < 5000; ++i) entries.push_back({4096 + 8 * i, 4096 + 8 * i + 7});
  table_image::write_gpt(image, 204800, entries, 5000);
  const LayoutAudit audit = audited(image);
  const PartitionTable& table = *audit.layout.table;
  CHECK(table.past_cap);
  REQUIRE(table.partitions.size() == kMaxTablePartitions);
  CHECK(table.partitions.back().number == static_cast<int>(kMaxTablePartitions));
  CHECK(line_for(audit, "partition_table.entries").message.starts_with(
      "the table lists more than 4096 partitions: only the first 4096 partitions were read and audited"));
  check_all_withheld(audit, 4096, "goes on past the 4096 partitions that were read");
}

namespace {

// Overwrites `bytes` of `path` at `offset` (the file exists).
void patch(const std::string& path, uint64_t offset, const std::string& bytes) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(file);
  file.seekp(static_cast<std::streamoff>(offset));
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(file);
}

}  // namespace

TEST_CASE("a protective MBR with no readable GPT is an error that offers no command, never 'nothing to change'") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("pmbr.img").string();
  constexpr uint64_t kSectors = 204800;
  table_image::write_gpt(image, kSectors, {{2048, 40000}});
  // Both headers' CRCs broken: only the protective MBR is left to libblkid.
  patch(image, 512 + 16, "XXXX");
  patch(image, (kSectors - 1) * 512 + 16, "XXXX");
  const LayoutAudit damaged = audited(image);
  CHECK_FALSE(damaged.layout.table);
  CHECK_FALSE(damaged.all_ok());
  const AuditLine& line = line_for(damaged, "partition_table.unread");
  CHECK(line.severity == Severity::error);
  CHECK(line.message.find("both damaged or missing") != std::string::npos);
  check_withheld(line, "gdisk -l");

  // The primary header moved to where 4 KiB sectors put LBA 1: a table
  // written for 4Kn read with 512 B sectors.
  const std::string moved = dir.path("gpt-4k.img").string();
  table_image::write_gpt(moved, kSectors, {{2048, 40000}});
  patch(moved, (kSectors - 1) * 512, std::string(512, '\0'));
  std::ifstream original(moved, std::ios::binary);
  std::string header(512, '\0');
  original.seekg(512);
  original.read(header.data(), 512);
  original.close();
  patch(moved, 512, std::string(512, '\0'));
  patch(moved, 4096, header);
  const LayoutAudit moved_audit = audited(moved);
  const AuditLine& other_size = line_for(moved_audit, "partition_table.unread");
  CHECK(other_size.message.find("a GPT header sits where 4096-byte sectors put it") != std::string::npos);
  REQUIRE(other_size.fix.size() == 1);
  CHECK(other_size.fix[0].command.empty());
  CHECK(other_size.fix[0].purpose.find("losetup -b 4096") != std::string::npos);
}

TEST_CASE("a table inside a partition is read only as far as the inner limits; the disk's own is read whole") {
  const test_support::TempTree dir("ssdprobe-hostile");
  const std::string image = dir.path("inner.img").string();
  constexpr uint64_t kAt = 64 * MiB;
  {
    const table_image::Image disk(image, kAt / 512 + table_image::dos_chain_sectors(100));
    table_image::write_dos_chain(disk, kAt, 100);
  }
  const UniqueFd fd(::open(image.c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd.valid());
  const ContentProbe inner = probe_content(fd.get(), kAt, 0, 512, kInnerTableLimits);
  REQUIRE(inner.table);
  CHECK(inner.table->past_cap);
  CHECK(inner.table->partitions.size() == kInnerTableLimits.partitions);
  CHECK(inner.table->partitions.front().start_bytes == kAt + 2048 * 512);  // counted from the descriptor's start
  const ContentProbe whole = probe_content(fd.get(), kAt, 0, 512);
  REQUIRE(whole.table);
  CHECK_FALSE(whole.table->past_cap);
  CHECK(whole.table->partitions.size() == 101);
  CHECK(whole.table->partitions.back().number == 104);
}

TEST_CASE("overlaps: each partition counts all it overlaps and names the first few") {
  PartitionTable table;
  table.scheme = "gpt";
  for (int i = 1; i <= 1000; ++i) table.partitions.push_back(entry(i, 2048, 100));
  table.partitions.push_back(entry(1001, 2148, 100));  // starts where they end: overlaps none
  const auto overlaps = find_overlaps(table);
  REQUIRE(overlaps.size() == 1000);
  for (const auto& overlap : overlaps) {
    CHECK(overlap.count == 999);
    CHECK(overlap.others.size() == kNamedOverlaps);
    CHECK(overlap.index < 1000);
  }
}

TEST_CASE("overlaps: a DOS container holds its logical partitions, but not a primary one") {
  PartitionTable table;
  table.scheme = "dos";
  table.partitions = {entry(1, 100, 3000), entry(2, 2048, 100000, true), entry(5, 2111, 1985), entry(6, 4159, 1985),
                      entry(7, 5000, 100)};  // 7 overlaps 6
  const auto overlaps = find_overlaps(table);
  REQUIRE(overlaps.size() == 5);  // every one: 1 with 2 and 5, 2 with 1, 5 with 1, 6 and 7 with each other
  const auto of = [&](int number) {
    for (const auto& o : overlaps) {
      if (table.partitions[o.index].number == number) return o;
    }
    FAIL("no overlap for " << number);
    return overlaps.front();
  };
  CHECK(of(1).count == 2);  // the container and logical 5 (sectors 2111-4095 are inside 100-3099)
  CHECK(of(2).count == 1);  // primary 1 only: its logical partitions are inside it by design
  REQUIRE(of(2).others.size() == 1);
  CHECK(table.partitions[of(2).others[0]].number == 1);
  CHECK(of(5).count == 1);
  CHECK(of(6).count == 1);
  CHECK(of(7).count == 1);
}
