// The option layer from untrusted text: resolve_options on RawOptions built
// from the input, as CLI11 would have collected them.
//
// Input: byte 0 picks the scope (characterize, info, both, restore...); the
// rest, split on NUL, is TARGET, then KEY, VALUE pairs. A KEY starting with
// '+' is also marked "given" (a value option that appeared on the command
// line). A one-byte KEY names the option table's entry at that index
// (modulo its size), so the fuzzer reaches every option without guessing its
// JSON key; longer keys are used as they are (tests/fuzz/options.dict lists
// the real ones).
#include <cmath>
#include <string>
#include <vector>

#include "cli/options.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static constexpr unsigned kScopes[] = {kCharacterize, kInfo, kBoth, kRestore, kRestore | kCharacterize,
                                         kRestore | kInfo, kRestore | kBoth};
  const auto scope = static_cast<OptionScope>(kScopes[data[0] % std::size(kScopes)]);
  std::vector<std::string> tokens(1);
  for (size_t i = 1; i < size; ++i) {
    if (data[i] == 0) {
      tokens.emplace_back();
    } else {
      tokens.back().push_back(static_cast<char>(data[i]));
    }
  }
  const auto& table = option_table();
  RawOptions raw;
  raw.target = tokens[0];
  for (size_t i = 1; i + 1 < tokens.size(); i += 2) {
    std::string key = tokens[i];
    bool given = false;
    if (!key.empty() && key[0] == '+') {
      given = true;
      key.erase(0, 1);
    }
    if (key.size() == 1) key = table[static_cast<unsigned char>(key[0]) % table.size()].json_key;
    raw.values[key] = tokens[i + 1];
    if (given) raw.given[key] = true;
  }
  fuzz::expect_rejection([&] {
    const Options options = resolve_options(raw, scope);
    FUZZ_CHECK(options.target == raw.target);
    FUZZ_CHECK(options.queue_depth >= 1 && options.queue_depth <= 256);
    FUZZ_CHECK(std::isfinite(options.budget_s) && options.budget_s > 0.0);
    fuzz::keep(options.region_given());
    fuzz::keep(options.echo);
  });
  return 0;
}
