// The options a run was given, as the result document echoes them: in the
// order the option table declares them, each with its typed value (null when
// absent). The command layer fills it; json_report writes it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/units.h"

namespace ssdprobe {

using OptionValue = std::variant<std::monostate, bool, uint64_t, double, std::string, Region>;

class OptionEcho {
 public:
  // Replaces the value of `key`, or appends it when new.
  void set(const std::string& key, OptionValue value) {
    for (auto& entry : entries_) {
      if (entry.first == key) {
        entry.second = std::move(value);
        return;
      }
    }
    entries_.emplace_back(key, std::move(value));
  }
  bool contains(const std::string& key) const {
    for (const auto& entry : entries_) {
      if (entry.first == key) return true;
    }
    return false;
  }
  const std::vector<std::pair<std::string, OptionValue>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, OptionValue>> entries_;
};

}  // namespace ssdprobe
