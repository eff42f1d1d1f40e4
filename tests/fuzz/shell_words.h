// How a POSIX shell (XCU 2.2 quoting, 2.3 token recognition) splits a
// command line, for checking what ssdprobe prints: words with their quotes
// removed, and the control operators between them. Anything that would make
// the shell do more than run the words as they are (an unquoted $ or `, a
// glob character, a ~ or # starting a word, an unterminated quote, an
// assignment where the command name should be) is reported as "expands",
// which a rendered command must never do.
#pragma once

#include <string>
#include <vector>

namespace shell_words {

struct Token {
  bool is_operator = false;
  std::string text;  // the word with quotes removed, or the operator ("|", "&&", ";", newline as "\n")
};

struct Split {
  std::vector<Token> tokens;
  bool expands = false;     // the shell would substitute, glob or expand something
  std::string why;          // what, for the failure message
};

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }
inline bool is_operator_char(char c) {
  return c == '|' || c == '&' || c == ';' || c == '<' || c == '>' || c == '(' || c == ')' || c == '\n';
}

inline Split split(const std::string& line) {
  Split out;
  std::string word;
  bool in_word = false;
  // The word's characters before its first quote or backslash: a command
  // name of the form NAME=... there is an assignment (XCU 2.9.1).
  std::string plain_start;
  bool quoted = false;
  auto flag = [&out](const std::string& why) {
    if (!out.expands) out.why = why;
    out.expands = true;
  };
  auto end_word = [&] {
    const bool command_name = out.tokens.empty() || out.tokens.back().is_operator;
    const size_t equals = plain_start.find('=');
    if (in_word && command_name && equals != std::string::npos && equals > 0) {
      bool name = !(plain_start[0] >= '0' && plain_start[0] <= '9');
      for (size_t k = 0; k < equals; ++k) {
        const char n = plain_start[k];
        name = name && (n == '_' || (n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z') || (n >= '0' && n <= '9'));
      }
      if (name) flag("an assignment where the command name should be");
    }
    if (in_word) out.tokens.push_back({false, word});
    word.clear();
    plain_start.clear();
    quoted = false;
    in_word = false;
  };
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'' || c == '"' || c == '\\') quoted = true;
    if (c == '\'') {
      const size_t close = line.find('\'', i + 1);
      if (close == std::string::npos) {
        flag("unterminated single quote");
        return out;
      }
      word += line.substr(i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (c == '"') {
      in_word = true;
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '$' || line[j] == '`') flag("expansion inside double quotes");
        if (line[j] == '\\' && j + 1 < line.size() && std::string("$`\"\\\n").find(line[j + 1]) != std::string::npos) {
          ++j;
        }
        word += line[j];
      }
      if (j >= line.size()) {
        flag("unterminated double quote");
        return out;
      }
      i = j;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) {
        flag("backslash at the end");
        return out;
      }
      if (line[i + 1] != '\n') word += line[i + 1];  // backslash-newline is a line continuation
      in_word = true;
      ++i;
    } else if (is_blank(c)) {
      end_word();
    } else if (is_operator_char(c)) {
      end_word();
      std::string op(1, c);
      if (i + 1 < line.size() && (c == '|' || c == '&' || c == ';' || c == '<' || c == '>') && line[i + 1] == c) {
        op += c;
        ++i;
      }
      out.tokens.push_back({true, op});
    } else {
      if (c == '$' || c == '`') flag(std::string("unquoted ") + c);
      if (c == '*' || c == '?' || c == '[') flag(std::string("unquoted glob character ") + c);
      if (!in_word && (c == '~' || c == '#')) flag(std::string("word starting with unquoted ") + c);
      if (!quoted) plain_start += c;
      word += c;
      in_word = true;
    }
  }
  end_word();
  return out;
}

// The simple commands of a split line, cut at its operators, each with the
// operator that ended it ("" for the last).
struct Simple {
  std::vector<std::string> argv;
  std::string ended_by;
};

inline std::vector<Simple> simple_commands(const Split& split) {
  std::vector<Simple> out(1);
  for (const Token& t : split.tokens) {
    if (t.is_operator) {
      out.back().ended_by = t.text;
      out.emplace_back();
    } else {
      out.back().argv.push_back(t.text);
    }
  }
  return out;
}

}  // namespace shell_words
