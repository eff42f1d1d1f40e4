// NVMe log pages from untrusted bytes: the SMART / Health log (02h) and the
// OCP SMART extended log (C0h, decoded only when its GUID is there).
#include "firmware/nvme_logs.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto smart = decode_nvme_smart_log(in);
    FUZZ_CHECK(smart.has_value() == (size >= kNvmeLogPageBytes));
    if (smart) {
      fuzz::keep(nvme_data_units_to_bytes(smart->data_units_read));
      fuzz::keep(nvme_data_units_to_bytes(smart->data_units_written));
    }
    const bool ocp_page = is_ocp_smart_log(in);
    const auto ocp = decode_ocp_smart_log(in);
    FUZZ_CHECK(ocp.has_value() == ocp_page);
    if (ocp) fuzz::keep(*ocp);
  });
  return 0;
}
