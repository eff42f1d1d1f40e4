// The parallelism probe's part of the result document: the four verdicts
// under detected.parallelism and the measured sweep as parallelism_probe
// (docs/result-json.md, "detected.parallelism" and "parallelism_probe"),
// and the text report's "Parallelism" block.
#pragma once

#include <nlohmann/json.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "report/result.h"

namespace ssdprobe {

// Sets document["detected"]["parallelism"] and document["parallelism_probe"]
// (null when the probe did not run: every verdict is then not_measured).
void add_parallelism_json(nlohmann::ordered_json& document, const std::optional<ParallelismSection>& section);
// The write sweep (--write): document["detected"]["write_parallelism"] and
// document["write_parallelism_probe"]; not_measured and null without it
// (`timed`: the run timed IO, so only --write was missing).
void add_write_parallelism_json(nlohmann::ordered_json& document, const std::optional<ParallelismSection>& section,
                                bool timed);
// Folded to `width` columns (report/text_wrap.h). The section's title
// says whether reads or writes (inside the write window) were timed.
void parallelism_text(std::string& out, const std::optional<ParallelismSection>& section, size_t width);

}  // namespace ssdprobe
