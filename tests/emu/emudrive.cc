// emudrive: an emulated SSD medium with known geometry, for testing ssdprobe
// against ground truth through the real kernel block path.
//
// It is a FUSE3 (low-level API) file system that serves one regular file,
// `disk`, whose contents live in a sparse RAM store and whose per-request
// latency follows a simple model of read pages, mapping units, write units,
// read-modify-write and erase-block stalls. Put a loop device in front of it
// (`losetup --direct-io=on --sector-size 512|4096 MOUNT/disk`) and ssdprobe
// sees a real block device: O_DIRECT, io_uring, the block layer and the loop
// driver are all real, only the medium is emulated.
//
// Two ways of serving requests:
//  - by default single-threaded: latency is realised by busy-waiting on
//    CLOCK_MONOTONIC from the moment the request reaches the handler until
//    arrival + modelled latency; requests are served one at a time.
//  - with --units N (parallel units, for the parallelism probe): a
//    multithreaded loop; a request belongs to parallel unit
//    (offset / interleave) % N (every unit it touches, when it spans
//    several). It holds its units' locks for the modelled latency, counted
//    from when it got them, and sleeps meanwhile (busy-waiting threads would
//    need a CPU per unit): requests on one unit serialize, on different units
//    they overlap. See PARALLEL FINDINGS below.
//
// STRIPING (--stripe-units N; off by default): consecutive --write-unit
// pieces go to N parallel units in turn and are programmed on all of them at
// once, so a native write costs the busiest unit's programs: --write-us per
// write unit it holds (ceil(write units touched / N) for the busiest), a
// partly covered one too (plus --rmw-us), and nothing for covering a stripe
// of N write units only in part. The request itself is still served as a
// whole (with --units as well, by the units its offset picks).
//
// OPEN UNITS (--open-units K; off by default): the drive keeps K erase
// blocks (--erase-block) open for writing, least recently written first
// out; a write into another block folds one and costs --fold-us more
// (open_units.h). Cheap flash does this: one write stream more than K makes
// every write a fold. The fold is added before the noise.
//
// SLC CACHE (--slc-cache BYTES; off by default, and then nothing below
// applies): a consumer drive's fast write cache (bookkeeping in
// slc_cache.{h,cc}). Every written byte takes a free cache byte while any
// is free; such bytes cost the in-cache program model (--slc-write-unit,
// --slc-write-us, --slc-rmw-us), with no erase-block stalls. Once the cache
// is empty writes cost the native model (--write-unit, --write-us, --rmw-us,
// erase stalls); a write larger than what is left is split, head in the
// cache, the rest native (the base and mapping costs once per request).
// The cache refills at --slc-recover-bytes-per-s while the drive is idle (no
// request, read or write, in service: wall clock from the end of one to the
// arrival of the next), after the first --slc-idle-delay-us (20 ms) of each
// idle spell (slc_cache.h says why). It starts full (all free) when emudrive
// starts. With --trace each line gets the cache's state appended
// (" slc_in=BYTES" for a write, then " slc_free=BYTES slc_idle_us=US
// slc_refilled=BYTES"), and at exit a summary goes to standard error.
//
// GARBAGE COLLECTION (--gc-pool BYTES; off by default): the drive's free,
// pre-erased space. Native writes take it byte for byte (the same
// bookkeeping as the SLC cache's, slc_cache.h); a write that finds less free
// than it needs waits for the firmware to collect garbage first:
// --gc-stall-us times a uniform 0.5..1.5, on top of its cost, and the pool
// stays empty. Idle time gives the pool back at --gc-reclaim-bytes-per-s
// after the first 20 ms of each idle spell. --gc-pool-start 0 is a drive
// written to its end before: every write waits until it has idled. This is
// the garbage-collection storm a long fill leaves behind on a full drive.
//
// FINDINGS (kernel 6.18, libfuse 3.14, util-linux losetup; checked with
// --trace, dd/fio O_DIRECT on /dev/loopN, sector sizes 512 and 4096):
//  - Nothing special is needed for `losetup --direct-io=on`: a FUSE file
//    accepts O_DIRECT, loop/dio reads 1 right away. No allow_other or
//    default_permissions either (losetup runs as the same user as the
//    daemon, and the loop driver reuses the file it opened).
//  - O_DIRECT reads and writes of 512 B, 1536 B, 4, 16, 64 and 128 KiB (dd,
//    fio io_uring and psync, also from buffers only 512-byte aligned) each
//    reach the handler as exactly one request with the same offset and
//    length, even with FUSE defaults (no FOPEN_DIRECT_IO, no max_read):
//    libfuse 3.14 negotiates max_write = 1 MiB (max_pages = 256) and the
//    kernel leaves max_read unlimited.
//  - Splits start above 512 KiB and come from the block layer, not FUSE: the
//    loop queue has max_segments 128, max_segment_size 64 KiB, so a 1 MiB read
//    arrives in 2+ pieces whose split points depend on the physical
//    contiguity of the user buffer. No merges at queue depth 1; at depth 8
//    sequential 4 KiB reads were occasionally merged (one 32 KiB request in
//    35000); `echo 2 > /sys/block/loopN/queue/nomerges` rules that out.
//  - Still set here, belt and braces: FOPEN_DIRECT_IO on open (reads of
//    MOUNT/disk itself bypass the FUSE page cache and readahead, so every
//    access reaches the handler as issued) and max_read/max_write = 1 MiB.
//  - Overhead of loop + FUSE, fio io_uring QD1 lat (not clat) medians with a
//    zero-latency model: 30-34 us for 512 B-4 KiB, 38-42 us 16 KiB, ~50 us
//    64 KiB, 75-85 us 128 KiB. With a non-zero model it is 12-16 us when fio
//    and emudrive share a CPU, 30-55 us when they sit on different CPUs
//    (cross-CPU wakeups in this VM); unpinned it flips between the two.
//  - fio's clat on a 4096-sector loop shows some sub-5 us reads: part of the
//    request is served inside io_uring_enter (slat). Time from before submit.
//  - The first write to a 64 KiB chunk of the store allocates it, and in
//    this VM touching fresh memory is slow: sequential 1 MiB O_DIRECT
//    writes with a zero-latency model took a median 9.4-9.8 ms where never
//    written, 0.26-0.42 ms rewritten (fio psync; a plain new+memcpy loop:
//    5-11 ms per MiB). The store is written before the latency is realised,
//    from the same arrival time, so such a write takes that long whenever
//    its modelled latency is shorter: tests that time writes write their
//    region once first.
//
// PARALLEL FINDINGS (--units; same kernel and libfuse):
//  - The loop driver with direct IO submits each request as an async kiocb
//    to the backing file, so many are in flight at once (its blk-mq queue:
//    hw_queue_depth 128 by default, /sys/block/loopN/queue/nr_requests).
//  - FUSE sends async direct IO as background requests, of which at most
//    max_background (default 12) are outstanding at the daemon (from the
//    kernel's fs/fuse; not measured without the raise): raised here to
//    kMaxBackground in --units mode.
//  - libfuse's multithreaded loop starts a thread whenever none is idle, up
//    to max_threads (default 10): raised to --threads.
//  - Sleeps use an absolute CLOCK_MONOTONIC deadline and a 1 ns timer slack
//    (the default 50 us slack would add up to 50 us to every service time).
//  - Measured with --base-us 400 (ssdprobe, io_uring, 4096-byte sectors, on
//    2 shared vCPUs): a lone 4 KiB read takes 510-660 us (sleep wake-ups and
//    thread hand-offs cost more than the spinning mode's ~30 us); a pair on
//    one unit +75..+105 %, on two units -5..+15 %. Random-read IOPS level off
//    near units / lone-read time: 4 units 6,200-7,400, 8 units 10,000-13,000;
//    4096 units x 4 KiB (nothing serializes) 31,000-38,000, CPU-bound.
//  - Under unrelated CPU load some requests wait a scheduler tick (4 ms) for
//    a CPU; tests/device/emu_parallelism.sh raises its priority.

