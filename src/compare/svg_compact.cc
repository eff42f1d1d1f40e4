#include "compare/svg_compact.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <optional>
#include <string_view>
#include <vector>

namespace ssdprobe {
namespace {

// One cell: the rectangle [x0, x1] x [top, bottom] in SVG units, its fill.
struct Cell {
  std::string fill;  // "#rrggbb"
  double x0 = 0, x1 = 0, bottom = 0, top = 0;
};

// Reads a number at `at` (advancing it); nullopt when there is none.
std::optional<double> number_at(std::string_view text, size_t& at) {
  const std::string token(text.substr(at, std::min<size_t>(32, text.size() - at)));
  char* end = nullptr;
  const double value = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || !std::isfinite(value)) return std::nullopt;
  at += static_cast<size_t>(end - token.c_str());
  return value;
}

bool skip(std::string_view text, size_t& at, std::string_view literal) {
  while (at < text.size() && text[at] == ' ' && literal.front() != ' ') ++at;
  if (text.substr(at, literal.size()) != literal) return false;
  at += literal.size();
  return true;
}

// gnuplot's cell: <polygon fill = 'rgb(R, G, B)' points = 'x1,y1 x2,y1 x2,y2 x1,y2 '/>
// (spaces inside vary). nullopt for any other form, or a polygon that is not
// an axis-aligned rectangle drawn from its bottom-left corner.
std::optional<Cell> parse_cell(std::string_view element) {
  size_t at = 0;
  if (!skip(element, at, "<polygon fill = 'rgb(")) return std::nullopt;
  int rgb[3];
  for (int i = 0; i < 3; ++i) {
    const auto v = number_at(element, at);
    if (!v || *v < 0 || *v > 255 || *v != std::floor(*v)) return std::nullopt;
    rgb[i] = static_cast<int>(*v);
    if (!skip(element, at, i < 2 ? "," : ")'")) return std::nullopt;
  }
  if (!skip(element, at, " points = '")) return std::nullopt;
  double p[8];
  for (int i = 0; i < 8; ++i) {
    while (at < element.size() && element[at] == ' ') ++at;
    const auto v = number_at(element, at);
    if (!v) return std::nullopt;
    p[i] = *v;
    if (i % 2 == 0 && !skip(element, at, ",")) return std::nullopt;
  }
  if (!skip(element, at, "'/>") || at != element.size()) return std::nullopt;
  // (x1,y1) (x2,y1) (x2,y2) (x1,y2): bottom edge first, as gnuplot draws boxes.
  if (p[1] != p[3] || p[5] != p[7] || p[0] != p[6] || p[2] != p[4] || p[0] > p[2] || p[5] > p[1]) return std::nullopt;
  return Cell{fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]), p[0], p[2], p[1], p[5]};
}

// Two decimals, as gnuplot writes them, without trailing zeros.
std::string coordinate(double v) {
  std::string text = fmt::format("{:.2f}", v);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

// A run of cells, each drawn after the one before: same-row neighbours of
// one colour merged, consecutive cells of one colour in one <path>.
std::string cells_as_paths(const std::vector<Cell>& cells) {
  std::vector<Cell> merged;
  for (const Cell& c : cells) {
    Cell* last = merged.empty() ? nullptr : &merged.back();
    if (last && last->fill == c.fill && last->bottom == c.bottom && last->top == c.top && c.x0 >= last->x0 &&
        c.x0 <= last->x1) {
      last->x1 = std::max(last->x1, c.x1);  // painting c right after *last, in its colour, adds only this
      continue;
    }
    merged.push_back(c);
  }
  std::string out;
  for (size_t i = 0; i < merged.size();) {
    out += fmt::format("<path fill=\"{}\" d=\"", merged[i].fill);
    size_t j = i;
    for (; j < merged.size() && merged[j].fill == merged[i].fill; ++j) {
      const Cell& c = merged[j];
      const std::string width = coordinate(c.x1 - c.x0);
      out += fmt::format("M{} {}h{}v{}h-{}z", coordinate(c.x0), coordinate(c.bottom), width,
                         coordinate(c.top - c.bottom), width);
    }
    out += "\"/>\n";
    i = j;
  }
  return out;
}

}  // namespace

std::string compact_svg_cells(const std::string& svg) {
  std::string out;
  out.reserve(svg.size() / 3);
  std::vector<Cell> run;  // consecutive cells not yet written
  size_t at = 0;
  while (at < svg.size()) {
    const size_t start = svg.find("<polygon", at);
    const size_t end = start == std::string::npos ? std::string::npos : svg.find("/>", start);
    if (end == std::string::npos) break;
    const std::string_view between(svg.data() + at, start - at);
    const bool adjacent = between.find_first_not_of(" \t\r\n") == std::string_view::npos;
    const std::optional<Cell> cell = parse_cell(std::string_view(svg).substr(start, end + 2 - start));
    if (!adjacent || !cell) {
      out += cells_as_paths(run);
      run.clear();
      out.append(between);
    }
    if (cell) {
      run.push_back(*cell);
    } else {
      out.append(svg, start, end + 2 - start);
    }
    at = end + 2;
  }
  out += cells_as_paths(run);
  out.append(svg, std::min(at, svg.size()), std::string::npos);
  return out;
}

}  // namespace ssdprobe
