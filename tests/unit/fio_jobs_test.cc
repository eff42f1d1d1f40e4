// The fio job file of a saved run (report/fio_jobs.h), on documents made
// here: the read page's aligned and straddling jobs with the offsets fio
// must issue (disk-aligned, also on a partition), the queue depths around
// the knee, write jobs commented out unless asked for, a part the document
// lacks left out with the reason, and documents that cannot be reproduced
// refused. Also the options --replay reads (report/saved_options.h).

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "fio_job_lines.h"
#include "report/fio_jobs.h"
#include "report/saved_options.h"

using nlohmann::json;
using ssdprobe::fio_job_file;
using ssdprobe::FioJobsOptions;

namespace {

constexpr uint64_t kPage = 16384;

// A read grid over 128 KiB of 4 KiB steps (512 B rows would only add
// columns): 16 KiB reads cost 60 us from a page start, 100 us across one.
json read_grid() {
  json g;
  g["name"] = "read";
  g["op"] = "read";
  g["queue_depth"] = 2;
  g["sizes"] = {4096, 16384};
  json offsets = json::array(), row4 = json::array(), row16 = json::array(), samples = json::array();
  for (uint64_t o = 0; o < 131072; o += 4096) {
    offsets.push_back(o);
    row4.push_back(55.0);
    row16.push_back(o % kPage == 0 ? 60.0 + static_cast<double>(o / kPage) : (o % kPage == 8192 ? 100.0 : 80.0));
    samples.push_back(20);
  }
  g["offsets"] = offsets;
  g["median_us"] = {row4, row16};
  g["samples"] = {samples, samples};
  return g;
}

json depth(uint64_t qd, double iops) {
  return {{"queue_depth", qd}, {"ios", 1000}, {"iops", iops}, {"p50_us", 50.0 * static_cast<double>(qd)},
          {"p99_us", 90.0 * static_cast<double>(qd)}};
}

// A read-only run on a whole disk with a 16 KiB page and a knee at 8.
json document() {
  json d;
  d["schema"] = "ssdprobe/1";
  d["tool"] = {{"name", "ssdprobe"}, {"version", "0.1.0"}};
  d["started_at"] = "2026-11-27T07:00:00Z";
  d["hostname"] = "host1";
  d["options"] = {{"engine", "auto"}, {"seed", 7}, {"spin_us", 200}, {"write", false}, {"target", "/dev/nvme0n1"}};
  d["target"] = {{"path", "/dev/nvme0n1"}, {"kind", "block"}, {"size_bytes", 1ull << 30}, {"model", "M"}};
  d["reported"] = {{"logical_block_size", 512}, {"partition_start_bytes", 0}};
  d["detected"]["read_page"] = {{"bytes", kPage}, {"state", "found"}, {"confidence", 0.998}};
  d["detected"]["write_unit"] = {{"bytes", nullptr}, {"state", "not_measured"}, {"confidence", 0.0}};
  d["detected"]["parallelism"]["queue_depth_knee"] = {{"value", 8}, {"state", "found"}, {"confidence", 0.95},
                                                      {"evidence", "..."}};
  d["grids"] = json::array({read_grid()});
  d["write_probe"] = nullptr;
  d["parallelism_probe"] = {{"read_bytes", 4096},
                            {"queue_depths", json::array({depth(1, 10000), depth(2, 19000), depth(4, 35000),
                                                          depth(8, 60000), depth(16, 64000)})}};
  d["run"] = {{"engine", "io_uring, O_DIRECT, fixed file, registered buffers, polled completions"},
              {"read_region", {{"offset", 1048576 + 512}, {"length", 64ull << 20}, {"source", "option"}}}};
  return d;
}

// The job file as sections: name -> key -> value ("global" included); the
// comment lines above each section under "#" joined by newlines.
using Sections = std::map<std::string, std::map<std::string, std::string>>;

Sections sections(const std::string& text) {
  Sections out;
  std::istringstream in(text);
  std::string line, current, comments;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      comments += line + "\n";
    } else if (line[0] == '[') {
      current = line.substr(1, line.size() - 2);
      out[current]["#"] = comments;
      comments.clear();
    } else {
      const size_t eq = line.find('=');
      if (eq == std::string::npos) {
        out[current][line] = "";
      } else {
        out[current][line.substr(0, eq)] = line.substr(eq + 1);
      }
    }
  }
  out["#"]["tail"] = comments;
  return out;
}

