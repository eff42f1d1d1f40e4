#include "run/io_sample.h"

#include "device/block_stat.h"
#include "device/counting_device.h"
#include "run/run_context.h"

namespace ssdprobe {

std::optional<IoSample> sample_io(const RunContext& run) {
  const bool block = run.target.kind == TargetKind::block || run.target.kind == TargetKind::partition;
  if (!block || run.own_io == nullptr) return std::nullopt;
  const std::optional<IoCounts> disk = read_block_stat(run.target.topology.disk_name);
  if (!disk) return std::nullopt;
  return IoSample{*disk, run.own_io->counts()};
}

std::optional<OtherIo> other_io_between(const RunContext& run, const IoSample& start, const IoSample& end) {
  const IoCounts disk = io_counts_between(start.disk, end.disk);
  const IoCounts own = io_counts_between(start.own, end.own);
  IoCounts other = io_counts_between(own, disk);
  // The kernel splits a request larger than max_sectors_kb and merges
  // neighbours, so request counts drift from ours while bytes are exact:
  // with no bytes left over, the extra requests were ours.
  if (other.read_bytes == 0) other.reads = 0;
  if (other.write_bytes == 0) other.writes = 0;
  return OtherIo{run.target.topology.disk_name, own, other};
}

}  // namespace ssdprobe
