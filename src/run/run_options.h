// The option values a run works from, parsed and validated by the command
// layer (cli/options.h holds the table that fills them). Plain data: the
// run layer reads them, never how they were spelled.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/units.h"
#include "report/option_echo.h"
#include "run/write_cap.h"

namespace ssdprobe {

struct Options {
  std::string target;
  std::string json_path;          // empty = no JSON
  std::string html_path;          // the one-run report page; empty = none
  std::string prometheus_path;    // --prometheus: metrics for node_exporter's textfile collector; empty = none
  bool all_disks = false;         // audit/info --all-disks: every whole disk instead of one target
  std::string results_dir;        // info --all-disks --results: saved runs whose units each disk's row shows
  double budget_s = 60.0;
  Region region;
  std::string engine = "auto";
  uint32_t queue_depth = 1;
  uint32_t max_queue_depth = 256; // the parallelism probe's deepest queue
  uint32_t spin_us = 200;         // poll for a completion this long before sleeping (0: sleep)
  uint64_t seed = 1;
  bool quiet = false;
  bool write = false;             // write probes allowed
  bool yes = false;               // confirmation given on the command line
  bool preserve = true;           // journal and restore the written range
  uint64_t cache_bytes = 16ull << 30;  // --cache-bytes: the SLC cache probe's byte cap (0: no probe)
  // --max-write-bytes: the most a --write run writes in all, the restore
  // included (run/write_cap.h: why 20 GiB); never 0.
  uint64_t max_write_bytes = kDefaultMaxWriteBytes;
  std::string journal_dir = "/var/lib/ssdprobe/journal";
  std::string device;             // restore: the device, when it moved
  bool partial = false;           // restore: put back what a damaged journal still holds
  bool force = false;             // restore: also a journal marked restored
  bool forget = false;            // restore --forget: drop the index entry of a journal that is gone
  bool allow_ram_journal = false; // accept a journal on tmpfs/ramfs
  std::string units_from;         // audit: a result document whose detected units to check against
  bool extents = false;           // audit --extents: a regular file's extents, even when it holds a disk image
  std::string at;                 // --at: comma-separated disk offsets to audit (parse_starts)
  std::string fail_on;            // --fail-on: never, warning, error; empty: the command's default
  std::string replay_of;          // --replay: the result document whose options this run repeats
  std::vector<std::string> replay_notes;  // what the replay took from it: notes the document records

  bool region_given() const { return region.offset != 0 || region.length != 0; }

  OptionEcho echo;                // every option in effect, keyed by json_key, in table order
  // The options given (or replayed) that shape what a run measures, in their
  // long spelling with their value as typed ({"--region", "2G:512M"},
  // {"--write", ""}): a suggested rerun keeps them (run/rerun_command.h).
  std::vector<std::pair<std::string, std::string>> shaping_args;
  std::vector<std::string> command_line;  // argv as run, for the document
};

// The offsets of --at ("63s" is not accepted: sizes as elsewhere, e.g.
// 32256,1536,1M), each once, in the order first given; throws Error(usage)
// naming the bad item.
std::vector<uint64_t> parse_starts(const std::string& text);

}  // namespace ssdprobe
