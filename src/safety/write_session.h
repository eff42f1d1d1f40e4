// Everything that makes a write run safe, in the order it must happen:
//
//  1. refuse a drive in use (exclusive_use.h) and claim it with O_EXCL for
//     the whole run, so nothing can mount it meanwhile;
//  2. refuse while an unrestored journal of this device exists;
//  3. put the journal on a filesystem that is not on the target;
//  4. (after confirmation) copy the write window to the journal and commit;
//  5. after the probes, or on any error or signal, write the window back,
//     read it back, compare checksums, and delete the journal.
//
// With preserve == false steps 2-5 are skipped (scratch drives).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/unique_fd.h"
#include "core/units.h"
#include "device/target.h"
#include "safety/confirm.h"
#include "safety/journal.h"
#include "safety/restore.h"

namespace ssdprobe {

struct WriteSessionOptions {
  std::filesystem::path journal_dir = "/var/lib/ssdprobe/journal";
  bool preserve = true;
};

// The default window for write probes: up to 256 MiB from the middle of the
// device, aligned to 1 MiB, never within its first or last MiB (partition
// tables live there). Throws Error(target) on a device too small for it.
Region default_write_window(uint64_t device_size);

class WriteSession {
 public:
  // Steps 1-3. Throws Error(refused) naming the reason.
  WriteSession(const Target& target, const Region& window, const WriteSessionOptions& options);

  WritePlanSummary summary() const;
  // Step 4 (no-op without preserve).
  void save();
  // Step 5: returns what was restored; no-op (nullopt) if nothing was saved.
  std::optional<RestoreReport> restore();
  bool saved() const { return saved_; }
  const std::filesystem::path& journal_path() const { return journal_path_; }

 private:
  void check_journal_location(const Target& target) const;
  void copy_window_to(JournalWriter& writer);
  std::string path_;
  Topology topology_;
  uint64_t rdev_ = 0;
  Region window_;
  WriteSessionOptions options_;
  UniqueFd claim_;          // O_EXCL descriptor held for the whole run
  std::filesystem::path journal_path_;
  bool saved_ = false;
};

}  // namespace ssdprobe