std::string jobs(const json& d, bool with_writes = false) {
  FioJobsOptions o;
  o.source = "r.json";
  o.runtime_s = 3;
  o.with_writes = with_writes;
  return fio_job_file(d.dump(), o);
}

uint64_t number(const std::string& text) { return std::stoull(text); }

}  // namespace

TEST_CASE("fio jobs: aligned and straddling reads of the read page, with ssdprobe's medians") {
  const std::string text = jobs(document());
  INFO(text);
  const Sections s = sections(text);
  const auto& g = s.at("global");
  CHECK(g.at("filename") == "/dev/nvme0n1");
  CHECK(g.at("ioengine") == "io_uring");
  CHECK(g.at("fixedbufs") == "1");
  CHECK(g.at("registerfiles") == "1");
  CHECK(g.at("direct") == "1");
  CHECK(g.at("time_based") == "1");
  CHECK(g.at("runtime") == "3");
  CHECK(g.at("randseed") == "7");
  CHECK(g.at("lat_percentiles") == "1");
  CHECK(g.count("group_reporting") == 0);
  CHECK(text.find("fio --readonly --output-format=json") != std::string::npos);

  const auto& a = s.at("read-aligned");
  const auto& st = s.at("read-straddle");
  for (const auto* job : {&a, &st}) {
    CHECK(job->count("stonewall") == 1);
    CHECK(job->at("rw") == "randread");
    CHECK(job->at("bs") == "16384");
    CHECK(job->at("blockalign") == "16384");
    CHECK(job->at("iodepth") == "2");  // the grid's queue depth
  }
  // Inside the read region [1 MiB + 512, +64 MiB), starting on the first page boundary in it.
  const uint64_t region_start = 1048576 + 512, region_end = region_start + (64ull << 20);
  CHECK(number(a.at("offset")) == 1048576 + kPage);
  CHECK(number(a.at("offset")) % kPage == 0);
  CHECK(number(a.at("offset")) + number(a.at("size")) <= region_end);
  CHECK(number(a.at("size")) % kPage == 0);
  CHECK(number(st.at("offset")) == number(a.at("offset")) + kPage / 2);
  // fio's last straddling read starts at offset + size - bs and must end inside the region.
  CHECK(number(st.at("offset")) + number(st.at("size")) - kPage + kPage <= region_end);
  CHECK(number(st.at("offset")) >= region_start);
  // Aligned cells: 60..67 us at offsets 0, 16 KiB ... 112 KiB: median 63.5; straddling cells all 100 us.
  CHECK(a.at("#").find("median of 63.5 us") != std::string::npos);
  CHECK(a.at("#").find("8 cells of grid \"read\"") != std::string::npos);
  CHECK(st.at("#").find("median of 100.0 us") != std::string::npos);
  CHECK(st.at("#").find("straddling / aligned median ratio: 1.575") != std::string::npos);
}

TEST_CASE("fio jobs: on a partition the offsets are page-aligned on the disk") {
  json d = document();
  d["target"]["kind"] = "partition";
  d["target"]["path"] = "/dev/sda1";
  d["reported"]["partition_start_bytes"] = 32256;  // sector 63
  const Sections s = sections(jobs(d));
  const uint64_t aligned = number(s.at("read-aligned").at("offset"));
  CHECK((aligned + 32256) % kPage == 0);
  CHECK(aligned >= 1048576 + 512);
  CHECK((number(s.at("read-straddle").at("offset")) + 32256) % kPage == kPage / 2);
  CHECK((number(s.at("qd-knee").at("offset")) + 32256) % 4096 == 0);
}

