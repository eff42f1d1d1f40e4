// SCSI sense data from untrusted bytes (fixed 70h/71h and descriptor
// 72h/73h formats, SAT ATA Status Return descriptor), its description, and
// sgio_check's verdict on an SG_IO outcome carrying it. The input is the
// sense buffer as the kernel returns it (so captured sense bytes can go
// into the corpus as they are); the bits of its last byte choose the rest of
// the SG_IO outcome (info, SCSI/host/driver status, ATA pass-through).
#include "firmware/scsi_pages.h"
#include "firmware/sgio_admin.h"
#include "fuzz_target.h"

using namespace ssdprobe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto in = fuzz::bytes(data, size);
  fuzz::expect_rejection([&] {
    const auto sense = decode_sense(in);
    if (size == 0) FUZZ_CHECK(!sense);
    if (sense) {
      fuzz::keep(describe_sense(*sense));
      fuzz::keep(sense_key_name(sense->sense_key));
      fuzz::keep(is_ata_passthrough_success(*sense));
    }
    if (size >= 1) {
      const uint8_t control = data[size - 1];
      SgioOutcome outcome;
      outcome.info = (control & 0x01) ? 1 : 0;                  // SG_INFO_CHECK or SG_INFO_OK
      outcome.status = (control & 0x02) ? 0x02 : 0x00;           // CHECK CONDITION
      outcome.host_status = (control & 0x04) ? 0x07 : 0x00;      // DID_ERROR
      outcome.driver_status = static_cast<uint16_t>(((control & 0x08) ? 0x08 : 0x00) |  // DRIVER_SENSE
                                                    ((control & 0x10) ? 0x06 : 0x00));  // DRIVER_TIMEOUT
      outcome.ata_passthrough = (control & 0x20) != 0;
      outcome.sense = in;
      const SgioVerdict verdict = sgio_check(outcome);
      if (verdict.ok) FUZZ_CHECK(!verdict.unsupported);
      fuzz::keep(verdict);
    }
  });
  return 0;
}