// 3.12: fuse_loop_cfg_* (the multithreaded loop's max_threads).
#define FUSE_USE_VERSION FUSE_MAKE_VERSION(3, 12)
#include <fuse_lowlevel.h>
#include <getopt.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <linux/falloc.h>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "open_units.h"
#include "slc_cache.h"

namespace {

using emudrive::SlcCache;
using emudrive::SlcEvent;

constexpr fuse_ino_t kDiskIno = 2;
constexpr const char* kDiskName = "disk";
// Largest request we accept from the kernel; FUSE's own ceiling is 256 pages.
constexpr uint64_t kMaxIo = 1024 * 1024;
// --units mode: FUSE requests the kernel lets reach the daemon at once (its
// default of 12 would cap the queue depth a prober can see).
constexpr unsigned kMaxBackground = 256;

// ---------------------------------------------------------------------------
// Options

struct Options {
  uint64_t size = 1ull << 30;
  uint64_t read_page = 16384;   // 0 = no read page step
  double base_us = 50;
  double page_us = 0;
  uint64_t map_unit = 0;        // 0 = no mapping unit cost
  double map_us = 0;
  double noise_pct = 0;
  uint64_t seed = 1;
  uint64_t write_unit = 0;      // 0 = no write unit cost
  double write_us = 0;
  double rmw_us = 0;
  uint32_t stripe_units = 0;    // 0 = no striping: write units programmed one after another
  uint64_t erase_block = 0;     // 0 = no erase stalls
  double erase_stall_us = 0;
  uint32_t open_units = 0;      // 0 = no limit on open erase blocks
  double fold_us = 3000;        // a write into a block that is not open (--open-units)
  uint32_t units = 0;           // 0 = single-threaded, no parallel units
  uint64_t interleave = 65536;  // bytes per unit before the next one (--units)
  uint32_t threads = 64;        // most FUSE worker threads (--units)
  emudrive::SlcOptions slc;     // capacity 0 = no SLC cache
  uint64_t slc_write_unit = 0;  // in-cache program unit, 0 = no per-unit cost
  double slc_write_us = 0;
  double slc_rmw_us = 0;
  emudrive::SlcOptions gc;      // capacity 0 = no garbage-collection pool
  double gc_stall_us = 2000;    // a write that finds the pool short waits this (x 0.5..1.5)
  std::string trace_path;
  bool foreground = false;
  std::vector<std::string> fuse_opts;  // extra -o options
  std::string mountpoint;
};

void print_help(const char* argv0) {
  std::printf(
      "usage: %s [OPTIONS] MOUNTPOINT\n"
      "\n"
      "Serves one file MOUNTPOINT/disk whose read/write latency follows an SSD\n"
      "geometry model. Put a loop device in front of it:\n"
      "  losetup --find --show --direct-io=on --sector-size 4096 MOUNTPOINT/disk\n"
      "Sizes accept plain bytes or k/M/G/T suffixes (binary). Times are in\n"
      "microseconds and may be fractional.\n"
      "\n"
      "Medium:\n"
      "  --size BYTES          size of the disk file (sparse RAM store) [1G]\n"
      "Read model: latency = base + page_us * pages touched\n"
      "                           + map_us * (mapping units touched - 1)\n"
      "  --read-page BYTES     read page size, 0 = no page step [16k]\n"
      "  --base-us US          fixed cost of every request [50]\n"
      "  --page-us US          cost per read page touched [0]\n"
      "  --map-unit BYTES      mapping unit size, 0 = none [0]\n"
      "  --map-us US           cost per extra mapping unit touched (reads and\n"
      "                        writes) [0]\n"
      "Write model: latency = base + write_us * write units touched\n"
      "                            + rmw_us * write units covered only partly\n"
      "                            + erase_stall_us * erase block starts reached\n"
      "                              by a sequential write (offset == end of the\n"
      "                              previous write)\n"
      "                            + map cost as for reads\n"
      "  --write-unit BYTES    write unit (program page) size, 0 = none [0]\n"
      "  --write-us US         cost per write unit touched [0]\n"
      "  --rmw-us US           extra per partly covered write unit [0]\n"
      "  --stripe-units N      consecutive write units go to N parallel units in\n"
      "                        turn, which program at once: the write_us and\n"
      "                        rmw_us terms become those of the busiest unit\n"
      "                        (ceil(write units touched / N) programs; a partly\n"
      "                        covered write unit is a whole program, a partly\n"
      "                        covered stripe nothing more) [0: none]\n"
      "  --erase-block BYTES   erase block size, 0 = no stalls [0]\n"
      "  --erase-stall-us US   extra per new erase block reached sequentially [0]\n"
      "  --open-units K        erase blocks kept open for writing, least recently\n"
      "                        written first out; needs --erase-block [0: no limit]\n"
      "  --fold-us US          extra for a write into a block that is not open [3000]\n"
      "SLC cache (default: none): writes cost the in-cache model below while\n"
      "cache bytes are free, each written byte taking one; then the write\n"
      "model above. In-cache latency = base + slc_write_us * cache units touched\n"
      "  + slc_rmw_us * cache units covered only partly + map cost; no erase stalls\n"
      "  --slc-cache BYTES     cache size, 0 = no cache [0]\n"
      "  --slc-write-unit BYTES  in-cache program unit, 0 = none [0]\n"
      "  --slc-write-us US     cost per in-cache unit touched [0]\n"
      "  --slc-rmw-us US       extra per partly covered in-cache unit [0]\n"
      "  --slc-recover-bytes-per-s BYTES  cache bytes freed per second of idle\n"
      "                        (no request in service), 0 = never [0]\n"
      "  --slc-idle-delay-us US  idle time of each idle spell that frees\n"
      "                        nothing yet [20000]\n"
      "Garbage collection (default: none): native writes take free space from\n"
      "a pool; a write that finds it short waits gc_stall_us x 0.5..1.5 more\n"
      "  --gc-pool BYTES       free (pre-erased) space, 0 = no pool [0]\n"
      "  --gc-pool-start BYTES free space at start [the whole pool]\n"
      "  --gc-stall-us US      a short write's wait for garbage collection [2000]\n"
      "  --gc-reclaim-bytes-per-s BYTES  pool bytes freed per second of idle\n"
      "                        (after 20 ms of each idle spell), 0 = never [0]\n"
      "Parallel units (default: none, one request served at a time):\n"
      "  --units N             N parallel units: a request is on unit\n"
      "                        (offset / interleave) %% N and holds it for its\n"
      "                        modelled latency; requests on different units\n"
      "                        overlap, on the same unit they queue\n"
      "  --interleave BYTES    bytes per unit before the next one [64k]\n"
      "  --threads N           most FUSE worker threads with --units [64]\n"
      "Noise and diagnostics:\n"
      "  --noise-pct PCT       multiplicative gaussian noise (sigma, percent of\n"
      "                        the total), clipped so latency stays >= base [0]\n"
      "  --seed N              noise seed [1]\n"
      "  --trace FILE          append \"R|W offset length\" per request (and the\n"
      "                        SLC cache's state, with --slc-cache)\n"
      "  -f, --foreground      stay in the foreground\n"
      "  -o OPT[,OPT...]       extra FUSE mount options (e.g. allow_other)\n"
      "  -h, --help            this text\n",
      argv0);
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "emudrive: %s (try --help)\n", message.c_str());
  std::exit(2);
}

