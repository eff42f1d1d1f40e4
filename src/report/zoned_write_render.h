// The zone-safe write probe's part of the result document: `zoned_write`
// (docs/result-json.md, "zoned_write") and the text report's "Zoned writes"
// block.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/result.h"

namespace ssdprobe {

// null when the run did not take the zone-safe path.
nlohmann::ordered_json zoned_write_json(const std::optional<ZonedWriteSection>& section);
// Nothing when absent; folded to `width` columns.
void zoned_write_text(std::string& out, const std::optional<ZonedWriteSection>& section, size_t width);

}  // namespace ssdprobe
