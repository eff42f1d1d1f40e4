// Which files a comparison reads: the result documents named on the command
// line, and every *.json under the directories named there (a fleet's shared
// results folder), in a stable order.
#pragma once

#include <string>
#include <vector>

namespace ssdprobe {

struct FleetFiles {
  std::vector<std::string> documents;  // sorted by path, each once
  std::vector<std::string> warnings;   // unreadable directories, named operands that do not exist
};

// Directories are walked recursively (symlinked directories are not
// followed, so a loop cannot make the walk endless); files named directly
// are taken whatever their extension.
FleetFiles find_fleet_files(const std::vector<std::string>& operands);

}  // namespace ssdprobe