TEST_CASE("fio jobs: queue depths at the knee and one measured depth either side") {
  const std::string text = jobs(document());
  const Sections s = sections(text);
  CHECK(s.at("qd-below").at("iodepth") == "4");
  CHECK(s.at("qd-knee").at("iodepth") == "8");
  CHECK(s.at("qd-above").at("iodepth") == "16");
  CHECK(s.at("qd-knee").at("bs") == "4096");
  CHECK(s.at("qd-knee").at("rw") == "randread");
  CHECK(s.at("qd-knee").count("stonewall") == 1);
  CHECK(s.at("qd-knee").at("#").find("60000 IOPS") != std::string::npos);
  CHECK(s.at("qd-below").at("#").find("35000 IOPS") != std::string::npos);
  // The order: reads of the page, then the sweep from shallow to deep.
  CHECK(text.find("[read-aligned]") < text.find("[read-straddle]"));
  CHECK(text.find("[read-straddle]") < text.find("[qd-below]"));
  CHECK(text.find("[qd-below]") < text.find("[qd-knee]"));
  CHECK(text.find("[qd-knee]") < text.find("[qd-above]"));

  SECTION("no knee: the deepest depth, and the job says so") {
    json d = document();
    d["detected"]["parallelism"]["queue_depth_knee"] = {{"value", nullptr}, {"state", "undetermined"},
                                                        {"evidence", "IOPS still rising at depth 16"}};
    const Sections n = sections(jobs(d));
    CHECK(n.count("qd-knee") == 0);
    CHECK(n.count("qd-above") == 0);
    CHECK(n.at("qd-deepest").at("iodepth") == "16");
    CHECK(n.at("qd-below").at("iodepth") == "8");
    CHECK(n.at("qd-deepest").at("#").find("no knee was found") != std::string::npos);
    CHECK(n.at("qd-deepest").at("#").find("IOPS still rising at depth 16") != std::string::npos);
  }
  SECTION("no parallelism probe: no qd job, and a comment says why") {
    json d = document();
    d["parallelism_probe"] = nullptr;
    d["detected"]["parallelism"]["queue_depth_knee"] = {{"value", nullptr}, {"state", "not_measured"},
                                                        {"evidence", "--max-qd 1: the probe did not run"}};
    const std::string t = jobs(d);
    CHECK(t.find("[qd-") == std::string::npos);
    CHECK(t.find("# left out: qd-*: the document has no parallelism probe") != std::string::npos);
    CHECK(t.find("--max-qd 1: the probe did not run") != std::string::npos);
  }
  SECTION("psync: one IO in flight, no sweep") {
    json d = document();
    d["run"]["engine"] = "psync (pread/pwrite), O_DIRECT, queue depth 1";
    const std::string t = jobs(d);
    const Sections p = sections(t);
    CHECK(p.at("global").at("ioengine") == "psync");
    CHECK(p.at("global").count("fixedbufs") == 0);
    CHECK(p.at("read-aligned").at("iodepth") == "1");
    CHECK(t.find("[qd-") == std::string::npos);
    CHECK(t.find("left out: qd-*: the run's engine keeps one IO in flight") != std::string::npos);
  }
}

TEST_CASE("fio jobs: no read page found leaves the page jobs out, saying why") {
  json d = document();
  d["detected"]["read_page"] = {{"bytes", nullptr}, {"state", "undetermined"}, {"best_candidate_bytes", 8192}};
  const std::string t = jobs(d);
  CHECK(t.find("[read-aligned]") == std::string::npos);
  CHECK(t.find("[read-straddle]") == std::string::npos);
  CHECK(t.find("# left out: read-aligned and read-straddle: no read page was found (detected.read_page.state "
               "\"undetermined\"); the best candidate, 8 KiB, is not a found page") != std::string::npos);
  CHECK(t.find("[qd-knee]") != std::string::npos);  // the rest is still there
}

