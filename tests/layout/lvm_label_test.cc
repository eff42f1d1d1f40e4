// LVM2 physical volumes on the bytes lvm2 2.03.16 wrote (pvcreate, vgcreate,
// vgcfgrestore on loop devices: tests/data/layout/lvm/README.md says how):
// label, pv_header, metadata area and the VG metadata's segments; then
// corrupted copies of them and hand-written metadata text.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "layout/lvm_config.h"
#include "layout/lvm_label.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

// The fixtures, found from this source file's path as the compiler saw it
// (relative to the build directory, two levels above the test executable).
std::filesystem::path fixture_dir() {
  std::filesystem::path source(__FILE__);
  if (source.is_relative()) {
    const auto exe = std::filesystem::read_symlink("/proc/self/exe");
    source = exe.parent_path() / ".." / ".." / source;
  }
  return source.parent_path() / ".." / "data" / "layout" / "lvm";
}

std::vector<uint8_t> fixture(const std::string& name) {
  const auto path = fixture_dir() / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("cannot read " << path);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

std::span<const uint8_t> area_of(const std::vector<uint8_t>& head, const LvmLabel& label) {
  REQUIRE(!label.metadata_areas.empty());
  const uint64_t offset = label.metadata_areas.front().first;
  REQUIRE(offset < head.size());
  return std::span(head).subspan(offset);
}

void put_le32(std::vector<uint8_t>& bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

// Recomputes the mda_header checksum (bytes 4..511) after an edit.
void reseal_mda_header(std::vector<uint8_t>& bytes, size_t mda) {
  put_le32(bytes, mda, lvm_crc(kLvmInitialCrc, std::span(bytes).subspan(mda + 4, 508)));
}

LvmPhysicalVolume pv_with(const std::string& uuid, uint64_t pe_start) {
  LvmPhysicalVolume pv;
  pv.pv_uuid = uuid;
  pv.pe_start_bytes = pe_start;
  return pv;
}

// A VG with one PV ("pv0", uuid AAAA...) and the given logical_volumes body.
std::string vg_text(const std::string& logical_volumes, const std::string& pv0_extra = "pe_start = 2048\npe_count = 100") {
  return "vg1 {\nid = \"x\"\nseqno = 3\nextent_size = 8192\nphysical_volumes {\npv0 {\n"
         "id = \"AAAAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAAAA\"\n" + pv0_extra + "\n}\n"
         "pv1 {\nid = \"BBBBBB-BBBB-BBBB-BBBB-BBBB-BBBB-BBBBBB\"\npe_start = 2048\npe_count = 100\n}\n}\n"
         "logical_volumes {\n" + logical_volumes + "\n}\n}\ncontents = \"Text Format Volume Group\"\nversion = 1\n";
}
const std::string kPv0 = std::string(32, 'A');

}  // namespace

TEST_CASE("lvm: the CRC is CRC-32 without the final inversion, from lvm2's initial value", "[lvm]") {
  const std::string check = "123456789";
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(check.data()), check.size());
  // Started from 0xffffffff and inverted it is the catalogued CRC-32 check value.
  CHECK(~lvm_crc(0xffffffff, bytes) == 0xcbf43926u);
  CHECK(lvm_crc(kLvmInitialCrc, {}) == kLvmInitialCrc);
  // Continuing over a second buffer equals one pass over both.
  CHECK(lvm_crc(lvm_crc(kLvmInitialCrc, bytes.first(4)), bytes.subspan(4)) == lvm_crc(kLvmInitialCrc, bytes));
}

