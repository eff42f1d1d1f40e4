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

}  // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table{
      {"--json", "FILE", OptionKind::text, "", "json", kBoth,
       "Write the result document (schema ssdprobe/1) to FILE; '-' writes it to standard output instead of the "
       "text report"},
      {"--budget", "SECONDS", OptionKind::seconds, "60", "budget_s", kCharacterize,
       "Stop sampling after this much device time (virtual time for sim: drives); stops earlier once the answer "
       "is settled"},
      {"--region", "OFFSET:LENGTH", OptionKind::size_region, "", "region", kCharacterize,
       "Probe only this byte range of the target, e.g. 1G:4G (LENGTH may be empty: to the end)"},
      {"--engine", "NAME", OptionKind::engine, "auto", "engine", kCharacterize,
       "IO engine: uring (io_uring, registered buffers), psync (pread, queue depth 1), or auto (uring, falling "
       "back to psync where io_uring is unavailable)"},
      {"--qd", "N", OptionKind::count, "1", "queue_depth", kCharacterize,
       "Queue depth: reads kept in flight at once (1..256; psync allows only 1)"},
      {"--seed", "N", OptionKind::count, "1", "seed", kCharacterize,
       "Seed for every random choice (sample order, locations, simulated noise): same seed, same run"},
      {"-q,--quiet", "", OptionKind::flag, "", "quiet", kBoth, "No progress on standard error"},
  };
  return table;
}

void bind_options(CLI::App& app, RawOptions& raw, OptionScope scope) {
  for (const auto& spec : option_table()) {
    if ((spec.scope & scope) == 0) continue;
    std::string help = spec.help;
    if (*spec.default_text) help += fmt::format(" [default: {}]", spec.default_text);
    if (spec.kind == OptionKind::flag) {
      app.add_flag_callback(spec.names, [&raw, key = spec.json_key] { raw.flags[key] = true; }, help);
    } else {
      app.add_option_function<std::string>(spec.names, [&raw, key = spec.json_key](const std::string& value) {
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
    const std::string name = long_name(spec);
    const std::string key = spec.json_key;
    const auto found = raw.values.find(key);
    const std::string text = found != raw.values.end() ? found->second : spec.default_text;
    switch (spec.kind) {
      case OptionKind::flag:
        options.quiet = raw.flags.count(key) > 0;
        options.echo[key] = options.quiet;
        break;
      case OptionKind::text:
        options.json_path = text;
        if (found != raw.values.end() && text.empty()) throw Error(ErrorCategory::usage, name + " needs a file name");
        options.echo[key] = text.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(text);
        break;
      case OptionKind::seconds:
        options.budget_s = parse_seconds(name, text);
        options.echo[key] = options.budget_s;
        break;
      case OptionKind::size_region:
        if (!text.empty()) options.region = parse_region(text);
        options.echo[key] = text.empty() ? nlohmann::ordered_json(nullptr)
                                         : nlohmann::ordered_json{{"offset", options.region.offset}, {"length", options.region.length}};
        break;
      case OptionKind::engine:
        parse_engine(text);
        options.engine = text;
        options.echo[key] = text;
        break;
      case OptionKind::count:
        if (key == "queue_depth") {
          options.queue_depth = static_cast<uint32_t>(parse_count(name, text, 1, 256));
          options.echo[key] = options.queue_depth;
        } else {
          options.seed = parse_count(name, text, 0, UINT64_MAX);
          options.echo[key] = options.seed;
        }
        break;
    }
  }
  options.echo["write"] = false;
  return options;
}

}  // namespace ssdprobe
