// The measured open units beside what the firmware states: FDP's reclaim
// unit handles in the configuration in use, else the Streams directive's
// streams; a mismatch only when fewer were measured than it states.
#include <catch2/catch.hpp>

#include "run/open_units_phase.h"

using namespace ssdprobe;

namespace {

ResultDocument measured(UnitState state, uint32_t streams) {
  ResultDocument doc;
  doc.open_units.verdict.state = state;
  if (state == UnitState::found) {
    doc.open_units.verdict.streams = streams;
    doc.open_units.verdict.at_most = streams;
    doc.open_units.verdict.steps = {{1, 32, 150.0, 1.0, 0.5, StreamStepClass::clean},
                                    {streams + 1, 32, 3000.0, 20.0, 1.0, StreamStepClass::collapsed}};
  }
  return doc;
}

NvmeFdp fdp_with_handles(uint16_t handles, bool enabled) {
  NvmeFdp fdp;
  fdp.feature = FdpFeature{enabled, 0};
  FdpConfigurationsLog log;
  FdpConfiguration config;
  config.nruh = handles;
  log.configs.push_back(config);
  fdp.configurations = log;
  return fdp;
}

}  // namespace

TEST_CASE("fewer open units measured than FDP reclaim unit handles is a mismatch naming both") {
  ResultDocument doc = measured(UnitState::found, 4);
  doc.firmware.nvme = NvmeFirmwareData{};
  doc.firmware.nvme->fdp = fdp_with_handles(8, true);
  compare_open_units_with_firmware(doc);
  CHECK(doc.open_units.firmware_streams == 8u);
  CHECK(doc.open_units.firmware_streams_field == "nvme.fdp.nruh");
  REQUIRE(doc.mismatches.size() == 1);
  CHECK(doc.mismatches[0].field == "nvme.fdp.nruh");
  CHECK(doc.mismatches[0].reported == 8);
  CHECK(doc.mismatches[0].detected == 4);
  CHECK(doc.mismatches[0].message.find("5 streams cost 20.0x") != std::string::npos);
}

TEST_CASE("as many or more measured than stated, or no answer, is no mismatch; the statement is kept beside") {
  for (uint32_t streams : {8u, 12u}) {
    ResultDocument doc = measured(UnitState::found, streams);
    doc.firmware.nvme = NvmeFirmwareData{};
    doc.firmware.nvme->fdp = fdp_with_handles(8, true);
    compare_open_units_with_firmware(doc);
    CHECK(doc.mismatches.empty());
  }
  ResultDocument absent = measured(UnitState::absent, 0);
  absent.firmware.nvme = NvmeFirmwareData{};
  absent.firmware.nvme->fdp = fdp_with_handles(8, true);
  compare_open_units_with_firmware(absent);
  CHECK(absent.mismatches.empty());
  CHECK(absent.open_units.firmware_streams == 8u);
}

TEST_CASE("FDP not enabled falls back to the Streams directive's allocated streams, then its maximum") {
  ResultDocument doc = measured(UnitState::found, 2);
  doc.firmware.nvme = NvmeFirmwareData{};
  doc.firmware.nvme->fdp = fdp_with_handles(8, false);
  NvmeDirectives directives;
  directives.streams = NvmeStreamsParams{};
  directives.streams->msl = 16;
  doc.firmware.nvme->directives = directives;
  compare_open_units_with_firmware(doc);
  CHECK(doc.open_units.firmware_streams_field == "nvme.directives.streams.msl");
  CHECK(doc.open_units.firmware_streams == 16u);
  doc.firmware.nvme->directives->streams->nsa = 4;
  doc.mismatches.clear();
  compare_open_units_with_firmware(doc);
  CHECK(doc.open_units.firmware_streams_field == "nvme.directives.streams.nsa");
  REQUIRE(doc.mismatches.size() == 1);
  CHECK(doc.mismatches[0].reported == 4);
}

TEST_CASE("a drive whose firmware states nothing gets nothing beside the answer") {
  ResultDocument doc = measured(UnitState::found, 2);
  compare_open_units_with_firmware(doc);
  CHECK_FALSE(doc.open_units.firmware_streams);
  doc.firmware.nvme = NvmeFirmwareData{};
  compare_open_units_with_firmware(doc);
  CHECK_FALSE(doc.open_units.firmware_streams);
  CHECK(doc.mismatches.empty());
}
