// The runs ssdprobe makes, each an ordered list of phases (run/phase.h) run
// by the pipeline (run/pipeline.h):
//
//   characterize  read_grid, write_session, write_grid, erase_stream,
//                 write_parallelism, restore, read_written, read_parallelism,
//                 kernel_check, firmware, audit, verdict
//   (zoned)       read_grid, write_session, zoned_write, restore,
//                 read_parallelism, kernel_check, firmware, audit, verdict
//                 (--write on a host-managed zoned device)
//   info          firmware, verdict                      (no timing IO)
//   audit         saved_units, audit, verdict            (no timing IO)
//
// and one that is a single step: restore, from a journal.
//
// The command layer parses options, picks the run, and renders what it
// returns; nothing here prints a report.
#pragma once

#include <optional>
#include <vector>

#include "core/error.h"
#include "report/result.h"
#include "run/phase.h"
#include "run/run_observer.h"
#include "run/run_options.h"

namespace ssdprobe {

struct RunResult {
  ResultDocument doc;
  // The error that stopped the run, if one did (a signal, an IO error, a
  // refusal in the middle of it). The document still holds what finished
  // and says what did not (doc.phases).
  std::optional<Error> stopped_by;
};

// Set-up errors (target missing, bad --region, write refused or not
// confirmed) throw before any IO: there is no document then.
RunResult characterize(const Options& options, RunObserver& observer);
// Errors throw: these runs do no timing IO, so nothing measured is lost.
ResultDocument info(const Options& options);
ResultDocument audit(const Options& options);
// `ssdprobe restore JOURNAL`: puts back what an interrupted --write run
// saved, verifies it, deletes the journal; returns what it did. Throws
// Error(refused) naming what does not match.
std::string restore_from_journal(const Options& options);

// The phase lists, for tests and docs.
const std::vector<Phase>& characterize_phases();
const std::vector<Phase>& zoned_characterize_phases();  // --write on a host-managed zoned device
const std::vector<Phase>& info_phases();
const std::vector<Phase>& audit_phases();

}  // namespace ssdprobe
