// The note on a read page that a read grid did not show (issue 20). A page
// can hide from a queue-depth-1 grid in three ways, and the note names each
// one the run's data still allow, with what this run measured about it and
// what would tell them apart:
//   - never-written or trimmed space, which many drives answer from the
//     mapping table without sensing NAND (a --write run re-reads the window
//     it wrote: when that shows no page either, this is not the reason);
//   - neighbouring pages on different dies, which a straddling read senses
//     in parallel (the slower of two senses, not their sum): the stride
//     structure of the parallelism probe says which pages share a unit, and
//     a read grid at a deeper --qd, where the units are busy, would show it;
//   - media without pages (DRAM, Optane, a RAM disk, a loop device over
//     tmpfs or the page cache): the latencies' level says whether the reads
//     could have sensed NAND at all.
// The note uses the three answers of report/unit_answer.h: the read page is
// found (on written space only), ruled out (up to a size) or not determined.
#pragma once

#include <optional>
#include <string>

#include "analysis/unit_inference.h"
#include "probes/read_content_probe.h"
#include "report/result.h"

namespace ssdprobe {

// A small read that senses no NAND page (answered from the mapping table,
// or from page-less media over NVMe or a RAM disk) takes a few to about 20
// us; one that senses a TLC or QLC page takes 40 us and more. Below this
// median the grid's smallest reads are called fast enough to have sensed
// nothing (a slow link, SATA or USB, can lift page-less media above it).
constexpr double kSenselessReadUs = 25.0;

// What the note needs besides the document: the grids' verdicts (the
// document keeps only the one that stands) and the options that shaped them.
struct ReadPageEvidence {
  // The first read grid's verdict (over --region); nullopt when the grid
  // did not finish (no note then: the read page is "not measured").
  std::optional<UnitVerdict> first;
  // The re-read of the written window (phase read_written), when it ran to
  // a verdict, found or not.
  std::optional<UnitVerdict> reread;
  bool write = false;        // --write was given
  uint32_t queue_depth = 1;  // --qd: the depth both read grids ran at
  // The first grid read only data known to be written: a zoned device's
  // data below its write pointers (run/zoned_read_region.h).
  bool read_written_data = false;
  // What the first grid's space held, when it was sampled: all one byte
  // means never-written or trimmed space (probes/read_content_probe.h).
  std::optional<ReadContent> content;
};

// The note, or nullopt when none is due: the first grid found the page, or
// it did not finish. Reads the document's logical block, the read
// parallelism section, the `read` and `read-written` grids and the
// read_written phase's record (skipped or cut short, and why).
std::optional<std::string> read_page_note(const ResultDocument& doc, const ReadPageEvidence& evidence);

}  // namespace ssdprobe
