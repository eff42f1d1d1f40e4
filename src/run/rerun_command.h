// The one rerun a verdict may suggest, as a command that can be pasted: the
// run's own options that shape what it measures (--region, --write, --qd,
// --cache-bytes... as given), with the changes that would tell what the run
// did not, and the target. Built as an argument list and quoted when
// rendered (core/shell_command.h): the target is a path from the user.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ssdprobe {

// {"--budget", "120"}; a flag has an empty value: {"--write", ""}.
using CommandOption = std::pair<std::string, std::string>;

// `ssdprobe OPTIONS TARGET`: `kept` in their order with each of `changes`
// replacing the option of the same spelling, the rest of `changes` after.
std::string rerun_command(const std::vector<CommandOption>& kept, const std::vector<CommandOption>& changes,
                          const std::string& target);

}  // namespace ssdprobe