TEST_CASE("fio jobs: write jobs are commented out unless asked for") {
  json d = document();
  CHECK(jobs(d).find("# left out: write-partial and write-unit: the run had no --write") != std::string::npos);

  d["options"]["write"] = true;
  d["write_probe"] = {{"region", {{"offset", 512ull << 20}, {"length", 256ull << 20}}}};
  d["detected"]["write_unit"] = {{"bytes", 49152}, {"state", "found"}, {"confidence", 0.99}};
  json w;
  w["name"] = "write";
  w["op"] = "write";
  w["queue_depth"] = 1;
  w["sizes"] = {4096, 49152};
  w["offsets"] = {0, 4096, 49152};
  w["median_us"] = {{140.0, 150.0, 141.0}, {130.0, 200.0, 132.0}};
  d["grids"].push_back(w);

  const std::string off = jobs(d);
  INFO(off);
  CHECK(off.find("\n[write-partial]") == std::string::npos);
  CHECK(off.find("# [write-partial]\n# stonewall\n# rw=randwrite\n# bs=4096\n# blockalign=49152\n") !=
        std::string::npos);
  CHECK(off.find("# [write-unit]\n# stonewall\n# rw=randwrite\n# bs=49152\n") != std::string::npos);
  CHECK(off.find("WRITES DESTROY DATA") != std::string::npos);
  CHECK(off.find("fio --readonly") != std::string::npos);
  CHECK(off.find("median of 140.5 us") != std::string::npos);  // the 4 KiB cells at 0 and 48 KiB
  CHECK(off.find("median of 131.0 us") != std::string::npos);

  const std::string on = jobs(d, true);
  INFO(on);
  const Sections s = sections(on);
  CHECK(s.at("write-partial").at("rw") == "randwrite");
  CHECK(s.at("write-partial").at("bs") == "4096");
  CHECK(s.at("write-unit").at("bs") == "49152");
  CHECK(number(s.at("write-unit").at("offset")) == 536887296);  // the first 48 KiB multiple from 512 MiB
  CHECK(number(s.at("write-partial").at("offset")) == 536887296);
  CHECK(number(s.at("write-unit").at("size")) % 49152 == 0);
  CHECK(number(s.at("write-unit").at("offset")) + number(s.at("write-unit").at("size")) <= (768ull << 20));
  CHECK(s.at("write-unit").at("#").find("WRITES DESTROY DATA") != std::string::npos);
  CHECK(on.find("fio --readonly") == std::string::npos);
}

TEST_CASE("fio jobs: documents that cannot be reproduced are refused") {
  auto refusal = [](const json& d) -> std::string {
    try {
      (void)jobs(d);
    } catch (const ssdprobe::Error& e) {
      CHECK(e.category() == ssdprobe::ErrorCategory::target);
      return e.what();
    }
    return "";
  };
  json sim = document();
  sim["target"]["path"] = "sim:nvme-tlc-16k";
  sim["target"]["kind"] = "sim";
  CHECK(refusal(sim).find("r.json: is the run of a simulated drive (sim:nvme-tlc-16k): there is no device for fio") !=
        std::string::npos);
  json info = document();
  info["run"] = nullptr;
  CHECK(refusal(info).find("is an `info` or `audit` document") != std::string::npos);
  CHECK(refusal(json::array()).find("r.json: is not a JSON result document") != std::string::npos);
}

// ---- Hostile documents: every string a document holds is text someone else wrote.

namespace {

// What a line breaking out of its comment would add: a section of its own
// and an option fio runs even with --readonly.
const std::string kBreakOut = "x\n[global]\nexec_prerun=touch /tmp/ssdprobe-fio-pwned\n";

// The longest line of `text`, in bytes.
size_t longest_line(const std::string& text) {
  size_t longest = 0, start = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; start = nl + 1, nl = text.find('\n', start)) {
    longest = std::max(longest, nl - start);
  }
  return std::max(longest, text.size() - start);
}

