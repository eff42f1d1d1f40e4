// LVM2 physical volumes from the bytes at the start of the PV: the label
// ("LABELONE" in one of the first four sectors) with its pv_header, a
// metadata area's header and the VG metadata text in its circular buffer,
// and that text's view of this PV (VG name, extent size, the LV segments
// that lie on it). Formats: lvm2 lib/label/label.h (struct label_header),
// lib/format_text/layout.h (struct pv_header, disk_locn, mda_header,
// raw_locn) and the metadata text that lib/format_text/export.c writes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "layout/layout.h"

namespace ssdprobe {

struct LvmLabel {
  LvmPhysicalVolume pv;  // label_offset_bytes, pv_uuid, pe_start_bytes (the first data area's offset)
  std::vector<std::pair<uint64_t, uint64_t>> metadata_areas;  // (offset, size) in bytes from the PV start
};

// lvm2's checksum (lib/misc/crc.c calc_crc): CRC-32 with the reflected
// polynomial 0xedb88320, started from `initial` and without a final
// inversion; `initial` is kLvmInitialCrc for labels, mda headers and
// metadata text, or a previous result to continue over a second buffer.
inline constexpr uint32_t kLvmInitialCrc = 0xf597a6cf;
uint32_t lvm_crc(uint32_t initial, std::span<const uint8_t> bytes);

// The label: "LABELONE" + "LVM2 001" in one of the first 4 sectors of `head`
// (the PV's first bytes; 2048 cover all four), with sector_xl naming that
// sector and a matching CRC over bytes 20..511 of the sector; then the
// pv_header: uuid, device size, data areas (the first is pe_start) and
// metadata areas, each range-checked. nullopt if no sector holds a valid one.
std::optional<LvmLabel> decode_lvm_label(std::span<const uint8_t> head);

// The VG metadata text in a metadata area, from the area's bytes (starting
// at its offset: the 512-byte mda_header with magic " LVM2 x[5A%r0N*>",
// version 1 and its raw_locn list, then the circular buffer). Returns the
// committed text (raw_locn 0: the newest metadata LVM has written; the text
// wraps to the buffer's start, just after the header, when it runs past the
// area's end) without its trailing NUL, or nullopt if the header's or the
// text's CRC does not match, a location is out of range, the text is not in
// `area` (it may be shorter than the area) or no metadata was written.
std::optional<std::string> lvm_metadata_text(std::span<const uint8_t> area);

// Parses VG metadata text and fills pv.vg_name, pv.extent_bytes,
// pv.vg_pv_count (the entries of physical_volumes) and pv.segments: every
// stripe of an LV segment that lies on this PV (the one in physical_volumes
// whose id, without dashes, is pv.pv_uuid), in PV order, with
// lv_start_extent, pv_start_extent, extent_count (per stripe), stripes and
// stripe_bytes (0 unless striped). A pe_start in the metadata that
// differs from the label's is reported and the label's kept. Returns notes
// on whatever could not be parsed or did not add up (a segment that does
// not is left out); fields stay unset when the text or this PV's entry is
// unusable.
std::vector<std::string> apply_lvm_metadata(const std::string& text, LvmPhysicalVolume& pv);

}  // namespace ssdprobe
