// Quantiles and robust spread of latency samples.
#include <catch2/catch.hpp>
#include <vector>

#include "analysis/latency_grid.h"
#include "analysis/stats.h"

using namespace ssdprobe;

TEST_CASE("quantile interpolates between order statistics") {
  const std::vector<double> v{5, 1, 4, 2, 3};
  CHECK(median(v) == Approx(3));
  CHECK(quantile(v, 0.0) == Approx(1));
  CHECK(quantile(v, 1.0) == Approx(5));
  CHECK(quantile(v, 0.25) == Approx(2));
  CHECK(quantile(std::vector<double>{1, 2}, 0.5) == Approx(1.5));
  CHECK(quantile(std::vector<double>{}, 0.5) == 0.0);
}

TEST_CASE("robust_sigma ignores a few huge outliers") {
  std::vector<double> v;
  for (int i = 0; i <= 100; ++i) v.push_back(100.0 + (i - 50) * 0.1);  // uniform over 95..105
  const double clean = robust_sigma(v);
  CHECK(clean == Approx(1.4826 * 2.5).epsilon(0.01));  // MAD of U(95,105) is 2.5
  v[0] = 1e6;      // was 95.0
  v[100] = 5e5;    // was 105.0
  v[50] = -1e6;    // was 100.0
  CHECK(robust_sigma(v) == Approx(clean).epsilon(0.1));
}

TEST_CASE("summarize_cell reports median, p10, p90, p99 and count") {
  std::vector<double> v;
  for (int i = 1; i <= 101; ++i) v.push_back(i);
  const CellSummary s = summarize_cell(v);
  CHECK(s.count == 101);
  CHECK(s.median_us == Approx(51));
  CHECK(s.p10_us == Approx(11));
  CHECK(s.p90_us == Approx(91));
  CHECK(s.p99_us == Approx(100));
}