TEST_CASE("lvm: pvcreate --dataalignment 192k puts pe_start at 1152 KiB, off the 1 MiB grid", "[lvm]") {
  const auto head = fixture("pv_align192k.bin");
  const auto label = decode_lvm_label(head);
  REQUIRE(label);
  CHECK(label->pv.label_offset_bytes == 512);
  CHECK(label->pv.pv_uuid == "cmcsXPHPiP6ER16BLDd4BpaFQchJr0Bu");
  CHECK(label->pv.pe_start_bytes == 1152 * kKiB);  // pvs: 1st PE 1179648B
  CHECK(label->pv.pe_start_bytes % kMiB != 0);
  REQUIRE(label->metadata_areas.size() == 1);
  CHECK(label->metadata_areas[0] == std::pair<uint64_t, uint64_t>(4096, 1175552));  // pvs: PMdaSize

  const auto text = lvm_metadata_text(area_of(head, *label));
  REQUIRE(text);
  CHECK(text->starts_with("h1vg192 {"));
  LvmPhysicalVolume pv = label->pv;
  const auto notes = apply_lvm_metadata(*text, pv);
  CHECK(notes.empty());
  CHECK(pv.vg_name == "h1vg192");
  CHECK(pv.extent_bytes == 4 * kMiB);  // vgcreate -s 4m
  CHECK(pv.segments.empty());          // no LVs
  CHECK(pv.pe_start_bytes == 1152 * kKiB);
}

TEST_CASE("lvm: default alignment (pe_start 1 MiB) and the linear and striped segments on each PV", "[lvm]") {
  // VG h1vg on two PVs: LV "data" is linear, 4 extents on pv0 from 0 then 2
  // on pv1 from 8; LV "fast" stripes 8 extents over pv0 from 4 and pv1 from 0
  // with a 64 KiB stripe (lvs: /dev/loop1:0-3, /dev/loop2:8-9, /dev/loop1:4-7 /dev/loop2:0-3).
  struct Want {
    const char* file;
    const char* uuid;
    std::vector<LvmSegment> segments;
  };
  const Want wants[] = {
      {"pv_lvs_pv0.bin", "dlds6FzavQhAgBlVvFrKj5eipmhVqHwP",
       {{"data", 0, 0, 4, 1, 0}, {"fast", 0, 4, 4, 2, 64 * kKiB}}},
      {"pv_lvs_pv1.bin", "0zlqECqmm9n6SJ2lB6SXEPqf91CRnfCD",
       {{"fast", 0, 0, 4, 2, 64 * kKiB}, {"data", 4, 8, 2, 1, 0}}},
  };
  for (const auto& want : wants) {
    INFO(want.file);
    const auto head = fixture(want.file);
    const auto label = decode_lvm_label(head);
    REQUIRE(label);
    CHECK(label->pv.label_offset_bytes == 512);
    CHECK(label->pv.pv_uuid == want.uuid);
    CHECK(label->pv.pe_start_bytes == 1 * kMiB);
    CHECK(label->metadata_areas == std::vector<std::pair<uint64_t, uint64_t>>{{4096, 1044480}});
    const auto text = lvm_metadata_text(area_of(head, *label));
    REQUIRE(text);
    LvmPhysicalVolume pv = label->pv;
    const auto notes = apply_lvm_metadata(*text, pv);
    CHECK(notes.empty());
    CHECK(pv.vg_name == "h1vg");
    CHECK(pv.extent_bytes == 4 * kMiB);
    REQUIRE(pv.segments.size() == want.segments.size());
    for (size_t i = 0; i < want.segments.size(); ++i) {
      INFO("segment " << i);
      const auto& got = pv.segments[i];
      const auto& w = want.segments[i];
      CHECK(got.lv_name == w.lv_name);
      CHECK(got.lv_start_extent == w.lv_start_extent);
      CHECK(got.pv_start_extent == w.pv_start_extent);
      CHECK(got.extent_count == w.extent_count);
      CHECK(got.stripes == w.stripes);
      CHECK(got.stripe_bytes == w.stripe_bytes);
    }
  }
}

