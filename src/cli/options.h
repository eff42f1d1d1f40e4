// Every command-line option, declared once as data. The table drives the
// CLI11 parser, --help, validation and the echo of options in the result
// document, so the four can never disagree.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/units.h"

namespace ssdprobe {

// Which commands take an option.
enum OptionScope : unsigned { kCharacterize = 1, kInfo = 2, kBoth = 3, kRestore = 4 };

struct Options;

struct OptionSpec {
  const char* names;        // CLI11 name list: "-q,--quiet"
  const char* value_name;   // "SECONDS"; empty for flags
  const char* default_text; // shown in help and used when absent; empty = none
  const char* json_key;     // key in the result's "options"
  unsigned scope;
  const char* help;
  // Parses `text` (the value, or the default; "1" for a given flag, "" for an
  // absent one) into `options` and returns the value to echo. Throws
  // Error(usage) naming the option.
  nlohmann::ordered_json (*apply)(Options& options, const std::string& name, const std::string& text);
  bool is_flag() const { return *value_name == '\0'; }
};

const std::vector<OptionSpec>& option_table();

// Parsed and validated option values.
struct Options {
  std::string target;
  std::string json_path;          // empty = no JSON
  double budget_s = 60.0;
  Region region;
  std::string engine = "auto";
  uint32_t queue_depth = 1;
  uint64_t seed = 1;
  bool quiet = false;
  bool write = false;             // write probes allowed
  bool yes = false;               // confirmation given on the command line
  bool preserve = true;           // journal and restore the written range
  std::string journal_dir = "/var/lib/ssdprobe/journal";
  std::string device;             // restore: the device, when it moved

  nlohmann::ordered_json echo;            // every option in effect, keyed by json_key
};

// Raw strings as CLI11 collected them, one map per command.
struct RawOptions {
  std::map<std::string, std::string> values;  // json_key -> text ("1" for a given flag)
  std::map<std::string, bool> given;          // json_key -> a value option appeared
  std::string target;
};

// Adds the options of `scope` to `app`, storing into `raw`.
void bind_options(CLI::App& app, RawOptions& raw, OptionScope scope);
// Converts and validates; throws Error(usage) naming the option and value.
Options resolve_options(const RawOptions& raw, OptionScope scope);

}  // namespace ssdprobe
