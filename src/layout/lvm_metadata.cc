// apply_lvm_metadata (lvm_label.h): the VG metadata text's view of one PV.
// The text is what lvm2's lib/format_text/export.c writes:
//
//   VGNAME {
//     id = "..."  extent_size = 8192            # sectors
//     physical_volumes { pv0 { id = "xxxxxx-xxxx-...", pe_start = 2048, pe_count = 15 } ... }
//     logical_volumes {
//       LVNAME { segment1 { start_extent = 0  extent_count = 8  type = "striped"
//                           stripe_count = 2  stripe_size = 128   # sectors
//                           stripes = ["pv0", 4, "pv1", 0] } ... } ...
//     }
//   }
//   contents = "Text Format Volume Group"  version = 1 ...
//
// extent_count counts the segment's LV extents; each of its stripe_count
// stripes holds extent_count / stripe_count of them (lib/format_text/
// import_vsn1.c). Segment types that stack on other LVs (mirror, raid,
// thin, cache) list LVs instead of stripes and are skipped: the sub-LVs
// they name have their own striped segments on the PVs.
#include <algorithm>
#include <limits>

#include "layout/lvm_config.h"
#include "layout/lvm_label.h"

namespace ssdprobe {

namespace {

// lib/metadata/metadata-exported.h MAX_STRIPES.
constexpr int64_t kMaxStripes = 128;
// Extent numbers and sizes in sectors are kept below these so that any
// extent offset in bytes (extent * extent_bytes) stays below 2^63.
constexpr int64_t kMaxExtentSectors = int64_t{1} << 32;
constexpr uint64_t kMaxBytes = uint64_t{1} << 62;

std::string without_dashes(std::string id) {
  std::erase(id, '-');
  return id;
}

bool is_power_of_two(int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

// The VG's section: the top-level section that has physical_volumes.
const LvmConfigSection* vg_section(const LvmConfigSection& root) {
  for (const auto& section : root.sections) {
    if (section.section("physical_volumes") != nullptr) return &section;
  }
  return nullptr;
}

// The key ("pv0") of this PV in physical_volumes, matched by uuid.
const LvmConfigSection* find_pv(const LvmConfigSection& physical_volumes, const std::string& pv_uuid) {
  for (const auto& pv : physical_volumes.sections) {
    const auto id = pv.string("id");
    if (id && without_dashes(*id) == pv_uuid) return &pv;
  }
  return nullptr;
}

struct PvContext {
  std::string key;           // "pv0"
  uint64_t extent_bytes = 0;
  std::optional<int64_t> pe_count;
};

// The stripes of one segment that lie on this PV, or a note why the segment
// does not add up.
std::vector<LvmSegment> segment_on_pv(const std::string& lv_name, const LvmConfigSection& segment, const PvContext& pv,
                                      std::vector<std::string>& notes) {
  const LvmConfigValue* stripes = segment.value("stripes");
  if (stripes == nullptr) return {};  // stacked on other LVs, or no area at all
  const std::string where = "LV " + lv_name + " " + segment.name + ": ";
  const auto start_extent = segment.integer("start_extent");
  const auto extent_count = segment.integer("extent_count");
  const auto stripe_count = segment.integer("stripe_count");
  if (!start_extent || !extent_count || !stripe_count || stripes->kind != LvmConfigValue::Kind::list) {
    notes.push_back(where + "start_extent, extent_count, stripe_count or stripes missing");
    return {};
  }
  const uint64_t max_extent = kMaxBytes / pv.extent_bytes;
  if (*stripe_count < 1 || *stripe_count > kMaxStripes || *extent_count < 1 || *start_extent < 0 ||
      static_cast<uint64_t>(*start_extent) + static_cast<uint64_t>(*extent_count) > max_extent ||
      *extent_count % *stripe_count != 0 || stripes->items.size() != 2 * static_cast<size_t>(*stripe_count)) {
    notes.push_back(where + "extents or stripes out of range");
    return {};
  }
  uint64_t stripe_bytes = 0;
  if (*stripe_count > 1) {
    const auto stripe_size = segment.integer("stripe_size");
    if (!stripe_size || !is_power_of_two(*stripe_size) || *stripe_size >= kMaxExtentSectors) {
      notes.push_back(where + "stripe_size missing or not a power of two");
      return {};
    }
    stripe_bytes = static_cast<uint64_t>(*stripe_size) * kFormatSectorBytes;
  }
  const uint64_t per_stripe = static_cast<uint64_t>(*extent_count / *stripe_count);

  std::vector<LvmSegment> found;
  for (size_t i = 0; i + 1 < stripes->items.size(); i += 2) {
    const LvmConfigValue& name = stripes->items[i];
    const LvmConfigValue& first = stripes->items[i + 1];
    if (name.kind != LvmConfigValue::Kind::string || first.kind != LvmConfigValue::Kind::integer || first.integer < 0) {
      notes.push_back(where + "stripes must pair a PV name with a first extent");
      return {};
    }
    if (name.text != pv.key) continue;
    const uint64_t pv_start = static_cast<uint64_t>(first.integer);
    if (pv_start + per_stripe > max_extent ||
        (pv.pe_count && pv_start + per_stripe > static_cast<uint64_t>(*pv.pe_count))) {
      notes.push_back(where + "stripe on " + pv.key + " runs past the PV's pe_count");
      return {};
    }
    found.push_back(LvmSegment{lv_name, static_cast<uint64_t>(*start_extent), pv_start, per_stripe,
                               static_cast<uint32_t>(*stripe_count), stripe_bytes});
  }
  return found;
}

std::vector<LvmSegment> segments_on_pv(const LvmConfigSection& vg, const PvContext& pv, std::vector<std::string>& notes) {
  std::vector<LvmSegment> segments;
  const LvmConfigSection* lvs = vg.section("logical_volumes");
  if (lvs == nullptr) return segments;  // a VG without LVs
  for (const auto& lv : lvs->sections) {
    for (const auto& segment : lv.sections) {
      auto found = segment_on_pv(lv.name, segment, pv, notes);
      segments.insert(segments.end(), found.begin(), found.end());
    }
  }
  std::stable_sort(segments.begin(), segments.end(),
                   [](const LvmSegment& a, const LvmSegment& b) { return a.pv_start_extent < b.pv_start_extent; });
  return segments;
}

}  // namespace

std::vector<std::string> apply_lvm_metadata(const std::string& text, LvmPhysicalVolume& pv) {
  std::vector<std::string> notes;
  const LvmConfigParse parsed = parse_lvm_config(text);
  if (!parsed.root) {
    notes.push_back("VG metadata does not parse: " + parsed.error);
    return notes;
  }
  const LvmConfigSection* vg = vg_section(*parsed.root);
  if (vg == nullptr) {
    notes.push_back("VG metadata has no volume group section with physical_volumes");
    return notes;
  }
  const auto extent_size = vg->integer("extent_size");
  if (!extent_size || *extent_size < 1 || *extent_size >= kMaxExtentSectors) {
    notes.push_back("VG " + vg->name + ": extent_size missing or out of range");
    return notes;
  }
  const LvmConfigSection* this_pv = find_pv(*vg->section("physical_volumes"), pv.pv_uuid);
  if (this_pv == nullptr) {
    notes.push_back("VG " + vg->name + " does not list this PV (uuid " + pv.pv_uuid + ")");
    return notes;
  }

  PvContext context{this_pv->name, static_cast<uint64_t>(*extent_size) * kFormatSectorBytes, this_pv->integer("pe_count")};
  if (context.pe_count && *context.pe_count < 0) {
    notes.push_back("VG " + vg->name + " " + this_pv->name + ": negative pe_count ignored");
    context.pe_count.reset();
  }
  const auto pe_start = this_pv->integer("pe_start");
  if (!pe_start) {
    notes.push_back("VG " + vg->name + " " + this_pv->name + ": no pe_start; the label's is used");
  } else if (*pe_start < 0 || *pe_start > std::numeric_limits<int64_t>::max() / 512 ||
             static_cast<uint64_t>(*pe_start) * kFormatSectorBytes != pv.pe_start_bytes) {
    notes.push_back("VG " + vg->name + " " + this_pv->name + ": pe_start " + std::to_string(*pe_start) +
                    " sectors in the metadata differs from the label's " + std::to_string(pv.pe_start_bytes) +
                    " bytes; the label's is used");
  }

  pv.vg_name = vg->name;
  pv.vg_pv_count = static_cast<uint32_t>(vg->section("physical_volumes")->sections.size());
  pv.extent_bytes = context.extent_bytes;
  pv.segments = segments_on_pv(*vg, context, notes);
  return notes;
}

}  // namespace ssdprobe
