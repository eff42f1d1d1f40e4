// The NVM command set Identify Namespace (CNS 05h, CSI 00h) from untrusted
// bytes: decode_nvme_nvm_id_ns and the sizes derived from it (NPDGL, NPDAL)
// next to a namespace read from the same bytes.
#include "firmware/nvme_identify.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto nvm = decode_nvme_nvm_id_ns(in);
    FUZZ_CHECK(nvm.has_value() == (size >= kNvmeIdentifyBytes));
    if (!nvm) return;
    fuzz::keep(derive_nvme_sizes(nullptr, nullptr, &*nvm));
    const auto ns = decode_nvme_id_ns(in);
    fuzz::keep(derive_nvme_sizes(nullptr, ns ? &*ns : nullptr, &*nvm));
  });
  return 0;
}