TEST_CASE("lvm: metadata that wrapped around the circular buffer is joined back together", "[lvm]") {
  // 32 KiB metadata area after 31 metadata writes: the newest copy starts
  // 512 bytes before the area's end and continues after the mda_header.
  const auto head = fixture("pv_mda_wrapped.bin");
  const auto label = decode_lvm_label(head);
  REQUIRE(label);
  CHECK(label->pv.pe_start_bytes == 36 * kKiB);
  REQUIRE(label->metadata_areas.size() == 1);
  CHECK(label->metadata_areas[0] == std::pair<uint64_t, uint64_t>(4096, 32 * kKiB));
  const auto area = area_of(head, *label);
  const auto text = lvm_metadata_text(area);
  REQUIRE(text);
  CHECK(text->starts_with("h1wrap {"));
  CHECK(text->find("seqno = 32\n") != std::string::npos);
  CHECK(text->find("\"t31\"]") != std::string::npos);
  CHECK(text->ends_with("\n"));
  LvmPhysicalVolume pv = label->pv;
  CHECK(apply_lvm_metadata(*text, pv).empty());
  CHECK(pv.vg_name == "h1wrap");
  CHECK(pv.extent_bytes == 1 * kMiB);

  // The area cut one byte short of its end loses the text's last byte
  // before the wrap: no text.
  CHECK(lvm_metadata_text(area.first(32 * kKiB)));
  CHECK_FALSE(lvm_metadata_text(area.first(32 * kKiB - 1)));
  // A byte changed in the wrapped part breaks the text's CRC.
  auto bytes = head;
  bytes[4096 + 600] ^= 0x01;
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(4096)));
}

TEST_CASE("lvm: a label in sector 3 is found in the first 2048 bytes; a PV without a VG has no metadata", "[lvm]") {
  const auto head = fixture("pv_labelsector3_novg.bin");
  const auto label = decode_lvm_label(head);
  REQUIRE(label);
  CHECK(label->pv.label_offset_bytes == 1536);  // pvcreate --labelsector 3
  CHECK(label->pv.pv_uuid == "52wzztDcxydJfFN3TrplMY2ydR0AWusA");
  CHECK(label->pv.pe_start_bytes == 1 * kMiB);
  CHECK(decode_lvm_label(std::span(head).first(2048)));
  CHECK_FALSE(decode_lvm_label(std::span(head).first(2047)));
  CHECK_FALSE(lvm_metadata_text(area_of(head, *label)));  // header valid, no raw_locn
}

TEST_CASE("lvm: a damaged or misplaced label is refused", "[lvm]") {
  const auto good = fixture("pv_align192k.bin");
  REQUIRE(decode_lvm_label(good));
  SECTION("a byte of the pv_header changed (CRC)") {
    auto bytes = good;
    bytes[512 + 0x48] ^= 0x02;  // pe_start
    CHECK_FALSE(decode_lvm_label(bytes));
  }
  SECTION("the label moved to sector 2: sector_xl (outside the CRC) still says 1") {
    std::vector<uint8_t> bytes(good.size(), 0);
    std::copy(good.begin() + 512, good.begin() + 1024, bytes.begin() + 1024);
    CHECK_FALSE(decode_lvm_label(bytes));
  }
  SECTION("no LABELONE or another type") {
    auto bytes = good;
    bytes[512] = 'l';
    CHECK_FALSE(decode_lvm_label(bytes));
    bytes = good;
    bytes[512 + 24 + 7] = '2';  // "LVM2 002"
    CHECK_FALSE(decode_lvm_label(bytes));
  }
  SECTION("too short to hold sector 1") { CHECK_FALSE(decode_lvm_label(std::span(good).first(1023))); }
}

TEST_CASE("lvm: pv_header areas are range-checked (with a valid CRC)", "[lvm]") {
  const auto good = fixture("pv_align192k.bin");
  // Rewrites a u64 of the label sector and recomputes its CRC (bytes 20..511).
  auto with_u64 = [&](size_t offset_in_label, uint64_t value) {
    auto bytes = good;
    for (int i = 0; i < 8; ++i) bytes[512 + offset_in_label + i] = static_cast<uint8_t>(value >> (8 * i));
    put_le32(bytes, 512 + 16, lvm_crc(kLvmInitialCrc, std::span(bytes).subspan(512 + 20, 492)));
    return decode_lvm_label(bytes);
  };
  // pv_header at 32: device_size at 64, data area at 72 (offset, size),
  // terminator at 88, metadata area at 104.
  CHECK(with_u64(72, 1152 * kKiB));                    // unchanged value: accepted
  CHECK(with_u64(72, 2 * kMiB)->pv.pe_start_bytes == 2 * kMiB);
  CHECK_FALSE(with_u64(72, 1152 * kKiB + 1));          // not on a sector
  CHECK_FALSE(with_u64(72, 128 * kMiB));               // past the 64 MiB device
  CHECK_FALSE(with_u64(72, 0));                        // no data area
  CHECK_FALSE(with_u64(64, 0));                        // device size 0
  CHECK_FALSE(with_u64(104, 512));                     // metadata area over the label sector
  CHECK_FALSE(with_u64(112, 64 * kMiB));               // metadata area past the device's end
  CHECK_FALSE(with_u64(112, ~uint64_t{0}));            // offset + size overflows
}

