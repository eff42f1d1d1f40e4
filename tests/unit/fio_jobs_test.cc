// The fio job file of a saved run (report/fio_jobs.h), on documents made
// here: the read page's aligned and straddling jobs with the offsets fio
// must issue (disk-aligned, also on a partition), the queue depths around
// the knee, write jobs commented out unless asked for, a part the document
// lacks left out with the reason, and documents that cannot be reproduced
// refused. Also the options --replay reads (report/saved_options.h).

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
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
