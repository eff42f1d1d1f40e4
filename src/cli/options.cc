#include "cli/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "core/error.h"
#include "device/target.h"

namespace ssdprobe {
namespace {

std::string long_name(const OptionSpec& spec) {
  std::string names = spec.names;
  const size_t at = names.find("--");
  return at == std::string::npos ? names : names.substr(at);
}

// The longest budget taken: about 11.6 days, far beyond any useful run, and
// small enough that every count derived from it (IOs that fit, writes per
// pass) stays far inside uint64_t.
constexpr double kMaxSeconds = 1e6;

double parse_seconds(const std::string& name, const std::string& text) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0) {
    throw Error(ErrorCategory::usage, fmt::format("invalid {} '{}': expected a positive number of seconds", name, text));
  }
  if (value > kMaxSeconds) {
    throw Error(ErrorCategory::usage, fmt::format("invalid {} '{}': at most {:.0f} seconds (about 11.6 days)", name,
                                                  text, kMaxSeconds));
  }
  return value;
}

uint64_t parse_count(const std::string& name, const std::string& text, uint64_t low, uint64_t high) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high) {
    throw Error(ErrorCategory::usage, fmt::format("invalid {} '{}': expected a whole number from {} to {}", name, text, low, high));
  }
  return value;
}

void validate_engine(const std::string& text) { parse_engine(text); }
void validate_starts(const std::string& text) { parse_starts(text); }
void validate_fail_on(const std::string& text) {
  if (!text.empty() && text != "never" && text != "warning" && text != "error") {
    throw Error(ErrorCategory::usage, fmt::format("invalid --fail-on '{}': expected never, warning or error", text));
  }
}

// Parses `text` (the value, or the default; "1" for a given flag, "" for an
// absent one) into the field's member of `o`, and returns the value to echo:
// null for an absent text or region.
OptionValue apply(const OptionField& field, Options& o, const std::string& name, const std::string& text) {
  struct Visitor {
    Options& o;
    const std::string& name;
    const std::string& text;
    OptionValue operator()(const FlagField& f) const {
      const bool given = !text.empty();
      o.*f.member = f.inverted ? !given : given;
      return given;
    }
    OptionValue operator()(const TextField& f) const {
      if (f.validate != nullptr) f.validate(text);
      o.*f.member = text;
      return text.empty() ? OptionValue{} : OptionValue{text};
    }
    OptionValue operator()(const SecondsField& f) const { return o.*f.member = parse_seconds(name, text); }
    OptionValue operator()(const CountField& f) const {
      const uint64_t value = parse_count(name, text, f.low, f.high);
      if (f.member32 != nullptr) o.*f.member32 = static_cast<uint32_t>(value);
      if (f.member64 != nullptr) o.*f.member64 = value;
      return value;
    }
    OptionValue operator()(const RegionField& f) const {
      if (text.empty()) return {};
      return o.*f.member = parse_region(text);
    }
    OptionValue operator()(const SizeField& f) const {
      const uint64_t bytes = parse_size(text, name);
      if (f.positive && bytes == 0)
        throw Error(ErrorCategory::usage, fmt::format("invalid {} '{}': must be more than 0 bytes", name, text));
      return o.*f.member = bytes;
    }
  };
  return std::visit(Visitor{o, name, text}, field);
}

}  // namespace