uint64_t parse_bytes(const char* text, const char* what) {
  char* end = nullptr;
  errno = 0;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || errno != 0 || text[0] == '-') usage_error(std::string("bad ") + what + ": " + text);
  unsigned shift = 0;
  switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; ++end; break;
    case 'm': case 'M': shift = 20; ++end; break;
    case 'g': case 'G': shift = 30; ++end; break;
    case 't': case 'T': shift = 40; ++end; break;
    default: usage_error(std::string("bad ") + what + ": " + text);
  }
  if (*end == 'i') ++end;
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0' || value > (UINT64_MAX >> shift)) usage_error(std::string("bad ") + what + ": " + text);
  return static_cast<uint64_t>(value) << shift;
}

double parse_number(const char* text, const char* what) {
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(value) || value < 0)
    usage_error(std::string("bad ") + what + ": " + text);
  return value;
}

// A count from 1 to 4096 (units, threads).
uint32_t parse_count(const char* text, const char* what) {
  uint64_t value = parse_bytes(text, what);
  if (value == 0 || value > 4096) usage_error(std::string(what) + " must be 1..4096: " + text);
  return static_cast<uint32_t>(value);
}

// The other --slc-* options describe the cache: without one they are a mistake.
void check_slc_options(const Options& o) {
  if (o.slc.capacity > 0) return;
  if (o.slc_write_unit || o.slc_write_us > 0 || o.slc_rmw_us > 0 || o.slc.recover_bytes_per_s > 0 ||
      o.slc.idle_delay_us != emudrive::SlcOptions{}.idle_delay_us)
    usage_error("--slc-write-unit, --slc-write-us, --slc-rmw-us, --slc-recover-bytes-per-s and "
                "--slc-idle-delay-us need --slc-cache");
  if (o.gc.capacity == 0 && (o.gc.initial_free || o.gc.recover_bytes_per_s > 0 || o.gc_stall_us != Options{}.gc_stall_us))
    usage_error("--gc-pool-start, --gc-stall-us and --gc-reclaim-bytes-per-s need --gc-pool");
}

