// The shipped simulated drives. They span 4/8/16/32 KiB read pages, 512 B and
// 4 KiB logical sectors, clean and noisy timing, subtle steps, extra levels
// below and above the page, and drives with nothing to find. Latencies are in
// the ranges public datasheets and measurements give (NVMe TLC reads 40-90 us,
// SATA adds ~30 us of protocol, SLC-cached parts ~20 us).
#include "device/sim_profile.h"

#include <fmt/format.h>

#include "core/units.h"

namespace ssdprobe {
namespace {

SimProfile nvme_tlc_16k() {
  SimProfile p;
  p.name = "nvme-tlc-16k";
  p.description = "NVMe TLC, 512 B sectors, 4 KiB mapping unit, 16 KiB read page";
  p.read_base_us = 12.0;
  p.page_sense_us = 45.0;
  p.read_levels = {{4096, 1.0}};
  p.program_unit = 49152;  // 16 KiB x 3 bits (TLC one-shot program)
  p.erase_block = 24ull << 20;
  return p;
}

SimProfile nvme_4kn_32k() {
  SimProfile p;
  p.name = "nvme-4kn-32k";
  p.description = "NVMe, 4 KiB logical sectors, 32 KiB two-plane read page";
  p.logical_block = 4096;
  p.read_base_us = 9.0;
  p.read_page = 32768;
  p.page_sense_us = 55.0;
  p.program_unit = 65536;
  p.erase_block = 32ull << 20;
  return p;
}

SimProfile sata_mlc_8k() {
  SimProfile p;
  p.name = "sata-mlc-8k";
  p.description = "SATA MLC, 512 B sectors, 8 KiB read page, AHCI protocol overhead";
  p.read_base_us = 45.0;
  p.transfer_us_per_kib = 1.8;  // ~550 MB/s link
  p.read_page = 8192;
  p.page_sense_us = 50.0;
  p.read_levels = {{4096, 2.0}};
  p.program_unit = 16384;
  p.erase_block = 4ull << 20;
  p.noise_sigma = 0.06;
  return p;
}

SimProfile clean_4k() {
  SimProfile p;
  p.name = "clean-4k";
  p.description = "512 B sectors, 4 KiB read page and nothing above 4 KiB, low noise";
  p.read_page = 4096;
  p.page_sense_us = 30.0;
  p.program_unit = 4096;
  p.erase_block = 1ull << 20;
  p.noise_sigma = 0.01;
  p.outlier_probability = 0.0;
  return p;
}

SimProfile noisy_16k() {
  SimProfile p;
  p.name = "noisy-16k";
  p.description = "16 KiB read page under heavy noise: 20% jitter and 2% multi-ms outliers";
  p.read_base_us = 20.0;
  p.page_sense_us = 50.0;
  p.read_levels = {{4096, 1.5}};
  p.noise_sigma = 0.20;
  p.outlier_probability = 0.02;
  p.outlier_us = 2500.0;
  return p;
}

SimProfile subtle_8k() {
  SimProfile p;
  p.name = "subtle-8k";
  p.description = "8 KiB read page whose crossing adds only ~4% to a 90 us read";
  p.read_base_us = 60.0;
  p.read_page = 8192;
  p.page_sense_us = 3.5;  // the sense itself hides behind a fixed 60 us
  p.program_unit = 16384;
  p.noise_sigma = 0.05;
  return p;
}

SimProfile qlc_16k_iu_32k() {
  SimProfile p;
  p.name = "qlc-16k-iu";
  p.description = "QLC, 4 KiB sectors, 16 KiB indirection unit and 32 KiB read page";
  p.logical_block = 4096;
  p.read_base_us = 15.0;
  p.read_page = 32768;
  p.page_sense_us = 80.0;
  p.read_levels = {{16384, 8.0}};
  p.program_unit = 131072;
  p.erase_block = 48ull << 20;  // larger than a default write window can show: must come out null
  p.noise_sigma = 0.05;
  return p;
}

SimProfile multiplane_16k() {
  SimProfile p;
  p.name = "multiplane-16k";
  p.description = "16 KiB page, 4 KiB mapping unit, and a 64 KiB plane-pair level above it";
  p.read_base_us = 11.0;
  p.page_sense_us = 40.0;
  p.read_levels = {{4096, 1.0}, {65536, 6.0}};
  p.program_unit = 65536;
  p.erase_block = 12ull << 20;  // not a power of two
  return p;
}

SimProfile flat_dram() {
  SimProfile p;
  p.name = "flat-dram";
  p.description = "no geometry visible to reads (DRAM/SCM-like): nothing to detect";
  p.read_base_us = 9.0;
  p.read_page = 0;
  p.page_sense_us = 0.0;
  p.read_cache_pages = 0;
  p.map_rmw_us = 0.0;        // byte-addressable: no read-modify-write
  p.program_us = 0.0;
  p.rmw_us = 0.0;
  p.erase_stall_us = 0.0;    // and no erase blocks
  p.noise_sigma = 0.04;
  p.parallel_units = 0;      // no unit to wait for: concurrent reads never serialize
  return p;
}

SimProfile emmc_4k_4kn() {
  SimProfile p;
  p.name = "fourkn-flat";
  p.description = "4 KiB sectors with a 4 KiB read page: no boundary above the sector to find";
  p.logical_block = 4096;
  p.read_page = 4096;
  p.page_sense_us = 35.0;
  return p;
}

SimProfile fresh_tlc_16k() {
  SimProfile p;
  p.name = "fresh-16k";
  p.description = "NVMe TLC, 16 KiB read page, never written: reads of unwritten space skip NAND (read-only runs "
                  "see no page; --write runs find it in the window they wrote)";
  p.read_base_us = 14.0;
  p.page_sense_us = 50.0;
  p.unwritten_reads_skip_nand = true;
  p.program_unit = 32768;
  p.erase_block = 16ull << 20;
  return p;
}

// Internal parallelism with an interleave larger than the page: a 64 KiB
// chunk (four 16 KiB pages) per unit, eight units; stripes pay from 64 KiB.
SimProfile channels_8x64k() {
  SimProfile p;
  p.name = "channels-8x64k";
  p.description = "NVMe TLC, 16 KiB read page, 8 parallel units interleaved every 64 KiB";
  p.read_base_us = 12.0;
  p.page_sense_us = 50.0;
  p.read_levels = {{4096, 1.0}};
  p.parallel_units = 8;
  p.interleave_bytes = 65536;
  p.program_unit = 32768;
  p.erase_block = 16ull << 20;
  return p;
}

// A small SATA drive: four units every 16 KiB and NCQ's 32 commands at once.
SimProfile channels_4x16k() {
  SimProfile p;
  p.name = "channels-4x16k";
  p.description = "SATA, 8 KiB read page, 4 parallel units interleaved every 16 KiB, NCQ depth 32";
  p.read_base_us = 40.0;
  p.transfer_us_per_kib = 1.8;
  p.read_page = 8192;
  p.page_sense_us = 60.0;
  p.parallel_units = 4;
  p.interleave_bytes = 16384;
  p.max_queue_depth = 32;
  p.program_unit = 16384;
  p.erase_block = 4ull << 20;
  p.noise_sigma = 0.05;
  return p;
}

// Consumer drives with an SLC cache: fast with a 16 KiB program unit until
// the cache is full, then the native TLC/QLC unit at a quarter of the speed;
// the cache empties while the drive idles. One cache smaller than the
// default write window, one between the window and the cache probe's cap.
SimProfile tlc_slc_128m() {
  SimProfile p = nvme_tlc_16k();
  p.name = "tlc-slc-128m";
  p.description = "NVMe TLC, 16 KiB read page, 128 MiB SLC cache (16 KiB program unit) before native 48 KiB "
                  "programs, refilled at 64 MiB/s while idle";
  p.program_us = 200.0;
  p.rmw_us = 120.0;
  p.slc_cache = {.bytes = 128ull << 20, .program_unit = 16384, .program_us = 12.0, .rmw_us = 10.0,
                 .recover_bytes_per_s = 64.0 * (1 << 20)};
  return p;
}

SimProfile qlc_slc_2g() {
  SimProfile p = nvme_tlc_16k();
  p.name = "qlc-slc-2g";
  p.description = "NVMe QLC, 16 KiB read page, 2 GiB SLC cache (16 KiB program unit) before native 64 KiB "
                  "programs, refilled at 256 MiB/s while idle";
  p.program_unit = 65536;
  p.program_us = 300.0;
  p.rmw_us = 150.0;
  p.erase_block = 32ull << 20;
  p.slc_cache = {.bytes = 2ull << 30, .program_unit = 16384, .program_us = 12.0, .rmw_us = 10.0,
                 .recover_bytes_per_s = 256.0 * (1 << 20)};
  return p;
}

// Consecutive 16 KiB pages on four dies in turn: a write programs its pages
// on all four at once, so its cost steps once per 64 KiB stripe, while a
// partly covered page still costs a whole page program. The parallelism
// probe sees the same four units every 16 KiB.
SimProfile nvme_striped_16k() {
  SimProfile p;
  p.name = "nvme-striped-16k";
  p.description = "NVMe TLC, 16 KiB read page, 16 KiB pages programmed on 4 dies in turn (64 KiB stripe): a partial "
                  "page costs a whole page program, a partial stripe nothing";
  p.read_base_us = 12.0;
  p.page_sense_us = 45.0;
  p.read_levels = {{4096, 1.0}};
  p.program_unit = 16384;
  p.program_us = 150.0;
  p.rmw_us = 0.0;
  p.stripe_units = 4;
  p.parallel_units = 4;
  p.interleave_bytes = 16384;
  p.erase_block = 16ull << 20;
  return p;
}

}  // namespace

// A TLC drive whose erase blocks fill by the program units each write
// touches: a stream of 96 KiB writes that starts off the 48 KiB unit touches
// three units per write and opens a new 12 MiB block every 8 MiB of host
// bytes; one that starts on the unit, every 12 MiB.
SimProfile tlc_units_touched() {
  SimProfile p = nvme_tlc_16k();
  p.name = "tlc-unit-fill";
  p.description = "NVMe TLC, 16 KiB read page, 48 KiB program unit, 12 MiB erase blocks filled by the program units "
                  "each write touches (a stream off the unit stalls every 8 MiB)";
  p.erase_block = 12ull << 20;
  p.erase_fills_by_units_touched = true;
  return p;
}

// A full drive: every block holds data, so a share of writes waits for
// garbage collection to free one. Its geometry is nvme-tlc-16k's; a quarter
// of its native writes wait 1.5 to 4.5 ms, far beyond its noise.
SimProfile full_gc_48k() {
  SimProfile p = nvme_tlc_16k();
  p.name = "full-gc-48k";
  p.description = "NVMe TLC, 1 GiB, 16 KiB read page, 48 KiB program unit, full: a quarter of writes wait 1.5-4.5 "
                  "ms for garbage collection";
  p.gc_stall_probability = 0.25;
  p.gc_stall_us = 3000.0;
  // Small, as the emulated full drive of issue 38 (768 MiB): the SLC cache
  // probe's fill stops at what a cache this drive could hold would need.
  p.capacity_bytes = 1ull << 30;
  return p;
}

// Cheap flash (SD cards, USB sticks, eMMC, DRAM-less SSDs) keeps a few erase
// blocks open for writing: writes that rotate over more streams than that
// make every write a fold. The three differ in how many they keep, their
// erase block and what a fold costs.
SimProfile open_units_drive(const char* name, uint32_t open, uint64_t erase_block, double fold_us) {
  SimProfile p;
  p.name = name;
  p.read_base_us = 30.0;
  p.page_sense_us = 60.0;
  p.read_levels = {{4096, 1.0}};
  p.program_unit = 16384;
  p.program_us = 120.0;
  p.erase_block = erase_block;
  p.open_units = open;
  p.open_unit_fold_us = fold_us;
  p.description = fmt::format("cheap flash, 16 KiB read page and program unit, {} erase blocks of which {} are kept "
                              "open for writing: a write into another costs a {:.0f} ms fold",
                              format_size(erase_block), open, fold_us / 1000.0);
  return p;
}

SimProfile sd_open2() { return open_units_drive("sd-open2", 2, 4ull << 20, 3000.0); }
SimProfile usb_open4() { return open_units_drive("usb-open4", 4, 8ull << 20, 5000.0); }
SimProfile emmc_open7() { return open_units_drive("emmc-open7", 7, 4ull << 20, 2000.0); }

const std::vector<SimProfile>& sim_profiles() {
  static const std::vector<SimProfile> profiles{
      nvme_tlc_16k(), nvme_4kn_32k(), sata_mlc_8k(), clean_4k(),      noisy_16k(),
      subtle_8k(),    qlc_16k_iu_32k(), multiplane_16k(), flat_dram(), emmc_4k_4kn(),
      fresh_tlc_16k(), channels_8x64k(), channels_4x16k(), tlc_slc_128m(), qlc_slc_2g(),
      nvme_striped_16k(), tlc_units_touched(), full_gc_48k(), sd_open2(), usb_open4(), emmc_open7(),
  };
  return profiles;
}

const SimProfile* find_sim_profile(const std::string& name) {
  for (const auto& profile : sim_profiles()) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

const char* default_sim_name() { return "nvme-tlc-16k"; }

}  // namespace ssdprobe
