// The question asked before the first byte is written. It names the device
// (model, serial, size), the exact byte range and whether the content is
// preserved; only the answer "yes" proceeds. Without a terminal the caller
// must pass --yes, or the run is refused. A simulated drive is asked about
// the same way (nothing real is written, but a script that runs --write on a
// sim must behave as it will on hardware).
#pragma once

#include <cstdio>
#include <string>

namespace ssdprobe {

struct WritePlanSummary {
  std::string path, model, serial;
  uint64_t device_size = 0;
  uint64_t offset = 0, length = 0;
  bool preserve = true;
  std::string journal;  // where the original content goes
  bool simulated = false;  // a sim: target: nothing real is written or saved
  // The most the run writes to the target in all, and how (the run layer's
  // run/write_bound.h); 0: not stated.
  uint64_t max_bytes_written = 0;
  std::string max_bytes_breakdown;
  double budget_s = 0.0;  // --budget: the probes' device time
  // A zone-safe run (safety/zone_choice.h): the empty zones it writes, one
  // line; empty for a window run.
  std::string zones;
  // What max_bytes_written is in the drive's terms ("0.0032 % of the drive's
  // endurance estimate of 600 TB ..."), the --max-write-bytes cap (0: none
  // stated) and the phases it leaves out, one reason each ("" : none).
  std::string share_of_drive;
  uint64_t max_write_cap = 0;
  std::string left_out;
};

std::string describe_write_plan(const WritePlanSummary& plan);

// How a question is answered: --yes, or "yes" typed on a terminal.
struct Confirmation {
  bool assume_yes = false;
  bool interactive = false;  // input is a terminal
  std::FILE* input = nullptr;
  std::FILE* output = nullptr;
};

// Shows `description`, then proceeds only on --yes or a typed "yes" to
// "Type 'yes' to ACTION". Throws Error(refused) otherwise, naming `action`.
void confirm_action(const std::string& description, const std::string& action, const Confirmation& how);

// Returns normally when confirmed; throws Error(refused) otherwise.
// `input`/`output` are the terminal in production, pipes in tests.
void confirm_write(const WritePlanSummary& plan, bool assume_yes, bool interactive, std::FILE* input,
                   std::FILE* output);

}  // namespace ssdprobe
