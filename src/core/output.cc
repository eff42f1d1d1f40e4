#include "core/output.h"

#include <stdio_ext.h>  // __fpurge (glibc, musl)
#include <time.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdint>

namespace ssdprobe {
namespace {

// The errno of the first write to standard output that failed (EIO when the
// library gave none); 0 while every write went through whole.
std::atomic<int> stdout_failure{0};

void remember_stdout_failure(int err) {
  int none = 0;
  stdout_failure.compare_exchange_strong(none, err != 0 ? err : EIO);
}

}  // namespace

std::optional<std::string> standard_output_failure() {
  const int err = stdout_failure.load();
  if (err == 0) return std::nullopt;
  return std::string(std::strerror(err));
}

void print_quietly(std::FILE* stream, std::string_view text) noexcept {
  if (stream == nullptr) return;
  sigset_t pipe_only, old_mask, pending;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  const bool blocked = pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask) == 0;
  sigemptyset(&pending);
  const bool was_pending = blocked && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;
  errno = 0;
  const size_t written = text.empty() ? 0 : std::fwrite(text.data(), 1, text.size(), stream);
  const bool failed = written != text.size() || std::fflush(stream) != 0 || std::ferror(stream);
  if (failed) {
    if (stream == stdout) remember_stdout_failure(errno);
    __fpurge(stream);
  }
  std::clearerr(stream);
  if (blocked) {
    // A SIGPIPE raised by this write is pending on this thread: take it, so
    // that unblocking does not deliver it. One that was pending before is
    // someone else's and stays.
    if (!was_pending) {
      const timespec no_wait{};
      sigtimedwait(&pipe_only, nullptr, &no_wait);
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  }
}

SigpipeIgnored::SigpipeIgnored() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous_);
}

SigpipeIgnored::~SigpipeIgnored() { sigaction(SIGPIPE, &previous_, nullptr); }

std::size_t utf8_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // overlong below U+0800
    if (lead == 0xed) high = 0x9f;  // surrogates U+D800..U+DFFF
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // overlong below U+10000
    if (lead == 0xf4) high = 0x8f;  // above U+10FFFF
  } else {
    return 0;  // a continuation byte, C0/C1 (overlong two-byte forms) or F5..FF
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xbf) return 0;
  }
  return length;
}

void append_escaped_byte(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

namespace {

// The code point of a well-formed sequence of `length` bytes.
uint32_t decode(std::string_view sequence, std::size_t length) {
  const auto b = [&](std::size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(sequence[i])); };
  switch (length) {
    case 1: return b(0);
    case 2: return ((b(0) & 0x1f) << 6) | (b(1) & 0x3f);
    case 3: return ((b(0) & 0x0f) << 12) | ((b(1) & 0x3f) << 6) | (b(2) & 0x3f);
    default: return ((b(0) & 0x07) << 18) | ((b(1) & 0x3f) << 12) | ((b(2) & 0x3f) << 6) | (b(3) & 0x3f);
  }
}

bool is_control(uint32_t c) {
  if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  // Bidirectional formatting: they reorder the text shown after them.
  return c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

// Copies `text`, writing as \xHH every byte that is not part of well-formed
// UTF-8 and every byte of a well-formed character `escape` picks.
template <typename EscapeCharacter>
std::string escaped_text(std::string_view text, EscapeCharacter escape) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = utf8_sequence_length(text.substr(i));
    if (length == 0) {
      append_escaped_byte(out, static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (escape(decode(text.substr(i), length))) {
      for (std::size_t k = 0; k < length; ++k) append_escaped_byte(out, static_cast<unsigned char>(text[i + k]));
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace

void print_warning(std::string_view message) noexcept {
  try {
    print_quietly(stderr, "ssdprobe: warning: " + printable(message) + "\n");
  } catch (...) {
    // Out of memory building the line: a warning is not worth stopping for.
  }
}

std::string printable(std::string_view text, bool keep_newlines) {
  return escaped_text(text, [keep_newlines](uint32_t c) { return is_control(c) && !(keep_newlines && c == '\n'); });
}

std::string escape_invalid_utf8(std::string_view text) {
  return escaped_text(text, [](uint32_t) { return false; });
}

std::string html_text(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace ssdprobe