const char* OptionSpec::help_for(unsigned scope_wanted) const {
  for (const auto& [scopes, text] : help_by_scope) {
    if (scopes & scope_wanted) return text;
  }
  return help;
}

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table{
      {"--json", "FILE", "", "json", kBoth | kAudit | kCompare,
       "Write the result document (schema ssdprobe/1) to FILE; '-' writes it to standard output instead of the "
       "text report",
       TextField{&Options::json_path},
       {{kCompare, "Write the comparison (schema ssdprobe-compare/1; with --quirks the quirk table, "
                   "ssdprobe-quirks/1) to FILE; '-' writes it to standard output instead of the text report"}}},
      {"--html", "FILE", "", "html", kCharacterize,
       "Also write the one-run report to FILE: one self-contained HTML page (verdict, reported vs measured, audit, "
       "recommendations, pictures, evidence, run context) made from the result document, as `ssdprobe report "
       "RESULT.json --html FILE` makes it; '-' writes it to standard output instead of the text report",
       TextField{&Options::html_path}},
      {"--prometheus", "FILE", "", "prometheus", kBoth | kAudit,
       "Also write the result as Prometheus metrics to FILE (text format, written to FILE.partial and renamed, "
       "as node_exporter's textfile collector needs; name it *.prom in the collector's directory): units, "
       "reported sizes, mismatches, audit findings, misalignment costs; on failure ssdprobe_up 0. Series: "
       "docs/monitoring.md",
       TextField{&Options::prometheus_path}},
      {"--budget", "SECONDS", "60", "budget_s", kCharacterize,
       "Stop sampling after this much device time (virtual time for sim: drives); stops earlier once the answer "
       "is settled. At most 1000000 (about 11.6 days)",
       SecondsField{&Options::budget_s}},
      {"--region", "OFFSET:LENGTH", "", "region", kCharacterize,
       "Probe only this byte range of the target, e.g. 1G:4G (LENGTH may be empty: to the end)", RegionField{&Options::region}},
      {"--engine", "auto|uring|psync|passthru", "auto", "engine", kCharacterize,
       "IO engine: uring (io_uring, registered buffers), psync (pread, queue depth 1), passthru (NVMe commands "
       "through io_uring on /dev/ngXnY, bypassing the block layer; needs CAP_SYS_ADMIN), or auto (uring, falling "
       "back to psync where io_uring is unavailable; passthru for /dev/ngXnY)",
       TextField{&Options::engine, validate_engine}},
      {"--qd", "N", "1", "queue_depth", kCharacterize,
       "Queue depth: reads kept in flight at once (1..256; psync allows only 1)", CountField{1, 256, &Options::queue_depth}},
      {"--max-qd", "N", "256", "max_queue_depth", kCharacterize,
       "Deepest queue the parallelism probe may use (1..256; the engine's own limit still applies). Lower it for a "
       "drive shared with other work or one that mishandles deep queues; 1 skips the parallelism probe",
       CountField{1, 256, &Options::max_queue_depth}},
      {"--spin-us", "N", "200", "spin_us", kCharacterize,
       "Poll for a completion for up to N microseconds before sleeping, while at most 8 IOs are in flight and "
       "recent completions came within N (0..10000; 0: always sleep). Polling keeps the process's own wake-up out "
       "of every latency and lets shallow queues run at the drive's pace; it keeps one CPU busy while it waits",
       CountField{0, 10000, &Options::spin_us}},
      {"--seed", "N", "1", "seed", kCharacterize,
       "Seed for every random choice (sample order, locations, simulated noise): same seed, same run", CountField{0, UINT64_MAX, nullptr, &Options::seed}},
      {"-q,--quiet", "", "", "quiet", kBoth | kRestore | kAudit | kPlot | kCompare | kReport | kFioJobs,
       "No progress on standard error",
       FlagField{&Options::quiet},
       {{kPlot, "No 'plot: wrote FILE' line on standard output (errors are still reported)"},
        {kReport, "No 'report: wrote FILE' line on standard output (errors and warnings are still printed)"},
        {kFioJobs, "No 'fio-jobs: wrote FILE' line on standard output (errors are still reported)"},
        {kCompare, "No progress on standard error (compare prints none); warnings about files it could not read "
                   "are always printed, since the comparison left them out"}}},
      {"--write", "", "", "write", kCharacterize,
       "Allow write probes (write unit, erase block). Writes stay inside --region (default: up to 256 MiB from the "
       "middle of the device, never its first or last MiB); the range is saved to a journal first and restored "
       "after, and a drive in use is refused. On a whole host-managed zoned device only empty zones are written, "
       "sequentially, and reset after",
       FlagField{&Options::write}},
      {"--yes", "", "", "yes", kCharacterize | kRestore,
       "Confirm --write (or restore: writing the journal back) without asking (for scripts)", FlagField{&Options::yes}},
      {"--cache-bytes", "SIZE", "16G", "cache_bytes", kCharacterize,
       "With --write: the most the SLC cache probe and the write grid inside the cache write together "
       "(rewriting the saved window, e.g. 64G; 0 skips both). It writes until the write speed drops and stays "
       "down; a cache larger than SIZE is reported as larger than what was written. On an NVMe, SATA, SAS, USB or SD "
       "drive (or a partition of one) it writes at most 1.2 times the drive's capacity (no SLC cache holds more), and a fill at a flat "
       "speed ends once a cache of a third of the drive would have shown",
       SizeField{&Options::cache_bytes}},
      {"--max-write-bytes", "SIZE", "20G", "max_write_bytes", kCharacterize,
       "With --write: the most the whole run writes, every write phase and the restore of the window included "
       "(e.g. 4G). The restore is reserved first; each write phase whose own upper bound does not fit in what is "
       "left is skipped with the reason, never cut short. The question before the first write states the cap. The "
       "default 20G lets a default run (at most 18.25 GiB) complete; a larger --cache-bytes or --region needs it "
       "raised",
       SizeField{&Options::max_write_bytes, true}},
      {"--journal", "DIR", "/var/lib/ssdprobe/journal", "journal_dir", kCharacterize,
       "Where --write saves the original content; must be on another filesystem than the target", TextField{&Options::journal_dir}},
      {"--no-preserve", "", "", "no_preserve", kCharacterize,
       "With --write: do not save and restore the range (scratch drives only: its content is destroyed)",
       FlagField{&Options::preserve, true}},
      {"--device", "PATH", "", "device", kRestore,
       "restore: the device to restore to, when it is no longer at the path in the journal (its path and device "
       "numbers are then not compared; size, serial, WWID, partition start and backing file still are)",
       TextField{&Options::device}},
      {"--forget", "", "", "forget", kRestore,
       "restore: instead of restoring JOURNAL, drop its entry from the index of pending journals once the journal is "
       "gone (its filesystem no longer mounted, or the file removed), so write runs stop waiting for it; it says "
       "what it forgets and asks first (--yes for scripts). Refused while the journal is there to restore",
       FlagField{&Options::forget}},
      {"--partial", "", "", "partial", kRestore,
       "restore: put back the complete records of a journal whose end was lost (the rest of its window must come "
       "from a backup); the journal is kept",
       FlagField{&Options::partial}},
      {"--force", "", "", "force", kBoth | kRestore | kAudit | kPlot | kCompare | kReport | kFioJobs,
       "Replace an existing output file that is not the kind ssdprobe writes there (a --json FILE that is not a "
       "result document, an --html FILE that is not a page ssdprobe wrote...), or a symbolic link at an output path "
       "(the link itself, never what it points to). Devices, FIFOs, sockets and directories are never written to "
       "unless named as a stream: '-', /dev/stdout, /dev/fd/N",
       FlagField{&Options::force},
       {{kRestore, "restore: write back a journal that is marked restored (an earlier restore was verified but could "
                   "not delete it), onto a window holding bytes that are neither the saved content nor ssdprobe's "
                   "test data (written since the run), or a version 1 journal (which records no backing file) where "
                   "the journal or the device has no serial to prove it is the same device; whatever was written to "
                   "the window since is overwritten"}}},
      {"--allow-ram-journal", "", "", "allow_ram_journal", kCharacterize,
       "Accept a --journal directory on tmpfs/ramfs, where a power loss loses the saved content (scratch machines "
       "only)",
       FlagField{&Options::allow_ram_journal}},
      {"--all-disks", "", "", "all_disks", kInfo | kAudit,
       "Every whole disk of this machine (NVMe, SCSI/SATA/USB/SAS, SD, virtio; not loop, md or device-mapper "
       "devices) instead of TARGET. audit: one report after another; with --prometheus one file holds them all. "
       "info: one table row per disk (model, transport, size, the kernel's block sizes, the units of the last "
       "run in --results, the worst finding of an audit of its layout); --json writes the rows as an array. A "
       "disk that cannot be listed or audited is reported and the others still are",
       FlagField{&Options::all_disks}},
      {"--results", "DIR", "", "results_dir", kInfo,
       "info --all-disks: a directory of saved result documents (--json of earlier runs, at any depth); each "
       "disk's row shows the units of the latest run of its serial",
       TextField{&Options::results_dir}},
      {"--units-from", "RESULT.json", "", "units_from", kAudit,
       "audit: check against the read page, write unit and erase block a saved result document (--json of an "
       "earlier run on this drive) measured, instead of only the block sizes the kernel reports",
       TextField{&Options::units_from}},
      {"--extents", "", "", "extents", kAudit,
       "audit: judge where a regular file's data lies on the disk (its extents) even when the file holds a "
       "partition table or a filesystem (a VM image on a mounted filesystem); without it such a file is audited "
       "as the disk image it is, and any other file or a directory by its extents",
       FlagField{&Options::extents}},
      {"--at", "OFFSETS", "", "at", kCharacterize | kAudit,
       "Also judge these disk offsets as layer starts, e.g. --at 32256,1536,1M: which units each misses and, "
       "after timing, what 4 KiB and page-sized IOs would cost there compared with an aligned start",
       TextField{&Options::at, validate_starts}},
      {"--fail-on", "error|warning|never", "", "fail_on", kCharacterize | kAudit,
       "Exit with code 8 (after the full report) when an audit finding or a mismatch of this severity or worse "
       "exists: error, warning, or never. Default: error for audit (as `parted align-check` fails on a "
       "misaligned partition), never for a run",
       TextField{&Options::fail_on, validate_fail_on}},
      {"--replay", "RESULT.json", "", "replay_of", kCharacterize,
       "Run again with the options a saved result document records (engine, budget, region, seed, queue depths, "
       "spin, cache bytes, --at, --fail-on), on its target unless TARGET is given; options given here win. "
       "--write, --yes, --journal and the output paths are never taken from the document",
       TextField{&Options::replay_of}},
  };
  return table;
}

