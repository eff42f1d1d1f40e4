// SD/eMMC card registers from untrusted bytes: the input is decoded as raw
// CSD, CID and SCR bytes (each decoder must refuse every length but its
// register's) and, as text, through parse_register_hex as sysfs shows it.
#include "firmware/mmc_registers.h"
#include "fuzz_target.h"

using namespace ssdprobe;

namespace {

void decode_all(std::span<const uint8_t> reg) {
  const auto sd_csd = decode_sd_csd(reg);
  if (sd_csd) {
    FUZZ_CHECK(reg.size() == kCsdBytes && sd_csd->csd_structure <= 2);
    FUZZ_CHECK(sd_csd->capacity_bytes() > 0 && sd_csd->smallest_erase_bytes() > 0);
  }
  const auto mmc_csd = decode_mmc_csd(reg);
  if (mmc_csd) FUZZ_CHECK(reg.size() == kCsdBytes && mmc_csd->erase_group_bytes() > 0);
  const auto scr = decode_sd_scr(reg);
  if (scr) FUZZ_CHECK(reg.size() == kScrBytes && scr->scr_structure == 0);
  const auto sd_cid = decode_sd_cid(reg);
  const auto mmc_cid = decode_mmc_cid(reg);
  if (sd_cid) FUZZ_CHECK(reg.size() == kCidBytes && sd_cid->pnm.size() == 5 && sd_cid->mdt_month < 16);
  if (mmc_cid) FUZZ_CHECK(reg.size() == kCidBytes && mmc_cid->pnm.size() == 6 && mmc_cid->oid.size() == 2);
  fuzz::keep(scr);
  fuzz::keep(mmc_csd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  decode_all(fuzz::bytes(data, size));
  for (const size_t bytes : {kCsdBytes, kScrBytes}) {
    const auto parsed = parse_register_hex(fuzz::text(data, size), bytes);
    if (!parsed) continue;
    FUZZ_CHECK(parsed->size() == bytes);
    decode_all(*parsed);
  }
  return 0;
}
