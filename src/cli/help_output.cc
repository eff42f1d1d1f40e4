#include "cli/help_output.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/output.h"
#include "device/sim_profile.h"
#include "report/text_wrap.h"
#include "ssdprobe_version.h"

namespace ssdprobe {
namespace {

// Subcommands with a name, in the order they were added.
std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_disabled(); });
}

std::string command_list(const CLI::App& app, const char* separator) {
  std::vector<std::string> names;
  for (const CLI::App* sub : commands_of(app)) names.push_back(sub->get_name());
  return fmt::format("{}", fmt::join(names, separator));
}

// Options shown to users: not positional, not hidden (CLI11 hides an option
// whose group is empty: --help-man and --completion).
std::vector<const CLI::Option*> shown_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); });
}

std::vector<const CLI::Option*> positionals_of(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

bool takes_value(const CLI::Option* o) { return o->get_items_expected_max() > 0; }  // flags expect none

std::vector<std::string> spellings(const CLI::Option* o) {
  std::vector<std::string> names;
  for (const auto& s : o->get_snames()) names.push_back("-" + s);
  for (const auto& l : o->get_lnames()) names.push_back("--" + l);
  return names;
}

// "[OPTIONS] TARGET" / "[OPTIONS] [TARGET]" for one command.
std::string arguments_of(const CLI::App& app) {
  std::string text = shown_options(app).empty() ? "" : "[OPTIONS]";
  for (const CLI::Option* p : positionals_of(app)) {
    const std::string name = p->get_name(true);
    text += (text.empty() ? "" : " ") + (p->get_required() ? name : "[" + name + "]");
  }
  return text;
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
      return fmt::format("Usage: {} {} {}\n", app->get_parent()->get_name(), app->get_name(), arguments_of(*app));
    }
    const std::string commands = command_list(*app, "|");
    std::string text = fmt::format("Usage: {} {}\n", name, arguments_of(*app));
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

// roff: a backslash is \e, a line may not start with a control character,
// and option dashes are \- so they copy and search as ASCII hyphens.
std::string roff(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '\\' ? std::string("\\e") : std::string(1, c);
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string roff_option(const std::string& name) {
  std::string out;
  for (const char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

// Paragraphs of a help text (blank-line separated), each joined into one
// line: roff fills them itself.
std::vector<std::string> paragraphs(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  std::string line, paragraph;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      if (!paragraph.empty()) out.push_back(paragraph);
      paragraph.clear();
      continue;
    }
    paragraph += (paragraph.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
  }
  if (!paragraph.empty()) out.push_back(paragraph);
  return out;
}

void man_options(std::string& out, const CLI::App& app) {
  for (const CLI::Option* p : positionals_of(app)) {
    out += fmt::format(".TP\n\\fI{}\\fR\n{}\n", p->get_name(true), roff(p->get_description()));
  }
  for (const CLI::Option* o : shown_options(app)) {
    std::vector<std::string> names;
    for (const auto& n : spellings(o)) names.push_back(fmt::format("\\fB{}\\fR", roff_option(n)));
    std::string head = fmt::format("{}", fmt::join(names, ", "));
    if (takes_value(o)) head += fmt::format(" \\fI{}\\fR", o->get_type_name());
    out += fmt::format(".TP\n{}\n{}\n", head, roff(o->get_description()));
  }
}

std::string quoted_words(const std::vector<std::string>& words) { return fmt::format("{}", fmt::join(words, " ")); }

// One `case` arm of the completion function: the options of a command, which
// of them take a value, which take a file or a directory, and whether its
// positional is a target (sim: names complete).
std::string completion_case(const std::string& pattern, const CLI::App& app) {
  std::vector<std::string> options, valued, files, dirs;
  for (const CLI::Option* o : shown_options(app)) {
    for (const auto& n : spellings(o)) {
      options.push_back(n);
      if (!takes_value(o)) continue;
      valued.push_back(n);
      const std::string type = o->get_type_name();
      if (type == "DIR") dirs.push_back(n);
      if (type.find("FILE") != std::string::npos || type.find("PATH") != std::string::npos ||
          type.find(".json") != std::string::npos) {
        files.push_back(n);
      }
    }
  }
  bool target = false;
  for (const CLI::Option* p : positionals_of(app)) target = target || p->get_name(true) == "TARGET";
  return fmt::format("    {}) opts='{}'; valued='{}'; files='{}'; dirs='{}'; targets={} ;;\n", pattern,
                     quoted_words(options), quoted_words(valued), quoted_words(files), quoted_words(dirs),
                     target ? 1 : 0);
}

// The main command's options that take a value: the word after one is its
// value, never the subcommand.
std::string skip_arms(const CLI::App& app) {
  std::vector<std::string> valued;
  for (const CLI::Option* o : shown_options(app)) {
    if (!takes_value(o)) continue;
    for (const auto& n : spellings(o)) valued.push_back(n);
  }
  return valued.empty() ? "" : fmt::format("      {}) skip=1 ;;\n", fmt::join(valued, "|"));
}

// The completion function's first lines: the word being completed and the
// words before it.
constexpr const char* kCompletionWords = R"(  # The word being completed, colons included: bash splits "sim:NAME" at the
  # colon (COMP_WORDBREAKS), so it is taken from the line itself.
  local line="${COMP_LINE:0:COMP_POINT}"
  local cur="${line##*[[:space:]]}"
  local before="${line%"$cur"}"
  local -a words
  read -ra words <<<"$before"
  local prev="${words[${#words[@]}-1]:-}"
)";

// Finds the command being completed (the first word that is a subcommand,
// else the main command) and sets its options; `sims` are space-separated.
std::string completion_command(const CLI::App& app, const std::string& sims) {
  std::string cases = completion_case("\"\"", app);
  for (const CLI::App* sub : commands_of(app)) cases += completion_case(sub->get_name(), *sub);
  return fmt::format(
      R"(  local cmd="" opts valued files dirs targets i
  local commands='{0}'
  local sims='{1}'
  # The subcommand is the first word that is one, skipping option values.
  local skip=0
  for ((i = 1; i < ${{#words[@]}}; i++)); do
    if ((skip)); then skip=0; continue; fi
    case " $commands " in *" ${{words[i]}} "*) cmd="${{words[i]}}"; break ;; esac
    case "${{words[i]}}" in
{2}    esac
  done
  case "$cmd" in
{3}  esac
)",
      command_list(app, " "), sims, skip_arms(app), cases);
}

// The candidates: the value of the option before the word (a directory or a
// file), an option, else a subcommand, a sim: name or a file. bash replaces
// only what follows the word's last colon, so candidates lose what precedes it.
constexpr const char* kCompletionReply = R"(  COMPREPLY=()
  if [[ -n "$prev" && " $valued " == *" $prev "* ]]; then
    if [[ " $dirs " == *" $prev "* ]]; then
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
    elif [[ " $files " == *" $prev "* ]]; then
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
  elif [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  else
    local choices=""
    [[ -z "$cmd" ]] && choices="$commands"
    ((targets)) && choices="$choices $sims"
    mapfile -t COMPREPLY < <(compgen -W "$choices" -- "$cur"; [[ "$cur" == sim:* ]] || compgen -f -- "$cur")
  fi
  if [[ "$cur" == *:* && "$COMP_WORDBREAKS" == *:* ]]; then
    local colon_prefix="${cur%"${cur##*:}"}"
    COMPREPLY=("${COMPREPLY[@]#"$colon_prefix"}")
  fi
  return 0
)";

}  // namespace

namespace {

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

std::string man_page(const CLI::App& app) {
  const std::string name = app.get_name();
  std::string out = fmt::format(".TH SSDPROBE 1 \"\" \"{} {}\" \"User Commands\"\n", name, SSDPROBE_VERSION);
  std::vector<std::string> description = paragraphs(app.get_description());
  std::string summary = description.empty() ? "" : description.front();
  if (summary.rfind(name + ": ", 0) == 0) summary = summary.substr(name.size() + 2);
  if (!summary.empty() && summary.back() == '.') summary.pop_back();
  out += fmt::format(".SH NAME\n{} \\- {}\n", name, roff(summary));
  out += fmt::format(".SH SYNOPSIS\n.B {}\n{}\n", name, roff(arguments_of(app)));
  for (const CLI::App* sub : commands_of(app)) {
    out += fmt::format(".br\n.B {} {}\n{}\n", name, sub->get_name(), roff(arguments_of(*sub)));
  }
  out += ".SH DESCRIPTION\n";
  for (size_t i = 1; i < description.size(); ++i) out += fmt::format("{}\n.PP\n", roff(description[i]));
  out += ".SH OPTIONS\n";
  man_options(out, app);
  out += ".SH COMMANDS\n";
  for (const CLI::App* sub : commands_of(app)) {
    out += fmt::format(".SS \"{} {} {}\"\n{}\n", name, sub->get_name(), arguments_of(*sub),
                       roff(sub->get_description()));
    man_options(out, *sub);
  }
  for (const std::string& paragraph : paragraphs(app.get_footer())) {
    const bool exit_codes = paragraph.rfind("Exit codes:", 0) == 0;
    out += exit_codes ? ".SH \"EXIT STATUS\"\n" : ".PP\n";
    out += roff(paragraph) + "\n";
  }
  return out;
}

std::string bash_completion(const CLI::App& app) {
  std::vector<std::string> sims;
  for (const auto& profile : sim_profiles()) sims.push_back("sim:" + profile.name);
  const std::string name = app.get_name();
  return fmt::format(R"(# bash completion for {0}; generated by `{0} --completion bash` from its option table.
_{0}() {{
{1}{2}{3}}}
complete -F _{0} {0}
)",
                     name, kCompletionWords, completion_command(app, quoted_words(sims)), kCompletionReply);
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
