// LVM2's text configuration format, the one VG metadata is written in
// (lvm2 libdm/libdm-config.c reads it): sections `name { ... }`, values
// `key = value` where a value is an integer, a real number, a "string" (or
// 'string') or a [list, of, scalars]; `#` starts a comment. A small, strict
// parser for decoding metadata read from a disk: anything it does not
// understand is an error (with the line), never an exception; nesting is
// bounded so crafted input cannot exhaust the stack.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdprobe {

struct LvmConfigValue {
  enum class Kind { integer, real, string, list };
  Kind kind = Kind::integer;
  int64_t integer = 0;                // Kind::integer
  std::string text;                   // Kind::string (unescaped), Kind::real (as written)
  std::vector<LvmConfigValue> items;  // Kind::list (scalars only)
};

struct LvmConfigSection {
  std::string name;  // "" for the top level
  std::vector<std::pair<std::string, LvmConfigValue>> values;
  std::vector<LvmConfigSection> sections;

  // The first value or subsection with this name, or nullptr.
  const LvmConfigValue* value(std::string_view key) const;
  const LvmConfigSection* section(std::string_view section_name) const;
  // The value if it is an integer, else nullopt.
  std::optional<int64_t> integer(std::string_view key) const;
  // The value if it is a string, else nullopt.
  std::optional<std::string> string(std::string_view key) const;
};

// Sections may nest this deep (VG metadata uses 4: vg, logical_volumes, lv,
// segment).
inline constexpr int kLvmConfigMaxDepth = 16;

struct LvmConfigParse {
  std::optional<LvmConfigSection> root;  // the top level, when the whole text parsed
  std::string error;                     // "line N: what was wrong" otherwise
};

LvmConfigParse parse_lvm_config(std::string_view text);

}  // namespace ssdprobe
