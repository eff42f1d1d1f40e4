// Reads a whole range of a file or device, retrying short reads and EINTR.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <span>

namespace ssdprobe {

// Fills `bytes` from `fd` at `offset`; false when the range could not be
// read in full (an error, or the end of the file or device).
inline bool pread_exactly(int fd, std::span<uint8_t> bytes, uint64_t offset) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace ssdprobe
