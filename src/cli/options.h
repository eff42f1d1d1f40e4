// Every command-line option, declared once as data. The table drives the
// CLI11 parser, --help, validation and the echo of options in the result
// document, so the four can never disagree.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/units.h"
#include "run/run_options.h"

namespace ssdprobe {

// Which commands take an option.
enum OptionScope : unsigned { kCharacterize = 1, kInfo = 2, kBoth = 3, kRestore = 4, kAudit = 8, kPlot = 16, kCompare = 32,
                         kReport = 64, kFioJobs = 128 };

// Where an option's value goes and how its text is read. One of these per
// option replaces a parse-and-store function per option: the kind decides
// the parsing, the member pointer the destination.
struct FlagField {
  bool Options::*member;
  bool inverted = false;  // --no-preserve stores false into `preserve`
};
struct TextField {
  std::string Options::*member;
  void (*validate)(const std::string& text) = nullptr;  // throws Error(usage)
};
struct SecondsField {
  double Options::*member;  // a positive, finite number
};
struct CountField {
  uint64_t low, high;  // inclusive range
  uint32_t Options::*member32 = nullptr;  // exactly one of these is set
  uint64_t Options::*member64 = nullptr;
};
struct RegionField {
  Region Options::*member;  // OFFSET:LENGTH (core/units.h)
};
struct SizeField {
  uint64_t Options::*member;  // bytes, with a suffix (core/units.h parse_size): 16G, 512M
  bool positive = false;      // 0 is refused (a cap of nothing is a mistake, not a way to skip)
};
using OptionField = std::variant<FlagField, TextField, SecondsField, CountField, RegionField, SizeField>;

struct OptionSpec {
  const char* names;        // CLI11 name list: "-q,--quiet"
  const char* value_name;   // "SECONDS"; empty for flags
  const char* default_text; // shown in help and used when absent; empty = none
  const char* json_key;     // key in the result's "options"
  unsigned scope;
  const char* help;
  OptionField field;
  // Help for the scopes where the option means something else (compare's
  // --json writes the comparison, not a result document); `help` elsewhere.
  std::vector<std::pair<unsigned, const char*>> help_by_scope = {};
  bool is_flag() const { return std::holds_alternative<FlagField>(field); }
  const char* help_for(unsigned scope) const;
};

const std::vector<OptionSpec>& option_table();

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

// Options written before a subcommand (`ssdprobe --json F info TARGET`) mean
// the same as after it: moved from `before` into `after`. One the subcommand
// does not take, or one given on both sides with different values, throws
// Error(usage) naming it and the subcommand.
void carry_options(const RawOptions& before, RawOptions& after, OptionScope scope, const std::string& subcommand);

}  // namespace ssdprobe
