// Reads many result documents into DocumentSummary values, on a few threads.
// A document that cannot be used (unreadable, not JSON, cut short, not a
// result document, another major schema version) is skipped with a warning
// naming the file: one bad file in a fleet folder must not stop the rest.
#pragma once

#include <string>
#include <vector>

#include "compare/document_summary.h"

namespace ssdprobe {

struct FleetRead {
  std::vector<DocumentSummary> documents;  // in the order of `files`, skipped ones left out
  std::vector<std::string> warnings;       // one per skipped file, in the order of `files`
};

// `threads` is clamped to 1..the number of files. Each thread reads with
// GridDetail::medians and keeps only the summary.
FleetRead read_fleet(const std::vector<std::string>& files, unsigned threads);

}  // namespace ssdprobe
