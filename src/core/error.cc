#include "core/error.h"

#include <cerrno>
#include <cstring>

namespace ssdprobe {

int exit_code_for(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::usage: return 2;
    case ErrorCategory::target: return 3;
    case ErrorCategory::permission: return 4;
    case ErrorCategory::unsupported: return 5;
    case ErrorCategory::io: return 6;
    case ErrorCategory::refused: return 7;
    case ErrorCategory::interrupted: return 130;
    case ErrorCategory::internal: return 1;
  }
  return 1;
}

const char* category_name(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::usage: return "usage";
    case ErrorCategory::target: return "target";
    case ErrorCategory::permission: return "permission";
    case ErrorCategory::unsupported: return "unsupported";
    case ErrorCategory::io: return "io";
    case ErrorCategory::refused: return "refused";
    case ErrorCategory::interrupted: return "interrupted";
    case ErrorCategory::internal: return "internal";
  }
  return "internal";
}

Error os_error(const std::string& context, int errno_value) {
  ErrorCategory category = ErrorCategory::io;
  switch (errno_value) {
    case EACCES:
    case EPERM:
    case EROFS: category = ErrorCategory::permission; break;
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case ENXIO:
    case ENODEV: category = ErrorCategory::target; break;
    case EINVAL:
    case EOPNOTSUPP:
    case ENOSYS: category = ErrorCategory::unsupported; break;
    default: break;
  }
  return Error(category, context + ": " + std::strerror(errno_value));
}

}  // namespace ssdprobe
