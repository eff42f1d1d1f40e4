// Identify Controller (CNS 01h) from untrusted bytes: decode_nvme_id_ctrl,
// the version string, and the sizes derived from it (MDTS, AWUN...), with
// the same bytes also read as a namespace so derive_nvme_sizes sees every
// combination of garbage; the same bytes as an Endurance Group List (CNS
// 19h) and as the directives' Return Parameters, with the capability walk
// and the Streams comparison built on them.
#include "firmware/nvme_capabilities.h"
#include "firmware/nvme_identify.h"
#include "firmware/nvme_streams_findings.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto ctrl = decode_nvme_id_ctrl(in);
    FUZZ_CHECK(ctrl.has_value() == (size >= kNvmeIdentifyBytes));
    if (!ctrl) return;
    fuzz::keep(nvme_version_string(ctrl->ver));
    const auto ns = decode_nvme_id_ns(in);
    const uint64_t page = uint64_t{1} << (12 + (size > 4096 ? data[4096] % 8 : 0));
    fuzz::keep(derive_nvme_sizes(&*ctrl, nullptr, nullptr, page));
    fuzz::keep(derive_nvme_sizes(&*ctrl, ns ? &*ns : nullptr, nullptr, page));
    const auto groups = decode_nvme_endurance_group_list(in);
    FUZZ_CHECK(groups && groups->size() <= kNvmeEnduranceGroupListMax);
    NvmeFirmwareData firmware;
    firmware.ctrl = ctrl;
    firmware.ns = ns;
    firmware.directives = NvmeDirectives{.support = decode_directive_support(in), .streams = decode_streams_params(in)};
    fuzz::keep(undecoded_capabilities_note(nvme_capabilities(firmware)));
    if (firmware.directives->streams)
      fuzz::keep(compare_streams(*firmware.directives->streams, page, page * 3, page * 1024).notes.size());
  });
  return 0;
}
