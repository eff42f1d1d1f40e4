// The command-line options through their public API, as the commands use it:
// bind_options() on a CLI11 app, app.parse(), then resolve_options().
// Defaults, value parsing, every refusal (a usage error naming the option and
// the value), flags, and which command takes which option.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "cli/options.h"
#include "core/error.h"
#include "run/run_options.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kGiB = 1ull << 30;

// What CLI11 collected for `args` (after the program name) in `scope`.
RawOptions parse_raw(const std::vector<std::string>& args, OptionScope scope = kCharacterize) {
  CLI::App app("options test", "ssdprobe");
  RawOptions raw;
  bind_options(app, raw, scope);
  std::vector<const char*> argv{"ssdprobe"};
  for (const auto& arg : args) argv.push_back(arg.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
  return raw;
}

Options parse(const std::vector<std::string>& args, OptionScope scope = kCharacterize) {
  return resolve_options(parse_raw(args, scope), scope);
}

std::string joined(const std::vector<std::string>& args) {
  std::string text;
  for (const auto& arg : args) text += (text.empty() ? "" : " ") + arg;
  return text;
}

}  // namespace

TEST_CASE("no options: the documented defaults", "[options]") {
  const Options o = parse({});
  CHECK(o.budget_s == 60.0);
  CHECK(o.queue_depth == 1u);
  CHECK(o.seed == 1u);
  CHECK(o.engine == "auto");
  CHECK(o.journal_dir == "/var/lib/ssdprobe/journal");
  CHECK(o.preserve);
  CHECK_FALSE(o.write);
  CHECK_FALSE(o.yes);
  CHECK_FALSE(o.quiet);
  CHECK(o.json_path.empty());
  CHECK(o.region.offset == 0u);
  CHECK(o.region.length == 0u);
  CHECK(o.device.empty());
}

TEST_CASE("the positional target collected by the command is carried over", "[options]") {
  RawOptions raw = parse_raw({"--qd", "2"});
  raw.target = "/dev/nvme0n1";
  const Options o = resolve_options(raw, kCharacterize);
  CHECK(o.target == "/dev/nvme0n1");
  CHECK(o.queue_depth == 2u);
}

TEST_CASE("each value option parses its value", "[options]") {
  SECTION("--budget") {
    CHECK(parse({"--budget", "90"}).budget_s == 90.0);
    CHECK(parse({"--budget", "0.5"}).budget_s == 0.5);
    CHECK(parse({"--budget=2.25"}).budget_s == 2.25);
  }
  SECTION("--qd, the whole range 1..256") {
    CHECK(parse({"--qd", "1"}).queue_depth == 1u);
    CHECK(parse({"--qd", "32"}).queue_depth == 32u);
    CHECK(parse({"--qd", "256"}).queue_depth == 256u);
  }
  SECTION("--seed, 0 to 2^64-1") {
    CHECK(parse({"--seed", "0"}).seed == 0u);
    CHECK(parse({"--seed", "42"}).seed == 42u);
    CHECK(parse({"--seed", "18446744073709551615"}).seed == UINT64_MAX);
  }
  SECTION("--engine, every engine name") {
    for (const char* name : {"auto", "uring", "io_uring", "psync", "passthru"}) {
      INFO(name);
      CHECK(parse({"--engine", name}).engine == name);
    }
  }
  SECTION("--region OFFSET:LENGTH with binary sizes") {
    const Region r = parse({"--region", "1G:4G"}).region;
    CHECK(r.offset == 1 * kGiB);
    CHECK(r.length == 4 * kGiB);
    const Region k = parse({"--region", "4k:16KiB"}).region;
    CHECK(k.offset == 4096u);
    CHECK(k.length == 16384u);
  }
  SECTION("--region OFFSET: runs to the end (length 0)") {
    const Region r = parse({"--region", "1G:"}).region;
    CHECK(r.offset == 1 * kGiB);
    CHECK(r.length == 0u);
  }
  SECTION("--json and --journal keep their text") {
    const Options o = parse({"--json", "out.json", "--journal", "/srv/journal"});
    CHECK(o.json_path == "out.json");
    CHECK(o.journal_dir == "/srv/journal");
    CHECK(parse({"--json", "-"}).json_path == "-");
  }
}

TEST_CASE("flags", "[options]") {
  CHECK(parse({"-q"}).quiet);
  CHECK(parse({"--quiet"}).quiet);
  CHECK(parse({"--write"}).write);
  const Options confirmed = parse({"--write", "--yes"});
  CHECK(confirmed.write);
  CHECK(confirmed.yes);
  CHECK(confirmed.preserve);
  const Options scratch = parse({"--write", "--no-preserve"});
  CHECK(scratch.write);
  CHECK_FALSE(scratch.preserve);
  CHECK_FALSE(scratch.yes);
}