Options parse_options(int argc, char** argv) {
  enum { SIZE = 256, READ_PAGE, BASE_US, PAGE_US, MAP_UNIT, MAP_US, NOISE, SEED,
         WRITE_UNIT, WRITE_US, RMW_US, ERASE_BLOCK, ERASE_STALL, TRACE, UNITS, INTERLEAVE,
         THREADS, SLC_CACHE, SLC_WRITE_UNIT, SLC_WRITE_US, SLC_RMW_US, SLC_RECOVER,
         SLC_IDLE_DELAY, STRIPE_UNITS, OPEN_UNITS, FOLD_US, GC_POOL, GC_POOL_START, GC_STALL,
         GC_RECLAIM };
  static const option longopts[] = {
      {"size", required_argument, nullptr, SIZE},
      {"read-page", required_argument, nullptr, READ_PAGE},
      {"base-us", required_argument, nullptr, BASE_US},
      {"page-us", required_argument, nullptr, PAGE_US},
      {"map-unit", required_argument, nullptr, MAP_UNIT},
      {"map-us", required_argument, nullptr, MAP_US},
      {"noise-pct", required_argument, nullptr, NOISE},
      {"seed", required_argument, nullptr, SEED},
      {"write-unit", required_argument, nullptr, WRITE_UNIT},
      {"write-us", required_argument, nullptr, WRITE_US},
      {"rmw-us", required_argument, nullptr, RMW_US},
      {"stripe-units", required_argument, nullptr, STRIPE_UNITS},
      {"erase-block", required_argument, nullptr, ERASE_BLOCK},
      {"erase-stall-us", required_argument, nullptr, ERASE_STALL},
      {"open-units", required_argument, nullptr, OPEN_UNITS},
      {"fold-us", required_argument, nullptr, FOLD_US},
      {"trace", required_argument, nullptr, TRACE},
      {"units", required_argument, nullptr, UNITS},
      {"interleave", required_argument, nullptr, INTERLEAVE},
      {"threads", required_argument, nullptr, THREADS},
      {"slc-cache", required_argument, nullptr, SLC_CACHE},
      {"slc-write-unit", required_argument, nullptr, SLC_WRITE_UNIT},
      {"slc-write-us", required_argument, nullptr, SLC_WRITE_US},
      {"slc-rmw-us", required_argument, nullptr, SLC_RMW_US},
      {"slc-recover-bytes-per-s", required_argument, nullptr, SLC_RECOVER},
      {"slc-idle-delay-us", required_argument, nullptr, SLC_IDLE_DELAY},
      {"gc-pool", required_argument, nullptr, GC_POOL},
      {"gc-pool-start", required_argument, nullptr, GC_POOL_START},
      {"gc-stall-us", required_argument, nullptr, GC_STALL},
      {"gc-reclaim-bytes-per-s", required_argument, nullptr, GC_RECLAIM},
      {"foreground", no_argument, nullptr, 'f'},
      {"help", no_argument, nullptr, 'h'},
      {nullptr, 0, nullptr, 0}};
  Options o;
  int c;
  while ((c = getopt_long(argc, argv, "fho:", longopts, nullptr)) != -1) {
    switch (c) {
      case SIZE: o.size = parse_bytes(optarg, "--size"); break;
      case READ_PAGE: o.read_page = parse_bytes(optarg, "--read-page"); break;
      case BASE_US: o.base_us = parse_number(optarg, "--base-us"); break;
      case PAGE_US: o.page_us = parse_number(optarg, "--page-us"); break;
      case MAP_UNIT: o.map_unit = parse_bytes(optarg, "--map-unit"); break;
      case MAP_US: o.map_us = parse_number(optarg, "--map-us"); break;
      case NOISE: o.noise_pct = parse_number(optarg, "--noise-pct"); break;
      case SEED: o.seed = parse_bytes(optarg, "--seed"); break;
      case WRITE_UNIT: o.write_unit = parse_bytes(optarg, "--write-unit"); break;
      case WRITE_US: o.write_us = parse_number(optarg, "--write-us"); break;
      case RMW_US: o.rmw_us = parse_number(optarg, "--rmw-us"); break;
      case STRIPE_UNITS: o.stripe_units = parse_count(optarg, "--stripe-units"); break;
      case ERASE_BLOCK: o.erase_block = parse_bytes(optarg, "--erase-block"); break;
      case ERASE_STALL: o.erase_stall_us = parse_number(optarg, "--erase-stall-us"); break;
      case OPEN_UNITS: o.open_units = parse_count(optarg, "--open-units"); break;
      case FOLD_US: o.fold_us = parse_number(optarg, "--fold-us"); break;
      case TRACE: o.trace_path = optarg; break;
      case UNITS: o.units = parse_count(optarg, "--units"); break;
      case INTERLEAVE: o.interleave = parse_bytes(optarg, "--interleave"); break;
      case THREADS: o.threads = parse_count(optarg, "--threads"); break;
      case SLC_CACHE: o.slc.capacity = parse_bytes(optarg, "--slc-cache"); break;
      case SLC_WRITE_UNIT: o.slc_write_unit = parse_bytes(optarg, "--slc-write-unit"); break;
      case SLC_WRITE_US: o.slc_write_us = parse_number(optarg, "--slc-write-us"); break;
      case SLC_RMW_US: o.slc_rmw_us = parse_number(optarg, "--slc-rmw-us"); break;
      case SLC_RECOVER:
        o.slc.recover_bytes_per_s = static_cast<double>(parse_bytes(optarg, "--slc-recover-bytes-per-s"));
        break;
      case SLC_IDLE_DELAY: o.slc.idle_delay_us = parse_number(optarg, "--slc-idle-delay-us"); break;
      case GC_POOL: o.gc.capacity = parse_bytes(optarg, "--gc-pool"); break;
      case GC_POOL_START: o.gc.initial_free = parse_bytes(optarg, "--gc-pool-start"); break;
      case GC_STALL: o.gc_stall_us = parse_number(optarg, "--gc-stall-us"); break;
      case GC_RECLAIM:
        o.gc.recover_bytes_per_s = static_cast<double>(parse_bytes(optarg, "--gc-reclaim-bytes-per-s"));
        break;
      case 'f': o.foreground = true; break;
      case 'o': o.fuse_opts.emplace_back(optarg); break;
      case 'h': print_help(argv[0]); std::exit(0);
      default: usage_error("unknown option");
    }
  }
  if (optind != argc - 1) usage_error("expected exactly one MOUNTPOINT");
  o.mountpoint = argv[optind];
  if (o.size == 0) usage_error("--size must be > 0");
  if (o.interleave == 0) usage_error("--interleave must be > 0");
  if (o.threads == 0) usage_error("--threads must be > 0");
  check_slc_options(o);
  if (o.stripe_units > 0 && o.write_unit == 0) usage_error("--stripe-units needs --write-unit");
  if (o.open_units > 0 && o.erase_block == 0) usage_error("--open-units needs --erase-block");
  return o;
}