// document() with `text` in every string that lands in a comment.
json hostile_document(const std::string& text) {
  json d = document();
  d["schema"] = "ssdprobe/1" + text;
  d["tool"]["version"] = text;
  d["started_at"] = text;
  d["hostname"] = text;
  for (const char* key : {"model", "serial", "firmware"}) d["target"][key] = text;
  d["target"]["kind"] = text;
  d["run"]["engine"] = "io_uring" + text;
  d["run"]["read_region"]["source"] = text;
  d["grids"].push_back(json{{"name", text}, {"sizes", json::array()}, {"offsets", json::array()},
                            {"median_us", json::array()}});
  return d;
}

}  // namespace

TEST_CASE("fio jobs: a document's strings stay inside their comments") {
  // C0 (newline, CR, ESC, TAB), DEL and C1 (NEL, CSI) controls, each able to end a line or rewrite a terminal.
  const std::string controls = kBreakOut + "\r[qd-knee]\r\x1b[2J\x7f\xc2\x85[global]\xc2\x9b\t;";
  json d = hostile_document(controls);
  FioJobsOptions o;
  o.source = "evil" + kBreakOut + ".json";
  o.runtime_s = 3;
  const std::string text = fio_job_file(d.dump(), o);
  INFO(text);
  CHECK(test_support::foreign_fio_lines(text).empty());
  for (const char c : text) {
    CHECK((c == '\n' || (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)));
  }
  CHECK(text.find("\xc2\x85") == std::string::npos);  // NEL
  CHECK(text.find("\xc2\x9b") == std::string::npos);  // CSI
  // The text is still there, escaped, and the sections are the builder's alone.
  CHECK(text.find("model x\\x0a[global]\\x0aexec_prerun=touch /tmp/ssdprobe-fio-pwned\\x0a\\x0d[qd-knee]") !=
        std::string::npos);
  CHECK(text.find("from evilx\\x0a[global]") != std::string::npos);
  const Sections s = sections(text);
  CHECK(s.at("global").count("exec_prerun") == 0);
  CHECK(s.count("qd-knee") == 1);
  CHECK(s.at("qd-knee").at("iodepth") == "8");

  SECTION("a knee's evidence, in the job that says no knee was found") {
    d["detected"]["parallelism"]["queue_depth_knee"] = {{"value", nullptr}, {"state", controls},
                                                        {"evidence", controls}};
    const std::string t = fio_job_file(d.dump(), o);
    INFO(t);
    CHECK(test_support::foreign_fio_lines(t).empty());
    CHECK(t.find("no knee was found (detected.parallelism.queue_depth_knee \"x\\x0a[global]") != std::string::npos);
  }
  SECTION("the same evidence, when the document has no parallelism probe") {
    d["parallelism_probe"] = nullptr;
    d["detected"]["parallelism"]["queue_depth_knee"]["evidence"] = controls;
    const std::string t = fio_job_file(d.dump(), o);
    CHECK(test_support::foreign_fio_lines(t).empty());
    CHECK(t.find("# left out: qd-*: the document has no parallelism probe (detected.parallelism.queue_depth_knee: "
                 "x\\x0a[global]") != std::string::npos);
  }
  SECTION("the write jobs' comments, written active and commented out") {
    d["options"]["write"] = true;
    d["write_probe"] = {{"region", {{"offset", 512ull << 20}, {"length", 256ull << 20}}}};
    d["detected"]["write_unit"] = {{"bytes", 49152}, {"state", "found"}, {"confidence", 0.99}};
    for (const bool with_writes : {false, true}) {
      o.with_writes = with_writes;
      const std::string t = fio_job_file(d.dump(), o);
      INFO(t);
      CHECK(test_support::foreign_fio_lines(t).empty());
      CHECK(t.find(with_writes ? "\n[write-unit]\n" : "\n# [write-unit]\n") != std::string::npos);
    }
  }
}

