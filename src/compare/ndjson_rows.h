// `compare --ndjson`: one flat JSON object per result document, for loading
// a fleet's runs into a warehouse (SQLite, DuckDB, BigQuery...) where each
// run is a row and SQL does the grouping. Flat because a warehouse's JSON
// functions (SQLite's json_extract) reach a top-level key simply; the same
// keys in the same order on every row, so one table schema fits all rows.
// The columns are documented in docs/compare.md "NDJSON rows for a
// warehouse"; a new column is a new row_schema version there.
#pragma once

#include <string>

#include "report/saved_result.h"

namespace ssdprobe {

// 2: partial, stopped and <unit>_searched_up_to_bytes added to 1's columns.
constexpr const char* kRowSchema = "ssdprobe-row/2";

// The row of one document read with RowFacts::read: one line of JSON,
// ending in '\n'. Strings that are not valid UTF-8 (only a file name can
// hold such bytes) have those bytes as \xHH.
std::string ndjson_row(const SavedResult& document);

}  // namespace ssdprobe
