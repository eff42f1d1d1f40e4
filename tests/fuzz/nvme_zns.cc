// The Zoned Namespace Command Set's Identify pages (CNS 05h/06h, CSI 02h)
// from untrusted bytes: decode_nvme_zns_id_ns and _id_ctrl, the sizes
// derived from them beside a namespace read from the same bytes (ZSZE times
// an LBA size, 2^ZASL pages: where an overflow would hide), and the JSON the
// document and `info` show.
#include "firmware/nvme_zns.h"
#include "fuzz_target.h"
#include "report/firmware_json.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto zns = decode_nvme_zns_id_ns(in);
    const auto ctrl = decode_nvme_zns_id_ctrl(in);
    FUZZ_CHECK(zns.has_value() == (size >= kNvmeIdentifyBytes));
    const auto ns = decode_nvme_id_ns(in);
    fuzz::keep(derive_nvme_zns_sizes(zns ? &*zns : nullptr, ctrl ? &*ctrl : nullptr, ns ? &*ns : nullptr));
    // The page size is the controller's CAP.MPSMIN: anything from 4 KiB up.
    const uint64_t page = uint64_t{4096} << (size > 0 ? data[0] % 16 : 0);
    fuzz::keep(derive_nvme_zns_sizes(zns ? &*zns : nullptr, ctrl ? &*ctrl : nullptr, ns ? &*ns : nullptr, page));
    NvmeFirmwareData firmware;
    firmware.zns_ns = zns;
    firmware.zns_ctrl = ctrl;
    firmware.ns = ns;
    fuzz::keep(nvme_zns_json(firmware).dump());
  });
  return 0;
}
