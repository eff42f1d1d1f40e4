// The wall-clock time as text, for what people read (the result document's
// started_at, journal names). Timing never uses this: see device.h now_ns().
#pragma once

#include <string>

namespace ssdprobe {

inline constexpr const char* kIso8601Utc = "%Y-%m-%dT%H:%M:%SZ";  // 2026-11-23T09:42:41Z
inline constexpr const char* kCompactUtc = "%Y%m%dT%H%M%SZ";      // 20261123T094241Z, safe in file names

// Now, in UTC, formatted by strftime(3) `format`.
std::string utc_now_text(const char* format);

}  // namespace ssdprobe
