// The commands of the audit's fixes: argument lists as core/shell_command.h
// renders them, with one more kind of word: what an earlier command of the
// same fix printed, kept in a shell variable. A disk image is fixed through
// the loop device `losetup --find --show` attaches it to, whose name is
// known only when that runs ("$loop", "${loop}p1" for its partitions); an
// xfs is mounted once on the directory `mktemp -d` makes ("$dir"). The
// variable's name is ssdprobe's, never a name from the disk, and every
// literal word is quoted as core/shell_command.h quotes it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ssdprobe {

struct FixWord {
  FixWord(std::string literal) : text(std::move(literal)) {}  // NOLINT: {{"tune2fs", "-E", ..., node}}
  FixWord(const char* literal) : text(literal) {}             // NOLINT
  // The value of shell variable `name`, followed by the literal `after`.
  static FixWord variable(std::string name, std::string after = "");

  std::string name;  // the variable's; "" for a literal word
  std::string text;  // the literal word, or what follows the variable

  // As a sentence names it: the literal, or "$loop", "${loop}p1".
  std::string prose() const;
};

struct FixCommand {
  FixCommand(std::vector<FixWord> words_in, std::vector<std::string> input = {})  // NOLINT: {{"umount", dir}}
      : words(std::move(words_in)), input_lines(std::move(input)) {}

  std::vector<FixWord> words;
  std::vector<std::string> input_lines;  // fed to its standard input, as ShellCommand's
  std::string assigns;                   // not "": the command's output is kept in this variable
};

// Commands run one after another, each only if the one before succeeded
// (joined by " && "). A variable a command of this line assigns is "$name"
// after it; one an earlier step set is "${name:?}", so that run without
// that step (a new shell) the command is refused instead of run with an
// empty word.
std::string render_fix(const std::vector<FixCommand>& commands);

}  // namespace ssdprobe
