// Every picture ssdprobe draws says so in its bytes, so that the output door
// (core/output_file.h) can tell a picture ssdprobe made, which a later
// `plot -o` may replace, from any other file at that path, which it may not
// (report/output_kinds.h png_kind, svg_kind).
#pragma once

#include <string>

#include "plot/gnuplot_run.h"

namespace ssdprobe {

// A PNG with a tEXt chunk "Software" = kPictureMaker right after its header
// chunk; an SVG with the comment <!-- made by kPictureMaker --> after its XML
// declaration. Bytes that are not a PNG (or an SVG) are returned as they are.
std::string marked_picture(std::string bytes, ImageFormat format);

// CRC-32 (ISO-HDLC, the one PNG chunks carry) of `bytes`. Exposed for tests.
uint32_t png_crc32(std::string_view bytes);

}  // namespace ssdprobe
