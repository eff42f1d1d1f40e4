#include "firmware/nvme_expectations.h"

#include <algorithm>
#include <fmt/format.h>

namespace ssdprobe {

namespace {

constexpr uint8_t kNsfeatIoOpt = 0x10;
constexpr uint8_t kNsfeatAtomics = 0x02;
constexpr uint16_t kOncsDsm = 0x04;

int64_t blocks(uint64_t zeros_based, uint64_t lba) { return static_cast<int64_t>((zeros_based + 1) * lba); }

ExpectedField atomic_unit(const NvmeIdCtrl* ctrl, const NvmeIdNs& ns, uint64_t lba) {
  if (ns.nabo != 0) return {"atomic", static_cast<int64_t>(lba), fmt::format("NABO={} → one LBA", ns.nabo)};
  if ((ns.nsfeat & kNsfeatAtomics) && ns.nawupf != 0)
    return {"atomic", blocks(ns.nawupf, lba), fmt::format("NAWUPF={}", ns.nawupf)};
  if (ctrl == nullptr) return {"atomic", std::nullopt, "AWUPF unknown (Identify Controller not read)"};
  return {"atomic", blocks(ctrl->awupf, lba), fmt::format("AWUPF={}", ctrl->awupf)};
}

ExpectedField physical(const ExpectedField& io_min, const ExpectedField& atomic) {
  if (!io_min.value || !atomic.value) return {"physical_block_size", std::nullopt, atomic.derivation};
  const int64_t value = std::min(*io_min.value, *atomic.value);
  return {"physical_block_size", value,
          fmt::format("min(minimum_io_size {}, atomic write unit {} from {})", *io_min.value, *atomic.value,
                      atomic.derivation)};
}

ExpectedField discard(const NvmeIdCtrl* ctrl, uint64_t lba) {
  if (ctrl == nullptr) return {"discard_granularity", std::nullopt, "ONCS unknown"};
  if ((ctrl->oncs & kOncsDsm) == 0) return {"discard_granularity", std::nullopt, "ONCS bit 2 clear"};
  return {"discard_granularity", static_cast<int64_t>(lba), "ONCS bit 2 set → one LBA (6.1 ignores NPDG)"};
}

Mismatch finding(const char* field, std::optional<uint64_t> reported, std::optional<uint64_t> detected,
                 Severity severity, std::string message) {
  auto as_signed = [](std::optional<uint64_t> v) -> std::optional<int64_t> {
    if (!v) return std::nullopt;
    return static_cast<int64_t>(*v);
  };
  return Mismatch{field, as_signed(reported), as_signed(detected), severity, std::move(message)};
}

std::optional<Mismatch> write_granularity_finding(const NvmeIdNs& ns, uint64_t lba, std::optional<uint64_t> unit) {
  if (!unit || *unit <= lba) return std::nullopt;
  if ((ns.nsfeat & kNsfeatIoOpt) == 0) {
    return finding("nsfeat", lba, unit, Severity::warning,
                   fmt::format("NSFEAT bit 4 is clear: the drive reports no preferred write granularity "
                               "(NPWG/NPWA/NOWS not valid), but the measured unit is {} B, larger than the {} B LBA",
                               *unit, lba));
  }
  const uint64_t npwg_bytes = (uint64_t{ns.npwg} + 1) * lba;
  if (npwg_bytes >= *unit) return std::nullopt;
  return finding("npwg", npwg_bytes, unit, Severity::warning,
                 fmt::format("NPWG={} means a preferred write granularity of {} B, but the measured unit is {} B",
                             ns.npwg, npwg_bytes, *unit));
}

std::optional<Mismatch> nows_finding(const NvmeIdNs& ns, uint64_t lba) {
  if (ns.nows != 0) return std::nullopt;
  const bool valid = (ns.nsfeat & kNsfeatIoOpt) != 0;
  return finding("nows", lba, std::nullopt, Severity::info,
                 valid ? "NOWS=0: the drive reports an optimal write size of one LBA; Linux 6.1 sets "
                         "optimal_io_size to the LBA size, newer kernels leave it 0"
                       : "NOWS=0 and NSFEAT bit 4 clear: the drive reports no optimal write size");
}

std::optional<Mismatch> lba_format_finding(const NvmeIdNs& ns, uint64_t lba) {
  const unsigned in_use = ns.lbaf_in_use();
  const NvmeLbaFormat& current = ns.lbaf[in_use];
  std::optional<unsigned> better;
  for (unsigned i = 0; i < ns.lbaf.size(); ++i) {
    const NvmeLbaFormat& f = ns.lbaf[i];
    if (i == in_use || f.ms != current.ms || f.ds < 9 || f.ds > 31 || f.rp >= current.rp) continue;
    if (!better || f.rp < ns.lbaf[*better].rp) better = i;
  }
  if (!better) return std::nullopt;
  const uint64_t better_lba = uint64_t{1} << ns.lbaf[*better].ds;
  return finding("flbas", lba, better_lba, Severity::info,
                 fmt::format("LBA format {} ({} B, RP={}) is in use, but format {} ({} B, same {} B metadata) "
                             "has a better relative performance (RP={}); reformatting (nvme format --lbaf={}) "
                             "erases the namespace",
                             in_use, lba, current.rp, *better, better_lba, current.ms, ns.lbaf[*better].rp, *better));
}

std::optional<Mismatch> noiob_finding(const NvmeIdNs& ns, uint64_t lba) {
  if (ns.noiob == 0 || (ns.noiob & (ns.noiob - 1)) == 0) return std::nullopt;
  const uint64_t bytes = uint64_t{ns.noiob} * lba;
  return finding("noiob", bytes, std::nullopt, Severity::warning,
                 fmt::format("NOIOB={} ({} B) is not a power of two; Linux ignores it, so IOs are not split at "
                             "the drive's optimal boundary",
                             ns.noiob, bytes));
}

}  // namespace

SysfsExpectation expected_nvme_sysfs(const NvmeIdCtrl* ctrl, const NvmeIdNs& ns) {
  SysfsExpectation e{"NVMe Identify", "6.1", {}};
  const auto lba = ns.lba_bytes();
  if (!lba || *lba > kKernelPageBytes) return e;
  const bool io_opt = (ns.nsfeat & kNsfeatIoOpt) != 0;
  const ExpectedField io_min =
      io_opt ? ExpectedField{"minimum_io_size", blocks(ns.npwg, *lba), fmt::format("NSFEAT bit 4, NPWG={}", ns.npwg)}
             : ExpectedField{"minimum_io_size", static_cast<int64_t>(*lba), "NSFEAT bit 4 clear → one LBA"};
  const ExpectedField opt =
      io_opt ? ExpectedField{"optimal_io_size", blocks(ns.nows, *lba), fmt::format("NSFEAT bit 4, NOWS={}", ns.nows)}
             : ExpectedField{"optimal_io_size", 0, "NSFEAT bit 4 clear → 0"};
  e.fields.push_back({"logical_block_size", static_cast<int64_t>(*lba),
                      fmt::format("LBA format {}", ns.lbaf_in_use())});
  e.fields.push_back(physical(io_min, atomic_unit(ctrl, ns, *lba)));
  e.fields.push_back(io_min);
  e.fields.push_back(opt);
  e.fields.push_back(discard(ctrl, *lba));
  return e;
}

std::vector<Mismatch> nvme_firmware_findings(const NvmeIdNs& ns, std::optional<uint64_t> measured_unit) {
  std::vector<Mismatch> findings;
  const auto lba = ns.lba_bytes();
  if (!lba) return findings;
  for (auto f : {write_granularity_finding(ns, *lba, measured_unit), nows_finding(ns, *lba),
                 lba_format_finding(ns, *lba), noiob_finding(ns, *lba)}) {
    if (f) findings.push_back(std::move(*f));
  }
  return findings;
}

}  // namespace ssdprobe
