// Recommendations and mismatches from a geometry: the commands a user would
// paste, in the order they would run them, and the reported fields ssdprobe
// contradicts.
#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "analysis/mismatches.h"
#include "analysis/recommend.h"

using namespace ssdprobe;

namespace {

std::vector<std::string> keys(const Recommendations& r) {
  std::vector<std::string> out;
  for (const auto& step : r.steps) out.push_back(step.key);
  return out;
}

std::string command(const Recommendations& r, const char* key) {
  const RecommendedCommand* step = find_step(r, key);
  REQUIRE(step != nullptr);
  return step->command;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_note(const Recommendations& r, const std::string& part) {
  for (const auto& note : r.notes) {
    if (has(note, part)) return true;
  }
  return false;
}

// The first number the pattern's group captures in the command.
uint64_t captured(const std::string& text, const char* pattern) {
  std::smatch match;
  REQUIRE(std::regex_search(text, match, std::regex(pattern)));
  return std::stoull(match[1].str());
}

GeometryForRecommendation page_16k() {
  GeometryForRecommendation g;
  g.read_page = 16384;
  return g;
}

StackForRecommendation raid5_of_5(std::optional<uint64_t> chunk) {
  StackForRecommendation stack;
  stack.md = MdStripe{};
  stack.md->level = 5;
  stack.md->member_count = 5;
  stack.md->chunk_bytes = chunk;
  stack.other_disks = {"/dev/sdb", "/dev/sdc", "/dev/sdd", "/dev/sde"};
  return stack;
}

}  // namespace

TEST_CASE("a 16 KiB page on one drive: 1 MiB alignment, no su/sw, and a note says why") {
  const Recommendations r = recommend(page_16k(), "/dev/nvme0n1", "/dev/nvme0n1p1", false);
  CHECK(r.partition_start_bytes == 1048576);
  CHECK(r.partition_alignment_bytes == 1048576);
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f /dev/nvme0n1p1");
  CHECK(command(r, "mkfs_ext4") == "mkfs.ext4 -F -b 4096 /dev/nvme0n1p1");
  CHECK(command(r, "sfdisk") == "printf '%s\\n' 'label: gpt' 'start=2048, type=linux' | sfdisk /dev/nvme0n1");
  CHECK(command(r, "parted") == "parted --script --align none /dev/nvme0n1 mklabel gpt unit B mkpart primary "
                                "1048576B 100%");
  CHECK(command(r, "sgdisk") == "sgdisk --clear --set-alignment=2048 --new=1:2048:0 --typecode=1:8300 /dev/nvme0n1");
  CHECK(r.notes.front().find("already") != std::string::npos);
  CHECK(any_note(r, "a single drive has no stripe: xfs su/sw"));
  CHECK(any_note(r, "the read page is 16 KiB"));
  CHECK(any_note(r, "pvcreate --dataalignment 1m"));  // LVM not asked for: only a note
  CHECK(find_step(r, "pvcreate") == nullptr);
  CHECK(!r.verdict);
}

TEST_CASE("a write stripe is a write size, not an alignment: partitions align to the write unit") {
  GeometryForRecommendation g = page_16k();
  g.write_unit = 16384;
  g.write_stripe = 49152;  // 3 x 16 KiB: aligning to it would need 3 MiB
  const Recommendations r = recommend(g, "/dev/nvme0n1", "/dev/nvme0n1p1", false);
  CHECK(r.partition_alignment_bytes == 1048576);
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f /dev/nvme0n1p1");  // no su/sw for the drive's own stripe
  CHECK(any_note(r, "the 16 KiB write unit is programmed 3 at a time on parallel units (a 48 KiB stripe): partitions "
                    "and filesystem blocks align to the 16 KiB write unit, not to the stripe"));
  CHECK(any_note(r, "writing 48 KiB or a multiple of it at once"));
  CHECK(any_note(r, "a single drive has no RAID stripe (its 48 KiB write stripe is a write size, not an alignment)"));
  CHECK_FALSE(any_note(r, "a single drive has no stripe:"));
}

TEST_CASE("steps come in the order they are run, alternatives grouped") {
  SECTION("one drive, one filesystem") {
    const Recommendations r = recommend(page_16k(), "/dev/sda", "/dev/sda1", false);
    CHECK(keys(r) == std::vector<std::string>{"parted", "sfdisk", "sgdisk", "mkfs_xfs", "mkfs_ext4", "mkfs_f2fs",
                                              "mkfs_ext4_bigalloc"});
  }
  SECTION("md, then LVM on it, then a filesystem on the LV") {
    StackForRecommendation stack = raid5_of_5(65536);
    stack.lvm = LvmStripe{};
    const Recommendations r = recommend(page_16k(), stack, "/dev/sda", "/dev/sda1", false);
    CHECK(keys(r) == std::vector<std::string>{"parted", "sfdisk", "sgdisk", "mdadm", "pvcreate", "vgcreate", "lvcreate",
                                              "mkfs_xfs", "mkfs_ext4", "mkfs_f2fs", "mkfs_ext4_bigalloc"});
    std::vector<std::string> groups;
    for (const auto& step : r.steps) groups.push_back(step.alternative_group);
    CHECK(groups == std::vector<std::string>{"partition", "partition", "partition", "", "", "", "", "filesystem",
                                             "filesystem", "filesystem", "filesystem"});
    CHECK(has(command(r, "pvcreate"), " /dev/md0"));
    CHECK(has(command(r, "mkfs_xfs"), " /dev/VG/LV"));
    CHECK(has(find_step(r, "mdadm")->purpose, "a name to choose"));
    CHECK(has(find_step(r, "lvcreate")->purpose, "a name to choose"));
  }
}

TEST_CASE("an md RAID 5 with 4 data disks and a 64 KiB chunk sets su/sw and stride/stripe_width") {
  const Recommendations r = recommend(page_16k(), raid5_of_5(65536), "/dev/sda", "/dev/sda1", false);
  CHECK(command(r, "mdadm") == "mdadm --create /dev/md0 --run --metadata=1.2 --level=5 --raid-devices=5 --chunk=64K "
                               "--data-offset=128M /dev/sda1 /dev/sdb1 /dev/sdc1 /dev/sdd1 /dev/sde1");
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f -d su=64k,sw=4 /dev/md0");
  CHECK(command(r, "mkfs_ext4") == "mkfs.ext4 -F -b 4096 -E stride=16,stripe_width=64 /dev/md0");
  CHECK(command(r, "mkfs_f2fs") == "mkfs.f2fs -f /dev/md0");
  // every member is partitioned the same way, as a RAID member
  const std::string sfdisk = command(r, "sfdisk");
  for (const char* disk : {"/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd", "/dev/sde"}) {
    INFO(disk);
    CHECK(has(sfdisk, std::string("type=raid' | sfdisk ") + disk));
  }
  CHECK(!any_note(r, "no stripe"));
}

TEST_CASE("the md chunk ssdprobe chooses is a multiple of the write unit, at least 64 KiB") {
  GeometryForRecommendation g = page_16k();
  StackForRecommendation stack = raid5_of_5(std::nullopt);
  SECTION("16 KiB page: 64 KiB") {
    CHECK(has(command(recommend(g, stack, "/dev/sda", "/dev/sda1", false), "mdadm"), "--chunk=64K "));
  }
  SECTION("a 128 KiB write unit wins over the page") {
    g.write_unit = 131072;
    const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
    CHECK(has(command(r, "mdadm"), "--chunk=128K "));
    CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f -d su=128k,sw=4 /dev/md0");
  }
  SECTION("48 KiB on RAID 0: 192 KiB, the least common multiple with 64 KiB") {
    g.write_unit = 49152;
    stack.md->level = 0;
    const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
    CHECK(has(command(r, "mdadm"), "--chunk=192K "));
    CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f -d su=192k,sw=5 /dev/md0");
    CHECK(has(command(r, "mkfs_ext4"), "-E stride=48,stripe_width=240 "));
  }
  SECTION("48 KiB on RAID 5, which needs a power of two: 64 KiB, and the purpose says it splits write units") {
    g.write_unit = 49152;
    const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
    CHECK(has(command(r, "mdadm"), "--chunk=64K "));
    CHECK(has(find_step(r, "mdadm")->purpose, "none is a multiple of the 48 KiB write unit"));
  }
  SECTION("a chunk mdadm refuses is replaced, with a note") {
    stack.md->chunk_bytes = 49152;  // RAID 5 needs a power of two
    const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
    CHECK(has(command(r, "mdadm"), "--chunk=64K "));
    CHECK(any_note(r, "not one mdadm accepts"));
  }
}

TEST_CASE("RAID 1 has no stripe: no chunk, no su/sw, and the note says so") {
  StackForRecommendation stack;
  stack.md = MdStripe{1, 2, std::nullopt, std::nullopt};
  const Recommendations r = recommend(page_16k(), stack, "/dev/sda", "/dev/sda1", false);
  CHECK(command(r, "mdadm") == "mdadm --create /dev/md0 --run --metadata=1.2 --level=1 --raid-devices=2 "
                               "--data-offset=128M /dev/sda1 PARTITION2");
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f /dev/md0");
  CHECK(any_note(r, "RAID 1 mirrors without striping"));
  CHECK(any_note(r, "DISK2"));
  CHECK(has(command(r, "parted"), " && parted --script --align none DISK2 "));
}

TEST_CASE("the md data offset is a multiple of the partition alignment") {
  GeometryForRecommendation g;
  g.read_page = 49152;  // alignment 3 MiB
  StackForRecommendation stack;
  stack.md = MdStripe{0, 2, std::nullopt, std::nullopt};
  const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
  CHECK(r.partition_alignment_bytes == 3 * 1048576);
  const uint64_t offset_mib = captured(command(r, "mdadm"), "--data-offset=(\\d+)M ");
  CHECK(offset_mib == 129);  // the first multiple of 3 MiB from 128 MiB
}

TEST_CASE("an erase block sizes the F2FS section only on a start that makes it true") {
  GeometryForRecommendation g = page_16k();
  SECTION("4 MiB on the 1 MiB start: sections laid out from the partition start would straddle erase blocks") {
    g.erase_block = 4 << 20;
    const Recommendations r = recommend(g, "/dev/sdc", "/dev/sdc1", false);
    CHECK(command(r, "mkfs_f2fs") == "mkfs.f2fs -f /dev/sdc1");
    CHECK(any_note(r, "a start at 1 MiB is not a multiple of the 4 MiB erase block, so sections of 2 segments "
                      "would straddle erase blocks (a partition starting at a multiple of 4 MiB would let -s 2"));
    // The erase block is not in the alignment; a note says what it would buy.
    CHECK(r.partition_alignment_bytes == (1 << 20));
    CHECK(any_note(r, "4 MiB erase block (a period of write stalls) is not in the partition alignment"));
  }
  SECTION("24 MiB with a 48 KiB write unit (3 MiB start): no -s 12") {
    g.write_unit = 48 << 10;
    g.erase_block = 24 << 20;
    const Recommendations r = recommend(g, "/dev/sdc", "/dev/sdc1", false);
    CHECK(r.partition_start_bytes == 3 << 20);
    CHECK(command(r, "mkfs_f2fs") == "mkfs.f2fs -f /dev/sdc1");
  }
  SECTION("unknown: the default, and a note") {
    const Recommendations r = recommend(g, "/dev/sdc", "/dev/sdc1", false);
    CHECK(command(r, "mkfs_f2fs") == "mkfs.f2fs -f /dev/sdc1");
    CHECK(any_note(r, "no erase block was found"));
  }
  SECTION("3 MiB is not a whole number of segments: the default, and a note") {
    g.erase_block = 3 << 20;
    const Recommendations r = recommend(g, "/dev/sdc", "/dev/sdc1", false);
    CHECK(command(r, "mkfs_f2fs") == "mkfs.f2fs -f /dev/sdc1");
    CHECK(any_note(r, "not a multiple of F2FS's 2 MiB segment"));
  }
}

TEST_CASE("every step that destroys data has a warning naming its devices; the others none") {
  StackForRecommendation stack = raid5_of_5(65536);
  stack.other_disks.resize(2);  // sdb, sdc; the last two are placeholders
  stack.lvm = LvmStripe{};
  const Recommendations r = recommend(page_16k(), stack, "/dev/sda", "/dev/sda1", false);
  std::set<std::string> seen;
  for (const auto& step : r.steps) {
    INFO(step.key);
    CHECK(seen.insert(step.key).second);  // keys are unique
    CHECK(step.command.find('\n') == std::string::npos);
    CHECK(!step.purpose.empty());
    CHECK(step.destroys_data == !step.warning.empty());
    CHECK(step.destroys_data == (step.key != "vgcreate" && step.key != "lvcreate"));
  }
  for (const char* key : {"parted", "sfdisk", "sgdisk"}) {
    INFO(key);
    const std::string& warning = find_step(r, key)->warning;
    CHECK(has(warning, "erases the partition tables of /dev/sda, /dev/sdb, /dev/sdc, DISK4, DISK5"));
  }
  CHECK(has(find_step(r, "mdadm")->warning, "/dev/sda1, /dev/sdb1, /dev/sdc1, PARTITION4, PARTITION5"));
  CHECK(has(find_step(r, "pvcreate")->warning, "/dev/md0"));
  for (const char* key : {"mkfs_xfs", "mkfs_ext4", "mkfs_f2fs"}) {
    INFO(key);
    CHECK(find_step(r, key)->warning == "creates a new filesystem on /dev/VG/LV: every file on it is lost");
  }
  const Recommendations single = recommend(page_16k(), "/dev/sdx", "/dev/sdx1", false);
  CHECK(find_step(single, "parted")->warning ==
        "erases the partition table of /dev/sdx: everything on the disk becomes unreachable");
}

TEST_CASE("partition starts are the recommended start in logical sectors") {
  for (uint64_t logical : {512, 4096}) {
    for (uint64_t page : {16384, 49152}) {
      GeometryForRecommendation g;
      g.read_page = page;
      g.logical_block = logical;
      const Recommendations r = recommend(g, "/dev/sdb", "/dev/sdb1", false);
      INFO("logical block " << logical << ", page " << page);
      CHECK(r.partition_start_bytes % page == 0);
      CHECK(captured(command(r, "sfdisk"), "start=(\\d+),") * logical == r.partition_start_bytes);
      CHECK(captured(command(r, "parted"), "mkpart primary (\\d+)B ") == r.partition_start_bytes);
      CHECK(captured(command(r, "sgdisk"), "--new=1:(\\d+):0 ") * logical == r.partition_start_bytes);
      CHECK(captured(command(r, "sgdisk"), "--set-alignment=(\\d+) ") * logical == r.partition_alignment_bytes);
    }
  }
  GeometryForRecommendation g;
  g.read_page = 49152;
  g.logical_block = 4096;
  CHECK(has(command(recommend(g, "/dev/sdb", "/dev/sdb1", false), "sfdisk"), "start=768,"));  // 3 MiB
}

TEST_CASE("pvcreate aligns the data area: the partition alignment, or the full stripe on md") {
  GeometryForRecommendation g;
  g.read_page = 49152;  // 3 MiB alignment
  StackForRecommendation stack;
  stack.lvm = LvmStripe{};
  SECTION("on a partition") {
    const Recommendations r = recommend(g, stack, "/dev/sdb", "/dev/sdb1", false);
    CHECK(command(r, "pvcreate") == "pvcreate --yes --dataalignment 3m /dev/sdb1");
    CHECK(command(r, "vgcreate") == "vgcreate -s 12m VG /dev/sdb1");  // lcm(4 MiB default, 3 MiB)
    CHECK(command(r, "lvcreate") == "lvcreate --yes -n LV -l 100%FREE VG");
    CHECK(has(command(r, "sfdisk"), "type=lvm"));
    CHECK(any_note(r, "one PV: no striped LV"));
  }
  SECTION("on md RAID 5 with a 64 KiB chunk and 4 data disks: 256 KiB") {
    stack.md = MdStripe{5, 5, std::nullopt, 65536};
    const Recommendations r = recommend(page_16k(), stack, "/dev/sda", "/dev/sda1", false);
    CHECK(command(r, "pvcreate") == "pvcreate --yes --dataalignment 256k /dev/md0");
    CHECK(command(r, "vgcreate") == "vgcreate -s 4m VG /dev/md0");
    CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f -d su=64k,sw=4 /dev/VG/LV");  // the md stripe, through the LV
  }
  SECTION("the 1 MiB default") {
    const Recommendations r = recommend(page_16k(), stack, "/dev/nvme0n1", "/dev/nvme0n1p1", false);
    CHECK(command(r, "pvcreate") == "pvcreate --yes --dataalignment 1m /dev/nvme0n1p1");
  }
}

TEST_CASE("a striped LV only with several PVs, its stripe a multiple of the write unit") {
  GeometryForRecommendation g = page_16k();
  g.write_unit = 32768;
  StackForRecommendation stack;
  stack.lvm = LvmStripe{2, std::nullopt, std::nullopt};
  stack.other_disks = {"/dev/nvme1n1"};
  const Recommendations r = recommend(g, stack, "/dev/nvme0n1", "/dev/nvme0n1p1", false);
  CHECK(command(r, "pvcreate") == "pvcreate --yes --dataalignment 1m /dev/nvme0n1p1 /dev/nvme1n1p1");
  CHECK(command(r, "vgcreate") == "vgcreate -s 4m VG /dev/nvme0n1p1 /dev/nvme1n1p1");
  CHECK(command(r, "lvcreate") == "lvcreate --yes -n LV -l 100%FREE -i 2 -I 64k VG");
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f -d su=64k,sw=2 /dev/VG/LV");
  CHECK(command(r, "mkfs_ext4") == "mkfs.ext4 -F -b 4096 -E stride=16,stripe_width=32 /dev/VG/LV");
  SECTION("one PV asking for stripes gets a linear LV and a note") {
    stack.lvm = LvmStripe{1, 2, std::nullopt};
    const Recommendations one = recommend(g, stack, "/dev/nvme0n1", "/dev/nvme0n1p1", false);
    CHECK(command(one, "lvcreate") == "lvcreate --yes -n LV -l 100%FREE VG");
    CHECK(any_note(one, "a striped LV needs several PVs"));
    CHECK(command(one, "mkfs_xfs") == "mkfs.xfs -f /dev/VG/LV");
  }
}

TEST_CASE("a unit that does not divide 1 MiB raises the partition alignment") {
  GeometryForRecommendation g;
  g.read_page = 49152;  // 48 KiB
  g.logical_block = 4096;
  const Recommendations r = recommend(g, "/dev/sdb", "/dev/sdb1", false);
  CHECK(r.partition_alignment_bytes == 3 * 1048576);
  CHECK(r.partition_start_bytes % 49152 == 0);
  CHECK(r.notes.front() == "partitions should start on multiples of 3 MiB, not just 1 MiB");
}

TEST_CASE("no unit determined: plain commands and 1 MiB") {
  const Recommendations r = recommend({}, "/dev/sda", "/dev/sda1", false);
  CHECK(r.partition_start_bytes == 1048576);
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f /dev/sda1");
  CHECK(any_note(r, "no write unit or read page was found"));
  StackForRecommendation stack;
  stack.md = MdStripe{0, 2, std::nullopt, std::nullopt};
  CHECK(has(command(recommend({}, stack, "/dev/sda", "/dev/sda1", false), "mdadm"), "--chunk=512K "));
}

TEST_CASE("a partition target: the commands rebuild its disk, and a note says how to keep the others") {
  const Recommendations r = recommend(page_16k(), "/dev/nvme0n1", "/dev/nvme0n1p3", true);
  CHECK(command(r, "mkfs_xfs") == "mkfs.xfs -f /dev/nvme0n1p1");
  CHECK(any_note(r, "the target /dev/nvme0n1p3 is a partition"));
  CHECK(has(find_step(r, "sfdisk")->warning, "/dev/nvme0n1"));
}

TEST_CASE("nonsense input gives notes, not nonsense commands") {
  GeometryForRecommendation g;
  g.read_page = 16384;
  g.write_unit = (1ULL << 40) + 3;  // no alignment up to 1 GiB is a multiple of it
  g.erase_block = (1ULL << 40) + 3;
  g.logical_block = 0;
  StackForRecommendation stack;
  stack.md = MdStripe{3, 4, std::nullopt, std::nullopt};
  const Recommendations r = recommend(g, stack, "/dev/sda", "/dev/sda1", false);
  CHECK(r.partition_alignment_bytes == 1048576);
  CHECK(any_note(r, "that unit is left out"));
  CHECK(any_note(r, "sector counts assume 512 bytes"));
  CHECK(any_note(r, "md RAID 3 is not a level"));
  CHECK(find_step(r, "mdadm") == nullptr);
  CHECK(has(command(r, "sfdisk"), "start=2048,"));
  stack.md = MdStripe{6, 3, std::nullopt, std::nullopt};  // RAID 6 needs 4
  CHECK(find_step(recommend(g, stack, "/dev/sda", "/dev/sda1", false), "mdadm") == nullptr);
  stack.md = MdStripe{5, 4, 9, std::nullopt};  // 9 data disks of 4 members
  const Recommendations fixed = recommend(page_16k(), stack, "/dev/sda", "/dev/sda1", false);
  CHECK(has(command(fixed, "mkfs_xfs"), "sw=3 "));
  CHECK(any_note(fixed, "9 data disks cannot be right"));
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

TEST_CASE("an SD card's allocation unit joins the partition alignment") {
  GeometryForRecommendation g = page_16k();
  g.allocation_unit = 4u << 20;
  const Recommendations r = recommend(g, "/dev/mmcblk0", "/dev/mmcblk0p1", false);
  CHECK(r.partition_alignment_bytes == 4u << 20);
  CHECK(r.partition_start_bytes == 4u << 20);
  CHECK(any_note(r, "the card's 4 MiB allocation unit (preferred erase size) is in the partition alignment"));
  g.allocation_unit = 512u << 10;  // inside 1 MiB: the alignment stays
  CHECK(recommend(g, "/dev/mmcblk0", "/dev/mmcblk0p1", false).partition_alignment_bytes == 1u << 20);
}
