#include "cli/disk_table.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "compare/disk_rows.h"
#include "core/error.h"
#include "core/output.h"
#include "core/output_file.h"
#include "device/whole_disks.h"
#include "report/enum_names.h"
#include "report/output_kinds.h"
#include "run/runs.h"

namespace ssdprobe {
namespace {

void fill_identity(DiskRow& row, const ResultDocument& doc) {
  const Topology& t = doc.topology;
  row.model = t.model;
  row.serial = t.serial;
  row.transport = t.transport;
  row.size_bytes = t.size_bytes;
  row.logical_block = t.logical_block_size;
  row.physical_block = t.physical_block_size;
  row.minimum_io = t.minimum_io_size;
  row.optimal_io = t.optimal_io_size;
}

// The worst finding of an audit of the disk's layout (read-only, untimed),
// or why there is none: a disk whose audit fails keeps its identity.
void add_audit(DiskRow& row, const Options& one, int& failure_code) {
  try {
    const ResultDocument audited = audit(one);
    if (audited.verdict.findings.empty()) return;
    const VerdictFinding& worst = audited.verdict.findings.front();  // worst first
    row.worst_severity = severity_name(worst.severity);
    row.worst_finding = worst.headline.empty() ? worst.message : worst.headline;
  } catch (const Error& e) {
    if (e.category() == ErrorCategory::interrupted) throw;
    row.error = fmt::format("audit: {}", e.what());
    if (failure_code == 0) failure_code = exit_code_for(e.category());
  }
}

// One disk's row: info (identity, the kernel's sizes), the audit, and the
// last saved run of its serial. A disk whose info fails is a row with the
// error alone.
DiskRow row_of(const std::string& disk, const Options& options, const std::map<DriveKey, LastRun>& runs,
               int& failure_code) {
  DiskRow row;
  row.device = disk;
  Options one = options;
  one.target = disk;
  one.json_path.clear();
  try {
    fill_identity(row, info(one));
  } catch (const Error& e) {
    if (e.category() == ErrorCategory::interrupted) throw;
    row.error = e.what();
    if (failure_code == 0) failure_code = exit_code_for(e.category());
    return row;
  }
  add_audit(row, one, failure_code);
  const auto r = runs.find(DriveKey{row.model, row.serial});
  if (!row.serial.empty() && r != runs.end()) row.last_run = r->second;
  return row;
}

}  // namespace

int info_all_disks(const Options& options) {
  const std::vector<std::string> disks = whole_disks();
  if (disks.empty()) throw Error(ErrorCategory::target, "--all-disks: /sys/block lists no whole disk");
  const std::string json_path = names_standard_output(options.json_path) ? "-" : options.json_path;
  const OutputSpec json_out{json_path, "--json", disk_table_kind(), options.force};
  if (!json_path.empty()) check_output(json_out);
  const std::map<DriveKey, LastRun> runs = latest_runs_by_drive(options.results_dir);
  std::vector<DiskRow> rows;
  int failure_code = 0;
  for (const std::string& disk : disks) rows.push_back(row_of(disk, options, runs, failure_code));
  if (!json_path.empty()) write_output(json_out, render_disk_rows_json(rows));
  if (json_path != "-") print_quietly(stdout, render_disk_rows_text(rows));
  return failure_code;
}

}  // namespace ssdprobe
