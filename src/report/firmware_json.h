// The firmware sections of the result document (docs/result-json.md),
// rendered from what src/firmware decoded: reported.nvme, reported.ata,
// reported.scsi, reported.smart, reported.expectations and
// write_probe.write_amplification. Firmware fields keep their spec names in
// lower case with raw values; a value that is absent, not valid or does not
// fit is JSON null, never a guess.
#pragma once

#include <nlohmann/json.hpp>

#include "device/zone_report.h"
#include "device/zoned.h"
#include "firmware/ata_identify.h"
#include "firmware/mmc_query.h"
#include "firmware/nvme_reported.h"
#include "firmware/scsi_pages.h"
#include "firmware/smartctl_json.h"
#include "firmware/sysfs_expectation.h"
#include "firmware/write_counters.h"

namespace ssdprobe {

// reported.nvme (nvme_json.cc), in order: model, serial, firmware,
// identify_ctrl, identify_ns, the controller fields (vid, ssvid, ieee, ver,
// version, cntlid, cntrltype, cmic, ctratt, nn, tnvmcap, unvmcap, mdts,
// mdts_bytes, oacs, oacs_bits, oncs, oncs_bits, vwc, awun, awun_bytes, awupf,
// awupf_bytes, acwu, acwu_bytes), nsid, the namespace fields (nsze .. dlfeat
// with nsfeat_bits, lbaf_in_use, lbaf [{ds, ms, rp}], lba_bytes and
// nsze/ncap/nuse_bytes; npwg/npwa/npdg/npda/nows, nawun/nawupf/nacwu,
// nabsn/nabo/nabspf and noiob with _bytes; mssrl, mcl, msrc; anagrpid ..
// eui64), `nvm` (the NVM command set namespace page, or null), `smart`
// (SMART/Health log, or null), `ocp` (OCP C0h page, or null) and `fdp`
// (nvme_fdp_json, or null when the controller has no FDP). Fields of a
// structure that could not be read are absent, not invented; identify_ctrl /
// identify_ns say whether each page was read.
nlohmann::ordered_json nvme_reported_json(const NvmeFirmwareData& data);

// reported.nvme.zns (zoned_json.cc), null unless a ZNS page was read:
// identify_ns_zns, identify_ctrl_zns, zoc (+ zoc_bits vzcap, zae), ozcs
// (+ ozcs_bits razb, zrwasup), mar/mor with max_active_zones/max_open_zones
// (null: no limit), rrl, frl, rrl1..3, frl1..3, numzrwa, zrwafg, zrwasz,
// zrwacap (with _bytes), zsze/zdes of the LBA format in use with zone_bytes
// and zone_descriptor_extension_bytes, lbafe [{zsze, zdes}], zasl, zasl_bytes.
nlohmann::ordered_json nvme_zns_json(const NvmeFirmwareData& data);

// reported.zoned (zoned_json.cc): the sysfs zone model and limits and the
// kernel's zone report summary (`report`, null when not read).
nlohmann::ordered_json zoned_reported_json(const ZonedLimits& limits, const std::optional<ZoneSummary>& report);

// The `smart` and `ocp` sub-objects of reported.nvme: raw counters under
// their spec names in lower case, plus *_bytes for data units. A 128-bit
// counter past 64 bits is a decimal string.
nlohmann::ordered_json nvme_smart_json(const NvmeSmartLog& log);
nlohmann::ordered_json ocp_smart_json(const OcpSmartLog& log);

// reported.nvme.endurance_group (endurance_json.cc), null when the log was
// not read: endgid, critical_warning (+ _bits), available_spare (+
// _threshold), percentage_used, endurance_estimate, data_units_read/written
// and media_units_written (each raw, in billions of bytes, and as _bytes),
// host_read/write_commands, media_data_integrity_errors, error_log_entries,
// total/unallocated_capacity_bytes (null: not reported).
nlohmann::ordered_json nvme_endurance_json(const NvmeEnduranceLog& log);

// reported.nvme.fdp (fdp_json.cc): endgid, fdpe and fdpcidx (Get Features
// 1Dh; null when it failed), configuration_in_use (the descriptor fdpcidx
// names when FDP is enabled, else null), configurations (20h), ruh_usage
// (21h), statistics (22h, with mbmw_per_hbmw) and host_events /
// controller_events (23h); each log null when it could not be read.
nlohmann::ordered_json nvme_fdp_json(const NvmeFdp& fdp);

// reported.nvme.directives (nvme_directives_json.cc): supported and enabled
// (bytes 0 and 32 of the Identify directive's Return Parameters),
// streams_supported, streams_enabled and `streams` (MSL, NSSA, NSSO, NSSC,
// SWS with sws_bytes, SGS with sgs_bytes = SWS × SGS in bytes, NSA, NSO; null
// when not read).
nlohmann::ordered_json nvme_directives_json(const NvmeDirectives& directives, std::optional<uint64_t> lba_bytes);

// reported.nvme.capabilities: every capability the controller advertises
// (firmware/nvme_capabilities.h) as {field, bit, name, decoded, reason}.
nlohmann::ordered_json nvme_capabilities_json(const NvmeFirmwareData& data);

// reported.ata (sd_json.cc): model, serial, firmware, logical_sector_bytes,
// physical_sector_bytes, alignment_offset_bytes, lowest_aligned_lba,
// trim_supported, trim_deterministic, trim_zeroes, rotation_rate,
// solid_state, capacity_sectors, capacity_bytes, word106, word117, word118,
// word209, word217, checksum_present, checksum_valid (null when absent).
nlohmann::ordered_json ata_reported_json(const AtaIdentify& id);

// reported.scsi (sd_json.cc): {"inquiry": {...}|null, "unit_serial":
// str|null, "read_capacity16": {...}|null, "block_limits": {...}|null};
// counts raw in logical blocks under the SBC field names, plus *_bytes where
// the logical block length is known.
nlohmann::ordered_json scsi_reported_json(const ScsiPages& pages);

// reported.mmc (mmc_json.cc): type, card, name, erase_size,
// preferred_erase_size, csd_raw, cid_raw, scr_raw and the decoded csd (SD:
// csd_structure, version, c_size, c_size_mult, capacity_bytes, read_bl_len,
// erase_blk_en, sector_size ... with *_bytes; MMC: spec_vers, erase_grp_size,
// erase_grp_mult, erase_group_bytes ...), scr and cid; null where a register
// is absent or did not decode.
nlohmann::ordered_json mmc_reported_json(const MmcCardData& card);

// reported.smart (smart_json.cc): exit status (with bit names), messages,
// identity, block sizes, rotation, trim, SMART status, NVMe counters, ATA
// attributes and the write counters smartctl exposes.
nlohmann::ordered_json smartctl_summary_json(const SmartctlReport& report);

// write_probe.write_amplification (smart_json.cc): host_source, nand_source,
// write_grid and stream ({pattern, bytes_issued, host_bytes_written,
// nand_bytes_written, write_amplification}) and notes.
nlohmann::ordered_json write_amplification_json(const WriteAmplification& amplification);
// One phase's writes and counter deltas without its pattern (phases[].writes).
nlohmann::ordered_json write_phase_json(const WritePhaseCounts& phase);

// One of reported.expectations (smart_json.cc):
// {"source", "kernel_model", "fields": [{"name", "value", "derivation"}]}.
nlohmann::ordered_json expectation_json(const SysfsExpectation& expectation);

}  // namespace ssdprobe
