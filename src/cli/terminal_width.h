// The width text output is folded to: the report's long lines and --help.
#pragma once

#include <cstddef>

namespace ssdprobe {

// COLUMNS when it holds a sensible number (so a user, or a test, can ask for
// a width), else the window size of `fd` when it is a terminal, else 100: a
// report saved to a file is read in editors and pagers wider than 80
// columns, which do not re-fold lines, and 100 keeps each line readable
// there while evidence stays a few lines long.
size_t text_width_for(int fd);

}  // namespace ssdprobe