TEST_CASE("lvm: a damaged metadata area header, or an ignored one, gives no text", "[lvm]") {
  const auto good = fixture("pv_lvs_pv0.bin");
  const size_t mda = 4096;
  REQUIRE(lvm_metadata_text(std::span(good).subspan(mda)));
  auto bytes = good;
  bytes[mda + 5] = 'l';  // magic
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));
  reseal_mda_header(bytes, mda);
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));

  bytes = good;
  bytes[mda + 40] ^= 0x01;  // raw_locn offset, header CRC not redone
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));

  bytes = good;
  bytes[mda + 40 + 20] = 1;  // RAW_LOCN_IGNORED
  reseal_mda_header(bytes, mda);
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));

  bytes = good;
  bytes[mda + 40 + 8] = 0xff;  // text size beyond the area, header resealed
  bytes[mda + 40 + 9] = 0xff;
  bytes[mda + 40 + 10] = 0xff;
  reseal_mda_header(bytes, mda);
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));

  bytes = good;
  bytes[mda + 0x600 + 10] ^= 0x20;  // inside the text: its CRC no longer matches
  CHECK_FALSE(lvm_metadata_text(std::span(bytes).subspan(mda)));
  CHECK_FALSE(lvm_metadata_text(std::span(good).subspan(mda, 511)));
}

TEST_CASE("lvm metadata: a pe_start that disagrees with the label is noted, the label's kept", "[lvm]") {
  LvmPhysicalVolume pv = pv_with(kPv0, 1 * kMiB);
  auto notes = apply_lvm_metadata(vg_text("", "pe_start = 384\npe_count = 100"), pv);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("pe_start 384") != std::string::npos);
  CHECK(pv.pe_start_bytes == 1 * kMiB);
  CHECK(pv.vg_name == "vg1");

  pv = pv_with(kPv0, 1 * kMiB);
  CHECK(apply_lvm_metadata(vg_text(""), pv).empty());
}

TEST_CASE("lvm metadata: a PV the VG does not list gets nothing", "[lvm]") {
  LvmPhysicalVolume pv = pv_with(std::string(32, 'C'), 1 * kMiB);
  const auto notes = apply_lvm_metadata(vg_text(""), pv);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("does not list this PV") != std::string::npos);
  CHECK(pv.vg_name.empty());
  CHECK_FALSE(pv.extent_bytes);
}

TEST_CASE("lvm metadata: segments stacked on LVs are skipped, bad segments noted and left out", "[lvm]") {
  const std::string lvs = R"(
    mirrored { segment1 { start_extent = 0 extent_count = 4 type = "raid1" device_count = 2
                          raids = ["mirrored_rmeta_0", "mirrored_rimage_0", "mirrored_rmeta_1", "mirrored_rimage_1"] } }
    mirrored_rimage_0 { segment1 { start_extent = 0 extent_count = 4 type = "striped" stripe_count = 1
                                   stripes = ["pv0", 20] } }
    uneven { segment1 { start_extent = 0 extent_count = 5 type = "striped" stripe_count = 2 stripe_size = 128
                        stripes = ["pv0", 30, "pv1", 30] } }
    oddstripe { segment1 { start_extent = 0 extent_count = 4 type = "striped" stripe_count = 2 stripe_size = 96
                           stripes = ["pv0", 40, "pv1", 40] } }
    beyond { segment1 { start_extent = 0 extent_count = 10 type = "striped" stripe_count = 1
                        stripes = ["pv0", 95] } }
    short { segment1 { start_extent = 0 extent_count = 4 type = "striped" stripe_count = 2 stripe_size = 128
                       stripes = ["pv0", 50] } }
    other { segment1 { start_extent = 0 extent_count = 4 type = "striped" stripe_count = 1
                       stripes = ["pv1", 0] } }
    two { segment1 { start_extent = 0 extent_count = 2 type = "striped" stripe_count = 1 stripes = ["pv0", 12] }
          segment2 { start_extent = 2 extent_count = 2 type = "striped" stripe_count = 1 stripes = ["pv0", 2] } }
  )";
  LvmPhysicalVolume pv = pv_with(kPv0, 1 * kMiB);
  const auto notes = apply_lvm_metadata(vg_text(lvs), pv);
  CHECK(notes.size() == 4);  // uneven, oddstripe, beyond, short
  REQUIRE(pv.segments.size() == 3);
  CHECK(pv.segments[0].lv_name == "two");
  CHECK(pv.segments[0].pv_start_extent == 2);
  CHECK(pv.segments[0].lv_start_extent == 2);
  CHECK(pv.segments[1].lv_name == "two");
  CHECK(pv.segments[1].pv_start_extent == 12);
  CHECK(pv.segments[2].lv_name == "mirrored_rimage_0");
  CHECK(pv.segments[2].pv_start_extent == 20);
  CHECK(pv.segments[2].extent_count == 4);
}

