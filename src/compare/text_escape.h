// Text from documents (model, firmware, serial strings, file names) is
// untrusted: a model string can hold quotes, commas, markup or control
// characters. Every text output format quotes or escapes it here, one
// function per format, so no renderer writes a document's text raw. (JSON
// output is escaped by nlohmann-json, after report's with_valid_utf8.)
#pragma once

#include <string>
#include <string_view>

#include "core/output.h"  // html_text

namespace ssdprobe {

// One CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR
// or LF, or starts or ends with a space; quotes inside doubled. Invalid
// UTF-8 bytes become \xHH.
std::string csv_field(std::string_view text);

// html_text (HTML element content and attribute values) is core's
// (core/output.h): the plot layer below escapes an SVG's <title> with it.

// Text for a Markdown table cell: the characters Markdown or a table give
// meaning to (\ ` * _ [ ] < > | # ! and leading + - digits do not matter
// inside a cell) backslash-escaped, control characters as \xHH.
std::string markdown_text(std::string_view text);

}  // namespace ssdprobe
