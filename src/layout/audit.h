// Judges a disk's existing layout against the drive's units: does each
// layer's start (partition, md data area, LVM data area, logical volume,
// filesystem) fall on a boundary of every unit that matters, and do the
// stripe settings of the upper layers match the layers below them?
//
// Each checked value becomes one AuditLine (OK or what is wrong and by how
// much); every line that is not OK also becomes a Mismatch whose `field`
// names the layer ("partition[2].start", "lvm.pe_start", "xfs.sunit"), so
// the result document carries audit findings where readers already look.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/misalignment_cost.h"
#include "analysis/verdicts.h"
#include "layout/audit_fix.h"
#include "layout/layout.h"

namespace ssdprobe {

// What the layout is checked against. Units that were not determined are
// left out of the checks (and the audit says so once).
struct AuditUnits {
  uint32_t logical_block = 512;
  uint32_t physical_block = 512;
  std::optional<uint64_t> read_page;
  std::optional<uint64_t> write_unit;
  std::optional<uint64_t> erase_block;
  // For a unit left out, what the run's answer was ("not measured (no
  // --write)", "ruled out", "not determined"), as the audit's note says it.
  std::string read_page_answer = "not determined";
  std::string write_unit_answer = "not determined";
};

// A unit a value was checked against and what the value misses it by.
struct UnitMiss {
  std::string unit;           // "4 KiB", "read page", "write unit", "erase block", "1 MiB", "logical block"...
  uint64_t unit_bytes = 0;
  uint64_t remainder = 0;     // value mod unit_bytes (never 0 in a miss)
};

// A measured cost attached to a misaligned start (see misalignment_cost.h).
struct AuditCost {
  std::string op;             // "read" | "write"
  std::string grid;           // the grid it came from: "read", "write", "read-written"
  uint64_t request_bytes = 0;
  MisalignmentCost cost;
};

struct AuditLine {
  std::string field;          // "partition[2].start", "md.chunk", "xfs.sunit", "at.start"
  std::string layer;          // human name: "partition 2 (/dev/loop0p2)", "md member", "LVM PV", "xfs on partition 2"
  std::optional<uint64_t> disk_offset;   // absolute, for start checks
  uint64_t value_bytes = 0;   // what was checked (a start relative to the disk, a chunk, a stripe unit…)
  bool ok = true;
  std::vector<UnitMiss> misses;
  std::string legacy_case;    // "sector 63 (DOS/Windows XP)", "sector 3 (1536 B)", "GPT at sector 34"
  Severity severity = Severity::info;
  std::string message;        // one line: OK, or what is wrong and by how much
  std::optional<uint64_t> suggested_bytes;  // nearest aligned value at or above, for starts
  std::vector<AuditCost> costs;
  std::vector<FixStep> fix;   // not OK lines: the steps that fix it, in order (audit_fix.h)
  // Not "": no command is offered for this finding, and its one fix step
  // says this in words instead: a partition that overlaps another or lies
  // outside the disk, where a person must decide what is real before
  // anything is written (table_audit.h).
  std::string fix_withheld;
};

struct LayoutAudit {
  DiskLayout layout;
  AuditUnits units;
  std::vector<AuditLine> lines;
  std::vector<std::string> notes;   // units left out, layers not followed
  bool all_ok() const;
};

// A layout read from a regular file (a disk image) is judged as the loop
// device `losetup FILE` makes of it: 512 B logical and physical blocks,
// whatever `units` says of the disk the file is stored on (a note says so).
LayoutAudit audit_layout(const DiskLayout& layout, const AuditUnits& units);

// A line for an arbitrary start the user asked about (--at OFFSET).
AuditLine audit_start(const std::string& field, const std::string& layer, uint64_t disk_offset,
                      const AuditUnits& units);

// The alignment every layer start should have: lcm of 1 MiB and every
// determined unit (the same rule as the recommendations).
uint64_t wanted_alignment(const AuditUnits& units);

// The stripe the layers below a filesystem impose (md chunk × data disks,
// or a striped LV), if any: what its stripe settings should equal.
struct StripeBelow {
  uint64_t unit = 0, width = 0;
  std::string source;
};
std::optional<StripeBelow> stripe_below(const LayoutStack& stack);

// The audit's findings as mismatches (one per line that is not OK).
std::vector<Mismatch> audit_mismatches(const LayoutAudit& audit);

}  // namespace ssdprobe