void bind_options(CLI::App& app, RawOptions& raw, OptionScope scope) {
  for (const auto& spec : option_table()) {
    if ((spec.scope & scope) == 0) continue;
    std::string help = spec.help_for(scope);
    if (*spec.default_text) help += fmt::format(" [default: {}]", spec.default_text);
    if (spec.is_flag()) {
      app.add_flag_callback(spec.names, [&raw, key = spec.json_key] { raw.values[key] = "1"; }, help);
    } else {
      app.add_option_function<std::string>(spec.names, [&raw, key = spec.json_key](const std::string& value) {
           raw.given[key] = true;
           raw.values[key] = value;
         }, help)->type_name(spec.value_name);
    }
  }
}

void carry_options(const RawOptions& before, RawOptions& after, OptionScope scope, const std::string& subcommand) {
  for (const auto& [key, value] : before.values) {
    const OptionSpec* spec = nullptr;
    for (const auto& candidate : option_table()) {
      if (key == candidate.json_key) spec = &candidate;
    }
    if (spec == nullptr) continue;
    if ((spec->scope & scope) == 0) {
      throw Error(ErrorCategory::usage, fmt::format("{} does not apply to `ssdprobe {}`", long_name(*spec), subcommand));
    }
    const auto existing = after.values.find(key);
    if (existing != after.values.end() && existing->second != value) {
      throw Error(ErrorCategory::usage, fmt::format("{} is given twice, before and after `{}`, with different values",
                                                    long_name(*spec), subcommand));
    }
    after.values[key] = value;
    if (before.given.count(key)) after.given[key] = true;
  }
}

