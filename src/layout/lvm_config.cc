#include "layout/lvm_config.h"

#include <limits>

namespace ssdprobe {

const LvmConfigValue* LvmConfigSection::value(std::string_view key) const {
  for (const auto& [name, v] : values) {
    if (name == key) return &v;
  }
  return nullptr;
}

const LvmConfigSection* LvmConfigSection::section(std::string_view section_name) const {
  for (const auto& s : sections) {
    if (s.name == section_name) return &s;
  }
  return nullptr;
}

std::optional<int64_t> LvmConfigSection::integer(std::string_view key) const {
  const LvmConfigValue* v = value(key);
  if (v == nullptr || v->kind != LvmConfigValue::Kind::integer) return std::nullopt;
  return v->integer;
}

std::optional<std::string> LvmConfigSection::string(std::string_view key) const {
  const LvmConfigValue* v = value(key);
  if (v == nullptr || v->kind != LvmConfigValue::Kind::string) return std::nullopt;
  return v->text;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// A word (section name, key or number) runs until a space or a character
// with a meaning of its own.
bool ends_word(char c) {
  return is_space(c) || c == '#' || c == '=' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',' ||
         c == '"' || c == '\'' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

// Integer ("-12"), real ("1.5") or an error.
std::optional<LvmConfigValue> number(std::string_view word) {
  size_t i = word.starts_with('-') ? 1 : 0;
  const size_t digits_start = i;
  uint64_t magnitude = 0;
  const uint64_t limit = word.starts_with('-') ? uint64_t{std::numeric_limits<int64_t>::max()} + 1
                                               : uint64_t{std::numeric_limits<int64_t>::max()};
  for (; i < word.size() && is_digit(word[i]); ++i) {
    const auto digit = static_cast<uint64_t>(word[i] - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;  // does not fit in int64
    magnitude = magnitude * 10 + digit;
  }
  if (i == digits_start) return std::nullopt;
  LvmConfigValue value;
  if (i == word.size()) {
    value.integer = magnitude == uint64_t{std::numeric_limits<int64_t>::max()} + 1
                        ? std::numeric_limits<int64_t>::min()
                        : (word.starts_with('-') ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude));
    return value;
  }
  if (word[i] != '.' || i + 1 == word.size()) return std::nullopt;
  for (size_t j = i + 1; j < word.size(); ++j) {
    if (!is_digit(word[j])) return std::nullopt;
  }
  value.kind = LvmConfigValue::Kind::real;
  value.text = std::string(word);
  return value;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  LvmConfigParse run() {
    LvmConfigSection root;
    LvmConfigParse result;
    if (section_body(root, 0)) {
      result.root = std::move(root);
    } else {
      result.error = "line " + std::to_string(error_line_) + ": " + error_;
    }
    return result;
  }

 private:
  // Reads `key = value` and `name { ... }` entries until the closing brace
  // (or, at depth 0, the end of the text).
  bool section_body(LvmConfigSection& section, int depth) {
    for (;;) {
      skip_space();
      if (at_end()) return depth == 0 || fail("missing } for section " + section.name);
      if (peek() == '}') {
        if (depth == 0) return fail("} without a section");
        ++pos_;
        return true;
      }
      std::string name(word());
      if (name.empty()) return fail(std::string("unexpected character '") + peek() + "'");
      skip_space();
      if (!at_end() && peek() == '{') {
        ++pos_;
        if (depth + 1 > kLvmConfigMaxDepth) return fail("sections nested deeper than " + std::to_string(kLvmConfigMaxDepth));
        LvmConfigSection child;
        child.name = std::move(name);
        if (!section_body(child, depth + 1)) return false;
        section.sections.push_back(std::move(child));
      } else if (!at_end() && peek() == '=') {
        ++pos_;
        LvmConfigValue value;
        if (!any_value(value)) return false;
        section.values.emplace_back(std::move(name), std::move(value));
      } else {
        return fail("expected = or { after " + name);
      }
    }
  }

  bool any_value(LvmConfigValue& value) {
    skip_space();
    if (at_end()) return fail("value missing at the end");
    if (peek() != '[') return scalar(value);
    ++pos_;
    value.kind = LvmConfigValue::Kind::list;
    skip_space();
    if (!at_end() && peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      LvmConfigValue item;
      skip_space();
      if (!scalar(item)) return false;
      value.items.push_back(std::move(item));
      skip_space();
      if (at_end()) return fail("missing ] at the end");
      const char c = text_[pos_++];
      if (c == ']') return true;
      if (c != ',') return fail(std::string("expected , or ] in a list, not '") + c + "'");
    }
  }

  bool scalar(LvmConfigValue& value) {
    if (at_end()) return fail("value missing at the end");
    if (peek() == '"' || peek() == '\'') return quoted(value);
    const std::string_view w = word();
    if (w.empty()) return fail(std::string("unexpected character '") + peek() + "' where a value belongs");
    auto parsed = number(w);
    if (!parsed) return fail("not a number or string: " + std::string(w));
    value = std::move(*parsed);
    return true;
  }

  // "..." or '...'; a backslash takes the next character literally.
  bool quoted(LvmConfigValue& value) {
    const char quote = text_[pos_++];
    value.kind = LvmConfigValue::Kind::string;
    while (!at_end()) {
      char c = text_[pos_++];
      if (c == quote) return true;
      if (c == '\n') ++line_;
      if (c == '\\') {
        if (at_end()) break;
        c = text_[pos_++];
        if (c == '\n') ++line_;
      }
      value.text.push_back(c);
    }
    return fail("unterminated string");
  }

  std::string_view word() {
    const size_t start = pos_;
    while (!at_end() && !ends_word(peek())) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  void skip_space() {
    while (!at_end()) {
      const char c = peek();
      if (c == '\n') ++line_;
      if (c == '#') {
        while (!at_end() && peek() != '\n') ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else {
        return;
      }
    }
  }

  bool fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_line_ = line_;
    }
    return false;
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  std::string_view text_;
  size_t pos_ = 0;
  size_t line_ = 1;
  std::string error_;
  size_t error_line_ = 0;
};

}  // namespace

LvmConfigParse parse_lvm_config(std::string_view text) { return Parser(text).run(); }

}  // namespace ssdprobe
