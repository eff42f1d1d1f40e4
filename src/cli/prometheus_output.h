// --prometheus FILE: the result documents of a command (one, or one per disk
// with `audit --all-disks`) as metrics for node_exporter's textfile
// collector, and ssdprobe_up 0 for a target that failed (docs/monitoring.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/prometheus_metrics.h"
#include "run/run_options.h"

namespace ssdprobe {

// Refuses (Error(usage)) what cannot be written before any work starts, as
// --json's check does, plus standard output asked for twice and a path over
// the target or a saved result document; warns when FILE does not end in
// .prom (the collector reads only those).
void check_prometheus_destination(const Options& options);

// The monitoring fields of a document's JSON text (what --json writes).
SavedResult monitoring_view(std::string_view document_json);

// Writes the metrics to options.prometheus_path (nothing when it is empty),
// as a whole file renamed into place.
void write_prometheus(const Options& options, const std::vector<SavedResult>& documents,
                      const std::vector<FailedTarget>& failures);

// A FailedTarget for `target`, failed now with `error_text`.
FailedTarget failed_now(const std::string& target, const std::string& command, const std::string& error_text);

}  // namespace ssdprobe
