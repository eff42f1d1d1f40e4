#include "core/shell_command.h"

namespace ssdprobe {
namespace {

bool plain(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}

// The words of one command. A command name with '=' in it would be read as
// an assignment (NAME=VALUE), so it is quoted even when plain.
std::string words(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& word : argv) {
    std::string quoted = shell_quote(word);
    if (out.empty() && quoted == word && word.find('=') != std::string::npos) quoted = "'" + word + "'";
    out += (out.empty() ? "" : " ") + quoted;
  }
  return out;
}

}  // namespace

std::string shell_quote(std::string_view word) {
  if (word.empty()) return "''";
  bool all_plain = true;
  for (char c : word) all_plain = all_plain && plain(c);
  if (all_plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string render_command(const ShellCommand& command) {
  if (command.input_lines.empty()) return words(command.argv);
  std::vector<std::string> printf_argv{"printf", "%s\\n"};
  printf_argv.insert(printf_argv.end(), command.input_lines.begin(), command.input_lines.end());
  return words(printf_argv) + " | " + words(command.argv);
}

std::string render_commands(const std::vector<ShellCommand>& commands) {
  std::string out;
  for (const ShellCommand& command : commands) out += (out.empty() ? "" : " && ") + render_command(command);
  return out;
}

}  // namespace ssdprobe
