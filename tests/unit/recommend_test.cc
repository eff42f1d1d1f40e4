// Recommendations and mismatches from a geometry: the commands a user would
// paste, and the reported fields ssdprobe contradicts.
#include <catch2/catch.hpp>

#include "analysis/mismatches.h"
#include "analysis/recommend.h"

using namespace ssdprobe;

TEST_CASE("a 16 KiB page: 1 MiB alignment suffices, stripe settings use 16 KiB") {
  GeometryForRecommendation g;
  g.read_page = 16384;
  const Recommendations r = recommend(g, "/dev/nvme0n1", "/dev/nvme0n1p1", false);
  CHECK(r.partition_start_bytes == 1048576);
  CHECK(r.partition_alignment_bytes == 1048576);
  CHECK(r.commands.at("mkfs_xfs") == "mkfs.xfs -d su=16k,sw=1 /dev/nvme0n1p1");
  CHECK(r.commands.at("mkfs_ext4") == "mkfs.ext4 -b 4096 -E stride=4,stripe_width=4 /dev/nvme0n1p1");
  CHECK(r.commands.at("sfdisk").find("start=2048") != std::string::npos);
  CHECK(r.commands.at("parted").find("/dev/nvme0n1 ") != std::string::npos);
  CHECK(r.commands.at("pvcreate") == "pvcreate --dataalignment 1m /dev/nvme0n1p1");
  CHECK(r.notes.front().find("already") != std::string::npos);
}

TEST_CASE("a unit that does not divide 1 MiB raises the partition alignment") {
  GeometryForRecommendation g;
  g.read_page = 49152;        // 48 KiB
  g.logical_block = 4096;
  const Recommendations r = recommend(g, "/dev/sdb", "/dev/sdb1", false);
  CHECK(r.partition_alignment_bytes == 3 * 1048576);
  CHECK(r.partition_start_bytes % 49152 == 0);
  CHECK(r.commands.at("sfdisk").find("start=768,") != std::string::npos);  // 3 MiB in 4 KiB sectors
  CHECK(r.commands.at("pvcreate").find("--dataalignment 3m") != std::string::npos);
}

TEST_CASE("an erase block sizes the F2FS section") {
  GeometryForRecommendation g;
  g.read_page = 16384;
  g.erase_block = 8 << 20;
  const Recommendations r = recommend(g, "/dev/sdc", "/dev/sdc1", false);
  CHECK(r.commands.at("mkfs_f2fs") == "mkfs.f2fs -s 4 /dev/sdc1");
  CHECK(r.partition_alignment_bytes == (8 << 20));
}

TEST_CASE("no unit determined: plain commands and 1 MiB") {
  const Recommendations r = recommend({}, "/dev/sda", "/dev/sda1", false);
  CHECK(r.partition_start_bytes == 1048576);
  CHECK(r.commands.at("mkfs_xfs") == "mkfs.xfs /dev/sda1");
}

TEST_CASE("partition node names follow the kernel's rules") {
  CHECK(first_partition_path("/dev/nvme0n1") == "/dev/nvme0n1p1");
  CHECK(first_partition_path("/dev/loop3") == "/dev/loop3p1");
  CHECK(first_partition_path("/dev/sda") == "/dev/sda1");
}

TEST_CASE("mismatches name the reported field") {
  Topology t;
  t.minimum_io_size = 512;
  t.physical_block_size = 4096;
  DetectedUnit page;
  page.bytes = 16384;
  const auto found = find_mismatches(t, {&page});
  REQUIRE(found.size() == 2);
  CHECK(found[0].field == "minimum_io_size");
  CHECK(found[0].severity == Severity::warning);
  CHECK(found[0].reported == 512);
  CHECK(found[0].detected == 16384);
  CHECK(found[1].field == "physical_block_size");
  CHECK(found[1].severity == Severity::info);
}

TEST_CASE("a partition starting off a page boundary is a mismatch") {
  Topology t;
  t.partition_name = "sda1";
  t.partition_start_bytes = 1536;
  t.minimum_io_size = 16384;
  DetectedUnit page;
  page.bytes = 16384;
  const auto found = find_mismatches(t, {&page});
  REQUIRE(found.size() == 1);
  CHECK(found[0].field == "partition_start");
}

TEST_CASE("write unit and erase block are compared with optimal_io_size and discard_granularity") {
  Topology t;
  t.minimum_io_size = 4096;
  t.optimal_io_size = 0;
  t.discard_granularity = 4096;
  DetectedUnit page, write, erase;
  page.bytes = 16384;
  write.bytes = 49152;
  erase.bytes = 24 << 20;
  const auto found = find_mismatches(t, {&page, &write, &erase});
  std::vector<std::string> fields;
  for (const auto& m : found) fields.push_back(m.field);
  CHECK(fields == std::vector<std::string>{"minimum_io_size", "optimal_io_size", "discard_granularity"});
  CHECK(found[0].detected == 49152);
  CHECK(found[1].detected == (24 << 20));
  t.optimal_io_size = 65536;  // not a multiple of 48 KiB
  const auto again = find_mismatches(t, {&page, &write, &erase});
  CHECK(again[1].field == "optimal_io_size");
  CHECK(again[1].severity == Severity::warning);
}

TEST_CASE("nothing detected, nothing contradicted") {
  Topology t;
  t.minimum_io_size = 512;
  DetectedUnit nothing;
  CHECK(find_mismatches(t, {&nothing}).empty());
}
