// Robust statistics on latency samples.
#pragma once

#include <span>
#include <vector>

namespace ssdprobe {

// Quantile q in [0,1] of `values` (linear interpolation between order
// statistics, R's type 7). Copies and sorts; empty input gives 0.
double quantile(std::span<const double> values, double q);
double median(std::span<const double> values);
// Median absolute deviation scaled by 1.4826 (a consistent sigma estimate for
// normal data, unmoved by a few outliers).
double robust_sigma(std::span<const double> values);

// Quantile of data already sorted ascending.
double sorted_quantile(std::span<const double> sorted, double q);

}  // namespace ssdprobe