// ---------------------------------------------------------------------------
// Latency model

// Number of `unit`-sized, unit-aligned pieces that [off, off+len) touches.
uint64_t units_touched(uint64_t off, uint64_t len, uint64_t unit) {
  if (unit == 0 || len == 0) return 0;
  return (off + len - 1) / unit - off / unit + 1;
}

// Of the units touched, how many are covered only partly (at most two).
uint64_t units_partly_covered(uint64_t off, uint64_t len, uint64_t unit) {
  if (unit == 0 || len == 0) return 0;
  uint64_t end = off + len;
  uint64_t first = off / unit, last = (end - 1) / unit;
  bool head_partial = off % unit != 0;
  bool tail_partial = end % unit != 0;
  if (first == last) return (head_partial || tail_partial) ? 1 : 0;
  return (head_partial ? 1 : 0) + (tail_partial ? 1 : 0);
}

// Number of multiples of `unit` in [off, off+len): erase block starts reached.
uint64_t boundaries_reached(uint64_t off, uint64_t len, uint64_t unit) {
  if (unit == 0 || len == 0) return 0;
  uint64_t first = (off + unit - 1) / unit;   // first multiple >= off
  uint64_t last = (off + len - 1) / unit;     // last multiple <= end-1
  return last >= first ? last - first + 1 : 0;
}

class LatencyModel {
 public:
  explicit LatencyModel(const Options& o) : o_(o), rng_(o.seed), open_units_(o.open_units, o.erase_block, o.fold_us) {}

  double read_us(uint64_t off, uint64_t len) {
    double t = o_.base_us + map_cost(off, len) +
               o_.page_us * static_cast<double>(units_touched(off, len, o_.read_page));
    return with_noise(t);
  }

  // A write whose first in_cache bytes go to the SLC cache (0 without one);
  // `gc_wait`: its native part found too little free space (--gc-pool).
  double write_us(uint64_t off, uint64_t len, uint64_t in_cache = 0, bool gc_wait = false) {
    double t = o_.base_us + map_cost(off, len);
    if (in_cache > 0) t += cache_program_us(off, in_cache);
    add_native_program_us(t, off + in_cache, len - in_cache, off == last_write_end_);
    t += open_units_.fold_us(off, len);
    last_write_end_ = off + len;
    t = with_noise(t);
    if (gc_wait) t += o_.gc_stall_us * std::uniform_real_distribution<double>(0.5, 1.5)(rng_);
    return t;
  }

 private:
  // Adds the terms one by one, in the order they had before the SLC cache
  // (the same sums, to the last bit, without one).
  void add_native_program_us(double& t, uint64_t off, uint64_t len, bool sequential) const {
    if (o_.stripe_units > 1) {
      t += striped_program_us(off, len);
    } else {
      t += o_.write_us * static_cast<double>(units_touched(off, len, o_.write_unit));
      t += o_.rmw_us * static_cast<double>(units_partly_covered(off, len, o_.write_unit));
    }
    if (sequential) t += o_.erase_stall_us * static_cast<double>(boundaries_reached(off, len, o_.erase_block));
  }

  // --stripe-units: write unit w is programmed on unit w % stripe_units, all
  // units at once, so the write takes as long as its busiest unit's programs
  // (a partly covered write unit is a whole program, plus rmw_us).
  double striped_program_us(uint64_t off, uint64_t len) const {
    if (len == 0) return 0.0;
    const uint64_t unit = o_.write_unit, first = off / unit, last = (off + len - 1) / unit;
    std::vector<double> busy(o_.stripe_units, 0.0);
    for (uint64_t w = first; w <= last; ++w) {
      const bool partial = std::max(off, w * unit) > w * unit || std::min(off + len, (w + 1) * unit) < (w + 1) * unit;
      busy[w % o_.stripe_units] += o_.write_us + (partial ? o_.rmw_us : 0.0);
    }
    return *std::max_element(busy.begin(), busy.end());
  }

  // In the SLC cache: its own program unit and cost, no erase stalls.
  double cache_program_us(uint64_t off, uint64_t len) const {
    return o_.slc_write_us * static_cast<double>(units_touched(off, len, o_.slc_write_unit)) +
           o_.slc_rmw_us * static_cast<double>(units_partly_covered(off, len, o_.slc_write_unit));
  }

  double map_cost(uint64_t off, uint64_t len) const {
    uint64_t n = units_touched(off, len, o_.map_unit);
    return n > 1 ? o_.map_us * static_cast<double>(n - 1) : 0.0;
  }

  double with_noise(double t) {
    if (o_.noise_pct <= 0) return t;
    double noisy = t * (1.0 + o_.noise_pct / 100.0 * gauss_(rng_));
    return std::max(noisy, o_.base_us);
  }

  const Options& o_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> gauss_{0.0, 1.0};
  uint64_t last_write_end_ = UINT64_MAX;  // no previous write yet
  emudrive::OpenUnits open_units_;
};

// ---------------------------------------------------------------------------
// Sparse content store: 64 KiB chunks allocated on first write.

