// Runs gnuplot once to draw one picture, for every `plot` picture: finds it
// on PATH, sets the terminal (PNG or SVG, a size), lets the caller write the
// rest of the script to gnuplot's input, and returns the image's bytes.
// Through gnuplot-iostream (a caller may use its send1d for data), with
// gnuplot's exit status and first error line kept for the message.
#pragma once

#include <functional>
#include <string>

namespace gnuplotio {
class Gnuplot;
}

namespace ssdprobe {

enum class ImageFormat { png, svg };

// The format an output file name asks for (".png", ".svg", any case);
// throws Error(usage) naming the file for any other extension.
ImageFormat image_format_for(const std::string& file);

struct GnuplotImage {
  ImageFormat format = ImageFormat::png;
  int width_px = 900, height_px = 500;
  std::string title;  // the picture's title: the SVG's <title> (gnuplot writes "Gnuplot")
  std::string what;   // in failure messages: "failed to draw {what}", e.g. "the queue-depth picture"
};

// The gnuplot on PATH, or Error(unsupported) saying how to get one (exit 5).
std::string find_gnuplot();

// A gnuplot double-quoted string: control characters and broken UTF-8 shown
// escaped, quotes and backslashes escaped, "\n" kept as a line break.
std::string gnuplot_quoted(const std::string& text);

// Draws one image: sets the terminal and output, calls write_script (which
// writes everything else: settings, plot commands, data), closes the output,
// and returns the image's bytes (an SVG with its <title> set to image.title),
// marked as ssdprobe's (plot/picture_mark.h).
// Throws Error(unsupported) when gnuplot is missing, exits non-zero or
// writes no image: the message quotes gnuplot's first error line.
std::string run_gnuplot(const GnuplotImage& image, const std::function<void(gnuplotio::Gnuplot&)>& write_script);

// Replaces the first <title>...</title> of an SVG document by `title`
// (XML-escaped); an SVG without one gets it after the <svg ...> tag.
std::string svg_with_title(const std::string& svg, const std::string& title);

}  // namespace ssdprobe
