// The kinds of file ssdprobe writes, each recognised by its first bytes as
// ssdprobe writes it, for the output door (core/output_file.h): an existing
// file is replaced only by an output of its own kind, or with --force. Every
// writer's output starts with what its kind looks for; tests/unit/
// output_file_test.cc renders each and checks that it is recognised as its
// own kind and as no other.
#pragma once

#include <string>
#include <string_view>

#include "core/output_file.h"

namespace ssdprobe {

// The marker every picture ssdprobe writes carries: a PNG tEXt chunk
// ("Software", this text) and an SVG comment (<!-- made by this text -->).
constexpr const char* kPictureMaker = "ssdprobe";

OutputKind result_document_kind();  // --json of a run, info or audit: schema "ssdprobe/N"
// compare --json: "ssdprobe-compare/N", "ssdprobe-quirks/N" or "ssdprobe-baseline/N"
OutputKind comparison_json_kind();
OutputKind disk_table_kind();       // info --all-disks --json: [{"device": ...}, ...]
OutputKind sims_list_kind();        // --list-sims --json
OutputKind html_page_kind();        // --html, report --html, compare --html
OutputKind prometheus_kind();       // --prometheus
OutputKind ndjson_kind();           // compare --ndjson
OutputKind csv_kind();              // compare --csv (groups or quirks)
OutputKind markdown_kind();         // compare --markdown
OutputKind fio_job_kind();          // fio-jobs -o
OutputKind png_kind();              // plot -o OUT.png
OutputKind svg_kind();              // plot -o OUT.svg
OutputKind plot_numbers_kind();     // plot's OUT.dat

// What `head` (a file's first bytes) is among the kinds above, in words ("a
// saved result document"), or "" for none of them.
std::string describe_output(std::string_view head);

// Whether the regular file at `path` starts as a result document does.
bool holds_result_document(const std::string& path);

// The first line of every numbers file `plot` writes.
constexpr const char* kPlotNumbersHeader = "# ssdprobe plot numbers";
// The generator meta element of every HTML page ssdprobe writes.
constexpr const char* kHtmlGenerator = "<meta name=\"generator\" content=\"ssdprobe\">";

}  // namespace ssdprobe
