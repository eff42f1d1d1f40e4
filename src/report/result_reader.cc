#include "report/result_reader.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ssdprobe {
namespace {

using json = nlohmann::json;

Error bad(const std::string& path, const std::string& why) {
  return Error(ErrorCategory::usage, fmt::format("--units-from {}: {}", path, why));
}

std::optional<uint64_t> unit_bytes(const json& detected, const char* name, const std::string& path) {
  if (!detected.contains(name) || !detected[name].is_object()) return std::nullopt;
  const json& bytes = detected[name].value("bytes", json(nullptr));
  if (bytes.is_null()) return std::nullopt;
  if (!bytes.is_number_unsigned() || bytes.get<uint64_t>() == 0) {
    throw bad(path, fmt::format("detected.{}.bytes is not a positive integer", name));
  }
  return bytes.get<uint64_t>();
}

std::string text_at(const json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

}  // namespace

MeasuredUnits read_measured_units(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad(path, "cannot be read");
  const json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw bad(path, "is not a JSON document");
  const std::string schema = text_at(doc, "schema");
  if (schema != "ssdprobe/1") {
    throw bad(path, schema.empty() ? "is not an ssdprobe result document (no \"schema\")"
                                   : fmt::format("has schema \"{}\"; this ssdprobe reads \"ssdprobe/1\"", schema));
  }
  if (!doc.contains("detected") || !doc["detected"].is_object()) throw bad(path, "has no \"detected\" object");
  MeasuredUnits units;
  const json& target = doc.contains("target") ? doc["target"] : json(nullptr);
  units.path = text_at(target, "path");
  units.model = text_at(target, "model");
  units.serial = text_at(target, "serial");
  units.read_page = unit_bytes(doc["detected"], "read_page", path);
  units.write_unit = unit_bytes(doc["detected"], "write_unit", path);
  units.erase_block = unit_bytes(doc["detected"], "erase_block", path);
  return units;
}

}  // namespace ssdprobe