TEST_CASE("fio jobs: a long string is cut into comment lines fio reads whole") {
  // fio 3.33 reads a line 8191 bytes at a time and takes the rest as a line of
  // its own: a 9000-byte model once put an option there.
  const std::string model = std::string(8191 - std::string("# the run of ").size(), 'x') + "exec_prerun=touch /tmp/p";
  json d = document();
  d["started_at"] = model;
  d["target"]["model"] = std::string(3000, 'y') + "\xc3\xa9\xc3\xa9\xc3\xa9" + std::string(9000, 'z');
  d["hostname"] = std::string(5000, '\n');  // 20000 bytes once escaped
  std::string accents;
  for (int i = 0; i < 2000; ++i) accents += "\xc3\xa9";  // é: cuts must fall between its two bytes' character
  d["target"]["serial"] = accents;
  const std::string text = jobs(d);
  CHECK(test_support::foreign_fio_lines(text).empty());
  CHECK(longest_line(text) <= ssdprobe::kFioCommentBytes + 2);
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // No line starts in the middle of a character (a UTF-8 continuation byte after "# ").
    if (line.size() > 2) CHECK((static_cast<unsigned char>(line[2]) & 0xC0) != 0x80);
  }
  CHECK(text.find("xexec_prerun=touch /tmp/p") != std::string::npos);  // kept, inside a comment

  // A cut that would fall inside a character moves back before it.
  const std::string cut = ssdprobe::fio_comment(std::string(999, 'a') + "\xc3\xa9" "b");
  CHECK(cut == "# " + std::string(999, 'a') + "\n# \xc3\xa9" "b\n");
  CHECK(ssdprobe::fio_comment("") == "# \n");
  CHECK(ssdprobe::fio_comment("a\nb") == "# a\\x0ab\n");
}

TEST_CASE("fio jobs: a document's 0 B read size or write unit is left out, not divided by") {
  json d = document();
  d["parallelism_probe"]["read_bytes"] = 0;
  d["options"]["write"] = true;
  d["write_probe"] = {{"region", {{"offset", 512ull << 20}, {"length", 256ull << 20}}}};
  d["detected"]["write_unit"] = {{"bytes", 0}, {"state", "found"}, {"confidence", 0.99}};
  const std::string text = jobs(d, true);
  CHECK(text.find("[qd-") == std::string::npos);
  CHECK(text.find("# left out: qd-*: the run's read region") != std::string::npos);
  CHECK(text.find("[write-unit]") == std::string::npos);
  CHECK(text.find("# left out: write-unit: the write window holds no 0 B write unit") != std::string::npos);
  CHECK(text.find("[read-aligned]") != std::string::npos);  // the rest is still there
}

TEST_CASE("fio jobs: filename= escapes ':' as fio wants it") {
  json d = document();
  d["target"]["path"] = "/dev/disk/by-path/pci-0000:00:1f.2-ata-1";
  const std::string text = jobs(d);
  CHECK(sections(text).at("global").at("filename") == "/dev/disk/by-path/pci-0000\\:00\\:1f.2-ata-1");
  CHECK(ssdprobe::fio_filename(":a\\:b:", "r.json") == "\\:a\\\\:b\\:");  // fio takes "\:" as ':', any other '\' as is
  CHECK(ssdprobe::fio_filename("/dev/sda", "r.json") == "/dev/sda");
  CHECK(ssdprobe::fio_filename("/x/a\"b'c=d,e", "r.json") == "/x/a\"b'c=d,e");
}

