// The human report printed on standard output.
#pragma once

#include <string>

#include "report/result.h"

namespace ssdprobe {

std::string render_text(const ResultDocument& document);

}  // namespace ssdprobe
