// Commands rendered from argument lists (core/shell_command.h), checked
// with the real POSIX shell: `set --` with the rendered words, then each
// positional parameter printed, gives back exactly the arguments.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/shell_command.h"
#include "shell_command.h"

using namespace ssdprobe;

namespace {

// What /bin/sh makes of the rendered words: each argument between < and >.
std::string as_shell_splits(const std::vector<std::string>& words) {
  std::string rendered;
  for (const auto& w : words) rendered += " " + shell_quote(w);
  const auto [status, output] = test_support::run_shell("set --" + rendered + "; for a; do printf '<%s>' \"$a\"; done");
  return status == 0 ? output : "exit " + std::to_string(status) + ": " + output;
}

std::string bracketed(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += "<" + w + ">";
  return out;
}

}  // namespace

TEST_CASE("plain words stay as they are; everything else is single-quoted") {
  CHECK(shell_quote("/dev/nvme0n1") == "/dev/nvme0n1");
  CHECK(shell_quote("--data-offset=2048K") == "--data-offset=2048K");
  CHECK(shell_quote("2048,131072") == "2048,131072");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("my disk.img") == "'my disk.img'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("vg;touch$IFS/var/x;:") == "'vg;touch$IFS/var/x;:'");
  CHECK(shell_quote("~root") == "'~root'");
}

TEST_CASE("a command with input lines is fed by printf") {
  CHECK(render_command({{"sfdisk", "/dev/sdb"}, {"label: gpt", "start=2048, type=linux"}}) ==
        "printf '%s\\n' 'label: gpt' 'start=2048, type=linux' | sfdisk /dev/sdb");
  CHECK(render_commands({{{"mkdir", "-p", "/mnt/x"}}, {{"umount", "/mnt/x"}}}) == "mkdir -p /mnt/x && umount /mnt/x");
}

TEST_CASE("the shell gives back every word, whatever bytes it holds") {
  const std::vector<std::string> hostile{"my disk.img", "it's", "\"quoted\"", "$(touch /tmp/x)", "`id`",
                                         "a;b|c&d", "line\nbreak", "tab\there", "*", "~", "#comment",
                                         "a=b", "\\", "'", "", "\xff\xfe not UTF-8", "-rf"};
  CHECK(as_shell_splits(hostile) == bracketed(hostile));
}
