// The one-run report (`ssdprobe report RESULT.json --html FILE`, and
// `--html FILE` on a run): one self-contained HTML page made from a result
// document's text. Both commands go through here with the document's JSON
// text, so the same document gives the same page.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ssdprobe {

struct ReportHtml {
  std::string page;
  // One line per picture that could not be drawn ("read grid: gnuplot is not
  // installed ..."): the page says so in place, the command warns with them.
  std::vector<std::string> missing_pictures;
};

// Throws Error(usage) whose message starts with `name` when the text is not
// a result document (not JSON, cut short, another schema, a field of the
// wrong type), as report/saved_result.h's reader says.
ReportHtml report_html(std::string_view document_text, const std::string& name);

}  // namespace ssdprobe
