// Shared by every libFuzzer target in tests/fuzz. A target feeds the input
// bytes to one decoder of untrusted data and:
//  - accepts ssdprobe::Error as the decoder's documented rejection
//    (fuzz_expect_rejection catches exactly that);
//  - lets every other exception escape LLVMFuzzerTestOneInput, where it
//    reaches std::terminate: libFuzzer reports a "deadly signal" and saves
//    the input (an uncaught std::exception is a finding);
//  - checks a few properties the decoder's header promises with
//    FUZZ_CHECK, which aborts (a finding) when one does not hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string_view>

#include "core/error.h"

#define FUZZ_CHECK(condition)                                                                         \
  do {                                                                                                \
    if (!(condition)) {                                                                               \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed\n", __FILE__, __LINE__, #condition);        \
      std::abort();                                                                                   \
    }                                                                                                 \
  } while (false)

namespace fuzz {

inline std::span<const uint8_t> bytes(const uint8_t* data, size_t size) { return {data, size}; }
inline std::string_view text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Keeps a value alive so the call that produced it (and inline accessors on
// it) are not optimised away.
template <typename T>
inline void keep(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

// Runs `body`; an ssdprobe::Error is the expected rejection of bad input.
// Returns true if body returned normally.
template <typename F>
bool expect_rejection(F&& body) {
  try {
    body();
    return true;
  } catch (const ssdprobe::Error&) {
    return false;
  }
}

}  // namespace fuzz