class SparseStore {
 public:
  static constexpr uint64_t kChunk = 64 * 1024;

  void read(uint64_t off, uint64_t len, char* out) const {
    for_each_piece(off, len, [&](uint64_t idx, uint64_t in, uint64_t n, uint64_t done) {
      auto it = chunks_.find(idx);
      if (it == chunks_.end())
        std::memset(out + done, 0, n);
      else
        std::memcpy(out + done, it->second.get() + in, n);
    });
  }

  void write(uint64_t off, uint64_t len, const char* in_buf) {
    for_each_piece(off, len, [&](uint64_t idx, uint64_t in, uint64_t n, uint64_t done) {
      std::memcpy(chunk_for_write(idx) + in, in_buf + done, n);
    });
  }

  // Makes [off, off+len) read as zero, freeing whole chunks.
  void zero(uint64_t off, uint64_t len) {
    for_each_piece(off, len, [&](uint64_t idx, uint64_t in, uint64_t n, uint64_t) {
      auto it = chunks_.find(idx);
      if (it == chunks_.end()) return;
      if (n == kChunk)
        chunks_.erase(it);
      else
        std::memset(it->second.get() + in, 0, n);
    });
  }

 private:
  // Calls fn(chunk index, offset in chunk, bytes, bytes done so far) per piece.
  template <typename Fn>
  static void for_each_piece(uint64_t off, uint64_t len, Fn fn) {
    uint64_t done = 0;
    while (done < len) {
      uint64_t pos = off + done;
      uint64_t in = pos % kChunk;
      uint64_t n = std::min(kChunk - in, len - done);
      fn(pos / kChunk, in, n, done);
      done += n;
    }
  }

  char* chunk_for_write(uint64_t idx) {
    auto& slot = chunks_[idx];
    if (!slot) slot.reset(new char[kChunk]());
    return slot.get();
  }

  std::unordered_map<uint64_t, std::unique_ptr<char[]>> chunks_;
};

// ---------------------------------------------------------------------------
// Parallel units (--units): one lock per unit, held for a request's service.

timespec now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t;
}

int64_t ns_of(const timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; }

timespec plus_us(timespec t, double us) {
  const auto ns = static_cast<int64_t>(us * 1e3);
  t.tv_sec += ns / 1000000000;
  t.tv_nsec += ns % 1000000000;
  if (t.tv_nsec >= 1000000000) {
    t.tv_sec += 1;
    t.tv_nsec -= 1000000000;
  }
  return t;
}

class ParallelUnits {
 public:
  ParallelUnits(uint32_t count, uint64_t interleave)
      : count_(count), interleave_(interleave), locks_(new std::mutex[count]) {}

  // Serves a request on its units: waits until it holds every unit
  // [off, off+len) touches, then keeps them for latency_us, sleeping.
  void serve(uint64_t off, uint64_t len, double latency_us) {
    const std::vector<uint32_t> units = units_of(off, len);
    for (uint32_t u : units) locks_[u].lock();   // ascending: no deadlock
    const timespec until = plus_us(now(), latency_us);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
    }
    for (auto it = units.rbegin(); it != units.rend(); ++it) locks_[*it].unlock();
  }

 private:
  // The units a request touches, ascending (all of them once it spans N).
  std::vector<uint32_t> units_of(uint64_t off, uint64_t len) const {
    std::vector<uint32_t> units;
    if (len == 0) return units;
    const uint64_t first = off / interleave_, last = (off + len - 1) / interleave_;
    const uint64_t span = std::min<uint64_t>(last - first + 1, count_);
    for (uint64_t i = 0; i < span; ++i) units.push_back(static_cast<uint32_t>((first + i) % count_));
    std::sort(units.begin(), units.end());
    return units;
  }

  uint32_t count_;
  uint64_t interleave_;
  std::unique_ptr<std::mutex[]> locks_;
};

// ---------------------------------------------------------------------------
// The drive: model + store + trace, and the FUSE handlers that use it.
// The model and the store have their own locks: with --units several
// handler threads use them at once (uncontended, and so free, otherwise).

// A request's modelled latency, and the SLC cache's note for the trace
// (empty without a cache).
struct Service {
  double latency_us;
  std::string slc_note;
};

struct Drive {
  explicit Drive(const Options& o)
      : opt(o), model(opt), slc(o.slc, ns_of(now())), gc(o.gc, ns_of(now())),
        units(o.units ? std::make_unique<ParallelUnits>(o.units, o.interleave) : nullptr) {}

  Service read_service(const timespec& arrival, uint64_t off, uint64_t len) {
    std::lock_guard<std::mutex> hold(model_mu);
    if (gc.enabled()) gc.request_started(ns_of(arrival));
    if (!slc.enabled()) return {model.read_us(off, len), {}};
    const SlcEvent event = slc.request_started(ns_of(arrival));
    return {model.read_us(off, len), emudrive::trace_note(event, false)};
  }
  Service write_service(const timespec& arrival, uint64_t off, uint64_t len) {
    std::lock_guard<std::mutex> hold(model_mu);
    SlcEvent event;
    if (slc.enabled()) {
      event = slc.request_started(ns_of(arrival));
      event.absorbed = slc.absorb(len);
      event.free_after = slc.free_bytes();
    }
    const bool gc_wait = gc_waits(arrival, len - event.absorbed);
    const double latency_us = model.write_us(off, len, event.absorbed, gc_wait);
    return {latency_us, slc.enabled() ? emudrive::trace_note(event, true) : std::string()};
  }
  // Whether `native` bytes of a write find too little free space (--gc-pool).
  bool gc_waits(const timespec& arrival, uint64_t native) {
    if (!gc.enabled()) return false;
    gc.request_started(ns_of(arrival));
    return native > 0 && gc.absorb(native) < native;
  }
  // A request's service is over (its latency realised): the SLC cache may
  // count idle time from now.
  void service_done() {
    if (!slc.enabled() && !gc.enabled()) return;
    std::lock_guard<std::mutex> hold(model_mu);
    const int64_t done_ns = ns_of(now());
    if (slc.enabled()) slc.request_finished(done_ns);
    if (gc.enabled()) gc.request_finished(done_ns);
  }

