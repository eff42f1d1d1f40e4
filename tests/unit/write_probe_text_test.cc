// The write probes' line in the text report and write_probe in the JSON: a
// run stopped before its first write says nothing was written and nothing
// needed restoring, never "NOT restored" or restored: false; a restore that
// did not happen after writes still says so.
#include <catch2/catch.hpp>
#include <string>

#include "report/json_report.h"
#include "report/text_report.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

ResultDocument write_run(bool nothing_written) {
  ResultDocument doc;
  doc.path = "/dev/loop9";
  doc.run = RunSummary{};
  WriteProbeSummary w;
  w.offset = 64 * kMiB;
  w.length = 384 * kMiB;
  w.preserved = true;
  w.nothing_written = nothing_written;
  if (nothing_written) w.restore_message = "nothing was written, nothing to restore";
  doc.write_probe = w;
  return doc;
}

}  // namespace

TEST_CASE("stopped before the first write: nothing written, nothing to restore", "[write_probe]") {
  const ResultDocument doc = write_run(true);
  const std::string text = render_text(doc);
  CHECK(has(text, "Writes: nothing was written, nothing to restore (the window: 64 to 448 MiB (384 MiB))"));
  CHECK_FALSE(has(text, "NOT restored"));
  const auto json = to_json(doc)["write_probe"];
  CHECK(json["restored"].is_null());
  CHECK(json["restore"] == "nothing was written, nothing to restore");
}

TEST_CASE("written and not restored still says NOT restored", "[write_probe]") {
  ResultDocument doc = write_run(false);
  doc.write_probe->bytes_written = 3 * kMiB;
  CHECK(has(render_text(doc), "Writes: 3 MiB written inside 64 to 448 MiB (384 MiB); NOT restored"));
  const auto json = to_json(doc)["write_probe"];
  CHECK(json["restored"] == false);
  CHECK(json["restore"].is_null());
}
