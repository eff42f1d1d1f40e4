// emudrive: an emulated SSD medium with known geometry, for testing ssdprobe
// against ground truth through the real kernel block path.
//
// It is a single-threaded FUSE3 (low-level API) file system that serves one
// regular file, `disk`, whose contents live in a sparse RAM store and whose
// per-request latency follows a simple model of read pages, mapping units,
// write units, read-modify-write and erase-block stalls. Put a loop device in
// front of it (`losetup --direct-io=on --sector-size 512|4096 MOUNT/disk`) and
// ssdprobe sees a real block device: O_DIRECT, io_uring, the block layer and
// the loop driver are all real, only the medium is emulated.
//
// Latency is realised by busy-waiting on CLOCK_MONOTONIC from the moment the
// request reaches the handler until arrival + modelled latency; requests are
// served one at a time.
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

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <getopt.h>
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
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr fuse_ino_t kDiskIno = 2;
constexpr const char* kDiskName = "disk";
// Largest request we accept from the kernel; FUSE's own ceiling is 256 pages.
constexpr uint64_t kMaxIo = 1024 * 1024;

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
  uint64_t erase_block = 0;     // 0 = no erase stalls
  double erase_stall_us = 0;
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
      "  --erase-block BYTES   erase block size, 0 = no stalls [0]\n"
      "  --erase-stall-us US   extra per new erase block reached sequentially [0]\n"
      "Noise and diagnostics:\n"
      "  --noise-pct PCT       multiplicative gaussian noise (sigma, percent of\n"
      "                        the total), clipped so latency stays >= base [0]\n"
      "  --seed N              noise seed [1]\n"
      "  --trace FILE          append \"R|W offset length\" per request\n"
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

Options parse_options(int argc, char** argv) {
  enum { SIZE = 256, READ_PAGE, BASE_US, PAGE_US, MAP_UNIT, MAP_US, NOISE, SEED,
         WRITE_UNIT, WRITE_US, RMW_US, ERASE_BLOCK, ERASE_STALL, TRACE };
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
      {"erase-block", required_argument, nullptr, ERASE_BLOCK},
      {"erase-stall-us", required_argument, nullptr, ERASE_STALL},
      {"trace", required_argument, nullptr, TRACE},
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
      case ERASE_BLOCK: o.erase_block = parse_bytes(optarg, "--erase-block"); break;
      case ERASE_STALL: o.erase_stall_us = parse_number(optarg, "--erase-stall-us"); break;
      case TRACE: o.trace_path = optarg; break;
      case 'f': o.foreground = true; break;
      case 'o': o.fuse_opts.emplace_back(optarg); break;
      case 'h': print_help(argv[0]); std::exit(0);
      default: usage_error("unknown option");
    }
  }
  if (optind != argc - 1) usage_error("expected exactly one MOUNTPOINT");
  o.mountpoint = argv[optind];
  if (o.size == 0) usage_error("--size must be > 0");
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
  explicit LatencyModel(const Options& o) : o_(o), rng_(o.seed) {}

  double read_us(uint64_t off, uint64_t len) {
    double t = o_.base_us + map_cost(off, len) +
               o_.page_us * static_cast<double>(units_touched(off, len, o_.read_page));
    return with_noise(t);
  }

  double write_us(uint64_t off, uint64_t len) {
    double t = o_.base_us + map_cost(off, len);
    t += o_.write_us * static_cast<double>(units_touched(off, len, o_.write_unit));
    t += o_.rmw_us * static_cast<double>(units_partly_covered(off, len, o_.write_unit));
    if (off == last_write_end_)
      t += o_.erase_stall_us * static_cast<double>(boundaries_reached(off, len, o_.erase_block));
    last_write_end_ = off + len;
    return with_noise(t);
  }

 private:
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
// The drive: model + store + trace, and the FUSE handlers that use it.

struct Drive {
  explicit Drive(const Options& o) : opt(o), model(opt) {}
  Options opt;
  LatencyModel model;
  SparseStore store;
  FILE* trace = nullptr;
  std::vector<char> buf = std::vector<char>(kMaxIo);
  time_t mtime = time(nullptr);
};

Drive& drive_of(fuse_req_t req) { return *static_cast<Drive*>(fuse_req_userdata(req)); }

timespec now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t;
}

double us_since(const timespec& start) {
  timespec t = now();
  return (t.tv_sec - start.tv_sec) * 1e6 + (t.tv_nsec - start.tv_nsec) / 1e3;
}

void spin_until(const timespec& arrival, double latency_us) {
  while (us_since(arrival) < latency_us) {
  }
}

void trace_request(Drive& d, char op, uint64_t off, uint64_t len) {
  if (!d.trace) return;
  std::fprintf(d.trace, "%c %llu %llu\n", op, static_cast<unsigned long long>(off),
               static_cast<unsigned long long>(len));
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
  (void)userdata;
  conn->max_write = kMaxIo;
  conn->max_read = kMaxIo;
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
  trace_request(d, 'R', o, size);
  double latency = d.model.read_us(o, len);
  d.store.read(o, len, d.buf.data());
  spin_until(arrival, latency);
  fuse_reply_buf(req, d.buf.data(), len);
}

void op_write(fuse_req_t req, fuse_ino_t, const char* data, size_t size, off_t off,
              fuse_file_info*) {
  timespec arrival = now();
  Drive& d = drive_of(req);
  uint64_t o = static_cast<uint64_t>(off);
  trace_request(d, 'W', o, size);
  if (o >= d.opt.size || size > d.opt.size - o) {
    fuse_reply_err(req, ENOSPC);
    return;
  }
  double latency = d.model.write_us(o, size);
  d.store.write(o, size, data);
  spin_until(arrival, latency);
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
  if (o < end) d.store.zero(o, end - o);
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
      // Single-threaded on purpose. > 0 means stopped by a signal: clean.
      rc = fuse_session_loop(se) >= 0 ? 0 : 1;
      fuse_session_unmount(se);
    }
    fuse_remove_signal_handlers(se);
  }
  fuse_session_destroy(se);
  if (drive.trace) std::fclose(drive.trace);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse_options(argc, argv);
  return run(opt);
}
