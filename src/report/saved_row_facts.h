// What `compare --ndjson` puts in a document's row beyond SavedResult's own
// fields (SavedRowFacts, docs/compare.md "NDJSON rows for a warehouse"), read
// from the parsed document by saved_result.cc when RowFacts::read is asked.
#pragma once

#include <simdjson.h>

#include "report/saved_result.h"

namespace ssdprobe {

// Leniently: a row never costs the document its place in the other outputs,
// so a value of an odd type is left out (null in the row), never refused.
void read_row_facts(simdjson::dom::element doc, SavedRowFacts& out);

}  // namespace ssdprobe
