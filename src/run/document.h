// Putting measured results into the result document: the document a run
// starts from, a read grid's verdict and grid, plan notes without repeats,
// and units taken from a saved document.
#pragma once

#include <string>
#include <vector>

#include "device/target.h"
#include "probes/grid_probe.h"
#include "report/result.h"
#include "report/result_reader.h"
#include "run/run_options.h"

namespace ssdprobe {

// Identity, topology and options; the write unit and erase block "not
// measured" until write phases say otherwise.
ResultDocument base_document(const Options& options, const Target& target);

// Plan notes (4 KiB sectors, capped sizes) go into the document once each:
// the read and write grids often plan the same adaptation.
void add_notes(ResultDocument& doc, const std::vector<std::string>& notes);

// The read grid's verdict as the read page (`device_state`: where it was
// measured, empty for the first grid), and its grid under `grid_name`. The
// grids move into the document: a read grid that ran to its IO cap holds
// 2,000,000 latencies twice (raw and drift-corrected), 32 MB that a copy
// would double at the run's peak.
void record_read(ResultDocument& doc, GridProbeResult read, const char* grid_name, uint32_t queue_depth,
                 const std::string& device_state);

// A read grid under `grid_name` without a verdict of its own (moved, as
// record_read's).
void record_read_grid(ResultDocument& doc, GridProbeResult read, const char* grid_name, uint32_t queue_depth);

// An audit against units measured earlier: they become the document's
// detected units, marked as read from the file, and the warnings below go
// into the document's notes (the audit still runs: a sibling drive of the
// same model is a fair source, and the user may know better).
void use_saved_units(ResultDocument& doc, const MeasuredUnits& saved, const std::string& file);

// "--units-from FILE: ..." warnings: the document describes another device
// (by serial, model, path: what differs is named), or determined no unit.
std::vector<std::string> saved_units_warnings(const MeasuredUnits& saved, const Topology& topology,
                                              const std::string& target_path, const std::string& file);

}  // namespace ssdprobe
