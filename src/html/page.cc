#include "html/page.h"

#include <fmt/format.h>

#include "compare/text_escape.h"
#include "report/output_kinds.h"

namespace ssdprobe {
namespace {

// Printable and readable on a ticket: no web font, no colour that carries
// meaning alone (severity words are always written out). A picture is shown
// at its own size (at most 1200 px, the page's width), so its text keeps the
// size it was drawn at; only a narrower window scales it down.
constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 2em auto; padding: 0 1.5em; color: #222; max-width: 1200px; line-height: 1.4; }
h1 { margin-bottom: 0.1em; }
h1 + p { margin-top: 0; color: #555; }
h3 { margin: 1.2em 0 0.3em; }
nav { font-size: 0.9em; margin: 0.5em 0 1em; }
nav a { margin-right: 1em; }
section { border-top: 2px solid #888; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; white-space: nowrap; }
code { font-family: monospace; background: #f3f3f3; padding: 0.1em 0.3em; overflow-wrap: break-word; }
.summary { font-size: 1.15em; font-weight: bold; background: #eef4fb; border-left: 5px solid #3b6ea8; padding: 0.6em 0.8em; margin-bottom: 0; }
.summary-lines { background: #eef4fb; border-left: 5px solid #3b6ea8; padding: 0 0.8em 0.6em; margin-top: 0; font-family: monospace; }
.stopped, .danger { color: #a00; font-weight: bold; }
.warning { color: #a50; font-weight: bold; }
.empty, .note { color: #666; }
.evidence { margin: 0.2em 0 0.8em; }
figure { margin: 1em 0 2em; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { color: #444; font-size: 0.95em; max-width: 60em; }
ol.steps li { margin-bottom: 0.6em; }
)";

}  // namespace

std::string empty_note(std::string_view why) { return fmt::format("<p class=\"empty\">{}</p>\n", why); }

std::string header_row(const std::vector<std::string>& cells) {
  std::string out = "<tr>";
  for (const auto& c : cells) out += "<th>" + c + "</th>";
  return out + "</tr>\n";
}

std::string data_row(const std::vector<std::string>& cells) {
  std::string out = "<tr>";
  for (const auto& c : cells) out += "<td>" + c + "</td>";
  return out + "</tr>\n";
}

std::string html_table(std::string_view css_class, const std::vector<std::string>& head,
                       const std::vector<std::string>& rows, std::string_view when_empty) {
  if (rows.empty()) return empty_note(when_empty);
  std::string out = fmt::format("<table class=\"{}\">\n", css_class) + (head.empty() ? "" : header_row(head));
  for (const auto& r : rows) out += r;
  return out + "</table>\n";
}

std::string command_code(std::string_view command) { return "<code>" + html_text(command) + "</code>"; }

std::string html_page(std::string_view title, std::string_view subtitle, const std::vector<PageSection>& sections) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += std::string(kHtmlGenerator) + "\n";  // how the output door knows the page as ssdprobe's
  // Nothing loads and nothing runs: the page is attached to tickets and
  // opened by people who did not make it.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">\n";
  out += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n", html_text(title), kStyle);
  out += fmt::format("<h1>{}</h1>\n<p>{}</p>\n<nav>", html_text(title), html_text(subtitle));
  for (const auto& s : sections) out += fmt::format("<a href=\"#{}\">{}</a>", s.id, html_text(s.heading));
  out += "</nav>\n";
  for (const auto& s : sections) {
    out += fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n", s.id, html_text(s.heading), s.body);
  }
  return out + "</body>\n</html>\n";
}

}  // namespace ssdprobe
