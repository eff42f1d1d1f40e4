// A simulated drive's ground truth: geometry, latencies and noise. Profiles
// are plain data (sim_profiles.cc) so a test can state what a drive is and
// check that ssdprobe infers exactly that.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

// A boundary level other than the read page: crossing one of its boundaries
// costs `crossing_us` once per boundary crossed (a mapping unit lookup, a
// multi-plane pairing, a channel stripe...).
struct SimLevel {
  uint64_t unit_bytes = 0;
  double crossing_us = 0.0;
};

// An SLC cache: writes land in fast single-bit cells while it has room (its
// own program unit and time, no erase-block stalls), then at the native cost
// below. The drive empties it into native blocks while idle, at
// recover_bytes_per_s; a simulated drive starts with its whole cache free,
// as a drive that has been idle does. bytes 0: no cache.
struct SimSlcCache {
  uint64_t bytes = 0;
  uint32_t program_unit = 16384;
  double program_us = 12.0;   // per in-cache program unit touched
  double rmw_us = 10.0;       // extra per partly covered in-cache program unit
  double recover_bytes_per_s = 0.0;
};

struct SimProfile {
  std::string name;
  std::string description;

  uint32_t logical_block = 512;
  uint64_t capacity_bytes = 64ull << 30;

  // Reads: base + transfer + sense per read page touched + crossings of the
  // extra levels, times noise. A read page of 0 means "no page structure".
  double read_base_us = 10.0;
  double transfer_us_per_kib = 0.25;
  uint32_t read_page = 16384;
  double page_sense_us = 40.0;
  std::vector<SimLevel> read_levels;  // e.g. the 4 KiB mapping unit
  uint32_t read_cache_pages = 8;      // recently sensed pages answered from the controller buffer
  // A fresh or trimmed drive: a read that touches only never-written space is
  // answered from the mapping table (base + transfer, no NAND sense), as
  // real SSDs do. Written space (4 KiB granules) reads normally.
  bool unwritten_reads_skip_nand = false;

  // Writes (used by write probes): mapping unit, program unit, erase block.
  uint32_t write_map_unit = 4096;     // a partly covered mapping unit costs a read-modify-write
  double map_rmw_us = 25.0;
  uint32_t program_unit = 16384;
  double program_us = 60.0;           // per program unit touched
  double rmw_us = 40.0;               // extra per partly covered program unit
  uint64_t erase_block = 8ull << 20;
  double erase_stall_us = 1500.0;     // sequential stream entering a new erase block
  // The open erase block fills by the program units a write touches (a
  // partly covered unit takes a whole one), not by the bytes written: a
  // stream of writes off the unit stalls more often than every erase_block.
  bool erase_fills_by_units_touched = false;
  SimSlcCache slc_cache;              // the write costs above are the native ones
  // A full drive: a native write finds no free block with this probability
  // and waits for garbage collection to make one, for gc_stall_us times a
  // uniform 0.5..1.5. Idle time does not help (the drive stays full). 0: a
  // drive with free blocks, as every other profile.
  double gc_stall_probability = 0.0;
  double gc_stall_us = 0.0;
  // Striping: consecutive program units go to `stripe_units` parallel units
  // in turn (program unit p on unit p % stripe_units), which program at
  // once. A native write then costs its busiest unit's programs: program_us
  // for each program unit it holds, a partly covered one too (plus rmw_us
  // each), and nothing for a partly covered stripe. 0 or 1: no striping.
  uint32_t stripe_units = 0;
  // Open erase units (cheap flash: SD cards, USB sticks, eMMC, DRAM-less
  // SSDs): the drive keeps this many erase blocks open for writing, least
  // recently written first out. A write into a block that is not open closes
  // one (its unwritten rest is copied: a garbage collection) and costs
  // open_unit_fold_us on top of its own cost; writes into open blocks cost
  // what they always did. 0: no limit, as every profile without it.
  uint32_t open_units = 0;
  double open_unit_fold_us = 0.0;

  // Internal parallelism: a request is served by parallel unit
  // (offset / interleave) % parallel_units; requests on different units
  // overlap at QD>1, requests on the same unit wait for each other.
  // parallel_units 0 = no serialization at all (DRAM-like: every request is
  // served at once). interleave_bytes 0 = the read page (16 KiB without one).
  uint32_t parallel_units = 8;
  uint32_t interleave_bytes = 0;
  uint32_t max_queue_depth = 256;     // commands the device accepts at once (SATA NCQ: 32)

