#include "report/fio_jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/output.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

using PlainJson = nlohmann::json;  // as the saved document was parsed

// The longest line fio reads whole, newline excluded: fio 3.33 reads lines
// with fgets into 8192 bytes, older versions into 4096, and takes what did
// not fit as a line of its own.
constexpr std::size_t kFioLineBytes = 4094;

// ---- Reading the document: absent, null and wrongly typed values are "none".

const PlainJson& member(const PlainJson& object, const char* key) {
  static const PlainJson none;
  if (!object.is_object()) return none;
  const auto it = object.find(key);
  return it == object.end() ? none : *it;
}

std::optional<uint64_t> uint_at(const PlainJson& object, const char* key) {
  const PlainJson& v = member(object, key);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  if (v.is_number_float() && v.get<double>() >= 0.0 && v.get<double>() < 1.8e19) {
    return static_cast<uint64_t>(v.get<double>());
  }
  return std::nullopt;
}

std::optional<double> number_at(const PlainJson& object, const char* key) {
  const PlainJson& v = member(object, key);
  if (v.is_number()) return v.get<double>();
  return std::nullopt;
}

std::string text_at(const PlainJson& object, const char* key) {
  const PlainJson& v = member(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

struct ByteRange {
  uint64_t offset = 0, length = 0;
  uint64_t end() const { return offset + length; }
};

std::optional<ByteRange> range_at(const PlainJson& object, uint64_t target_size) {
  const auto offset = uint_at(object, "offset");
  const auto length = uint_at(object, "length");
  if (!offset || !length) return std::nullopt;
  ByteRange range{*offset, *length};
  if (range.length == 0 && target_size > range.offset) range.length = target_size - range.offset;  // "to the end"
  return range;
}

// ---- The job file as data, then text.

struct Job {
  std::string name;
  std::vector<std::string> comments;  // above the section, without "# "
  std::vector<std::string> lines;     // key=value
  bool commented_out = false;
};

// The fio engine that does what the document's engine did (run.engine is
// free text, so only its start is relied on; options.engine otherwise).
struct FioEngine {
  std::vector<std::string> lines;
  std::string why;
  bool queues = true;  // keeps more than one IO in flight
};

FioEngine fio_engine(const PlainJson& doc) {
  const std::string described = text_at(member(doc, "run"), "engine");
  const std::string option = text_at(member(doc, "options"), "engine");
  const std::string said = described.empty() ? "options.engine " + option : "run.engine \"" + described + "\"";
  if (described.rfind("psync", 0) == 0 || (described.empty() && option == "psync")) {
    return {{"ioengine=psync"}, "the document's engine is psync: " + said, false};
  }
  if (described.rfind("NVMe passthrough", 0) == 0 || (described.empty() && option == "passthru")) {
    return {{"ioengine=io_uring_cmd", "cmd_type=nvme"}, "NVMe passthrough through io_uring: " + said, true};
  }
  FioEngine engine{{"ioengine=io_uring"}, "io_uring: " + said, true};
  if (described.find("fixed file") != std::string::npos) engine.lines.push_back("registerfiles=1");
  if (described.find("registered buffers") != std::string::npos) engine.lines.push_back("fixedbufs=1");
  return engine;
}

// The first offset at or after `from` (a target offset) whose disk offset is
// a multiple of `unit`: the grids' phases are disk phases, so a partition's
// start counts.
uint64_t disk_aligned(uint64_t from, uint64_t unit, uint64_t partition_start) {
  if (unit == 0) return from;  // nothing to align to (job_range refuses it before this)
  const uint64_t disk = from + partition_start;
  return (disk + unit - 1) / unit * unit - partition_start;
}

// offset= and size= for IOs of `block` bytes that start `phase` bytes into
// a disk-aligned `unit`, inside `range`; nullopt when not one fits.
std::optional<ByteRange> job_range(const ByteRange& range, uint64_t unit, uint64_t phase, uint64_t block,
                                   uint64_t partition_start) {
  if (unit == 0 || block == 0) return std::nullopt;  // a document's 0 B unit or read size: nothing to align to
  const uint64_t start = disk_aligned(range.offset, unit, partition_start);
  if (start >= range.end()) return std::nullopt;
  const uint64_t units = (range.end() - start) / unit;
  // The last IO starts at most at start + phase + (units - 1 - spill) * unit and must end by range.end().
  const uint64_t spill = phase + block > unit ? (phase + block - 1) / unit : 0;
  if (units <= spill) return std::nullopt;
  return ByteRange{start + phase, (units - spill) * unit};
}

void place(Job& job, const ByteRange& r) {
  job.lines.push_back(fmt::format("offset={}", r.offset));
  job.lines.push_back(fmt::format("size={}", r.length));
}

std::string us(double value) { return fmt::format("{:.1f} us", value); }

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

// The cells of one grid row at one phase against a unit: their median latency
// (the median of the cells' medians) and where they are.
struct Cells {
  double median_us = 0.0;
  std::vector<uint64_t> offsets;
  uint64_t samples = 0;
  uint32_t queue_depth = 1;
  std::string grid;
};

std::optional<Cells> grid_cells(const PlainJson& grid, uint64_t size, uint64_t unit, uint64_t phase) {
  const PlainJson& sizes = member(grid, "sizes");
  const PlainJson& offsets = member(grid, "offsets");
  const PlainJson& medians = member(grid, "median_us");
  const PlainJson& samples = member(grid, "samples");
  if (!sizes.is_array() || !offsets.is_array() || !medians.is_array() || unit == 0) return std::nullopt;
  Cells cells;
  cells.grid = text_at(grid, "name");
  cells.queue_depth = static_cast<uint32_t>(uint_at(grid, "queue_depth").value_or(1));
  std::vector<double> values;
  for (size_t i = 0; i < sizes.size() && i < medians.size(); ++i) {
    if (!sizes[i].is_number_unsigned() || sizes[i].get<uint64_t>() != size || !medians[i].is_array()) continue;
    for (size_t j = 0; j < offsets.size() && j < medians[i].size(); ++j) {
      if (!offsets[j].is_number_unsigned() || offsets[j].get<uint64_t>() % unit != phase) continue;
      const uint64_t n = samples.is_array() && i < samples.size() && samples[i].is_array() && j < samples[i].size() &&
                                 samples[i][j].is_number_unsigned()
                             ? samples[i][j].get<uint64_t>()
                             : 1;
      if (n == 0 || !medians[i][j].is_number() || medians[i][j].get<double>() <= 0.0) continue;  // no data
      values.push_back(medians[i][j].get<double>());
      cells.offsets.push_back(offsets[j].get<uint64_t>());
      cells.samples += n;
    }
  }
  if (values.empty()) return std::nullopt;
  cells.median_us = median_of(values);
  return cells;
}

const PlainJson* grid_named(const PlainJson& doc, const std::string& name) {
  const PlainJson& grids = member(doc, "grids");
  if (!grids.is_array()) return nullptr;
  for (const PlainJson& g : grids) {
    if (text_at(g, "name") == name) return &g;
  }
  return nullptr;
}

std::string offsets_text(const std::vector<uint64_t>& offsets) {
  std::string text;
  for (size_t k = 0; k < offsets.size(); ++k) {
    if (k == 4 && offsets.size() > 5) return text + fmt::format(" ... {}", format_size(offsets.back()));
    text += (k ? ", " : "") + format_size(offsets[k]);
  }
  return text;
}

std::string cells_text(const Cells& c, uint64_t size) {
  return fmt::format("{} cells of grid \"{}\" ({} reads at slot offsets {}; {} timed IOs, queue depth {})",
                     c.offsets.size(), c.grid, format_size(size), offsets_text(c.offsets), c.samples, c.queue_depth);
}

struct Context {
  const PlainJson& doc;
  std::string path;      // target.path as the document has it (for comments)
  std::string filename;  // target.path as fio's filename= value
  uint64_t partition_start = 0;
  uint64_t size_bytes = 0;
  std::optional<ByteRange> read_region;
  std::string read_region_text;
  FioEngine engine;
};

// ---- The read page: aligned and straddling reads of one page.

// The grid the read page was measured in, and the range it covers: the read
// grid over run.read_region, or, for a page found by re-reading the written
// window, that window's grid only.
struct PageGrid {
  const PlainJson* grid;
  ByteRange region;
  std::string where;
};

PageGrid page_grid(const Context& ctx, const PlainJson& page_unit) {
  PageGrid found{grid_named(ctx.doc, "read"), *ctx.read_region, ctx.read_region_text};
  if (!member(page_unit, "device_state").is_string()) return found;
  const auto window = range_at(member(member(ctx.doc, "write_probe"), "region"), ctx.size_bytes);
  const PlainJson* written = grid_named(ctx.doc, "read-written");
  if (written == nullptr || !window) return found;
  return {written, *window,
          fmt::format("the write window {}..{} (write_probe.region), where the page was found by re-reading it",
                      window->offset, window->end())};
}

void read_page_jobs(const Context& ctx, std::vector<Job>& jobs, std::vector<std::string>& left_out) {
  const PlainJson& page_unit = member(member(ctx.doc, "detected"), "read_page");
  const std::string state = text_at(page_unit, "state");
  const auto page = uint_at(page_unit, "bytes");
  if (state != "found" || !page || *page < 2) {
    std::string why = fmt::format("read-aligned and read-straddle: no read page was found (detected.read_page.state "
                                  "\"{}\")", state.empty() ? "absent" : state);
    if (const auto candidate = uint_at(page_unit, "best_candidate_bytes")) {
      why += fmt::format("; the best candidate, {}, is not a found page", format_size(*candidate));
    }
    left_out.push_back(why);
    return;
  }
  if (!ctx.read_region) {
    left_out.push_back("read-aligned and read-straddle: the document has no run.read_region (the read probes were "
                       "skipped)");
    return;
  }
  // Named, not a structured binding: clang 14 cannot capture those in the
  // lambda below.
  const PageGrid measured = page_grid(ctx, page_unit);
  const PlainJson* grid = measured.grid;
  const ByteRange& region = measured.region;
  const std::string& where = measured.where;
  const uint64_t p = *page;
  const auto aligned = grid ? grid_cells(*grid, p, p, 0) : std::nullopt;
  const auto straddle = grid ? grid_cells(*grid, p, p, p / 2) : std::nullopt;
  const auto aligned_range = job_range(region, p, 0, p, ctx.partition_start);
  const auto straddle_range = job_range(region, p, p / 2, p, ctx.partition_start);
  if (!aligned_range || !straddle_range) {
    left_out.push_back(fmt::format("read-aligned and read-straddle: {} holds no two {} pages", where, format_size(p)));
    return;
  }
  const std::string found = fmt::format("read page {} (found, confidence {:.3f})", format_size(p),
                                        number_at(page_unit, "confidence").value_or(0.0));
  const uint32_t depth = aligned ? aligned->queue_depth : 1;
  auto read_job = [&](const char* name, const std::optional<Cells>& cells, const ByteRange& r, const std::string& what) {
    Job job{name, {}, {}, false};
    job.comments.push_back(fmt::format("{}: {}", found, what));
    if (cells) {
      job.comments.push_back(fmt::format("ssdprobe measured a median of {}: the median of the {}", us(cells->median_us),
                                         cells_text(*cells, p)));
    } else {
      job.comments.push_back(fmt::format("ssdprobe's grid has no cell of {} reads at this phase to compare with",
                                         format_size(p)));
    }
    job.comments.push_back(fmt::format("offsets: {} apart from {} (disk-aligned to the page), inside {}",
                                       format_size(p), r.offset, where));
    job.lines = {"stonewall", "rw=randread", fmt::format("bs={}", p), fmt::format("blockalign={}", p),
                 fmt::format("iodepth={}", ctx.engine.queues ? depth : 1)};
    place(job, r);
    jobs.push_back(std::move(job));
  };
  read_job("read-aligned", aligned, *aligned_range, "each read covers exactly one page");
  read_job("read-straddle", straddle, *straddle_range,
           fmt::format("each read starts {} into a page and crosses one page boundary", format_size(p / 2)));
  if (aligned && straddle) {
    jobs.back().comments.push_back(fmt::format("ssdprobe's straddling / aligned median ratio: {:.3f}",
                                               straddle->median_us / aligned->median_us));
  }
}

// ---- The queue-depth sweep around the knee.

struct Depth {
  uint64_t depth = 0;
  double iops = 0.0, p50_us = 0.0, p99_us = 0.0;
};

void queue_depth_jobs(const Context& ctx, std::vector<Job>& jobs, std::vector<std::string>& left_out) {
  const PlainJson& probe = member(ctx.doc, "parallelism_probe");
  const PlainJson& knee = member(member(member(ctx.doc, "detected"), "parallelism"), "queue_depth_knee");
  if (!ctx.engine.queues) {
    left_out.push_back("qd-*: the run's engine keeps one IO in flight (psync): there is no queue-depth sweep");
    return;
  }
  std::vector<Depth> depths;
  for (const PlainJson& d : member(probe, "queue_depths").is_array() ? member(probe, "queue_depths") : PlainJson::array()) {
    const auto qd = uint_at(d, "queue_depth");
    const auto iops = number_at(d, "iops");
    if (qd && iops && *qd > 0) {
      depths.push_back({*qd, *iops, number_at(d, "p50_us").value_or(0.0), number_at(d, "p99_us").value_or(0.0)});
    }
  }
  if (depths.empty() || !ctx.read_region) {
    const std::string evidence = text_at(knee, "evidence");
    left_out.push_back(fmt::format("qd-*: the document has no parallelism probe{}{}",
                                   probe.is_null() ? "" : " depth with IOPS",
                                   evidence.empty() ? "" : " (detected.parallelism.queue_depth_knee: " + evidence + ")"));
    return;
  }
  std::sort(depths.begin(), depths.end(), [](const Depth& a, const Depth& b) { return a.depth < b.depth; });
  const uint64_t io = uint_at(probe, "read_bytes").value_or(4096);
  const auto range = job_range(*ctx.read_region, io, 0, io, ctx.partition_start);
  if (!range) {
    left_out.push_back(fmt::format("qd-*: {} holds no {} read", ctx.read_region_text, format_size(io)));
    return;
  }
  size_t at = depths.size() - 1;
  std::string centre = "qd-knee";
  std::string why;
  const auto knee_value = uint_at(knee, "value");
  const auto found = std::find_if(depths.begin(), depths.end(), [&](const Depth& d) {
    return knee_value && d.depth == *knee_value;
  });
  if (text_at(knee, "state") == "found" && found != depths.end()) {
    at = static_cast<size_t>(found - depths.begin());
    why = fmt::format("the knee ssdprobe found (detected.parallelism.queue_depth_knee {}, confidence {:.3f})",
                      *knee_value, number_at(knee, "confidence").value_or(0.0));
  } else {
    centre = "qd-deepest";
    why = fmt::format("no knee was found (detected.parallelism.queue_depth_knee \"{}\": {}): the deepest depth "
                      "measured instead",
                      text_at(knee, "state"), text_at(knee, "evidence"));
  }
  auto depth_job = [&](const std::string& name, const Depth& d, const std::string& role) {
    Job job{name, {}, {}, false};
    job.comments.push_back(fmt::format("queue depth {}: {}", d.depth, role));
    job.comments.push_back(fmt::format("ssdprobe measured {:.0f} IOPS (mean over its segments), p50 {}, p99 {} "
                                       "(parallelism_probe.queue_depths, {} random reads)",
                                       d.iops, us(d.p50_us), us(d.p99_us), format_size(io)));
    job.lines = {"stonewall", "rw=randread", fmt::format("bs={}", io), fmt::format("blockalign={}", io),
                 fmt::format("iodepth={}", d.depth)};
    place(job, *range);
    jobs.push_back(std::move(job));
  };
  const std::string of = centre == "qd-knee" ? "the knee" : "the deepest";
  if (at > 0) depth_job("qd-below", depths[at - 1], "the measured depth below " + of);
  depth_job(centre, depths[at], why);
  if (at + 1 < depths.size()) depth_job("qd-above", depths[at + 1], "the measured depth above " + of);
}

// ---- Writes: a partial and a whole write unit.

void write_jobs(const Context& ctx, bool with_writes, std::vector<Job>& jobs, std::vector<std::string>& left_out) {
  const PlainJson& probe = member(ctx.doc, "write_probe");
  const PlainJson& unit = member(member(ctx.doc, "detected"), "write_unit");
  if (probe.is_null()) {
    left_out.push_back("write-partial and write-unit: the run had no --write, so no write unit was measured");
    return;
  }
  const auto u = uint_at(unit, "bytes");
  if (text_at(unit, "state") != "found" || !u) {
    left_out.push_back(fmt::format("write-partial and write-unit: no write unit was found (detected.write_unit.state "
                                   "\"{}\")", text_at(unit, "state")));
    return;
  }
  const auto window = range_at(member(probe, "region"), ctx.size_bytes);
  if (!window) {
    left_out.push_back("write-partial and write-unit: the document has no write_probe.region");
    return;
  }
  const uint64_t logical = uint_at(member(ctx.doc, "reported"), "logical_block_size").value_or(512);
  const uint64_t partial = 4096 < *u && 4096 >= logical ? 4096 : logical;
  const PlainJson* grid = grid_named(ctx.doc, "write");
  const std::string warning = fmt::format("WRITES DESTROY DATA: this job overwrites {} between {} and {} "
                                          "(write_probe.region, the window ssdprobe saved and restored; fio "
                                          "saves nothing)",
                                          ctx.path, window->offset, window->end());
  auto write_job = [&](const char* name, uint64_t bs, const std::string& what) {
    const auto r = job_range(*window, *u, 0, bs, ctx.partition_start);
    if (!r) {
      left_out.push_back(fmt::format("{}: the write window holds no {} write unit", name, format_size(*u)));
      return;
    }
    Job job{name, {}, {}, !with_writes};
    job.comments.push_back(warning);
    if (!with_writes) job.comments.push_back("commented out: `ssdprobe fio-jobs --with-writes` writes it active");
    job.comments.push_back(fmt::format("write unit {} (found, confidence {:.3f}): {}", format_size(*u),
                                       number_at(unit, "confidence").value_or(0.0), what));
    const auto cells = grid ? grid_cells(*grid, bs, *u, 0) : std::nullopt;
    if (cells) {
      job.comments.push_back(fmt::format("ssdprobe measured a median of {} (grid \"write\", {} writes at slot "
                                         "offsets {}, queue depth 1)",
                                         us(cells->median_us), format_size(bs), offsets_text(cells->offsets)));
    } else {
      job.comments.push_back(fmt::format("the document's write grid has no cell of {} writes at a unit's start",
                                         format_size(bs)));
    }
    job.lines = {"stonewall", "rw=randwrite", fmt::format("bs={}", bs), fmt::format("blockalign={}", *u),
                 "iodepth=1"};
    place(job, *r);
    jobs.push_back(std::move(job));
  };
  if (partial < *u) {
    write_job("write-partial", partial,
              fmt::format("each write covers the first {} of a unit only", format_size(partial)));
  } else {
    left_out.push_back(fmt::format("write-partial: the write unit {} is one logical block: no write covers part of "
                                   "it", format_size(*u)));
  }
  write_job("write-unit", *u, "each write covers one whole unit");
}

std::string render(const Context& ctx, const FioJobsOptions& options, const std::vector<Job>& jobs,
                   const std::vector<std::string>& left_out) {
  const PlainJson& doc = ctx.doc;
  const PlainJson& target = member(doc, "target");
  std::string out;
  auto comment = [&out](const std::string& line) { out += fio_comment(line); };
  comment(fmt::format("fio job file written by ssdprobe `fio-jobs` from {} (ssdprobe {}, schema {})", options.source,
                      text_at(member(doc, "tool"), "version"), text_at(doc, "schema")));
  std::string identity;
  for (const char* key : {"model", "serial", "firmware"}) {
    if (!text_at(target, key).empty()) identity += fmt::format(", {} {}", key, text_at(target, key));
  }
  comment(fmt::format("the run of {} on host {}: target {} ({}{})", text_at(doc, "started_at"),
                      text_at(doc, "hostname").empty() ? "unknown" : text_at(doc, "hostname"), ctx.path,
                      text_at(target, "kind"), identity));
  comment("It times the run's key cells again with fio, on the same device. Run it as");
  comment(fmt::format("  fio {}--output-format=json FILE", options.with_writes ? "" : "--readonly "));
  comment(options.with_writes ? "(its write jobs are active: no --readonly)"
                              : "(--readonly: fio refuses every write; the write jobs below are commented out)");
  comment("The jobs run one after another (stonewall) and each reports on its own (no group_reporting).");
  comment("ssdprobe's latencies run from submission to completion: compare them with fio's \"lat\" percentiles");
  comment("(lat_percentiles=1), the median being the 50th.");
  if (ctx.read_region) comment("Reads stay inside " + ctx.read_region_text + ".");
  if (const auto spin = uint_at(member(doc, "options"), "spin_us"); spin && *spin > 0 && ctx.engine.queues) {
    comment(fmt::format("ssdprobe polled up to {} us for each completion before sleeping (--spin-us); fio's engine "
                        "sleeps in the kernel, which may add a few us at shallow depths.", *spin));
  }
  for (const std::string& why : left_out) comment("left out: " + why);
  out += "\n[global]\n";
  out += fmt::format("filename={}\n", ctx.filename);
  comment(ctx.engine.why);
  for (const std::string& line : ctx.engine.lines) out += line + "\n";
  out += "direct=1\n";
  out += "time_based=1\n";
  out += fmt::format("runtime={}\n", fio_runtime(options.runtime_s));
  comment(fmt::format("the random offsets come from the run's --seed {}: the same set on every run of this file",
                      uint_at(member(doc, "options"), "seed").value_or(1)));
  out += "randrepeat=1\n";
  out += fmt::format("randseed={}\n", uint_at(member(doc, "options"), "seed").value_or(1));
  out += "norandommap=1\n";
  out += "random_generator=tausworthe64\n";
  out += "lat_percentiles=1\n";
  for (const Job& job : jobs) {
    out += "\n";
    for (const std::string& line : job.comments) comment(line);
    const std::string prefix = job.commented_out ? "# " : "";
    out += prefix + "[" + job.name + "]\n";
    for (const std::string& line : job.lines) out += prefix + line + "\n";
  }
  return out;
}

}  // namespace

std::string fio_comment(std::string_view text) {
  const std::string shown = printable(text);
  std::string out;
  size_t at = 0;
  do {
    size_t end = std::min(shown.size(), at + kFioCommentBytes);
    // Cut between characters: printable() left only well-formed UTF-8, and a
    // continuation byte (10xxxxxx) is never a character's first.
    while (end < shown.size() && end > at + 1 && (static_cast<unsigned char>(shown[end]) & 0xC0) == 0x80) --end;
    out += "# " + shown.substr(at, end - at) + "\n";
    at = end;
  } while (at < shown.size());
  return out;
}

std::string fio_filename(std::string_view path, std::string_view source) {
  auto refuse = [&](const std::string& why) {
    return Error(ErrorCategory::target,
                 fmt::format("{}: target.path \"{}\" {}: fio's filename= cannot name it, so no job file is written",
                             printable(source), printable(path), why));
  };
  if (printable(path) != path) throw refuse("holds a control character");
  if (const size_t at = path.find_first_of("#;$"); at != std::string_view::npos) {
    throw refuse(path[at] == '$' ? "holds '$' (fio replaces ${NAME} and $ncpus-like words in a job file)"
                                 : fmt::format("holds '{}' (fio ends the line there)", path[at]));
  }
  if (path.ends_with(' ')) throw refuse("ends in a space (fio strips it)");
  if (path == "-") throw refuse("is '-' (fio reads and writes standard input and output for it)");
  std::string value;
  for (const char c : path) value += c == ':' ? std::string("\\:") : std::string(1, c);
  if (value.size() + std::string_view("filename=").size() > kFioLineBytes) {
    throw refuse(fmt::format("is {} bytes long as fio's filename= ({} is the longest line fio reads whole)",
                             value.size(), kFioLineBytes));
  }
  return value;
}

std::string fio_runtime(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.001 || seconds > 1e6) {
    throw Error(ErrorCategory::usage, fmt::format("--runtime {}: a fio job file's runtime counts whole milliseconds: "
                                                  "give 0.001 to 1000000 seconds", seconds));
  }
  const auto ms = static_cast<uint64_t>(std::llround(seconds * 1000.0));
  return ms % 1000 == 0 ? fmt::format("{}", ms / 1000) : fmt::format("{}ms", ms);
}