TEST_CASE("options combine and each lands in its own field", "[options]") {
  const Options o = parse({"--budget", "15", "--region", "2G:1G", "--engine", "psync", "--qd", "1", "--seed", "7",
                           "-q", "--write", "--yes", "--no-preserve", "--journal", "/mnt/j", "--json", "r.json"});
  CHECK(o.budget_s == 15.0);
  CHECK(o.region.offset == 2 * kGiB);
  CHECK(o.region.length == 1 * kGiB);
  CHECK(o.engine == "psync");
  CHECK(o.queue_depth == 1u);
  CHECK(o.seed == 7u);
  CHECK(o.quiet);
  CHECK(o.write);
  CHECK(o.yes);
  CHECK_FALSE(o.preserve);
  CHECK(o.journal_dir == "/mnt/j");
  CHECK(o.json_path == "r.json");
}

TEST_CASE("every invalid value is a usage error naming the option and the value", "[options]") {
  struct Bad {
    std::vector<std::string> args;
    std::string names;  // the message must contain this
    std::string value;  // and this ("" = no value to name)
  };
  const std::vector<Bad> table{
      {{"--budget", "0"}, "--budget", "'0'"},
      {{"--budget=-1"}, "--budget", "'-1'"},
      {{"--budget", "abc"}, "--budget", "'abc'"},
      {{"--budget", "nan"}, "--budget", "'nan'"},
      {{"--budget", "inf"}, "--budget", "'inf'"},
      {{"--budget", "10s"}, "--budget", "'10s'"},
      {{"--qd", "0"}, "--qd", "'0'"},
      {{"--qd", "257"}, "--qd", "'257'"},
      {{"--qd", "x"}, "--qd", "'x'"},
      {{"--qd", "1.5"}, "--qd", "'1.5'"},
      {{"--seed=-1"}, "--seed", "'-1'"},
      {{"--seed", "18446744073709551616"}, "--seed", "'18446744073709551616'"},
      {{"--seed", "one"}, "--seed", "'one'"},
      {{"--engine", "floppy"}, "engine", "'floppy'"},
      {{"--engine", "URING"}, "engine", "'URING'"},
      {{"--region", "1G"}, "region", "'1G'"},
      {{"--region", "1G:0"}, "region", "'1G:0'"},
      {{"--region", "x:4G"}, "region", "'x'"},
      {{"--yes"}, "--yes", ""},
      {{"--no-preserve"}, "--no-preserve", ""},
      {{"--yes", "--no-preserve"}, "--write", ""},
      {{"--max-write-bytes", "0"}, "--max-write-bytes", "'0'"},
      {{"--max-write-bytes=-4G"}, "--max-write-bytes", "'-4G'"},
      {{"--max-write-bytes", "lots"}, "--max-write-bytes", "'lots'"},
      {{"--max-write-bytes", "4Q"}, "--max-write-bytes", "'4Q'"},
  };
  for (const auto& bad : table) {
    INFO(joined(bad.args));
    try {
      parse(bad.args);
      FAIL("accepted");
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.category() == ErrorCategory::usage);
      const std::string message = e.what();
      CHECK(message.find(bad.names) != std::string::npos);
      CHECK(message.find(bad.value) != std::string::npos);
    }
  }
}

TEST_CASE("a value option given an empty value is a usage error, not the default", "[options]") {
  for (const char* name : {"--budget", "--qd", "--seed", "--engine"}) {
    INFO(name);
    try {
      parse({name, ""});
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.category() == ErrorCategory::usage);
      CHECK(std::string(e.what()).find(name) != std::string::npos);
    }
  }
}

TEST_CASE("--yes and --no-preserve are accepted only with --write", "[options]") {
  CHECK_THROWS_AS(parse({"--yes"}), Error);
  CHECK_NOTHROW(parse({"--yes", "--write"}));
  CHECK_THROWS_AS(parse({"--no-preserve"}), Error);
  CHECK_NOTHROW(parse({"--no-preserve", "--write"}));
}

TEST_CASE("--engine psync with --qd above 1 is refused naming the engine as the reason", "[options]") {
  try {
    parse({"--engine", "psync", "--qd", "4"});
    FAIL("accepted --engine psync --qd 4");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::usage);
    CHECK(std::string(e.what()).find("the psync engine does one IO at a time") != std::string::npos);
  }
  CHECK_NOTHROW(parse({"--engine", "psync", "--qd", "1"}));
  CHECK_NOTHROW(parse({"--engine", "uring", "--qd", "4"}));
}

