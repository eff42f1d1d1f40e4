#include "compare/coverage_text.h"

#include <fmt/format.h>

#include "core/plural.h"

namespace ssdprobe {
namespace {

// "2026-11-26T12:40:00Z by ssdprobe 0.1.0"
std::string made_text(const FleetCoverage& c) {
  return fmt::format("{} by ssdprobe {}", c.made_at.empty() ? "(time unknown)" : c.made_at,
                     c.compared_by.empty() ? "(version unknown)" : c.compared_by);
}

// "ssdprobe 0.1.0 (10 documents)", "ssdprobe 0.1.0 (8 documents), ssdprobe 0.0.9 (2 documents)"
std::string versions_text(const FleetCoverage& c) {
  std::string out;
  for (const auto& [version, count] : c.versions) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ",
                       version.empty() ? std::string("an unknown ssdprobe version") : "ssdprobe " + version,
                       counted(count, "document"));
  }
  return out.empty() ? "-" : out;
}

// "3: host1, host2, host3", "25: a, b, ... and 15 more"; documents without a
// hostname are counted after them.
std::string hosts_text(const FleetCoverage& c, size_t max_hosts) {
  std::string out = std::to_string(c.hosts.size());
  for (size_t i = 0; i < c.hosts.size() && i < max_hosts; ++i) out += (i == 0 ? ": " : ", ") + c.hosts[i];
  if (c.hosts.size() > max_hosts) out += fmt::format(" and {} more", c.hosts.size() - max_hosts);
  if (c.without_hostname > 0) {
    out += fmt::format("; {} without a hostname", counted(c.without_hostname, "document"));
  }
  return out;
}

// "9 timed runs and 1 info document, started 2026-11-20T08:00:00Z to 2026-11-26T12:39:40Z";
// "9 timed runs (2 partial) and ..." when some stopped early.
std::string runs_text(const FleetCoverage& c) {
  std::string out = fmt::format("{}{} and {}", counted(c.timed_runs, "timed run"),
                                c.partial_runs ? fmt::format(" ({} partial)", c.partial_runs) : "",
                                counted(c.info_documents, "info document"));
  if (c.first_started_at.empty()) return out + ", no start time recorded";
  if (c.first_started_at == c.last_started_at) return out + ", started " + c.first_started_at;
  return out + fmt::format(", started {} to {}", c.first_started_at, c.last_started_at);
}

}  // namespace

std::vector<CoverageLine> coverage_lines(const FleetCoverage& coverage, size_t max_hosts) {
  return {{"made", "made", made_text(coverage)},
          {"versions", "written by", versions_text(coverage)},
          {"hosts", "hosts", hosts_text(coverage, max_hosts)},
          {"runs", "runs", runs_text(coverage)}};
}

}  // namespace ssdprobe
