// The pictures, each a <figure> with its id, so a reader (and the test) can
// find every one; a missing picture keeps its place and says why.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "html/page.h"
#include "html/sections.h"

namespace ssdprobe {

std::string pictures_section(const Json& doc, const std::vector<ReportPicture>& pictures) {
  if (pictures.empty()) {
    return empty_note(field(doc, "grids").empty()
                          ? "no pictures: the document has no timed grid (an info or audit document does no timing)"
                          : "no pictures: none of the document's grids has a picture");
  }
  std::string out;
  for (const ReportPicture& p : pictures) {
    if (!p.available) {
      out += empty_note(html_text(fmt::format("{}: not available: {}", p.title, p.missing)));
      continue;
    }
    out += fmt::format("<figure id=\"{}\">\n<h3>{}</h3>\n", html_text(p.id), html_text(p.title));
    out += p.svg.empty() ? fmt::format("<p class=\"note picture-missing\">No picture: {}</p>\n", html_text(p.missing))
                         : p.svg + "\n";
    out += fmt::format("<figcaption>{}</figcaption>\n</figure>\n", html_text(p.caption));
  }
  // Pictures of grids a run without --write does not time: say so.
  const Json& options = field(doc, "options");
  if (options.is_object() && !flag_of(options, "write")) {
    out += empty_note("no write grid picture: not measured: run without --write");
  }
  return out;
}

}  // namespace ssdprobe