TEST_CASE("lvm metadata: text that does not parse is noted, nothing filled, nothing thrown", "[lvm]") {
  const std::string bad[] = {
      "",
      "vg1 {",
      "vg1 { extent_size = }",
      "vg1 { extent_size = 12abc }",
      "vg1 { extent_size = 99999999999999999999 }",
      "vg1 { name = \"unterminated }",
      "vg1 { list = [1, 2 }",
      "vg1 { list = [[1]] }",
      "}",
      "= 5",
      std::string(100, '{'),
      "a {" + std::string(10000, '{'),
      vg_text("lv { segment1 { start_extent = 0 extent_count = 1 type = \"striped\" stripe_count = 1 stripes = [\"pv0\" 0] } }"),
  };
  for (const auto& text : bad) {
    INFO(text.substr(0, 80));
    LvmPhysicalVolume pv = pv_with(kPv0, 1 * kMiB);
    std::vector<std::string> notes;
    REQUIRE_NOTHROW(notes = apply_lvm_metadata(text, pv));
    CHECK_FALSE(notes.empty());
    CHECK(pv.vg_name.empty());
    CHECK(pv.segments.empty());
  }
}

TEST_CASE("lvm config: comments, escapes, lists, negative and real numbers", "[lvm]") {
  const auto parsed = parse_lvm_config(
      "# comment\nvg { a = -5 # trailing\n b = \"q\\\"uote\\\\\" c = ['x', 2, 1.5] d = [] e = 3.25\n"
      " sub { deep { x = 1 } } }\ntop = 9223372036854775807\nlow = -9223372036854775808\n");
  REQUIRE(parsed.root);
  const auto* vg = parsed.root->section("vg");
  REQUIRE(vg);
  CHECK(vg->integer("a") == -5);
  CHECK(vg->string("b") == "q\"uote\\");
  const auto* c = vg->value("c");
  REQUIRE(c);
  REQUIRE(c->items.size() == 3);
  CHECK(c->items[0].text == "x");
  CHECK(c->items[1].integer == 2);
  CHECK(c->items[2].kind == LvmConfigValue::Kind::real);
  CHECK(vg->value("d")->items.empty());
  CHECK(vg->value("e")->text == "3.25");
  CHECK(vg->section("sub")->section("deep")->integer("x") == 1);
  CHECK(parsed.root->integer("top") == INT64_MAX);
  CHECK(parsed.root->integer("low") == INT64_MIN);
  CHECK_FALSE(parse_lvm_config("top = 9223372036854775808").root);

  const auto error = parse_lvm_config("a {\n b = 1\n c = ?\n}");
  CHECK_FALSE(error.root);
  CHECK(error.error.starts_with("line 3:"));
  // Nesting is bounded.
  std::string nested;
  for (int i = 0; i < kLvmConfigMaxDepth; ++i) nested += "s {";
  CHECK(parse_lvm_config(nested + std::string(kLvmConfigMaxDepth, '}')).root);
  CHECK_FALSE(parse_lvm_config("s {" + nested + std::string(kLvmConfigMaxDepth + 1, '}')).root);
}
