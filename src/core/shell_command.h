// Commands ssdprobe prints for a person or a script to run (the audit's
// fixes, the recommendations, a rerun) are built as argument lists and
// quoted only when rendered, so that a name read from a disk, a document or
// a drive ("vg;touch$IFS/var/x;:", "my disk.img", a model with a newline)
// stays one word of the command it is in and can never become a command of
// its own. tests/fuzz/shell_commands.cc splits rendered commands the way a
// POSIX shell does and checks that each gives back its argument list.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdprobe {

struct ShellCommand {
  ShellCommand() = default;
  ShellCommand(std::vector<std::string> words, std::vector<std::string> input = {})  // NOLINT: {{"mkfs.xfs", DEV}}
      : argv(std::move(words)), input_lines(std::move(input)) {}

  std::vector<std::string> argv;
  // Lines fed to the command's standard input (sfdisk's script), rendered
  // as printf '%s\n' LINE... | COMMAND; empty: none.
  std::vector<std::string> input_lines;
};

// `word` as one word of a POSIX shell command line: as it is when every
// byte is one that no shell treats specially (letters, digits and
// _ @ % + = : , . / -), else in single quotes (a ' inside as '\''). The
// empty word is ''.
std::string shell_quote(std::string_view word);

// The command line of `command`: its words quoted and joined by spaces,
// after the printf that feeds its input lines, if any.
std::string render_command(const ShellCommand& command);

// Commands run one after another, each only if the one before succeeded:
// rendered and joined by " && ".
std::string render_commands(const std::vector<ShellCommand>& commands);

}  // namespace ssdprobe
