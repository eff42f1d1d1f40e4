// `ssdprobe plot --picture NAME`: the pictures besides the heatmap, each
// drawn from saved result documents (read with ChartData::read):
//   queue-depth   IOPS and p99 latency against queue depth, knee and plateau
//                 marked (parallelism_probe, write_parallelism_probe);
//   erase-block   the erase stream's write latency over its offsets, stalls
//                 and the found period marked (write_probe.stream);
//   misalignment  the audit's cost ratios per audited start (audit.checks[].costs);
//   slc-cache     write speed over bytes written, the cache size marked
//                 (detected.slc_cache.curve).
// Also the API of the one-run HTML report: whether a document can give a
// picture, and the picture as SVG text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plot/chart_model.h"
#include "plot/heatmap_render.h"  // ImageFormat
#include "report/saved_result.h"

namespace ssdprobe {

// "queue-depth", "erase-block", "misalignment", "slc-cache".
const char* chart_kind_name(ChartKind kind);
std::optional<ChartKind> chart_kind_named(std::string_view name);
std::vector<ChartKind> all_chart_kinds();

// Why `document` cannot give this picture, starting with the file name
// ("tlc.json: has no write_probe.stream (run with --write)"); nullopt when
// it can. The document must have been read with ChartData::read.
std::optional<std::string> chart_unavailable_reason(const SavedResult& document, ChartKind kind);

// The chart's numbers: one panel per document (queue-depth: per document and
// op). Throws Error(target) with chart_unavailable_reason's message for the
// first document that cannot give it, Error(usage) for no documents.
Chart build_chart(const std::vector<SavedResult>& documents, ChartKind kind);

// The chart drawn by gnuplot: SVG text (its <title> is the chart's title) for
// a page that inlines it, or an image file's bytes. Throw like build_chart, and
// Error(unsupported) when gnuplot is missing or fails.
std::string render_chart_svg(const Chart& chart);
std::string render_chart_svg(const std::vector<SavedResult>& documents, ChartKind kind);
std::string render_chart_image(const Chart& chart, ImageFormat format);

// The numbers drawn, as text (OUT.dat next to the image): per panel a
// "# panel N: TITLE" line, then per series "# series NAME" and "x y" (or
// "x y low high") rows, and per reference line "# line LABEL at X" (vertical)
// or "# line LABEL y= Y"; labels as "# label TEXT at X Y".
std::string chart_data_text(const Chart& chart);

}  // namespace ssdprobe
