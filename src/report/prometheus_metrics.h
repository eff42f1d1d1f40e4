// Result documents as Prometheus metrics, in the text exposition format that
// node_exporter's textfile collector reads (docs/monitoring.md lists every
// series). One file may hold many drives (`audit --all-disks`): each metric
// family is written once, with one sample per drive, as the format requires.
//
// Every series is a gauge (a document is a snapshot, nothing in it only
// grows), in base units (bytes, seconds, ratios), labelled with the drive's
// device, model, serial and firmware and the command that measured it, so a
// run's file and the daily audit's file in one directory never collide.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/saved_result.h"

namespace ssdprobe {

// A target whose command failed before it made a document: exported as
// ssdprobe_up 0, so a dashboard sees the failure rather than stale values.
struct FailedTarget {
  std::string device;   // as given on the command line
  std::string command;  // run, audit or info
  std::string reason;   // the error message (in a comment, not a label)
  double at_s = 0.0;    // Unix time of the failure
};

// Each series (metric name and label set) is written once, whatever the
// documents hold: a repeat is left out and named in a comment, as is a
// second document of the same drive and command.
std::string render_prometheus(const std::vector<SavedResult>& documents, const std::vector<FailedTarget>& failures);

// A label value as the exposition format wants it: valid UTF-8 (an invalid
// byte becomes the text \xHH), then backslash, double quote and newline
// escaped.
std::string prometheus_label_value(const std::string& text);

// "2026-11-27T07:25:10Z" (RFC 3339, UTC, optional fraction) as Unix seconds;
// nullopt for anything else.
std::optional<double> unix_seconds(const std::string& rfc3339);

}  // namespace ssdprobe