TEST_CASE("fio jobs: a target.path fio would read as another file is refused") {
  auto refusal = [](const std::string& path) -> std::string {
    json d = document();
    d["target"]["path"] = path;
    try {
      const std::string text = jobs(d);
      FAIL("a job file was written: " << text);
    } catch (const ssdprobe::Error& e) {
      CHECK(e.category() == ssdprobe::ErrorCategory::target);
      return e.what();
    }
    return "";
  };
  const std::string newline = refusal("/dev/sda\n[global]\nexec_prerun=touch /tmp/x");
  CHECK(newline.find("r.json: target.path \"/dev/sda\\x0a[global]\\x0aexec_prerun=touch /tmp/x\" holds a control "
                     "character: fio's filename= cannot name it, so no job file is written") != std::string::npos);
  CHECK(newline.find('\n') == std::string::npos);
  CHECK(refusal("/dev/sda\r").find("holds a control character") != std::string::npos);
  CHECK(refusal("/dev/sd\xc2\x85" "a").find("holds a control character") != std::string::npos);  // NEL
  CHECK(refusal("/dev/sda#1").find("holds '#' (fio ends the line there)") != std::string::npos);
  CHECK(refusal("/dev/sda;1").find("holds ';' (fio ends the line there)") != std::string::npos);
  CHECK(refusal("/mnt/${HOME}/f").find("holds '$'") != std::string::npos);
  CHECK(refusal("/mnt/$ncpus").find("holds '$'") != std::string::npos);
  CHECK(refusal("/mnt/file ").find("ends in a space (fio strips it)") != std::string::npos);
  CHECK(refusal("-").find("is '-' (fio reads and writes standard input and output for it)") != std::string::npos);
  CHECK(refusal("/" + std::string(4090, ':')).find("bytes long as fio's filename=") != std::string::npos);
}

TEST_CASE("fio jobs: runtime in a unit fio reads for time_based runs") {
  json d = document();
  FioJobsOptions o;
  o.source = "r.json";
  const std::vector<std::pair<double, std::string>> cases{
      {10.0, "10"}, {0.5, "500ms"}, {1.25, "1250ms"}, {0.001, "1ms"}, {2.0004, "2"}, {1e6, "1000000"}};
  for (const auto& [seconds, want] : cases) {
    o.runtime_s = seconds;
    CHECK(sections(fio_job_file(d.dump(), o)).at("global").at("runtime") == want);
  }
  for (const double bad : {0.0009, 0.0, -1.0, 1e7, std::nan("")}) {
    o.runtime_s = bad;
    try {
      (void)fio_job_file(d.dump(), o);
      FAIL("runtime " << bad << " was written");
    } catch (const ssdprobe::Error& e) {
      CHECK(e.category() == ssdprobe::ErrorCategory::usage);
      CHECK(std::string(e.what()).find("--runtime") != std::string::npos);
    }
  }
}

TEST_CASE("replay: the options a document records, as command-line text") {
  json d = document();
  d["options"]["budget_s"] = 5.0;
  d["options"]["region"] = {{"offset", 1ull << 30}, {"length", 2ull << 30}};
  d["options"]["queue_depth"] = 4;
  d["options"]["at"] = nullptr;
  d["options"]["write"] = true;
  const auto saved = ssdprobe::read_saved_options(d.dump(), "r.json",
                                                   {"engine", "budget_s", "region", "seed", "queue_depth", "at"});
  CHECK(saved.target == "/dev/nvme0n1");
  CHECK(saved.write);
  CHECK(saved.timed);
  const std::vector<std::pair<std::string, std::string>> want{
      {"engine", "auto"}, {"budget_s", "5"}, {"region", "1073741824:2147483648"}, {"seed", "7"}, {"queue_depth", "4"}};
  CHECK(saved.values == want);  // null (at) left out

  d["options"]["region"] = {{"offset", 4096}, {"length", 0}};
  CHECK(ssdprobe::read_saved_options(d.dump(), "r.json", {"region"}).values.at(0).second == "4096:");
  d["options"]["region"] = "1G:2G";
  CHECK(ssdprobe::read_saved_options(d.dump(), "r.json", {"region"}).values.at(0).second == "1G:2G");
  d["options"]["seed"] = true;
  CHECK_THROWS_WITH(ssdprobe::read_saved_options(d.dump(), "r.json", {"seed"}),
                    Catch::Contains("r.json: options.seed is a boolean"));
  CHECK_THROWS_WITH(ssdprobe::read_saved_options("[]", "r.json", {"seed"}),
                    Catch::Contains("r.json: has no options object"));
}
