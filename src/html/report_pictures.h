// The pictures of the one-run report: one place that says which pictures a
// document gets, so a new kind of picture is one more entry here.
#pragma once

#include <string>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

struct ReportPicture {
  std::string id;       // the element id on the page: "picture-read"
  std::string title;    // "Read latency"
  std::string caption;  // what the picture shows and how to read it (plain text)
  std::string svg;      // the inline <svg> element; empty when it could not be drawn
  std::string missing;  // why there is no svg (plain text), e.g. gnuplot is not installed
  // false: the document has no data for this picture (no --write, no audit):
  // the page says so in a line, and it is no missing picture.
  bool available = true;
};

// The read grid folded at its unit, then the heatmap of every grid the
// document has (the read grid, and with --write the write grid, the write
// grid inside the SLC cache and the re-read of the written window when they
// ran), then for a timed run the charts of plot/charts.h (queue depth, erase
// stream, SLC cache, misalignment costs), those without data marked not
// available. The document must be read with GridDetail::full and
// ChartData::read. Never throws Error for a picture that cannot be drawn: its
// `missing` says why.
std::vector<ReportPicture> report_pictures(const SavedResult& document);

}  // namespace ssdprobe
