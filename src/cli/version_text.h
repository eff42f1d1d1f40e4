// --version's text. A library of its own (src/cli/meson.build): the git
// revision is a header generated on every build, and the file that includes
// it is then the only one recompiled after a commit, not the whole cli layer.
#pragma once

#include <string>

namespace ssdprobe {

// "ssdprobe 0.1.0 (git v0.1.0-12-g4551963abcde)", or without the revision
// when it was not built from a git checkout.
std::string version_text();

}  // namespace ssdprobe
