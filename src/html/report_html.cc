#include "html/report_html.h"

#include <fmt/format.h>

#include "core/error.h"
#include "core/units.h"
#include "html/page.h"
#include "html/report_pictures.h"
#include "html/sections.h"
#include "report/saved_result.h"

namespace ssdprobe {
namespace {

// The saved-result reader has already refused what is not a result document;
// nlohmann reads the whole tree the sections need.
Json parse_tree(std::string_view text, const std::string& name) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorCategory::usage, fmt::format("{}: not a result document: {}", name, e.what()));
  }
}

std::string subtitle(const Json& doc) {
  const Json& target = field(doc, "target");
  return fmt::format("{}, {}, started {}", raw_text(target, "path"),
                     bytes_of(target, "size_bytes") ? format_size(*bytes_of(target, "size_bytes")) : "size unknown",
                     raw_text(doc, "started_at"));
}

std::string title(const Json& doc) {
  const std::string model = raw_text(field(doc, "target"), "model");
  return "ssdprobe report: " + (model.empty() ? raw_text(field(doc, "target"), "path") : model);
}

}  // namespace

ReportHtml report_html(std::string_view document_text, const std::string& name) {
  const SavedResult saved = parse_saved_result(document_text, name, GridDetail::full, ChartData::read);
  const Json doc = parse_tree(document_text, name);
  const std::vector<ReportPicture> pictures = report_pictures(saved);
  ReportHtml out;
  for (const ReportPicture& p : pictures) {
    if (p.available && p.svg.empty()) out.missing_pictures.push_back(fmt::format("{}: {}", p.title, p.missing));
  }
  out.page = html_page(title(doc), subtitle(doc),
                       {{"verdict", "Verdict", verdict_section(doc)},
                        {"reported", "Reported vs measured", reported_section(doc, saved)},
                        {"audit", "Audit of the layout on the disk", audit_section(doc)},
                        {"recommendations", "Recommendations", recommendations_section(doc)},
                        {"pictures", "Pictures", pictures_section(doc, pictures)},
                        {"evidence", "Evidence", evidence_section(doc)},
                        {"context", "Run context", context_section(doc)}});
  return out;
}

}  // namespace ssdprobe
