// Runs one firmware command for the probes and turns an ssdprobe::Error into
// a note, so one refused or unsupported command never ends the run. Once a
// command was refused for lack of permission the same device will refuse
// the rest, so later attempts are skipped without another note.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.h"

namespace ssdprobe {

class Attempts {
 public:
  explicit Attempts(std::vector<std::string>& notes) : notes_(notes) {}

  template <typename F>
  auto operator()(F&& command) -> std::optional<std::invoke_result_t<F>> {
    if (denied_) return std::nullopt;
    try {
      return command();
    } catch (const Error& e) {
      if (e.category() == ErrorCategory::permission) denied_ = true;
      notes_.emplace_back(e.what());
      return std::nullopt;
    }
  }

  bool denied() const { return denied_; }
  // A note of the caller's own, beside the commands' failures.
  void note(std::string text) { notes_.push_back(std::move(text)); }

 private:
  std::vector<std::string>& notes_;
  bool denied_ = false;
};

}  // namespace ssdprobe
