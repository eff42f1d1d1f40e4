#include "cli/options.h"

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

double parse_seconds(const std::string& name, const std::string& text) {
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0) {
    throw Error(ErrorCategory::usage, fmt::format("invalid {} '{}': expected a positive number of seconds", name, text));
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

using ordered_json = nlohmann::ordered_json;

ordered_json apply_json(Options& o, const std::string&, const std::string& text) {
  o.json_path = text;
  return text.empty() ? ordered_json(nullptr) : ordered_json(text);
}

ordered_json apply_budget(Options& o, const std::string& name, const std::string& text) {
  o.budget_s = parse_seconds(name, text);
  return o.budget_s;
}

ordered_json apply_region(Options& o, const std::string&, const std::string& text) {
  if (text.empty()) return nullptr;
  o.region = parse_region(text);
  return {{"offset", o.region.offset}, {"length", o.region.length}};
}

ordered_json apply_engine(Options& o, const std::string&, const std::string& text) {
  parse_engine(text);  // validates
  o.engine = text;
  return text;
}

ordered_json apply_queue_depth(Options& o, const std::string& name, const std::string& text) {
  o.queue_depth = static_cast<uint32_t>(parse_count(name, text, 1, 256));
  return o.queue_depth;
}

ordered_json apply_seed(Options& o, const std::string& name, const std::string& text) {
  o.seed = parse_count(name, text, 0, UINT64_MAX);
  return o.seed;
}

ordered_json apply_quiet(Options& o, const std::string&, const std::string& text) {
  o.quiet = !text.empty();
  return o.quiet;
}

ordered_json apply_write(Options& o, const std::string&, const std::string& text) {
  o.write = !text.empty();
  return o.write;
}

ordered_json apply_yes(Options& o, const std::string&, const std::string& text) {
  o.yes = !text.empty();
  return o.yes;
}

ordered_json apply_no_preserve(Options& o, const std::string&, const std::string& text) {
  o.preserve = text.empty();
  return !o.preserve;
}

ordered_json apply_journal(Options& o, const std::string&, const std::string& text) {
  o.journal_dir = text;
  return text;
}

ordered_json apply_device(Options& o, const std::string&, const std::string& text) {
  o.device = text;
  return text.empty() ? ordered_json(nullptr) : ordered_json(text);
}

}  // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table{
      {"--json", "FILE", "", "json", kBoth,
       "Write the result document (schema ssdprobe/1) to FILE; '-' writes it to standard output instead of the "
       "text report",
       apply_json},
      {"--budget", "SECONDS", "60", "budget_s", kCharacterize,
       "Stop sampling after this much device time (virtual time for sim: drives); stops earlier once the answer "
       "is settled",
       apply_budget},
      {"--region", "OFFSET:LENGTH", "", "region", kCharacterize,
       "Probe only this byte range of the target, e.g. 1G:4G (LENGTH may be empty: to the end)", apply_region},
      {"--engine", "NAME", "auto", "engine", kCharacterize,
       "IO engine: uring (io_uring, registered buffers), psync (pread, queue depth 1), passthru (NVMe commands "
       "through io_uring on /dev/ngXnY, bypassing the block layer; needs CAP_SYS_ADMIN), or auto (uring, falling "
       "back to psync where io_uring is unavailable; passthru for /dev/ngXnY)",
       apply_engine},
      {"--qd", "N", "1", "queue_depth", kCharacterize,
       "Queue depth: reads kept in flight at once (1..256; psync allows only 1)", apply_queue_depth},
      {"--seed", "N", "1", "seed", kCharacterize,
       "Seed for every random choice (sample order, locations, simulated noise): same seed, same run", apply_seed},
      {"-q,--quiet", "", "", "quiet", kBoth | kRestore, "No progress on standard error", apply_quiet},
      {"--write", "", "", "write", kCharacterize,
       "Allow write probes (write unit, erase block). Writes stay inside --region (default: up to 256 MiB from the "
       "middle of the device, never its first or last MiB); the range is saved to a journal first and restored "
       "after, and a drive in use is refused",
       apply_write},
      {"--yes", "", "", "yes", kCharacterize, "Confirm --write without asking (for scripts)", apply_yes},
      {"--journal", "DIR", "/var/lib/ssdprobe/journal", "journal_dir", kCharacterize,
       "Where --write saves the original content; must be on another filesystem than the target", apply_journal},
      {"--no-preserve", "", "", "no_preserve", kCharacterize,
       "With --write: do not save and restore the range (scratch drives only: its content is destroyed)",
       apply_no_preserve},
      {"--device", "PATH", "", "device", kRestore,
       "restore: the device to restore to, when it is no longer at the path in the journal", apply_device},
  };
  return table;
}

void bind_options(CLI::App& app, RawOptions& raw, OptionScope scope) {
  for (const auto& spec : option_table()) {
    if ((spec.scope & scope) == 0) continue;
    std::string help = spec.help;
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
    options.echo[spec.json_key] = spec.apply(options, long_name(spec), text);
  }
  if (!options.echo.contains("write")) options.echo["write"] = false;
  if (!options.write && (options.yes || !options.preserve) && (scope & kCharacterize)) {
    throw Error(ErrorCategory::usage, "--yes and --no-preserve only make sense with --write");
  }
  return options;
}

}  // namespace ssdprobe
