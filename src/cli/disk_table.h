// `ssdprobe info --all-disks`: the machine's whole disks at a glance, one row
// per disk as `lsblk -t` lists them: model, transport, size, what the kernel
// reports (logical and physical block, minimum and optimal IO), the units of
// the last saved run for that drive's serial (--results DIR), and the worst
// finding of an audit of its layout. Nothing is timed or written; --json
// writes the rows as an array.
#pragma once

#include "run/run_options.h"

namespace ssdprobe {

// Exit 0 when every disk could be listed; a disk that cannot be (its info
// or audit failed) keeps its row with the error, and the exit code is that
// failure's. Error(target) when /sys/block lists no whole disk.
int info_all_disks(const Options& options);

}  // namespace ssdprobe
