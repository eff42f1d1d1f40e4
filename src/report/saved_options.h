// The options a saved result document records (docs/result-json.md
// "options"), as the text a command line gives them, so `ssdprobe --replay
// RESULT.json` runs again with them. Which keys are replayed is the command
// layer's choice; this only reads and spells them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdprobe {

struct SavedOptions {
  std::string target;  // options.target ("" when absent)
  bool write = false;  // options.write
  bool timed = false;  // a characterization (`run` is not null), not an `info` or `audit` document
  // json key -> the option's text ("1073741824:2147483648" for a region,
  // "5" for a budget of 5 s), for each of the keys asked for that the
  // document holds with a value (absent and null keys are left out).
  std::vector<std::pair<std::string, std::string>> values;
};

// Throws Error(target) naming `name` for text that is not a JSON object with
// an `options` object, or a key asked for whose value has a type the
// option cannot have (a region that is not {offset, length}...).
SavedOptions read_saved_options(std::string_view document_text, const std::string& name,
                                const std::vector<std::string>& keys);

}  // namespace ssdprobe