TEST_CASE("each command takes only its own options", "[options]") {
  SECTION("characterize: no restore --device") {
    CHECK_THROWS_AS(parse_raw({"--device", "/dev/sdb"}, kCharacterize), CLI::ParseError);
  }
  SECTION("info: only --json and --quiet") {
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--budget", "5"}, {"--region", "1G:1G"}, {"--engine", "psync"},
                                               {"--qd", "4"}, {"--seed", "3"}, {"--write"}, {"--yes"},
                                               {"--journal", "/j"}, {"--no-preserve"}, {"--device", "/dev/sdb"}}) {
      INFO(joined(args));
      CHECK_THROWS_AS(parse_raw(args, kInfo), CLI::ParseError);
    }
    const Options o = parse({"--json", "-", "-q"}, kInfo);
    CHECK(o.json_path == "-");
    CHECK(o.quiet);
  }
  SECTION("restore: --device and --quiet, no probe options") {
    const Options o = parse({"--device", "/dev/sdc", "--quiet"}, kRestore);
    CHECK(o.device == "/dev/sdc");
    CHECK(o.quiet);
    CHECK_FALSE(o.write);
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--budget", "5"}, {"--write"}, {"--json", "x.json"}}) {
      INFO(joined(args));
      CHECK_THROWS_AS(parse_raw(args, kRestore), CLI::ParseError);
    }
  }
  SECTION("an option nobody has") {
    CHECK_THROWS_AS(parse_raw({"--frobnicate"}, kCharacterize), CLI::ParseError);
  }
}

TEST_CASE("options before a subcommand are carried into it, or refused naming them") {
  RawOptions after = parse_raw({"--units-from", "r.json"}, kAudit);
  carry_options(parse_raw({"--json", "-", "-q"}), after, kAudit, "audit");
  const Options o = resolve_options(after, kAudit);
  CHECK(o.json_path == "-");
  CHECK(o.quiet);
  CHECK(o.units_from == "r.json");

  RawOptions info = parse_raw({}, kInfo);
  try {
    carry_options(parse_raw({"--write"}), info, kInfo, "info");
    FAIL("--write before info was accepted");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::usage);
    CHECK(std::string(e.what()).find("--write does not apply to `ssdprobe info`") != std::string::npos);
  }
  RawOptions twice = parse_raw({"--json", "b.json"}, kInfo);
  CHECK_THROWS_AS(carry_options(parse_raw({"--json", "a.json"}), twice, kInfo, "info"), Error);
  RawOptions same = parse_raw({"--json", "a.json"}, kInfo);
  CHECK_NOTHROW(carry_options(parse_raw({"--json", "a.json"}), same, kInfo, "info"));
}

TEST_CASE("an option's help says what it does in each command") {
  auto help = [](OptionScope scope, const std::string& name) {
    CLI::App app("options test", "ssdprobe");
    RawOptions raw;
    bind_options(app, raw, scope);
    return app.get_option(name)->get_description();
  };
  CHECK(help(kCharacterize, "--json").find("result document (schema ssdprobe/1)") != std::string::npos);
  CHECK(help(kInfo, "--json").find("result document (schema ssdprobe/1)") != std::string::npos);
  CHECK(help(kCompare, "--json").find("comparison (schema ssdprobe-compare/1") != std::string::npos);
  CHECK(help(kCompare, "--json").find("result document") == std::string::npos);
  CHECK(help(kCharacterize, "--quiet") == "No progress on standard error");
  CHECK(help(kPlot, "--quiet").find("plot: wrote") != std::string::npos);
  CHECK(help(kCompare, "--quiet").find("warnings") != std::string::npos);
  // -q is all plot takes from the table; compare takes --json and -q.
  CHECK(parse({"-q"}, kPlot).quiet);
  CHECK(parse({"--quiet", "--json", "-"}, kCompare).json_path == "-");
  CHECK_THROWS_AS(parse_raw({"--json", "x.json"}, kPlot), CLI::ParseError);
  CHECK_THROWS_AS(parse_raw({"--budget", "5"}, kCompare), CLI::ParseError);
}

TEST_CASE("--at keeps each offset once, in the order first given", "[options]") {
  // 4096 and 4k are one offset: audited, timed and exported once.
  CHECK(parse_starts("4096,4096,4k") == std::vector<uint64_t>{4096});
  CHECK(parse_starts("1M,32256,4k,1048576,32256,4096,1 MiB") == std::vector<uint64_t>{1048576, 32256, 4096});
  CHECK(parse_starts("1536") == std::vector<uint64_t>{1536});
  CHECK(parse_starts("").empty());
  CHECK_THROWS_AS(parse_starts("4k,,4k"), Error);  // an empty item is still refused
}

TEST_CASE("--max-write-bytes: 20 GiB by default, a size with a suffix, kept for reruns", "[options]") {
  CHECK(parse({}).max_write_bytes == 20 * kGiB);
  const Options o = parse({"--max-write-bytes", "4G"});
  CHECK(o.max_write_bytes == 4 * kGiB);
  const std::pair<std::string, std::string> kept{"--max-write-bytes", "4G"};
  CHECK(std::find(o.shaping_args.begin(), o.shaping_args.end(), kept) != o.shaping_args.end());
}
