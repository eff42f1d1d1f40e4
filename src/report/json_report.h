// The result document as JSON (schema "ssdprobe/1", docs/result-json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report/result.h"

namespace ssdprobe {

constexpr const char* kResultSchema = "ssdprobe/1";

nlohmann::ordered_json to_json(const ResultDocument& document);

// Writes `document` to `path` ("-" = standard output). A file is written to a
// temporary name beside it and renamed into place, so a reader never sees a
// half-written document. Throws Error(io | permission) naming the path.
void write_json(const nlohmann::ordered_json& document, const std::string& path);

// Writes any text output (`compare --csv/--markdown/--html`...) the same way:
// "-" = standard output, else FILE.partial renamed into place. `option`
// names the option in error messages.
void write_text_output(std::string_view text, const std::string& path, const std::string& option);

// A text output written piece by piece, for outputs too large to hold
// (`compare --ndjson`: one row per document as it is read). Same rules as
// write_text_output: "-" = standard output, a pipe or device is written
// through, a file is FILE.partial renamed into place by commit(), so a
// reader never sees half of it; without commit() (an error, no document
// could be read) the partial file is removed. Throws Error(io | permission)
// naming the option and path.
class TextOutputStream {
 public:
  TextOutputStream(const std::string& path, const std::string& option);
  ~TextOutputStream();
  TextOutputStream(const TextOutputStream&) = delete;
  TextOutputStream& operator=(const TextOutputStream&) = delete;

  void write(std::string_view text);  // buffered: a write(2) per 256 KiB, not per row
  void commit();

 private:
  void flush();
  std::string path_, option_, temporary_;  // temporary_ empty: no rename (stdout, a pipe)
  int fd_ = -1;                            // -1: standard output
  std::string buffer_;
  bool committed_ = false;
};

// Refuses (Error(usage)) an output path that looks like a target: "sim:...",
// or a /dev path that is not a terminal, pipe, socket or /dev/null (nor under
// /dev/shm): `--json /dev/sdb` would otherwise create /dev/sdb as a file, or
// be refused only because the disk happens to be there.
void refuse_target_like_output(const std::string& path, const std::string& option);

// Whether `path` is a regular file holding a result document (schema
// "ssdprobe/N"): a run's record, which no other output may replace.
bool holds_result_document(const std::string& path);

// Checks that a target for --json (or `option`: --html) can be created
// before any work starts (directory exists and is writable), so a long run
// does not end in an error; refuses a target-like path
// (refuse_target_like_output). Messages name `option`.
void check_json_destination(const std::string& path, const std::string& option = "--json");

}  // namespace ssdprobe