namespace {
// Options that change what a run measures or may write, which a suggested
// rerun must keep (not the outputs, --yes, --at or --fail-on: a rerun asks
// and writes its own).
bool shapes_measurement(std::string_view json_key) {
  static constexpr std::string_view kShaping[] = {"budget_s", "region", "engine", "queue_depth", "max_queue_depth",
                                                  "spin_us", "seed", "write", "cache_bytes", "max_write_bytes",
                                                  "journal_dir", "no_preserve", "allow_ram_journal"};
  return std::find(std::begin(kShaping), std::end(kShaping), json_key) != std::end(kShaping);
}
}  // namespace

Options resolve_options(const RawOptions& raw, OptionScope scope) {
  Options options;
  options.target = raw.target;
  for (const auto& spec : option_table()) {
    if ((spec.scope & scope) == 0) continue;
    const auto found = raw.values.find(spec.json_key);
    const std::string text = found != raw.values.end() ? found->second : spec.default_text;
    if (raw.given.count(spec.json_key) && text.empty()) {
      throw Error(ErrorCategory::usage, long_name(spec) + " needs a value");
    }
    options.echo.set(spec.json_key, apply(spec.field, options, long_name(spec), text));
    if (found != raw.values.end() && shapes_measurement(spec.json_key)) {
      options.shaping_args.emplace_back(long_name(spec), spec.is_flag() ? "" : found->second);
    }
  }
  if (!options.echo.contains("write")) options.echo.set("write", false);
  if ((scope & kCharacterize) && options.engine == "psync" && options.queue_depth > 1) {
    throw Error(ErrorCategory::usage, fmt::format("--qd {} with --engine psync: the psync engine does one IO at a "
                                                  "time (pread/pwrite), so its queue depth is 1; use --qd 1, or "
                                                  "--engine uring (or auto) for a deeper queue", options.queue_depth));
  }
  if (!options.write && (options.yes || !options.preserve) && (scope & kCharacterize)) {
    throw Error(ErrorCategory::usage, "--yes and --no-preserve only make sense with --write");
  }
  return options;
}

}  // namespace ssdprobe