std::string fio_job_file(std::string_view document_text, const FioJobsOptions& options) {
  (void)fio_runtime(options.runtime_s);  // a usage error is told before anything about the document
  PlainJson doc = PlainJson::parse(document_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    throw Error(ErrorCategory::target, fmt::format("{}: is not a JSON result document", printable(options.source)));
  }
  const PlainJson& target = member(doc, "target");
  const std::string path = text_at(target, "path");
  const std::string kind = text_at(target, "kind");
  if (kind == "sim" || path.rfind("sim:", 0) == 0) {
    throw Error(ErrorCategory::target,
                fmt::format("{}: is the run of a simulated drive ({}): there is no device for fio to run on; run "
                            "ssdprobe --json on a device, partition or file and export that document",
                            printable(options.source), path.empty() ? "sim:" : printable(path)));
  }
  if (path.empty()) {
    throw Error(ErrorCategory::target, fmt::format("{}: has no target.path", printable(options.source)));
  }
  if (member(doc, "run").is_null()) {
    throw Error(ErrorCategory::target, fmt::format("{}: is an `info` or `audit` document: it timed nothing for fio "
                                                   "to reproduce", printable(options.source)));
  }
  Context ctx{doc,
              path,
              fio_filename(path, options.source),
              uint_at(member(doc, "reported"), "partition_start_bytes").value_or(0),
              uint_at(target, "size_bytes").value_or(0),
              std::nullopt,
              "",
              fio_engine(doc)};
  const PlainJson& read_region = member(member(doc, "run"), "read_region");
  ctx.read_region = range_at(read_region, ctx.size_bytes);
  if (ctx.read_region) {
    ctx.read_region_text = fmt::format("the run's read region {}..{} (run.read_region, source {})",
                                       ctx.read_region->offset, ctx.read_region->end(),
                                       text_at(read_region, "source").empty() ? "unknown"
                                                                               : text_at(read_region, "source"));
  }
  std::vector<Job> jobs;
  std::vector<std::string> left_out;
  read_page_jobs(ctx, jobs, left_out);
  queue_depth_jobs(ctx, jobs, left_out);
  write_jobs(ctx, options.with_writes, jobs, left_out);
  return render(ctx, options, jobs, left_out);
}

}  // namespace ssdprobe
