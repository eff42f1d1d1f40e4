#include "report/open_units_render.h"

#include <fmt/format.h>

#include "core/units.h"
#include "report/enum_names.h"
#include "report/json_values.h"
#include "report/text_wrap.h"

namespace ssdprobe {
namespace {

using json = nlohmann::ordered_json;

const char* step_class_name(StreamStepClass c) {
  switch (c) {
    case StreamStepClass::clean: return "as_one";
    case StreamStepClass::unclear: return "unclear";
    case StreamStepClass::collapsed: return "collapsed";
  }
  return "unclear";
}

json steps_json(const std::vector<StreamStepJudgement>& steps) {
  json out = json::array();
  for (const auto& s : steps) {
    out.push_back({{"streams", s.streams}, {"writes", s.writes}, {"median_us", rounded(s.median_us)},
                   {"ratio", rounded(s.ratio)}, {"separation", rounded(s.separation)},
                   {"judged", step_class_name(s.judged)}});
  }
  return out;
}

}  // namespace

json open_units_json(const OpenUnitsSection& s) {
  const OpenUnitsVerdict& v = s.verdict;
  json out = {{"streams", json_or_null(v.streams)},
              {"at_most", json_or_null(v.at_most)},
              {"state", unit_state_name(v.state)},
              {"confidence", rounded(v.confidence)},
              {"evidence", v.evidence}};
  if (v.searched_up_to) out["searched_up_to_streams"] = *v.searched_up_to;
  if (!s.to_determine.empty()) out["to_determine"] = s.to_determine;
  out["firmware_streams"] = json_or_null(s.firmware_streams);
  out["firmware_streams_field"] = text_or_null(s.firmware_streams_field);
  if (v.state == UnitState::not_measured) return out;
  out["stretch_bytes"] = s.stretch_bytes;
  out["stretch_from"] = s.stretch_from;
  out["io_bytes"] = s.io_bytes;
  out["io_from"] = s.io_from;
  out["offset"] = s.offset;
  out["most_streams"] = s.most_streams;
  out["steps"] = steps_json(v.steps);
  out["written_bytes"] = s.written_bytes;
  out["cap_bytes"] = s.cap_bytes;
  out["device_time_s"] = rounded(s.device_time_s);
  out["cut_by"] = text_or_null(s.cut_by);
  return out;
}

std::string open_units_answer(const OpenUnitsVerdict& v) {
  if (v.state == UnitState::found && v.streams && v.at_most) {
    if (*v.streams == *v.at_most) return fmt::format("{} streams", *v.streams);
    return fmt::format("{} to {} streams", *v.streams, *v.at_most);
  }
  if (v.state == UnitState::absent && v.searched_up_to) return fmt::format("none up to {} streams", *v.searched_up_to);
  return "not determined";
}

void open_units_text(std::string& out, const OpenUnitsSection& s, size_t width) {
  const OpenUnitsVerdict& v = s.verdict;
  if (v.evidence.empty()) return;
  out += wrapped("  open units: ", v.state == UnitState::not_measured ? v.evidence
                                                                      : open_units_answer(v) + ": " + v.evidence,
                 width, 4);
  if (v.state == UnitState::not_measured) return;
  out += wrapped("    ", fmt::format("{} written in writes of {} into stretches of {} (room for {} streams), {:.2f} s "
                                     "of device time", format_size(s.written_bytes), format_size(s.io_bytes),
                                     format_size(s.stretch_bytes), s.most_streams, s.device_time_s), width, 4);
  if (s.firmware_streams) {
    out += wrapped("    ", fmt::format("the firmware states {} ({})", *s.firmware_streams, s.firmware_streams_field),
                   width, 4);
  }
  if (!s.to_determine.empty()) out += wrapped("    ", s.to_determine, width, 4);
}

}  // namespace ssdprobe
