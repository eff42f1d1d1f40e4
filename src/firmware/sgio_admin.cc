#include "firmware/sgio_admin.h"

#include <fcntl.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

#include "core/error.h"
#include "core/unique_fd.h"
#include "firmware/scsi_pages.h"

namespace ssdprobe {

namespace {

constexpr unsigned kTimeoutMs = 20000;
constexpr uint8_t kCheckCondition = 0x02;
constexpr uint16_t kDriverSense = 0x08;
constexpr uint8_t kIllegalRequest = 0x05;
constexpr const char* kCapability = "ATA/SCSI pass-through needs CAP_SYS_RAWIO (run as root)";

class SgIoAdmin final : public SgioAdmin {
 public:
  SgIoAdmin(UniqueFd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}

  std::vector<uint8_t> ata_identify() override {
    const std::array<uint8_t, 16> cdb = {0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xEC, 0};
    return run(cdb, 512, "ATA PASS-THROUGH(16) IDENTIFY DEVICE", true);
  }

  std::vector<uint8_t> read_capacity16() override {
    const std::array<uint8_t, 16> cdb = {0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0};
    return run(cdb, 32, "READ CAPACITY(16)", false);
  }

  std::vector<uint8_t> inquiry() override {
    const std::array<uint8_t, 6> cdb = {0x12, 0, 0, 0, 36, 0};
    return run(cdb, 36, "INQUIRY", false);
  }

  std::vector<uint8_t> inquiry_vpd(uint8_t page) override {
    const uint8_t length = page == 0xB0 ? 0x40 : 0xFC;
    const std::array<uint8_t, 6> cdb = {0x12, 0x01, page, 0, length, 0};
    return run(cdb, length, fmt::format("INQUIRY VPD {:02X}h", page), false);
  }

 private:
  std::vector<uint8_t> run(std::span<const uint8_t> cdb, size_t length, const std::string& what, bool ata) {
    std::vector<uint8_t> data(length);
    std::array<uint8_t, 64> sense{};
    sg_io_hdr_t hdr{};
    hdr.interface_id = 'S';
    hdr.cmd_len = static_cast<unsigned char>(cdb.size());
    hdr.cmdp = const_cast<unsigned char*>(cdb.data());
    hdr.dxfer_direction = SG_DXFER_FROM_DEV;
    hdr.dxfer_len = static_cast<unsigned>(length);
    hdr.dxferp = data.data();
    hdr.mx_sb_len = static_cast<unsigned char>(sense.size());
    hdr.sbp = sense.data();
    hdr.timeout = kTimeoutMs;
    if (::ioctl(fd_.get(), SG_IO, &hdr) < 0) throw errno_error(what, errno);
    const SgioOutcome outcome{hdr.info, hdr.status, hdr.host_status, hdr.driver_status,
                              std::span<const uint8_t>(sense.data(), std::min<size_t>(hdr.sb_len_wr, sense.size())), ata};
    const SgioVerdict verdict = sgio_check(outcome);
    if (!verdict.ok) {
      throw Error(verdict.unsupported ? ErrorCategory::unsupported : ErrorCategory::io,
                  fmt::format("{} on {}: {}", what, path_, verdict.problem));
    }
    const size_t resid = hdr.resid > 0 ? std::min<size_t>(static_cast<size_t>(hdr.resid), length) : 0;
    data.resize(length - resid);
    return data;
  }

  Error errno_error(const std::string& what, int err) const {
    if (err == EPERM || err == EACCES)
      return Error(ErrorCategory::permission, fmt::format("{} on {}: {} ({})", what, path_, kCapability, std::strerror(err)));
    if (err == ENOTTY || err == EINVAL)
      return Error(ErrorCategory::unsupported, fmt::format("{} on {}: no SG_IO ({})", what, path_, std::strerror(err)));
    return os_error(fmt::format("{} on {}", what, path_), err);
  }

  UniqueFd fd_;
  std::string path_;
};

std::optional<std::string> ata_error(const SenseData& sense) {
  if (!sense.ata_return || (sense.ata_return->status & 0x01) == 0) return std::nullopt;
  return fmt::format("ATA command failed: status {:02X}h, error {:02X}h{}", sense.ata_return->status,
                     sense.ata_return->error, (sense.ata_return->error & 0x04) ? " (aborted)" : "");
}

}  // namespace

SgioVerdict sgio_check(const SgioOutcome& o) {
  const auto sense = decode_sense(o.sense);
  if (o.ata_passthrough && sense) {
    if (auto failure = ata_error(*sense)) return {false, false, *failure};
  }
  if (o.host_status != 0) return {false, false, fmt::format("host status {:#x}", o.host_status)};
  if ((o.driver_status & ~kDriverSense) != 0) return {false, false, fmt::format("driver status {:#x}", o.driver_status)};
  if ((o.info & SG_INFO_OK_MASK) == SG_INFO_OK) return {true, false, {}};
  if (sense) {
    if (sense->sense_key == 0x00 || is_ata_passthrough_success(*sense)) return {true, false, {}};
    return {false, sense->sense_key == kIllegalRequest, describe_sense(*sense)};
  }
  if (o.status == kCheckCondition) return {false, false, "CHECK CONDITION without sense data"};
  return {false, false, fmt::format("SCSI status {:#x}", o.status)};
}

std::unique_ptr<SgioAdmin> open_sgio_admin(const std::string& disk_path) {
  UniqueFd fd(::open(disk_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    if (err == EPERM || err == EACCES)
      throw Error(ErrorCategory::permission, fmt::format("open {}: {} ({})", disk_path, kCapability, std::strerror(err)));
    throw os_error("open " + disk_path, err);
  }
  return std::make_unique<SgIoAdmin>(std::move(fd), disk_path);
}

}  // namespace ssdprobe
