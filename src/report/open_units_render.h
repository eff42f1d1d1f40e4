// The open-units probe's part of the result document: detected.open_units
// (docs/result-json.md, "detected.open_units") and its lines in the text
// report's evidence.
#pragma once

#include <nlohmann/json.hpp>
#include <cstddef>
#include <string>

#include "report/result.h"

namespace ssdprobe {

nlohmann::ordered_json open_units_json(const OpenUnitsSection& section);
// "2 streams (2 to 2)", "none up to 16 streams", "not determined": the
// answer in a few words, as the verdict and the evidence name it.
std::string open_units_answer(const OpenUnitsVerdict& verdict);
// The evidence lines (nothing when the probe did not run), folded to `width`.
void open_units_text(std::string& out, const OpenUnitsSection& section, size_t width);

}  // namespace ssdprobe
