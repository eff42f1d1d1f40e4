// Everything that makes a write run safe, in the order it must happen:
//
//  0. refuse a zoned block device (zoned_refusal.h), except a whole
//     host-managed one, where the session is zone-safe: it chooses empty
//     zones (zone_choice.h) and its window is their span; save() journals
//     the zones (no content: they are empty) and restore() resets them
//     (zone_reset.h) instead of steps 4 and 5's copies;
//  1. refuse a drive (or file) in use (exclusive_use.h) and claim it: one
//     descriptor, O_EXCL for block devices, held for the whole run and
//     checked to be the node the path named when it was classified, and the
//     bytes behind it locked against another name for them (lock_storage). The
//     journal copy, the probes (through open_engine's claimed_fd) and the
//     restore all go through it, so a path swapped meanwhile changes nothing;
//  2. refuse while an unrestored journal overlaps the window on the same
//     storage (in disk coordinates: a partition's journal blocks its whole
//     disk; in backing-file coordinates for files and loop devices), found
//     in this run's journal directory or in the system's index of pending
//     journals (journal_index.h), where this run's journal is listed too;
//  3. put the journal in a trusted, durable directory with room for it that
//     is not on the target (journal_dir.h);
//  4. (after confirmation) copy the window to the journal, commit, and mark
//     the journal "writes may have started";
//  5. after the probes, or on any error or signal, read the journal back
//     through the descriptor it was created with, check it is exactly this
//     session's (identity and window), write back what differs from it
//     (restore.h restore_records), read it back, compare checksums, and
//     delete the journal if its name still refers to it.
//
// With preserve == false steps 2-5 are skipped (scratch drives).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/unique_fd.h"
#include "core/units.h"
#include "device/target.h"
#include "device/zone_report.h"
#include "safety/confirm.h"
#include "safety/journal.h"
#include "safety/journal_dir.h"
#include "safety/journal_index.h"
#include "safety/restore.h"

namespace ssdprobe {

struct WriteSessionOptions {
  std::filesystem::path journal_dir = "/var/lib/ssdprobe/journal";
  bool preserve = true;
  bool region_given = false;  // the window came from --region (it may touch the first/last MiB)
  JournalDirOptions journal_dir_options;
  std::filesystem::path journal_index = default_journal_index();  // journal_index.h
  uint64_t zones_wanted = 4;  // zone-safe runs: at most this many empty zones
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
  // The claimed descriptor (O_RDWR|O_DIRECT), for open_engine's claimed_fd.
  int device_fd() const { return device_.get(); }
  // Step 4 (no-op without preserve).
  void save();
  // Step 5: returns what was restored; no-op (nullopt) if nothing was saved.
  std::optional<RestoreReport> restore();
  bool saved() const { return saved_; }
  // Zone-safe: the empty zones chosen to write, ascending (empty for a
  // window session). They are the only bytes the probes may write.
  const std::vector<Zone>& write_zones() const { return zones_; }
  bool zoned() const { return !zones_.empty(); }
  const std::filesystem::path& journal_path() const { return journal_path_; }

 private:
  void claim(const Target& target);
  void lock_storage(const Target& target);
  void lock_loop_backing(const Target& target);
  void lock_file_range(int fd, uint64_t start, const std::string& file) const;
  void check_journal_location(const Target& target) const;
  void refuse_pending_journals() const;
  void copy_window_to(JournalWriter& writer);
  void choose_zones(const Target& target);
  RestoreReport reset_zones_back(const JournalContents& contents);
  std::string path_;
  Topology topology_;
  TargetKind kind_;
  Region window_;
  WriteSessionOptions options_;
  CreatedDirs created_dirs_;  // removed unless a journal was saved there (a refusal leaves nothing behind)
  UniqueFd device_;          // the claim, held for the whole run
  UniqueFd storage_lock_;    // a loop target's backing, claimed or range-locked for the run (lock_storage)
  JournalIdentity identity_;
  std::filesystem::path journal_path_;
  UniqueFd journal_;         // open from creation to restore
  std::unique_ptr<RestoreBuffers> restore_buffers_;  // allocated by save(), before the first write
  bool saved_ = false;
  std::vector<Zone> zones_;  // zone-safe runs only
};

}  // namespace ssdprobe
