// One error type for the whole tool. Lower layers throw ssdprobe::Error; the
// command layer (src/cli) catches it, prints the message and maps the
// category to the documented exit code. Nothing else is thrown across layers.
#pragma once

#include <stdexcept>
#include <string>

namespace ssdprobe {

enum class ErrorCategory {
  usage,          // malformed option, size or region
  target,         // path missing, wrong kind of file, too small, unknown sim
  permission,     // EACCES/EPERM opening or using the target
  unsupported,    // O_DIRECT, io_uring or another feature not available
  io,             // an IO failed while probing
  refused,        // a safety rule refused the request
  interrupted,    // SIGINT/SIGTERM/SIGHUP arrived; the run unwound cleanly
  internal,       // a bug
};

// Exit codes, documented in README.md ("Exit codes") and `ssdprobe --help`.
int exit_code_for(ErrorCategory category);
const char* category_name(ErrorCategory category);

class Error : public std::runtime_error {
 public:
  Error(ErrorCategory category, const std::string& message)
      : std::runtime_error(message), category_(category) {}
  ErrorCategory category() const { return category_; }

 private:
  ErrorCategory category_;
};

// An Error for a failed system call: "<context>: <strerror(errno)>", with the
// category chosen from errno (EACCES/EPERM -> permission, ENOENT -> target...).
Error os_error(const std::string& context, int errno_value);

}  // namespace ssdprobe
