// Turns what the user typed (a /dev path, a regular file, "sim:NAME") into a
// classified target with its reported topology and, when IO is wanted, an
// opened Device. All checks that can refuse a target happen here, before any
// IO: existence, kind of file, permission, O_DIRECT support.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device/device.h"
#include "device/topology.h"

namespace ssdprobe {

enum class EngineChoice { automatic, uring, psync, passthru };
EngineChoice parse_engine(const std::string& name);  // throws Error(usage)

// Opens the NVMe passthrough engine for a path. It reads Identify, so the
// firmware layer provides it (firmware/nvme_passthru_open.h) and the command
// layer hands it down; without one, passthrough is refused as unsupported.
using PassthruOpener = std::function<std::unique_ptr<Device>(const std::string& path, bool writable)>;

struct TargetRequest {
  std::string path;
  bool open_for_io = true;   // false: `info`, topology only
  bool writable = false;     // open O_RDWR for write probes (the caller has checked safety)
  EngineChoice engine = EngineChoice::automatic;
  uint64_t seed = 1;         // simulated drives draw their noise from it
  bool allow_directory = false;  // `audit DIR`: the files under it (kind file, topology of its filesystem)
};

// The inode a path named when it was classified: whoever opens the path
// later checks that its descriptor still refers to this node.
struct NodeId {
  uint64_t dev = 0, ino = 0, rdev = 0;
};

struct Target {
  std::string path;
  NodeId node;                     // from the stat that classified it (zero for sim:)
  TargetKind kind = TargetKind::block;
  Topology topology;
  std::unique_ptr<Device> device;  // null unless open_for_io
  std::vector<std::string> notes;  // e.g. "io_uring unavailable, using psync"
};

// Throws Error(target | permission | unsupported) naming the path and the
// problem. Opens for writing only when request.writable is set.
Target open_target(const TargetRequest& request, const PassthruOpener& open_passthru = {});

// Opens the IO engine of an already classified target (the write path
// classifies, runs its safety checks, and only then opens for IO).
// `claimed_fd`, when not -1, is an O_DIRECT descriptor already open on the
// target (a write session's claim): the engine duplicates it instead of
// opening the path again, so a path swapped meanwhile cannot redirect IO.
void open_engine(Target& target, EngineChoice engine, bool writable, uint64_t seed,
                 const PassthruOpener& open_passthru = {}, int claimed_fd = -1);

}  // namespace ssdprobe
