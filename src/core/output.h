// What ssdprobe writes to standard output and standard error (progress,
// status lines, messages, the report) can never stop a run: a --write run
// whose SSH session drops (writes fail with EIO), or whose output pipe's
// reader exited (EPIPE, SIGPIPE), must still restore what it saved. And text
// that comes from outside (sysfs model and serial, paths) is shown with its
// control characters escaped, so a terminal escape sequence in a model name
// cannot rewrite what the user reads and confirms.
#pragma once

#include <signal.h>

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace ssdprobe {

// Writes `text` to `stream` and flushes it, ignoring every error: the
// stream's error flag is cleared and whatever could not be written is
// dropped (so no later flush, at exit, retries it). SIGPIPE is blocked around
// the write and a SIGPIPE it raised is discarded, so a closed pipe cannot
// kill the process. Never throws.
// A write to standard output that fails or is cut short (a full disk, a
// closed pipe) is remembered: standard_output_failure() then says why, and
// the command's exit code becomes 6 when it ends (cli/commands.cc), after a
// --write run has restored its window.
void print_quietly(std::FILE* stream, std::string_view text) noexcept;

// strerror of the first write to standard output that failed, or nullopt.
std::optional<std::string> standard_output_failure();

// "ssdprobe: warning: MESSAGE" on standard error, through printable() and
// print_quietly(): always shown (a warning is not progress, --quiet keeps it).
void print_warning(std::string_view message) noexcept;

// Ignores SIGPIPE while alive (a failed write is then just EPIPE) and puts
// the previous disposition back.
class SigpipeIgnored {
 public:
  SigpipeIgnored();
  ~SigpipeIgnored();
  SigpipeIgnored(const SigpipeIgnored&) = delete;
  SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

 private:
  struct sigaction previous_ {};
};

// The length of the well-formed UTF-8 sequence that starts `text` (1 to 4),
// or 0 when its first byte does not start one or `text` is empty. Well-formed
// as in Unicode's table 3-7: no overlong forms, no surrogates (U+D800 to
// U+DFFF), nothing above U+10FFFF, no truncated sequence.
std::size_t utf8_sequence_length(std::string_view text);

// Appends `byte` as the four characters \xHH (lower-case hex).
void append_escaped_byte(std::string& out, unsigned char byte);

// `text` as it may be shown on a terminal: every byte of a control character
// (C0 below 0x20, DEL 0x7f, the C1 controls U+0080 to U+009F, and the
// bidirectional formatting characters that reorder what is displayed) and
// every byte that is not part of well-formed UTF-8 is written as \xHH;
// everything else is kept. With `keep_newlines`, '\n' is kept (multi-line
// text such as the report).
std::string printable(std::string_view text, bool keep_newlines = false);

// Text for HTML and XML element content and attribute values (the report
// and comparison pages, an SVG's <title>): printable(), then & < > " ' as
// entities, so text from a document never becomes markup.
std::string html_text(std::string_view text);

// `text` with each byte that is not part of well-formed UTF-8 (overlong
// forms, surrogates, code points above U+10FFFF, truncated sequences, stray
// continuation bytes) written as \xHH; well-formed sequences are kept, control
// characters too (JSON escapes those itself).
std::string escape_invalid_utf8(std::string_view text);

}  // namespace ssdprobe
