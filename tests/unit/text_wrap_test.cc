// Folding report lines to a width, and counted nouns ("1 round").
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "core/plural.h"
#include "report/text_wrap.h"

using namespace ssdprobe;

namespace {

size_t longest_line(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  size_t longest = 0;
  while (std::getline(lines, line)) longest = std::max(longest, text_columns(line));
  return longest;
}

}  // namespace

TEST_CASE("wrapped folds at the width under a hanging indent and keeps every word") {
  const std::string text =
      "16 KiB read page: each extra 16 KiB block touched adds 49.80 us (+/- 0.08, z = 646.6) against a 64.2 us "
      "small IO; chosen by 200 of 200 bootstrap resamples of 10752 IOs (support 0.998)";
  const std::string out = wrapped("  read page: ", text, 60, 4);
  CHECK(longest_line(out) <= 60);
  CHECK(out.rfind("  read page: 16 KiB read page:", 0) == 0);
  CHECK(out.find("\n    ") != std::string::npos);
  std::string joined;
  for (const char c : out) joined += c == '\n' ? ' ' : c;
  std::string squeezed;
  for (const char c : joined) {
    if (!(c == ' ' && !squeezed.empty() && squeezed.back() == ' ')) squeezed += c;
  }
  CHECK(squeezed == " read page: " + text + " ");  // the two leading spaces squeezed too
  CHECK(out.back() == '\n');
}

TEST_CASE("wrapped leaves short lines alone, never folds at width 0, and counts UTF-8 characters") {
  CHECK(wrapped("note: ", "short", 80, 6) == "note: short\n");
  const std::string long_text(300, 'x');
  CHECK(wrapped("", long_text + " " + long_text, 0, 2) == long_text + " " + long_text + "\n");
  // 30 "µs" words are 30*3 columns, not 30*4 bytes: fits in 90 columns exactly.
  std::string micro;
  for (int i = 0; i < 30; ++i) micro += (i ? " " : "") + std::string("\xc2\xb5s");
  CHECK(text_columns(micro) == 89);
  CHECK(wrapped("", micro, 90, 0).find('\n') == micro.size());
}

TEST_CASE("counted says 1 round, 2 rounds") {
  CHECK(counted(1, "round") == "1 round");
  CHECK(counted(2, "round") == "2 rounds");
  CHECK(counted(0, "timed IO") == "0 timed IOs");
  CHECK(counted(1, "entry", "entries") == "1 entry");
  CHECK(counted(3, "entry", "entries") == "3 entries");
}

TEST_CASE("a number and its unit are never split over two lines") {
  const std::string text = "aaaa bbbb cccc dddd 1 MiB partition alignment and 49.80 us, 4 KiB, 16 KiB) all";
  for (size_t width = 20; width <= 60; ++width) {
    INFO(width);
    const std::string out = wrapped("", text, width, 0);
    for (const char* unit : {"\nMiB", "\nus", "\nKiB"}) CHECK(out.find(unit) == std::string::npos);
  }
}
