#include "layout/fix_command.h"

#include <algorithm>

#include "core/shell_command.h"

namespace ssdprobe {
namespace {

bool has_variable(const FixCommand& command) {
  return std::any_of(command.words.begin(), command.words.end(), [](const FixWord& w) { return !w.name.empty(); });
}

std::string word_text(const FixWord& word, const std::vector<std::string>& assigned_here) {
  if (word.name.empty()) return shell_quote(word.text);
  const bool here = std::find(assigned_here.begin(), assigned_here.end(), word.name) != assigned_here.end();
  // The closing quote ends the name: "$loop"p1 is the loop device's partition 1.
  return (here ? "\"$" + word.name + "\"" : "\"${" + word.name + ":?}\"") +
         (word.text.empty() ? "" : shell_quote(word.text));
}

// A command with no variable is rendered by core/shell_command.h itself
// (its rule for a first word holding '=' included); the commands here
// always start with a tool's name of ssdprobe's.
std::string command_text(const FixCommand& command, const std::vector<std::string>& assigned_here) {
  std::vector<std::string> literal;
  for (const FixWord& word : command.words) literal.push_back(word.text);
  if (!has_variable(command)) return render_command({literal, command.input_lines});
  std::string out;
  if (!command.input_lines.empty()) {
    std::vector<std::string> printf_argv{"printf", "%s\\n"};
    printf_argv.insert(printf_argv.end(), command.input_lines.begin(), command.input_lines.end());
    out = render_command({printf_argv}) + " | ";
  }
  for (size_t i = 0; i < command.words.size(); ++i) {
    out += (i == 0 ? "" : " ") + word_text(command.words[i], assigned_here);
  }
  return out;
}

}  // namespace

FixWord FixWord::variable(std::string name, std::string after) {
  FixWord word(std::move(after));
  word.name = std::move(name);
  return word;
}

std::string FixWord::prose() const {
  if (name.empty()) return text;
  return text.empty() ? "$" + name : "${" + name + "}" + text;
}

std::string render_fix(const std::vector<FixCommand>& commands) {
  std::vector<std::string> assigned_here;
  std::string out;
  for (const FixCommand& command : commands) {
    std::string text = command_text(command, assigned_here);
    if (!command.assigns.empty()) {
      text = command.assigns + "=$(" + text + ")";
      assigned_here.push_back(command.assigns);
    }
    out += (out.empty() ? "" : " && ") + text;
  }
  return out;
}

}  // namespace ssdprobe
