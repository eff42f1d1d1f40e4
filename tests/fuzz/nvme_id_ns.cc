// Identify Namespace (CNS 00h) from untrusted bytes: decode_nvme_id_ns, the
// LBA format in use, and every size derived from it.
#include "firmware/nvme_identify.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto ns = decode_nvme_id_ns(in);
    FUZZ_CHECK(ns.has_value() == (size >= kNvmeIdentifyBytes));
    if (!ns) return;
    FUZZ_CHECK(ns->lbaf.size() <= 64);
    const auto lba = ns->lba_bytes();
    if (lba) FUZZ_CHECK(*lba >= 512 && (*lba & (*lba - 1)) == 0);
    fuzz::keep(ns->lbaf_in_use());
    fuzz::keep(ns->optperf());
    fuzz::keep(ns->nsabp());
    fuzz::keep(derive_nvme_sizes(nullptr, &*ns, nullptr));
    const auto ctrl = decode_nvme_id_ctrl(in);
    const auto nvm = decode_nvme_nvm_id_ns(in);
    fuzz::keep(derive_nvme_sizes(ctrl ? &*ctrl : nullptr, &*ns, nvm ? &*nvm : nullptr));
  });
  return 0;
}
