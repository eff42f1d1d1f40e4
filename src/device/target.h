// Turns what the user typed (a /dev path, a regular file, "sim:NAME") into a
// classified target with its reported topology and, when IO is wanted, an
// opened Device. All checks that can refuse a target happen here, before any
// IO: existence, kind of file, permission, O_DIRECT support.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "device/device.h"
#include "device/topology.h"

namespace ssdprobe {

enum class EngineChoice { automatic, uring, psync, passthru };
EngineChoice parse_engine(const std::string& name);  // throws Error(usage)

struct TargetRequest {
  std::string path;
  bool open_for_io = true;   // false: `info`, topology only
  bool writable = false;     // open O_RDWR for write probes (the caller has checked safety)
  EngineChoice engine = EngineChoice::automatic;
  uint64_t seed = 1;         // simulated drives draw their noise from it
};

struct Target {
  std::string path;
  TargetKind kind = TargetKind::block;
  Topology topology;
  std::unique_ptr<Device> device;  // null unless open_for_io
  std::vector<std::string> notes;  // e.g. "io_uring unavailable, using psync"
};

// Throws Error(target | permission | unsupported) naming the path and the
// problem. Opens for writing only when request.writable is set.
Target open_target(const TargetRequest& request);

// Opens the IO engine of an already classified target (the write path
// classifies, runs its safety checks, and only then opens for IO).
void open_engine(Target& target, EngineChoice engine, bool writable, uint64_t seed);

}  // namespace ssdprobe
