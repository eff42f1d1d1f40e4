#include "cli/help_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <sstream>
#include <vector>

#include "cli/option_facts.h"
#include "core/error.h"
#include "core/output.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

std::string command_list(const CLI::App& app, const char* separator) {
  std::vector<std::string> names;
  for (const CLI::App* sub : commands_of(app)) names.push_back(sub->get_name());
  return fmt::format("{}", fmt::join(names, separator));
}

class FoldingFormatter : public CLI::Formatter {
 public:
  explicit FoldingFormatter(size_t width) : width_(width) {}

  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    return folded_help(CLI::Formatter::make_help(app, std::move(name), mode), width_);
  }

  // The main command lists its subcommands as they are typed, not as an
  // abstract [SUBCOMMAND]; a subcommand names its full command line.
  std::string make_usage(const CLI::App* app, std::string name) const override {
    if (app->get_parent() != nullptr) {
      return fmt::format("Usage: {} {} {}\n", app->get_parent()->get_name(), app->get_name(), arguments_of(*app, "..."));
    }
    const std::string commands = command_list(*app, "|");
    std::string text = fmt::format("Usage: {} {}\n", name, arguments_of(*app, "..."));
    if (!commands.empty()) {
      text += fmt::format("       {} {} ...   (`{} COMMAND --help` for each)\n", name, commands, name);
    }
    return text;
  }

 private:
  size_t width_;
};

void set_formatter(CLI::App& app, const std::shared_ptr<FoldingFormatter>& formatter) {
  app.formatter(formatter);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) set_formatter(*sub, formatter);
}

// A line of running text (the description, the footer), not a heading, a
// usage line or an indented option: such lines are re-filled as paragraphs.
bool is_prose(const std::string& line) {
  return !line.empty() && line[0] != ' ' && line.back() != ':' && line.rfind("Usage:", 0) != 0;
}

}  // namespace

std::string folded_help(const std::string& help, size_t width) {
  std::vector<std::string> lines;
  {
    std::istringstream in(help);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (is_prose(line)) {
      // A paragraph runs to a line ending a sentence; re-filled only when a
      // line of it is too long, so text that fits keeps its own breaks.
      size_t end = i;
      while (lines[end].back() != '.' && end + 1 < lines.size() && is_prose(lines[end + 1])) ++end;
      bool too_long = false;
      std::string joined;
      for (size_t k = i; k <= end; ++k) {
        too_long = too_long || (width != 0 && text_columns(lines[k]) > width);
        joined += (k == i ? "" : " ") + lines[k];
      }
      if (too_long) {
        out += wrapped("", joined, width, 0);
      } else {
        for (size_t k = i; k <= end; ++k) out += lines[k] + "\n";
      }
      i = end;
      continue;
    }
    if (width == 0 || text_columns(line) <= width) {
      out += line + "\n";
      continue;
    }
    // An option line folds under its description column (the text after the
    // first run of two or more spaces past the name); prose under its indent.
    const size_t indent = std::min(line.find_first_not_of(' '), line.size());
    size_t text_at = indent;
    const size_t gap = line.find("  ", indent);
    if (gap != std::string::npos) {
      const size_t description = line.find_first_not_of(' ', gap);
      if (description != std::string::npos && description + 20 < width) text_at = description;
    }
    out += wrapped(line.substr(0, text_at), line.substr(text_at), width, text_at);
  }
  return out;
}

void configure_help(CLI::App& app, size_t width) {
  auto formatter = std::make_shared<FoldingFormatter>(width);
  // Option names take 30 columns by default: too many of a narrow terminal.
  formatter->column_width(width != 0 && width < 80 ? 24 : 30);
  set_formatter(app, formatter);
}

void add_generated_outputs(CLI::App& app, GeneratedOutputs& outputs) {
  app.add_flag("--help-man", outputs.man, "Print the man page (roff) and exit")->group("");
  app.add_option("--completion", outputs.completion, "Print a completion script for SHELL (bash) and exit")
      ->type_name("SHELL")
      ->group("");
}

int print_generated_output(const CLI::App& app, const GeneratedOutputs& outputs) {
  if (outputs.man) {
    print_quietly(stdout, man_page(app));
    return 0;
  }
  if (outputs.completion != "bash") {
    print_quietly(stderr, fmt::format("ssdprobe: error: --completion {}: only bash is supported\n",
                                      printable(outputs.completion, true)));
    return exit_code_for(ErrorCategory::usage);
  }
  print_quietly(stdout, bash_completion(app));
  return 0;
}

}  // namespace ssdprobe
