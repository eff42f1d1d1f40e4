#include "report/output_kinds.h"

#include <cstring>

namespace ssdprobe {
namespace {

std::string_view skip_space(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\r' ||
                           text.front() == '\t')) {
    text.remove_prefix(1);
  }
  return text;
}

bool consume(std::string_view& text, std::string_view token) {
  text = skip_space(text);
  if (!text.starts_with(token)) return false;
  text.remove_prefix(token.size());
  return true;
}

// A JSON object whose first member is "schema" with a value that starts
// with `prefix`: how every document ssdprobe writes begins.
bool json_schema_starts(std::string_view head, std::string_view prefix) {
  return consume(head, "{") && consume(head, "\"schema\"") && consume(head, ":") && consume(head, "\"") &&
         head.starts_with(prefix);
}

std::string_view first_line(std::string_view head) { return head.substr(0, head.find('\n')); }

bool result_document(std::string_view head) { return json_schema_starts(head, "ssdprobe/"); }
bool comparison_json(std::string_view head) {
  return json_schema_starts(head, "ssdprobe-compare/") || json_schema_starts(head, "ssdprobe-quirks/") ||
         json_schema_starts(head, "ssdprobe-baseline/");
}
bool disk_table(std::string_view head) {
  return consume(head, "[") && consume(head, "{") && consume(head, "\"device\"");
}
bool sims_list(std::string_view head) {
  return consume(head, "[") && consume(head, "{") && head.find("\"sim:") != std::string_view::npos;
}
bool html_page(std::string_view head) {
  return head.starts_with("<!DOCTYPE html>") && head.find(kHtmlGenerator) != std::string_view::npos;
}
// Metrics begin with a family's HELP line, or with ssdprobe's own comments
// (a failed target, a repeated series left out) before it.
bool prometheus(std::string_view head) {
  return head.starts_with("# HELP ssdprobe_") || head.starts_with("# TYPE ssdprobe_") ||
         head.starts_with("# ssdprobe failed: ") || head.starts_with("# ssdprobe: ");
}
bool ndjson(std::string_view head) {
  const std::string_view line = first_line(head);
  return line.starts_with("{") && line.find("\"row_schema\":\"ssdprobe-row/") != std::string_view::npos;
}
bool csv(std::string_view head) { return head.starts_with("model,firmware,capacity_bytes,"); }
bool markdown(std::string_view head) { return head.starts_with("# ssdprobe compare\n"); }
bool fio_job(std::string_view head) { return head.starts_with("# fio job file written by ssdprobe"); }
bool plot_numbers(std::string_view head) { return head.starts_with(kPlotNumbersHeader); }

// A PNG whose chunks before the image data include tEXt "Software" naming
// ssdprobe (plot adds it after the header chunk).
bool png(std::string_view head) {
  static constexpr std::string_view kSignature("\x89PNG\r\n\x1a\n", 8);
  if (!head.starts_with(kSignature)) return false;
  const std::string text = std::string("tEXtSoftware") + '\0' + kPictureMaker;
  return head.find(text) != std::string_view::npos;
}
bool svg(std::string_view head) {
  return head.find("<svg") != std::string_view::npos &&
         head.find(std::string("<!-- made by ") + kPictureMaker + " -->") != std::string_view::npos;
}

struct Known {
  bool (*ours)(std::string_view);
  const char* held;  // "a saved result document": what describe_output says
};

constexpr Known kKnown[] = {
    {result_document, "a saved result document"},  {comparison_json, "an ssdprobe comparison document"},
    {sims_list, "ssdprobe's list of simulated drives"}, {disk_table, "ssdprobe's table of disks"}, {html_page, "an HTML page ssdprobe wrote"},
    {prometheus, "ssdprobe's Prometheus metrics"},    {ndjson, "ssdprobe's NDJSON rows"},
    {csv, "an ssdprobe comparison CSV"},               {markdown, "an ssdprobe comparison in Markdown"},
    {fio_job, "a fio job file ssdprobe wrote"},        {png, "a PNG picture ssdprobe drew"},
    {svg, "an SVG picture ssdprobe drew"},             {plot_numbers, "the numbers of an ssdprobe plot"},
};

std::string describe(std::string_view head) { return describe_output(head); }

}  // namespace

std::string describe_output(std::string_view head) {
  for (const Known& known : kKnown) {
    if (known.ours(head)) return known.held;
  }
  return "";
}

OutputKind result_document_kind() { return {"a result document", result_document, describe}; }
OutputKind comparison_json_kind() { return {"a comparison document", comparison_json, describe}; }
OutputKind disk_table_kind() { return {"a table of disks", disk_table, describe}; }
OutputKind sims_list_kind() { return {"a list of simulated drives", sims_list, describe}; }
OutputKind html_page_kind() { return {"an HTML page", html_page, describe}; }
OutputKind prometheus_kind() { return {"a Prometheus metrics file", prometheus, describe}; }
OutputKind ndjson_kind() { return {"an NDJSON file", ndjson, describe}; }
OutputKind csv_kind() { return {"a comparison CSV", csv, describe}; }
OutputKind markdown_kind() { return {"a comparison in Markdown", markdown, describe}; }
OutputKind fio_job_kind() { return {"a fio job file", fio_job, describe}; }
OutputKind png_kind() { return {"a PNG picture", png, describe}; }
OutputKind svg_kind() { return {"an SVG picture", svg, describe}; }
OutputKind plot_numbers_kind() { return {"a plot numbers file", plot_numbers, describe}; }

bool holds_result_document(const std::string& path) { return result_document(file_head(path)); }

}  // namespace ssdprobe
