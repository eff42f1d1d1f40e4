// reported.nvme.directives and reported.nvme.capabilities (docs/result-json.md).
#include "firmware/nvme_capabilities.h"
#include "report/firmware_json.h"
#include "report/json_values.h"

namespace ssdprobe {

namespace {

using Json = nlohmann::ordered_json;

Json streams_json(const NvmeStreamsParams& p, std::optional<uint64_t> lba_bytes) {
  const auto sws_bytes = lba_bytes ? stream_write_size_bytes(p, *lba_bytes) : std::nullopt;
  const auto sgs_bytes = lba_bytes ? stream_granularity_bytes(p, *lba_bytes) : std::nullopt;
  return Json{{"msl", p.msl}, {"nssa", p.nssa}, {"nsso", p.nsso}, {"nssc", p.nssc},
              {"sws", p.sws}, {"sws_bytes", json_or_null(sws_bytes)},
              {"sgs", p.sgs}, {"sgs_bytes", json_or_null(sgs_bytes)},
              {"nsa", p.nsa}, {"nso", p.nso}};
}

}  // namespace

Json nvme_directives_json(const NvmeDirectives& d, std::optional<uint64_t> lba_bytes) {
  Json j;
  j["supported"] = d.support ? Json(d.support->supported) : Json(nullptr);
  j["enabled"] = d.support ? Json(d.support->enabled) : Json(nullptr);
  j["streams_supported"] = d.support ? Json(d.support->streams_supported()) : Json(nullptr);
  j["streams_enabled"] = d.support ? Json(d.support->streams_enabled()) : Json(nullptr);
  j["streams"] = d.streams ? streams_json(*d.streams, lba_bytes) : Json(nullptr);
  return j;
}

Json nvme_capabilities_json(const NvmeFirmwareData& data) {
  Json list = Json::array();
  for (const NvmeCapability& c : nvme_capabilities(data)) {
    list.push_back(Json{{"field", c.field},
                        {"bit", c.bit >= 0 ? Json(c.bit) : Json(nullptr)},
                        {"name", c.name},
                        {"decoded", text_or_null(c.decoded)},
                        {"reason", text_or_null(c.reason)}});
  }
  return list;
}

}  // namespace ssdprobe
