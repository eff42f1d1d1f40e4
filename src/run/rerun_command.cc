#include "run/rerun_command.h"

#include <algorithm>

#include "core/shell_command.h"

namespace ssdprobe {

std::string rerun_command(const std::vector<CommandOption>& kept, const std::vector<CommandOption>& changes,
                          const std::string& target) {
  std::vector<CommandOption> options = kept;
  for (const CommandOption& change : changes) {
    auto same = std::find_if(options.begin(), options.end(),
                             [&](const CommandOption& o) { return o.first == change.first; });
    if (same != options.end()) same->second = change.second;
    else options.push_back(change);
  }
  ShellCommand command{{"ssdprobe"}};
  for (const auto& [spelling, value] : options) {
    command.argv.push_back(spelling);
    if (!value.empty()) command.argv.push_back(value);
  }
  command.argv.push_back(target);
  return render_command(command);
}

}  // namespace ssdprobe
