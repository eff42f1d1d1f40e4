// The text report's audit block for `audit FILE|DIR` (layout/file_audit.h):
// the filesystem and its settings, one row per file with its misaligned
// shares; the findings with their fixes follow as the disk audit's do.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/output.h"
#include "core/plural.h"
#include "core/units.h"
#include "report/audit_render.h"

namespace ssdprobe {
namespace {

std::string settings_text(const FileExtentsAudit& a) {
  const FileFilesystem& fs = a.filesystem;
  std::string text = fmt::format("{}, block {}", fs.type, format_size(fs.block_bytes));
  if (fs.cluster_bytes) text += fmt::format(", bigalloc cluster {}", format_size(*fs.cluster_bytes));
  if (fs.stripe_unit_bytes) text += fmt::format(", stripe unit {}", format_size(*fs.stripe_unit_bytes));
  if (a.directory_hint && *a.directory_hint) text += fmt::format(", directory extent size hint {}",
                                                                  format_size(*a.directory_hint));
  if (!fs.device.empty()) {
    text += fmt::format(", on {} at {} of {}", printable(fs.device), format_exact_size(fs.disk_start),
                        printable(fs.disk));
  }
  return text;
}

std::string shares_text(const ExtentJudgement& j) {
  std::string text;
  for (const UnitShare& s : j.shares) {
    text += fmt::format("{}{} {:.1f} %", text.empty() ? "" : ", ",
                        s.unit.name == "4 KiB" ? s.unit.name : fmt::format("{} {}", s.unit.name,
                                                                           format_size(s.unit.bytes)),
                        j.share(s) * 100.0);
  }
  return text;
}

void file_row(std::string& out, const FileExtentReport& f) {
  if (!f.error.empty()) {
    out += fmt::format("    {}: not read ({})\n", printable(f.path), f.error);
    return;
  }
  const ExtentJudgement& j = f.judgement;
  std::string extra;
  if (j.hole_bytes) extra += ", holes " + format_size(j.hole_bytes);
  for (const auto& [kind, bytes] : j.unjudged) extra += fmt::format(", {} {}", extent_kind_name(kind), format_size(bytes));
  if (f.extent_size_hint && *f.extent_size_hint) extra += ", extent size hint " + format_size(*f.extent_size_hint);
  out += fmt::format("    {}: {} of data in {}{}; misaligned: {}\n", printable(f.path), format_size(j.data_bytes),
                     counted(j.merged_count, "extent"), extra, shares_text(j));
}

uint64_t most_misaligned_bytes(const FileExtentReport& f) {
  uint64_t most = 0;
  for (const UnitShare& s : f.judgement.shares) most = std::max(most, s.misaligned_bytes);
  return most;
}

// The rows shown, at most `cap`: every file in the order it was read when
// all fit; past the cap, the files with the most misaligned bytes, then
// those that could not be read, aligned files last.
std::vector<const FileExtentReport*> shown_rows(const FileExtentsAudit& a, size_t cap) {
  std::vector<const FileExtentReport*> rows;
  for (const FileExtentReport& f : a.files) rows.push_back(&f);
  if (rows.size() <= cap) return rows;
  std::stable_sort(rows.begin(), rows.end(), [](const FileExtentReport* x, const FileExtentReport* y) {
    const uint64_t mx = most_misaligned_bytes(*x), my = most_misaligned_bytes(*y);
    if (mx != my) return mx > my;
    return !x->error.empty() && y->error.empty();
  });
  rows.resize(cap);
  return rows;
}

}  // namespace

void file_extents_text(std::string& out, const FileExtentsAudit& a) {
  out += fmt::format("\nAudit of the extents of {}{}: {}\n", a.directory ? "the files under " : "",
                     printable(a.root), settings_text(a));
  constexpr size_t kRows = 200;  // the JSON has every file
  for (const FileExtentReport* f : shown_rows(a, kRows)) file_row(out, *f);
  if (a.files.size() > kRows) {
    out += fmt::format("    ... {} more files, none more misaligned than those above (--json lists them all)\n",
                       a.files.size() - kRows);
  }
  if (a.directory) {
    out += fmt::format("    total: {} of data in {} ({}); misaligned: {}\n", format_size(a.total.data_bytes),
                       counted(a.total.merged_count, "extent"), counted(a.files.size(), "file"),
                       shares_text(a.total));
  }
}

}  // namespace ssdprobe
