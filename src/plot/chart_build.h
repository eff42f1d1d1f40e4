// The chart builders behind plot/charts.h, one source each, and what they
// share (colours, verdict words, axis helpers). Internal to src/plot.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plot/chart_model.h"
#include "plot/unit_words.h"  // unit_verdict, for the chart titles
#include "report/saved_result.h"

namespace ssdprobe {

inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;  // a chart's MiB axes

// A document's name in a panel title: its model, else its target path.
std::string drive_name(const SavedResult& document);
// "file.json: WHY" as an Error(target) (exit 3).
[[noreturn]] void refuse_document(const SavedResult& document, const std::string& why);
// The i-th series colour (a colour-blind-safe cycle).
std::string series_colour(size_t i);

// An audited start's name: its layer ("partition 1 (/dev/sda1)"), else its field.
std::string printable_layer(const SavedCostedStart& start);

// Each returns nullopt or the reason (without the file name).
std::optional<std::string> queue_depth_missing(const SavedResult& document);
std::optional<std::string> erase_block_missing(const SavedResult& document);
std::optional<std::string> misalignment_missing(const SavedResult& document);
std::optional<std::string> slc_cache_missing(const SavedResult& document);

// Each expects documents that have the data (checked by build_chart).
Chart queue_depth_chart(const std::vector<SavedResult>& documents);
Chart erase_block_chart(const std::vector<SavedResult>& documents);
Chart misalignment_chart(const std::vector<SavedResult>& documents);
Chart slc_cache_chart(const std::vector<SavedResult>& documents);

}  // namespace ssdprobe
