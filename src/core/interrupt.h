// SIGINT, SIGTERM and SIGHUP during a write run must not leave the drive
// half-probed: the handlers only raise a flag; the probe runner checks it
// between IOs and unwinds with Error(interrupted), and the write session
// restores the journaled content on the way out.
#pragma once

namespace ssdprobe {

// Installs the handlers for the lifetime of the guard (restores the old ones).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

bool interrupt_requested();
int interrupt_signal();  // the signal received, 0 if none
void clear_interrupt();  // tests only

}  // namespace ssdprobe