  Options opt;
  LatencyModel model;
  SlcCache slc;
  SlcCache gc;  // the garbage-collection pool: the same bookkeeping (slc_cache.h)
  std::mutex model_mu;
  SparseStore store;
  std::mutex store_mu;
  std::unique_ptr<ParallelUnits> units;   // null: single-threaded, spin
  FILE* trace = nullptr;
  time_t mtime = time(nullptr);
};

// One read buffer per handler thread.
char* read_buffer() {
  thread_local std::vector<char> buf(kMaxIo);
  return buf.data();
}

Drive& drive_of(fuse_req_t req) { return *static_cast<Drive*>(fuse_req_userdata(req)); }

double us_since(const timespec& start) {
  timespec t = now();
  return (t.tv_sec - start.tv_sec) * 1e6 + (t.tv_nsec - start.tv_nsec) / 1e3;
}

void spin_until(const timespec& arrival, double latency_us) {
  while (us_since(arrival) < latency_us) {
  }
}

// Realises a request's modelled latency: on its parallel units (--units) or,
// by default, by spinning until arrival + latency.
void serve(Drive& d, const timespec& arrival, uint64_t off, uint64_t len, double latency_us) {
  if (d.units)
    d.units->serve(off, len, latency_us);
  else
    spin_until(arrival, latency_us);
}

// "R|W OFFSET LENGTH", then the SLC cache's note (slc_cache.h) if any.
void trace_request(Drive& d, char op, uint64_t off, uint64_t len, const std::string& slc_note = {}) {
  if (!d.trace) return;
  std::fprintf(d.trace, "%c %llu %llu%s\n", op, static_cast<unsigned long long>(off),
               static_cast<unsigned long long>(len), slc_note.c_str());
  std::fflush(d.trace);
}

void fill_attr(const Drive& d, fuse_ino_t ino, struct stat* st) {
  *st = {};
  st->st_ino = ino;
  st->st_uid = getuid();
  st->st_gid = getgid();
  st->st_mtime = st->st_ctime = st->st_atime = d.mtime;
  if (ino == FUSE_ROOT_ID) {
    st->st_mode = S_IFDIR | 0755;
    st->st_nlink = 2;
  } else {
    st->st_mode = S_IFREG | 0644;
    st->st_nlink = 1;
    st->st_size = static_cast<off_t>(d.opt.size);
    st->st_blksize = 4096;
    st->st_blocks = static_cast<blkcnt_t>(d.opt.size / 512);
  }
}

bool valid_ino(fuse_ino_t ino) { return ino == FUSE_ROOT_ID || ino == kDiskIno; }

// libfuse 3.14 already negotiates these values (max_pages = 256, unlimited
// max_read); set them explicitly so a 128 KiB request stays one request even
// under other libfuse defaults. max_read must also be a mount option.
void op_init(void* userdata, fuse_conn_info* conn) {
  conn->max_write = kMaxIo;
  conn->max_read = kMaxIo;
  if (static_cast<Drive*>(userdata)->units) {
    conn->max_background = kMaxBackground;
    conn->congestion_threshold = kMaxBackground * 3 / 4;
  }
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  if (parent != FUSE_ROOT_ID || std::strcmp(name, kDiskName) != 0) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  fuse_entry_param e{};
  e.ino = kDiskIno;
  e.attr_timeout = 3600;
  e.entry_timeout = 3600;
  fill_attr(drive_of(req), kDiskIno, &e.attr);
  fuse_reply_entry(req, &e);
}

void op_getattr(fuse_req_t req, fuse_ino_t ino, fuse_file_info*) {
  if (!valid_ino(ino)) {
    fuse_reply_err(req, ENOENT);
    return;
  }
  struct stat st;
  fill_attr(drive_of(req), ino, &st);
  fuse_reply_attr(req, &st, 3600);
}

// The size is fixed; accept (and ignore) everything but a size change.
void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat* attr, int to_set, fuse_file_info*) {
  Drive& d = drive_of(req);
  if ((to_set & FUSE_SET_ATTR_SIZE) && static_cast<uint64_t>(attr->st_size) != d.opt.size) {
    fuse_reply_err(req, EPERM);
    return;
  }
  struct stat st;
  fill_attr(d, ino, &st);
  fuse_reply_attr(req, &st, 3600);
}

void op_open(fuse_req_t req, fuse_ino_t ino, fuse_file_info* fi) {
  if (ino != kDiskIno) {
    fuse_reply_err(req, EISDIR);
    return;
  }
  fi->direct_io = 1;   // FOPEN_DIRECT_IO: no FUSE page cache, see FINDINGS
  fi->keep_cache = 0;
  fuse_reply_open(req, fi);
}

void op_read(fuse_req_t req, fuse_ino_t, size_t size, off_t off, fuse_file_info*) {
  timespec arrival = now();
  Drive& d = drive_of(req);
  uint64_t o = static_cast<uint64_t>(off);
  uint64_t len = o >= d.opt.size ? 0 : std::min<uint64_t>({size, d.opt.size - o, kMaxIo});
  const Service service = d.read_service(arrival, o, len);
  trace_request(d, 'R', o, size, service.slc_note);
  char* buf = read_buffer();
  {
    std::lock_guard<std::mutex> hold(d.store_mu);
    d.store.read(o, len, buf);
  }
  serve(d, arrival, o, len, service.latency_us);
  d.service_done();
  fuse_reply_buf(req, buf, len);
}

