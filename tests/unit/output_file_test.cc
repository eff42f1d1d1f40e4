// The output door (core/output_file.h): what it refuses at an output path,
// how it writes, and that every kind of file ssdprobe writes is recognised
// as its own kind (report/output_kinds.h) and as no other.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compare/compare_render.h"
#include "compare/ndjson_rows.h"
#include "core/error.h"
#include "core/output_file.h"
#include "html/page.h"
#include "plot/picture_mark.h"
#include "report/json_report.h"
#include "report/output_kinds.h"
#include "report/fio_jobs.h"
#include "report/prometheus_metrics.h"
#include "report/sims_json.h"
#include "temp_tree.h"

using namespace ssdprobe;
using test_support::TempTree;

namespace {

std::string contents(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
}

OutputSpec json_at(const std::filesystem::path& path, bool force = false) {
  return {path.string(), "--json", result_document_kind(), force};
}

const std::string kDocument = "{\n  \"schema\": \"ssdprobe/1\",\n  \"tool\": {}\n}\n";

// The refusal's message, or "" when check_output accepts.
std::string refusal(const OutputSpec& spec) {
  try {
    check_output(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A minimal PNG: the signature and a header chunk (what marked_picture needs).
std::string tiny_png() {
  std::string png("\x89PNG\r\n\x1a\n", 8);
  png += std::string("\0\0\0\x0dIHDR", 8) + std::string(13, '\1');
  const uint32_t crc = png_crc32(std::string_view(png).substr(12, 17));
  for (int shift = 24; shift >= 0; shift -= 8) png += static_cast<char>((crc >> shift) & 0xff);
  return png + std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12);
}

}  // namespace

TEST_CASE("an output path is written as a file, never through what is there") {
  TempTree dir("output-door");
  SECTION("a new file: written as FILE.partial and renamed") {
    write_output(json_at(dir.path("new.json")), kDocument);
    CHECK(contents(dir.path("new.json")) == kDocument);
    CHECK_FALSE(std::filesystem::exists(dir.path("new.json.partial")));
  }
  SECTION("a file of the same kind is replaced; an empty file too") {
    put(dir.path("old.json"), kDocument + " ");
    put(dir.path("empty.json"), "");
    CHECK(refusal(json_at(dir.path("old.json"))).empty());
    write_output(json_at(dir.path("old.json")), kDocument);
    CHECK(contents(dir.path("old.json")) == kDocument);
    CHECK(refusal(json_at(dir.path("empty.json"))).empty());
  }
  SECTION("a file of another kind is refused, and kept, unless --force") {
    put(dir.path("victim.img"), std::string(4096, '\xaa'));
    CHECK_THAT(refusal(json_at(dir.path("victim.img"))),
               Catch::Contains("holds 4096 bytes that are not a result document ssdprobe wrote") &&
                   Catch::Contains("--force"));
    CHECK_THROWS_AS(write_output(json_at(dir.path("victim.img")), kDocument), Error);
    CHECK(contents(dir.path("victim.img")) == std::string(4096, '\xaa'));
    write_output(json_at(dir.path("victim.img"), true), kDocument);
    CHECK(contents(dir.path("victim.img")) == kDocument);
  }
  SECTION("another ssdprobe output is named in the refusal") {
    put(dir.path("run.json"), kDocument);
    const OutputSpec page{dir.path("run.json").string(), "--html", html_page_kind(), false};
    CHECK_THAT(refusal(page), Catch::Contains("holds a saved result document, not an HTML page"));
  }
  SECTION("a symbolic link is refused; --force replaces the link, never its target") {
    put(dir.path("secret"), "root's own");
    std::filesystem::create_symlink(dir.path("secret"), dir.path("link.json"));
    CHECK_THAT(refusal(json_at(dir.path("link.json"))), Catch::Contains("is a symbolic link"));
    write_output(json_at(dir.path("link.json"), true), kDocument);
    CHECK_FALSE(std::filesystem::is_symlink(dir.path("link.json")));
    CHECK(contents(dir.path("link.json")) == kDocument);
    CHECK(contents(dir.path("secret")) == "root's own");
  }
  SECTION("a FIFO, a directory and a character device are refused, --force or not") {
    REQUIRE(::mkfifo(dir.path("fifo").c_str(), 0600) == 0);
    dir.dir("folder");
    for (bool force : {false, true}) {
      CHECK_THAT(refusal(json_at(dir.path("fifo"), force)), Catch::Contains("is a FIFO"));
      CHECK_THAT(refusal(json_at(dir.path("folder"), force)), Catch::Contains("is a directory"));
      CHECK_THAT(refusal({"/dev/zero", "--json", result_document_kind(), force}),
                 Catch::Contains("is a character device"));
    }
  }
  SECTION("a path that looks like a target") {
    CHECK_THAT(refusal(json_at("sim:nvme-tlc-16k")), Catch::Contains("simulated drive target"));
    CHECK_THAT(refusal(json_at("/dev/ssdprobe-no-such-disk")), Catch::Contains("looks like a device target"));
    CHECK_THAT(refusal(json_at(dir.path("no-such-dir/x.json"))), Catch::Contains("does not exist"));
  }
  SECTION("a symbolic link at FILE.partial before the run is refused (exit 7), its target untouched") {
    put(dir.path("secret"), "root's own");
    std::filesystem::create_symlink(dir.path("secret"), dir.path("out.json.partial"));
    CHECK_THAT(refusal(json_at(dir.path("out.json"))), Catch::Contains("refusing to write through"));
    CHECK(contents(dir.path("secret")) == "root's own");
    CHECK(std::filesystem::is_symlink(dir.path("out.json.partial")));
  }
  SECTION("a link planted at FILE.partial while a run wrote is left alone, and the output still arrives") {
    put(dir.path("secret"), "root's own");
    check_output(json_at(dir.path("late.json")));  // before the run: nothing there
    std::filesystem::create_symlink(dir.path("secret"), dir.path("late.json.partial"));
    write_output(json_at(dir.path("late.json")), kDocument);
    CHECK(contents(dir.path("late.json")) == kDocument);
    CHECK(contents(dir.path("secret")) == "root's own");
    CHECK(std::filesystem::is_symlink(dir.path("late.json.partial")));
  }
  SECTION("a stale FILE.partial of ours (a crashed run's) is replaced") {
    put(dir.path("stale.json.partial"), "half a docu");
    write_output(json_at(dir.path("stale.json")), kDocument);
    CHECK(contents(dir.path("stale.json")) == kDocument);
    CHECK_FALSE(std::filesystem::exists(dir.path("stale.json.partial")));
  }
  SECTION("the file replaced keeps its permissions") {
    put(dir.path("private.json"), kDocument);
    REQUIRE(::chmod(dir.path("private.json").c_str(), 0600) == 0);
    write_output(json_at(dir.path("private.json")), kDocument + " ");
    struct stat st {};
    REQUIRE(::stat(dir.path("private.json").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(contents(dir.path("private.json")) == kDocument + " ");
  }
  SECTION("a file of another kind that appears while a run writes is kept, and so is the output") {
    OutputFile out(json_at(dir.path("late.json")));
    out.write(kDocument);
    put(dir.path("late.json"), "someone else's");
    CHECK_THROWS_WITH(out.commit(), Catch::Contains("the complete output is in"));
    CHECK(contents(dir.path("late.json")) == "someone else's");
    CHECK(contents(dir.path("late.json.partial")) == kDocument);
  }
}

TEST_CASE("streams are written through only when named as streams") {
  TempTree dir("output-door");
  CHECK(names_stream("-"));
  CHECK(names_stream("/dev/stdout"));
  CHECK(names_stream("/dev/fd/7"));
  CHECK(names_stream("/proc/self/fd/12"));
  CHECK(names_stream("/dev/null"));
  CHECK_FALSE(names_stream("/dev/fd/"));
  CHECK_FALSE(names_stream("/dev/fd/1x"));
  CHECK_FALSE(names_stream("/dev/kmsg"));
  CHECK(names_standard_output("/dev/fd/1"));
  CHECK_FALSE(names_standard_output("/dev/stderr"));
  SECTION("/dev/fd/N writes through the caller's own open file (its O_APPEND kept)") {
    put(dir.path("log"), "before\n");
    const int fd = ::open(dir.path("log").c_str(), O_WRONLY | O_APPEND);
    REQUIRE(fd >= 0);
    write_output({"/dev/fd/" + std::to_string(fd), "--json", result_document_kind(), false}, kDocument);
    ::close(fd);
    CHECK(contents(dir.path("log")) == "before\n" + kDocument);
  }
  SECTION("a descriptor that is not open, or open for reading only, is refused") {
    CHECK_THAT(refusal({"/dev/fd/987", "--json", result_document_kind(), false}), Catch::Contains("is not open"));
    put(dir.path("r"), "x");
    const int fd = ::open(dir.path("r").c_str(), O_RDONLY);
    CHECK_THAT(refusal({"/dev/fd/" + std::to_string(fd), "--json", result_document_kind(), false}),
               Catch::Contains("reading only"));
    ::close(fd);
  }
}

TEST_CASE("every kind of output is recognised as its own kind and as no other") {
  FleetComparison fleet;
  FailedTarget failed{"/dev/sdz", "audit", "gone", 0.0};
  const std::vector<std::pair<OutputKind, std::string>> outputs{
      {result_document_kind(), to_json(ResultDocument{}).dump(2)},
      {comparison_json_kind(), render_json(fleet)},
      {comparison_json_kind(), render_quirks_json({})},
      {csv_kind(), render_csv(fleet)},
      {csv_kind(), render_quirks_csv({})},
      {markdown_kind(), render_markdown(fleet)},
      {html_page_kind(), render_html(fleet, [](const FleetGroup&) { return std::string(); }, "")},
      {html_page_kind(), html_page("t", "s", {})},
      {prometheus_kind(), render_prometheus({}, {failed})},
      {ndjson_kind(), ndjson_row(SavedResult{})},
      {png_kind(), marked_picture(tiny_png(), ImageFormat::png)},
      {svg_kind(), marked_picture("<?xml version=\"1.0\"?>\n<svg></svg>\n", ImageFormat::svg)},
      {plot_numbers_kind(), std::string(kPlotNumbersHeader) + " behind x.png\n"},
      {sims_list_kind(), sims_json().dump(2)},
      {fio_job_kind(), fio_job_file(R"({"schema": "ssdprobe/1", "target": {"path": "/dev/sdz", "kind": "block"},
                                        "run": {"engine": "psync"}})",
                                    {"run.json", 10.0, false})},
  };
  const std::vector<OutputKind> kinds{result_document_kind(), comparison_json_kind(), sims_list_kind(),
                                      html_page_kind(),       prometheus_kind(),      ndjson_kind(),
                                      csv_kind(),             markdown_kind(),        fio_job_kind(),
                                      png_kind(),             svg_kind(),             plot_numbers_kind()};
  for (const auto& [kind, text] : outputs) {
    INFO(kind.what << ": " << text.substr(0, 80));
    const std::string head = text.substr(0, 4096);
    for (const OutputKind& other : kinds) CHECK(other.ours(head) == (std::string(other.what) == kind.what));
    CHECK_FALSE(describe_output(head).empty());
  }
  CHECK_FALSE(png_kind().ours(tiny_png()));  // a PNG ssdprobe did not mark
  CHECK(describe_output(std::string(100, '\0')).empty());
}
