// `ssdprobe restore` of a zone journal (safety/journal.h): the zones a
// zone-safe --write run was writing when it was killed. They were empty when
// the run chose them, so a reset gives them back exactly; restore resets
// exactly the journaled zones and nothing else, once it has checked that
// each is still a zone of the device and holds nothing but ssdprobe's test
// data (core/probe_data.h) below its write pointer.
#pragma once

#include <string>

#include "safety/journal.h"
#include "safety/restore.h"

namespace ssdprobe {

// The census of the journaled zones before a reset: bytes below their
// write pointers, and how many of them are not ssdprobe's test data.
struct ZoneCensus {
  uint64_t zones = 0, written_zones = 0;
  uint64_t test_bytes = 0, foreign_bytes = 0;
  uint64_t first_foreign_offset = 0;  // meaningful when foreign_bytes > 0
};

// `device_fd` is the journaled device, open for writing (O_DIRECT), its
// identity already checked. Refuses (Error(refused)) when a journaled zone
// is no longer one of the device's zones, or, without --force, when a zone
// holds bytes that are not test data (written since the run). Asks unless
// --yes, resets, verifies each zone empty. The caller retires the journal.
RestoreReport restore_zone_journal(const RestoreRequest& request, const JournalContents& contents, int device_fd,
                                   const std::string& path);

}  // namespace ssdprobe
