// Deterministic pseudo-random numbers (xoshiro256**, seeded by splitmix64).
// Every random choice in a run comes from a generator seeded by --seed, so a
// simulated run is repeatable bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

namespace ssdprobe {

class Random {
 public:
  explicit Random(uint64_t seed) {
    for (auto& word : state_) word = splitmix(seed);
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, bound); bound > 0. Lemire's multiply-shift, unbiased enough
  // for bounds far below 2^64 (the bias is < bound / 2^64).
  uint64_t below(uint64_t bound) {
    __extension__ typedef unsigned __int128 wide;
    return static_cast<uint64_t>((static_cast<wide>(next()) * bound) >> 64);
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box-Muller; one value per call, simplicity over speed).
  double normal() {
    double u1 = uniform();
    double u2 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t state_[4];
};

}  // namespace ssdprobe
