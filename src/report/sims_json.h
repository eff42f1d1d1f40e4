// `ssdprobe --list-sims --json`: every simulated drive with its ground truth
// (what a correct run must find), for scripts and the benchmark.
#pragma once

#include <nlohmann/json.hpp>

namespace ssdprobe {

nlohmann::ordered_json sims_json();

}  // namespace ssdprobe
