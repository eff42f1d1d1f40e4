#include "report/saved_options.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ssdprobe {
namespace {

using PlainJson = nlohmann::json;  // as the saved document was parsed

// The text a command line would give for `value`, or "" for null.
std::string option_text(const PlainJson& value, const std::string& key, const std::string& name) {
  auto wrong = [&](const char* what) {
    return Error(ErrorCategory::target, fmt::format("{}: options.{} is {}, not a value ssdprobe writes there", name,
                                                    key, what));
  };
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_unsigned()) return fmt::format("{}", value.get<uint64_t>());
  if (value.is_number_integer()) throw wrong("a negative number");
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  if (value.is_object()) {
    const auto offset = value.find("offset");
    const auto length = value.find("length");
    if (offset == value.end() || length == value.end() || !offset->is_number_unsigned() ||
        !length->is_number_unsigned()) {
      throw wrong("an object other than {\"offset\", \"length\"}");
    }
    const uint64_t len = length->get<uint64_t>();
    return len == 0 ? fmt::format("{}:", offset->get<uint64_t>())
                    : fmt::format("{}:{}", offset->get<uint64_t>(), len);
  }
  throw wrong(value.is_boolean() ? "a boolean" : "an array");
}

}  // namespace

SavedOptions read_saved_options(std::string_view document_text, const std::string& name,
                                const std::vector<std::string>& keys) {
  const PlainJson doc = PlainJson::parse(document_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("options") || !doc["options"].is_object()) {
    throw Error(ErrorCategory::target, fmt::format("{}: has no options object to replay", name));
  }
  const PlainJson& options = doc["options"];
  SavedOptions saved;
  saved.timed = doc.contains("run") && !doc["run"].is_null();
  if (const auto t = options.find("target"); t != options.end() && t->is_string()) saved.target = t->get<std::string>();
  if (const auto w = options.find("write"); w != options.end() && w->is_boolean()) saved.write = w->get<bool>();
  for (const std::string& key : keys) {
    const auto value = options.find(key);
    if (value == options.end()) continue;
    std::string text = option_text(*value, key, name);
    if (!text.empty()) saved.values.emplace_back(key, std::move(text));
  }
  return saved;
}

}  // namespace ssdprobe
