#include "run/journal_check.h"

#include <fmt/format.h>

#include "core/output.h"
#include "core/shell_command.h"
#include "run/document.h"
#include "safety/journal_index.h"

namespace ssdprobe {

std::optional<std::string> skip_journals_if_sim(const RunContext& run) {
  if (run.doc.kind == TargetKind::sim) return std::string("a simulated drive is never journaled");
  return std::nullopt;
}

PhaseOutcome name_pending_journals(RunContext& run) {
  std::vector<std::string> notes;
  for (const auto& pending : pending_journals_on(run.target, run.options.journal_dir, default_journal_index())) {
    const JournalIdentity& id = pending.identity;
    if (!pending.readable) {
      notes.push_back(fmt::format("pending journal {} cannot be read ({}); it may hold a drive's only copy of some "
                                  "of its content, and no write run starts until it is restored or moved away",
                                  printable(pending.file.string()), printable(pending.problem)));
      continue;
    }
    notes.push_back(fmt::format("pending journal {}: a write run on {} that did not finish left bytes {} to {} "
                                "holding ssdprobe's test data; their original content is in the journal. Put it back "
                                "with: ssdprobe restore {}",
                                printable(pending.file.string()), printable(id.path), id.window_offset,
                                id.window_offset + id.window_length, shell_quote(pending.file.string())));
  }
  for (const auto& note : notes) run.observer.warn(note);
  add_notes(run.doc, notes);
  return PhaseOutcome::done();
}

}  // namespace ssdprobe
