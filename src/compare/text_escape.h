// Text from documents (model, firmware, serial strings, file names) is
// untrusted: a model string can hold quotes, commas, markup or control
// characters. Every text output format quotes or escapes it here, one
// function per format, so no renderer writes a document's text raw. (JSON
// output is escaped by nlohmann-json, after report's with_valid_utf8.)
#pragma once

#include <string>
#include <string_view>

namespace ssdprobe {

// One CSV field (RFC 4180): quoted when it holds a comma, a double quote, CR
// or LF, or starts or ends with a space; quotes inside doubled. Invalid
// UTF-8 bytes become \xHH.
std::string csv_field(std::string_view text);

// Text for HTML element content and attribute values: & < > " ' as
// entities; control characters and invalid UTF-8 as \xHH (core printable()).
std::string html_text(std::string_view text);

// Text for a Markdown table cell: the characters Markdown or a table give
// meaning to (\ ` * _ [ ] < > | # ! and leading + - digits do not matter
// inside a cell) backslash-escaped, control characters as \xHH.
std::string markdown_text(std::string_view text);

}  // namespace ssdprobe
