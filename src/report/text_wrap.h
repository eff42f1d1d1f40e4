// Long report lines (evidence, mismatches, notes) folded at word boundaries
// to the width the caller measured (the terminal, or 100 for a file).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ssdprobe {

// The width used when none is given or the output is not a terminal.
constexpr size_t kDefaultTextWidth = 100;

// `first` (already printed indentation or a label, counted in the width)
// followed by `text`, folded so that no line exceeds `width` columns where a
// space allows; continuation lines start with `hang` spaces. Widths count
// UTF-8 characters, not bytes. A width of 0 means "do not fold". Ends with
// a newline.
std::string wrapped(std::string_view first, std::string_view text, size_t width, size_t hang);

// Columns taken by UTF-8 text (one per character).
size_t text_columns(std::string_view text);

}  // namespace ssdprobe
