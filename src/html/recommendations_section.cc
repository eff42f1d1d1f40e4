// How to build a layout aligned to the drive: the steps in order, with the
// warnings of those that destroy data, and the block size advice.
#include <fmt/format.h>

#include "compare/text_escape.h"
#include "html/page.h"
#include "html/sections.h"

namespace ssdprobe {
namespace {

std::string step_item(const Json& step) {
  std::string item = "<li>";
  const std::string group = raw_text(step, "alternative_group");
  if (!group.empty()) item += fmt::format("<span class=\"note\">one way to make the {}:</span> ", html_text(group));
  // The warning comes before the command: it is read before anything is pasted.
  if (flag_of(step, "destroys_data")) {
    item += fmt::format("<span class=\"danger\">destroys data: {}</span><br>",
                        text(step, "warning", "what is on it is lost"));
  }
  item += command_code(raw_text(step, "command"));
  return item + "<br>" + text(step, "purpose") + "</li>\n";
}

std::string steps_list(const Json& rec) {
  std::string items;
  for (const Json& step : field(rec, "steps")) items += step_item(step);
  if (items.empty()) return empty_note("no steps in this document");
  return "<ol class=\"steps\">\n" + items + "</ol>\n";
}

// A better LBA format the drive lists: the format erases the namespace, so
// it comes before the steps, under a heading that says so.
std::string lba_format_part(const Json& rec) {
  const Json& advice = field(rec, "lba_format");
  if (!advice.is_object()) return "";
  const char* scope =
      flag_of(advice, "all_namespaces") ? "everything on every namespace of the drive" : "everything on it";
  return fmt::format(
      "<h3>First, reformat the namespace (this destroys {})</h3>\n<p>{}</p>\n<ul class=\"steps\">\n{}</ul>\n", scope,
      text(advice, "why"), step_item(field(advice, "step")));
}

std::string advice_table(const Json& rec) {
  std::vector<std::string> rows;
  for (const Json& a : field(rec, "block_size_advice")) {
    const std::string command = raw_text(a, "command");
    rows.push_back(data_row({text(a, "what"), command.empty() ? "-" : command_code(command),
                             flag_of(a, "applies") ? "yes" : "no", text(a, "why")}));
  }
  return html_table("advice", {"what", "command", "usable here", "why, and what it costs"}, rows,
                    "no block size advice in this document");
}

std::string recommendation_notes_html(const Json& rec) {
  const std::string items = list_items(rec, "notes");
  if (items.empty()) return empty_note("no notes");
  return "<ul>\n" + items + "</ul>\n";
}

// A block device on a zoned device takes no partition table (the kernel
// ignores one there): a zoned filesystem goes on the whole device.
bool zoned_block_device(const Json& doc) {
  const std::string kind = raw_text(field(doc, "target"), "kind");
  const std::string model = raw_text(field(field(doc, "reported"), "zoned"), "model");
  return (kind == "block" || kind == "partition") && (model == "host-managed" || model == "host-aware");
}

// The block size as analysis/block_size_policy.h decided it, in the
// verdict's words; documents without it: the plan's filesystem block.
std::string block_size_words(const Json& rec) {
  const std::string said = text(field(rec, "block_size"), "text");
  return said.empty() ? "filesystem block " + size_text(rec, "filesystem_block_bytes") : said;
}

std::string layout_line(const Json& doc, const Json& rec) {
  const std::string layout =
      zoned_block_device(doc)
          ? "No partitions: a zoned filesystem on the whole device"
          : fmt::format("Start the first partition at {}; align every partition to {}",
                        size_text(rec, "partition_start_bytes"), size_text(rec, "partition_alignment_bytes"));
  return fmt::format("<p>{}; {}.{}</p>\n", layout, block_size_words(rec),
                     raw_text(rec, "verdict").empty() ? "" : " The layout audit says: " + text(rec, "verdict") + ".");
}

}  // namespace

std::string recommendations_section(const Json& doc) {
  const Json& rec = field(doc, "recommendations");
  if (!rec.is_object()) return empty_note("no recommendations in this document");
  std::string out = layout_line(doc, rec);
  out += lba_format_part(rec);
  out += "<h3>Steps, in the order to run them</h3>\n" + steps_list(rec);
  out += "<h3>Block size advice</h3>\n" + advice_table(rec);
  out += "<h3>Notes</h3>\n" + recommendation_notes_html(rec);
  return out;
}

}  // namespace ssdprobe
