#include "cli/option_facts.h"

#include <algorithm>
#include <sstream>

namespace ssdprobe {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

// CLI11 describes an IsMember check as "{a,b,c}" after the value name.
std::vector<std::string> member_set(const std::string& type_name) {
  const size_t open = type_name.find(":{");
  if (open == std::string::npos || type_name.back() != '}') return {};
  return split(type_name.substr(open + 2, type_name.size() - open - 3), ',');
}

bool names_file(const std::string& name) {
  return name.find("FILE") != std::string::npos || name.find("PATH") != std::string::npos ||
         name == "JOURNAL" || name == "RESULT";
}

}  // namespace

std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_disabled(); });
}

std::vector<const CLI::Option*> shown_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); });
}

std::vector<const CLI::Option*> positionals_of(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

bool takes_value(const CLI::Option* o) { return o->get_items_expected_max() > 0; }

bool repeats(const CLI::Option* o) { return o->get_items_expected_max() > 1; }

std::vector<std::string> spellings(const CLI::Option* o) {
  std::vector<std::string> names;
  for (const auto& s : o->get_snames()) names.push_back("-" + s);
  for (const auto& l : o->get_lnames()) names.push_back("--" + l);
  return names;
}

std::string long_spelling(const CLI::Option* o) {
  return o->get_lnames().empty() ? "-" + o->get_snames().front() : "--" + o->get_lnames().front();
}

std::string value_name(const CLI::Option* o) {
  const std::string full = o->get_type_name();
  return full.substr(0, full.find(":{"));
}

bool is_literal(const std::string& part) {
  return !part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::vector<std::string> value_choices(const CLI::Option* o) {
  if (!takes_value(o)) return {};
  std::vector<std::string> members = member_set(o->get_type_name());
  if (!members.empty()) return members;
  const std::vector<std::string> parts = split(value_name(o), '|');
  const bool all_literal = std::all_of(parts.begin(), parts.end(), is_literal);
  return parts.size() > 1 && all_literal ? parts : std::vector<std::string>{};
}

ValueKind value_kind(const CLI::Option* o) {
  // A positional's value name is its own name (TARGET, RESULT.json).
  const std::string name = o->get_positional() ? o->get_name(true) : value_name(o);
  if (!value_choices(o).empty()) return ValueKind::choice;
  if (name == "TARGET") return ValueKind::target;
  if (name == "DIR") return ValueKind::directory;
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) return ValueKind::json_file;
  if (names_file(name)) return ValueKind::file;
  return ValueKind::free;
}

std::string arguments_of(const CLI::App& app, const std::string& ellipsis) {
  std::string text = shown_options(app).empty() ? "" : "[OPTIONS]";
  for (const CLI::Option* p : positionals_of(app)) {
    const std::string name = p->get_name(true) + (repeats(p) ? ellipsis : "");
    text += (text.empty() ? "" : " ") + (p->get_required() ? name : "[" + name + "]");
  }
  return text;
}

}  // namespace ssdprobe
