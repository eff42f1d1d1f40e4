// Bytes that are not UTF-8 (file names, sysfs models and serials) in the
// JSON document, and control characters in what reaches a terminal.
#include <catch2/catch.hpp>
#include <string>

#include "core/output.h"
#include "report/utf8.h"

using namespace ssdprobe;
using json = nlohmann::ordered_json;

TEST_CASE("utf8_sequence_length follows Unicode's table of well-formed sequences") {
  CHECK(utf8_sequence_length("") == 0);
  CHECK(utf8_sequence_length("a") == 1);
  CHECK(utf8_sequence_length("\xc3\xa9") == 2);          // é
  CHECK(utf8_sequence_length("\xe2\x82\xac") == 3);      // €
  CHECK(utf8_sequence_length("\xf0\x9f\x98\x80") == 4);  // U+1F600
  CHECK(utf8_sequence_length("\xf4\x8f\xbf\xbf") == 4);  // U+10FFFF, the last code point
  CHECK(utf8_sequence_length("\xef\xbf\xbf") == 3);      // U+FFFF
  CHECK(utf8_sequence_length("\xed\x9f\xbf") == 3);      // U+D7FF, just below the surrogates
  CHECK(utf8_sequence_length("\xee\x80\x80") == 3);      // U+E000, just above them
  for (const char* bad : {"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
                          "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xfe",
                          "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc3\x41", "\xe2\x28\xac"}) {
    INFO(escape_invalid_utf8(bad));
    CHECK(utf8_sequence_length(bad) == 0);
  }
}

TEST_CASE("escape_invalid_utf8 keeps well-formed text and writes every other byte as \\xHH") {
  CHECK(escape_invalid_utf8("") == "");
  CHECK(escape_invalid_utf8("/dev/nvme0n1") == "/dev/nvme0n1");
  const std::string valid = "Caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf";
  CHECK(escape_invalid_utf8(valid) == valid);
  // Control characters are valid UTF-8: JSON escapes them itself.
  CHECK(escape_invalid_utf8(std::string("a\x1b\nb\0c", 6)) == std::string("a\x1b\nb\0c", 6));

  CHECK(escape_invalid_utf8("bad\xffname") == "bad\\xffname");
  CHECK(escape_invalid_utf8("\xfe\xff") == "\\xfe\\xff");
  CHECK(escape_invalid_utf8("\x80") == "\\x80");                                   // stray continuation
  CHECK(escape_invalid_utf8("\xc0\xaf") == "\\xc0\\xaf");                          // overlong '/'
  CHECK(escape_invalid_utf8("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");                 // overlong '/'
  CHECK(escape_invalid_utf8("\xf0\x80\x80\xaf") == "\\xf0\\x80\\x80\\xaf");        // overlong '/'
  CHECK(escape_invalid_utf8("\xed\xa0\x80") == "\\xed\\xa0\\x80");                 // surrogate U+D800
  CHECK(escape_invalid_utf8("\xed\xb0\x80\xed\xa0\x80") == "\\xed\\xb0\\x80\\xed\\xa0\\x80");
  CHECK(escape_invalid_utf8("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");        // above U+10FFFF
  CHECK(escape_invalid_utf8("x\xe2\x82") == "x\\xe2\\x82");                        // truncated at the end
  CHECK(escape_invalid_utf8("\xe2\x82x\xe2\x82\xac") == "\\xe2\\x82x\xe2\x82\xac");  // truncated, then a €
  CHECK(escape_invalid_utf8("\xc3\xc3\xa9") == "\\xc3\xc3\xa9");                   // lead without continuation
  CHECK(escape_invalid_utf8("Latin-1 caf\xe9!") == "Latin-1 caf\\xe9!");
}

TEST_CASE("with_valid_utf8 escapes every string and key of a document, so it can be dumped") {
  json doc = {{"target", {{"path", "/tmp/bad\xffname"}, {"model", "M\xc3\xa9"}, {"size_bytes", 67108864}}},
              {"notes", {"ok", "trunc\xe2\x82"}},
              {"nested", json::array({json::array({"\xed\xa0\x80"}), nullptr, true, 1.5})}};
  doc["key\xfe"] = "value";
  // What nlohmann does with the raw bytes: type_error 316, once exit 1.
  CHECK_THROWS_AS(doc.dump(), json::type_error);

  const json clean = with_valid_utf8(doc);
  std::string text;
  REQUIRE_NOTHROW(text = clean.dump(2));
  const json back = json::parse(text);
  CHECK(back["target"]["path"] == "/tmp/bad\\xffname");
  CHECK(back["target"]["model"] == "M\xc3\xa9");
  CHECK(back["target"]["size_bytes"] == 67108864);
  CHECK(back["notes"] == json::array({"ok", "trunc\\xe2\\x82"}));
  CHECK(back["nested"][0][0] == "\\xed\\xa0\\x80");
  CHECK(back["nested"][1].is_null());
  CHECK(back["nested"][2] == true);
  CHECK(back["nested"][3] == 1.5);
  CHECK(back["key\\xfe"] == "value");
  // Order is kept (ordered_json), and a valid document is unchanged.
  CHECK(clean.begin().key() == "target");
  const json valid = {{"a", "b"}, {"c", {1, 2}}};
  CHECK(with_valid_utf8(valid) == valid);
}

TEST_CASE("printable escapes control characters and malformed bytes for a terminal, keeps the rest") {
  CHECK(printable("Samsung SSD 970 EVO Plus 1TB") == "Samsung SSD 970 EVO Plus 1TB");
  CHECK(printable("Caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80") == "Caf\xc3\xa9 \xe2\x84\xa2 \xf0\x9f\x98\x80");
  CHECK(printable("\x1b[2J\x1b]0;t\x07") == "\\x1b[2J\\x1b]0;t\\x07");  // ESC, BEL
  CHECK(printable("a\rb\tc\x7f") == "a\\x0db\\x09c\\x7f");
  CHECK(printable(std::string("nul\0", 4)) == "nul\\x00");
  CHECK(printable("one\ntwo") == "one\\x0atwo");
  CHECK(printable("one\ntwo\r", true) == "one\ntwo\\x0d");
  CHECK(printable("\xc2\x9b" "31m") == "\\xc2\\x9b31m");  // C1 CSI, UTF-8 encoded
  CHECK(printable("\x9b" "31m") == "\\x9b31m");           // C1 CSI, a raw byte
  CHECK(printable("\xc2\xa0") == "\xc2\xa0");              // U+00A0 is not a control
  CHECK(printable("abc\xe2\x80\xae" "fed") == "abc\\xe2\\x80\\xaefed");  // U+202E right-to-left override
  CHECK(printable("bad\xffname") == "bad\\xffname");
}
