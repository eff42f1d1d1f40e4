// A block device's IO counters, /sys/class/block/NAME/stat: what the kernel
// completed on it since it appeared, whoever asked. A partition's IO is
// counted in its disk's counters too.
#pragma once

#include <optional>
#include <string>

#include "device/io_counts.h"

namespace ssdprobe {

// Reads completed, sectors read (as bytes), writes completed, sectors
// written (as bytes) of block device `name` ("nvme0n1", "sda1", "loop0");
// nullopt when the file is missing or not in the documented format.
std::optional<IoCounts> read_block_stat(const std::string& name);

// The same from the text of a stat file (the fields are 512-byte sectors
// whatever the device's logical block size).
std::optional<IoCounts> parse_block_stat(const std::string& text);

}  // namespace ssdprobe