  // Noise: multiplicative log-normal with this sigma, and rare outliers.
  double noise_sigma = 0.03;
  double outlier_probability = 0.001;
  double outlier_us = 400.0;
  // One-sided host delays: with this probability the host sees a completion
  // late, by an exponentially distributed time of this mean (a CPU busy with
  // other work, a scheduler tick). The drive is idle meanwhile: only the
  // observed latency grows, never shrinks. No shipped profile has them;
  // tests set them to model a loaded host.
  double host_delay_probability = 0.0;
  double host_delay_us = 0.0;

  // The read page a correct analysis must report: the read page when its
  // crossing is visible (page larger than the logical block and sensing
  // costs something), otherwise nothing.
  // A read-only run sees no page on a drive that skips NAND for unwritten
  // space; a --write run re-reads its written window and sees it.
  std::optional<uint32_t> expected_read_page() const {
    if (unwritten_reads_skip_nand) return std::nullopt;
    return expected_read_page_with_writes();
  }
  std::optional<uint32_t> expected_read_page_with_writes() const {
    if (read_page > logical_block && page_sense_us > 0.0) return read_page;
    return std::nullopt;
  }
  // The write unit a correct analysis must report: the program unit when a
  // partly covered one costs something and it is larger than a sector (the
  // largest unit with a penalty wins over a smaller mapping unit). It is the
  // native one: a --write run exhausts an SLC cache before its write grid
  // when the cache is within the cache probe's cap.
  std::optional<uint32_t> expected_write_unit() const {
    return expected_unit_of(program_unit, program_us, rmw_us);
  }
  // The stripe a correct analysis must report beside the write unit: the
  // program units of one round over the striped units, when there are at
  // least two and the program unit is the write unit.
  std::optional<uint64_t> expected_write_stripe() const {
    if (stripe_units < 2 || expected_write_unit() != program_unit) return std::nullopt;
    return static_cast<uint64_t>(program_unit) * stripe_units;
  }
  // The in-cache write unit: what a write grid sees while the cache has room.
  std::optional<uint32_t> expected_in_cache_write_unit() const {
    if (slc_cache.bytes == 0) return expected_write_unit();
    return expected_unit_of(slc_cache.program_unit, slc_cache.program_us, slc_cache.rmw_us);
  }
  std::optional<uint32_t> expected_unit_of(uint32_t program, double program_cost_us, double rmw_cost_us) const {
    if (program > logical_block && (rmw_cost_us > 0.0 || program_cost_us > 0.0)) return program;
    if (write_map_unit > logical_block && map_rmw_us > 0.0) return write_map_unit;
    return std::nullopt;
  }
  // The open erase units a correct analysis must report: the limit, when
  // the drive has one (nullopt: none, writes to any number of streams cost
  // the same).
  std::optional<uint32_t> expected_open_units() const {
    if (open_units == 0 || open_unit_fold_us <= 0.0 || erase_block == 0) return std::nullopt;
    return open_units;
  }
  uint64_t interleave() const { return interleave_bytes ? interleave_bytes : (read_page ? read_page : 16384); }
  // The parallel units and interleave a stride probe must report: only when
  // requests serialize per unit and there are at least two units.
  std::optional<uint32_t> expected_parallel_units() const {
    if (parallel_units < 2) return std::nullopt;
    return parallel_units;
  }
  std::optional<uint64_t> expected_interleave() const {
    if (parallel_units < 2) return std::nullopt;
    return interleave();
  }
  // The erase block a sequential stream of `chunk` writes over `window`
  // bytes can show (it needs six periods), or nothing.
  std::optional<uint64_t> expected_erase_block(uint64_t window, uint64_t chunk) const {
    if (erase_stall_us <= 0.0 || erase_block == 0 || erase_block % chunk != 0) return std::nullopt;
    // Garbage-collection waits at least as long as the erase stall, on a
    // share of all writes, bury its period: no analysis can show it.
    if (gc_stall_probability > 0.0 && gc_stall_us >= erase_stall_us) return std::nullopt;
    // Writes that are not whole program units fill a block faster than its size.
    if (erase_fills_by_units_touched && chunk % program_unit != 0) return std::nullopt;
    if (erase_block * 6 > window) return std::nullopt;
    return erase_block;
  }
};

// Every shipped profile, in a stable order.
const std::vector<SimProfile>& sim_profiles();
// The profile with this name, or nullptr.
const SimProfile* find_sim_profile(const std::string& name);
// The profile used when ssdprobe is run without a target.
const char* default_sim_name();

}  // namespace ssdprobe