void op_write(fuse_req_t req, fuse_ino_t, const char* data, size_t size, off_t off,
              fuse_file_info*) {
  timespec arrival = now();
  Drive& d = drive_of(req);
  uint64_t o = static_cast<uint64_t>(off);
  if (o >= d.opt.size || size > d.opt.size - o) {
    trace_request(d, 'W', o, size);
    fuse_reply_err(req, ENOSPC);
    return;
  }
  const Service service = d.write_service(arrival, o, size);
  trace_request(d, 'W', o, size, service.slc_note);
  {
    std::lock_guard<std::mutex> hold(d.store_mu);
    d.store.write(o, size, data);
  }
  serve(d, arrival, o, size, service.latency_us);
  d.service_done();
  fuse_reply_write(req, size);
}

// Loop devices turn discard / write-zeroes into fallocate; support the two
// modes that keep the size.
void op_fallocate(fuse_req_t req, fuse_ino_t, int mode, off_t off, off_t len, fuse_file_info*) {
  Drive& d = drive_of(req);
  int allowed = FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE;
  if ((mode & ~allowed) || !(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))) {
    fuse_reply_err(req, EOPNOTSUPP);
    return;
  }
  uint64_t o = static_cast<uint64_t>(off);
  uint64_t end = std::min<uint64_t>(o + static_cast<uint64_t>(len), d.opt.size);
  if (o < end) {
    std::lock_guard<std::mutex> hold(d.store_mu);
    d.store.zero(o, end - o);
  }
  fuse_reply_err(req, 0);
}

void op_flush(fuse_req_t req, fuse_ino_t, fuse_file_info*) { fuse_reply_err(req, 0); }
void op_fsync(fuse_req_t req, fuse_ino_t, int, fuse_file_info*) { fuse_reply_err(req, 0); }

void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, fuse_file_info*) {
  if (ino != FUSE_ROOT_ID) {
    fuse_reply_err(req, ENOTDIR);
    return;
  }
  struct Entry { const char* name; fuse_ino_t ino; mode_t mode; };
  const Entry entries[] = {{".", FUSE_ROOT_ID, S_IFDIR}, {"..", FUSE_ROOT_ID, S_IFDIR},
                           {kDiskName, kDiskIno, S_IFREG}};
  std::vector<char> buf(size);
  size_t used = 0;
  for (off_t i = off; i < 3; ++i) {
    struct stat st{};
    st.st_ino = entries[i].ino;
    st.st_mode = entries[i].mode;
    size_t n = fuse_add_direntry(req, buf.data() + used, size - used, entries[i].name, &st, i + 1);
    if (n > size - used) break;
    used += n;
  }
  fuse_reply_buf(req, buf.data(), used);
}

fuse_lowlevel_ops make_ops() {
  fuse_lowlevel_ops ops{};
  ops.init = op_init;
  ops.lookup = op_lookup;
  ops.getattr = op_getattr;
  ops.setattr = op_setattr;
  ops.open = op_open;
  ops.read = op_read;
  ops.write = op_write;
  ops.fallocate = op_fallocate;
  ops.flush = op_flush;
  ops.fsync = op_fsync;
  ops.readdir = op_readdir;
  return ops;
}

// ---------------------------------------------------------------------------
// Session setup

// FUSE mount options: the session's args vector ("-o" list plus argv[0]).
std::vector<std::string> fuse_args_for(const Options& o) {
  std::string opts = "fsname=emudrive,subtype=emudrive,max_read=" + std::to_string(kMaxIo);
  for (const auto& extra : o.fuse_opts) opts += "," + extra;
  return {"emudrive", "-o", opts};
}

// Single-threaded by default, on purpose (requests served one at a time, as
// the latency model assumes); with --units, as many threads as requests may
// be waiting on units.
int serve_requests(fuse_session* se, const Options& opt) {
  if (!opt.units) return fuse_session_loop(se);
  // Worker threads inherit the slack: sleeps end when they should.
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  fuse_loop_config* config = fuse_loop_cfg_create();
  fuse_loop_cfg_set_max_threads(config, opt.threads);
  fuse_loop_cfg_set_idle_threads(config, opt.threads);
  int rc = fuse_session_loop_mt(se, config);
  fuse_loop_cfg_destroy(config);
  return rc;
}

// At exit, what the SLC cache took and what went native (standard error).
void print_slc_summary(const SlcCache& slc) {
  if (!slc.enabled()) return;
  std::fprintf(stderr, "emudrive: slc cache: %llu bytes written in the cache, %llu native, %llu free at exit\n",
               static_cast<unsigned long long>(slc.absorbed_total()),
               static_cast<unsigned long long>(slc.native_total()),
               static_cast<unsigned long long>(slc.free_bytes()));
}

int run(const Options& opt) {
  Drive drive(opt);
  if (!opt.trace_path.empty()) {
    drive.trace = std::fopen(opt.trace_path.c_str(), "a");
    if (!drive.trace) {
      std::perror(opt.trace_path.c_str());
      return 1;
    }
  }
  std::vector<std::string> strs = fuse_args_for(opt);
  std::vector<char*> argv;
  for (auto& s : strs) argv.push_back(s.data());
  fuse_args args = FUSE_ARGS_INIT(static_cast<int>(argv.size()), argv.data());
  fuse_lowlevel_ops ops = make_ops();

  fuse_session* se = fuse_session_new(&args, &ops, sizeof ops, &drive);
  if (!se) return 1;
  int rc = 1;
  if (fuse_set_signal_handlers(se) == 0) {
    if (fuse_session_mount(se, opt.mountpoint.c_str()) == 0) {
      fuse_daemonize(opt.foreground ? 1 : 0);
      // > 0 means stopped by a signal: clean.
      rc = serve_requests(se, opt) >= 0 ? 0 : 1;
      fuse_session_unmount(se);
    }
    fuse_remove_signal_handlers(se);
  }
  fuse_session_destroy(se);
  if (drive.trace) std::fclose(drive.trace);
  print_slc_summary(drive.slc);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse_options(argc, argv);
  return run(opt);
}
