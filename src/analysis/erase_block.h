// Infers the erase block (or superblock) from the latencies of a sequential
// write stream: a drive that opens a new erase block stalls on the first
// write into it, so stalls recur with a period of one erase block. Periods
// need not be powers of two.
//
// Method: call a write "slow" when it exceeds the fast writes' 25th
// percentile by max(6 of their sigmas, 50%). For each period p (in writes) from
// 2 to n / min_periods and each phase, count slow writes on that phase. The
// erase block is the smallest period whose best phase has at least 75% slow
// writes (a divisor of the true period has only 50% or fewer) and whose slow
// count is improbable by chance: binomial tail against the slow rate off that
// phase, multiplied by the number of (period, phase) pairs tried so far.
// A period that is a chance subset of a shorter one's stalls (a multiple of
// an erase block whose stalls noise hides in part) is passed over; the
// evidence then says where the stalls recur (chance_subset_of in the .cc).
// With no period, the smallest stall the stream sees reliably is the
// threshold over the 5th percentile; when the writes' spread sets the
// threshold and that is above a millisecond (an erase's cost), nothing is
// ruled out (spread_hides_stalls).
// Confidence is one minus that corrected p-value. When the block is not a
// whole number of writes, the stalls fall on h evenly spaced phases of the
// shortest exact period p, and the block is p / h writes (see
// stalling_phases in the .cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdprobe {

struct WriteStream {
  uint64_t chunk_bytes = 0;          // write k covers [k*chunk, (k+1)*chunk) of the window
  std::vector<double> latency_us;
};

struct EraseBlockVerdict {
  std::optional<uint64_t> bytes;
  double confidence = 0.0;
  std::string evidence;
  uint64_t searched_up_to_bytes = 0;  // largest period that could be seen
  uint64_t stall_phase_bytes = 0;     // where in the window the stalls sit
  double stall_us = 0.0;              // median extra latency of a stall
  // No block named, but stalls recur at this period on too few of its
  // writes (recurring_share of them) to name one: noise hides the rest.
  std::optional<uint64_t> recurs_every_bytes;
  double recurring_share = 0.0;
  // No period found: what a stall must add to a typical write for the stream
  // to see it, and whether the writes' own spread hides stalls the size of
  // an erase (over a millisecond), in which case nothing is ruled out.
  double stall_floor_us = 0.0;
  bool spread_hides_stalls = false;
};

EraseBlockVerdict infer_erase_block(const WriteStream& stream, int min_periods = 6);

// Upper tail of the binomial distribution, P(X >= k) for X ~ Bin(n, p).
double binomial_tail(int n, int k, double p);

}  // namespace ssdprobe
