#include "report/sims_json.h"

#include <optional>

#include "device/sim_profile.h"

namespace ssdprobe {

nlohmann::ordered_json sims_json() {
  auto value = [](std::optional<uint64_t> v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& p : sim_profiles()) {
    list.push_back({{"name", "sim:" + p.name},
                    {"logical_block_size", p.logical_block},
                    {"read_page", value(p.expected_read_page())},
                    {"read_page_with_write", value(p.expected_read_page_with_writes())},
                    {"write_unit", value(p.expected_write_unit())},
                    {"write_stripe", value(p.expected_write_stripe())},
                    {"erase_block", value(p.erase_stall_us > 0 ? std::optional<uint64_t>(p.erase_block) : std::nullopt)},
                    {"parallel_units", value(p.expected_parallel_units())},
                    {"interleave_bytes", value(p.expected_interleave())},
                    {"max_queue_depth", p.max_queue_depth},
                    {"description", p.description}});
  }
  return list;
}

}  // namespace ssdprobe
