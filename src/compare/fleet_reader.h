// Reads many result documents on a few threads. A document that cannot be
// used (unreadable, not JSON, cut short, not a result document, another
// major schema version) is skipped with a warning naming the file: one bad
// file in a fleet folder must not stop the rest.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compare/document_summary.h"

namespace ssdprobe {

// What a reader thread keeps of one document for the caller.
struct ReadDocument {
  std::optional<DocumentSummary> summary;  // with FleetReading::summaries
  std::string row;                         // with FleetReading::rows: its `compare --ndjson` line
  std::string warning;                     // skipped: why, starting with the file name
};

struct FleetReading {
  bool summaries = true;  // for a comparison (reads the grids' medians for the key cells)
  bool rows = false;      // for --ndjson (reads SavedRowFacts)
};

// Reads `files` on `threads` reader threads and hands each document to
// `take` on the calling thread, in the order of `files`. At most a small
// window of documents (a few per thread) is held at any time, so memory does
// not grow with the fleet: what `take` keeps is the caller's choice. An
// exception from `take` stops the readers and is rethrown.
void stream_fleet(const std::vector<std::string>& files, unsigned threads, FleetReading what,
                  const std::function<void(ReadDocument&)>& take);

struct FleetRead {
  std::vector<DocumentSummary> documents;  // in the order of `files`, skipped ones left out
  std::vector<std::string> warnings;       // one per skipped file, in the order of `files`
};

// stream_fleet keeping every summary. `threads` is clamped to 1..the number
// of files.
FleetRead read_fleet(const std::vector<std::string>& files, unsigned threads);

}  // namespace ssdprobe
