// What `compare --ndjson` puts in a document's row beyond SavedResult's own
// fields (SavedRowFacts, docs/compare.md "NDJSON rows for a warehouse"), read
// from the parsed document by saved_result.cc when RowFacts::read is asked.
#pragma once

#include "report/saved_result.h"

// The parser stays inside the two readers (scripts/check-layers): declared,
// not included.
namespace simdjson::dom {
class element;
}  // namespace simdjson::dom

namespace ssdprobe {

// Leniently: a row never costs the document its place in the other outputs,
// so a value of an odd type is left out (null in the row), never refused.
void read_row_facts(const simdjson::dom::element& doc, SavedRowFacts& out);

}  // namespace ssdprobe
