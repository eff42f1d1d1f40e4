// The lines ssdprobe's fio job builder (report/fio_jobs.h) writes: blank, a
// "# " comment, one of its sections, or one of its options. Any other line
// came from a string in the document, which a crafted document could use to
// add a section or an option such as exec_prerun= (fio runs it even with
// --readonly). Shared by the unit tests and the shell_commands fuzz target.
#pragma once

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace test_support {

// The lines of `text` that the builder does not write, each as
// "LINE_NUMBER: LINE".
inline std::vector<std::string> foreign_fio_lines(const std::string& text) {
  static const std::set<std::string> sections{"[global]",  "[read-aligned]", "[read-straddle]", "[qd-below]",
                                              "[qd-knee]", "[qd-above]",     "[qd-deepest]",    "[write-partial]",
                                              "[write-unit]"};
  static const std::set<std::string> options{
      "filename",   "ioengine",   "cmd_type", "registerfiles", "fixedbufs",        "direct",          "time_based",
      "runtime",    "randrepeat", "randseed", "norandommap",   "random_generator", "lat_percentiles", "stonewall",
      "rw",         "bs",         "blockalign", "iodepth",     "offset",           "size"};
  std::vector<std::string> foreign;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line.starts_with("# ")) continue;
    const bool ours = line[0] == '[' ? sections.count(line) == 1 : options.count(line.substr(0, line.find('='))) == 1;
    if (!ours) foreign.push_back(std::to_string(n) + ": " + line);
  }
  return foreign;
}

}  // namespace test_support
