// Where what the kernel reports disagrees with what was measured. Takes the
// reported topology and the detected units, never a grid or a device.
#pragma once

#include <vector>

#include "device/topology.h"
#include "report/result.h"

namespace ssdprobe {

std::vector<Mismatch> find_mismatches(const Topology& reported, const DetectedUnit& read_page);

}  // namespace ssdprobe
