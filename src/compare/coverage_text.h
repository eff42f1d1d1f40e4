// The header every human-readable rendering of a comparison opens with: when
// it was made and by which ssdprobe, which ssdprobe versions wrote the
// documents, the hosts and the runs it covers (a fleet report is read weeks
// later, and must say what it holds).
#pragma once

#include <string>
#include <vector>

#include "compare/fleet_comparison.h"

namespace ssdprobe {

struct CoverageLine {
  std::string key;    // stable name, for HTML ids and tests: made, versions, hosts, runs
  std::string label;  // what a reader sees: "made", "written by", "hosts", "runs"
  std::string value;  // raw text (hostnames and versions come from documents: escape for the format)
};

// At most `max_hosts` hostnames are named; the rest are counted ("and 12 more").
std::vector<CoverageLine> coverage_lines(const FleetCoverage& coverage, size_t max_hosts = 10);

}  // namespace ssdprobe
