#include "firmware/nvme_admin.h"

#include <fcntl.h>
#include <libnvme.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fmt/format.h>

#include "core/error.h"
#include "core/unique_fd.h"
#include "firmware/nvme_endurance_log.h"
#include "firmware/nvme_fdp.h"

namespace ssdprobe {

namespace {

// nvme_fdp.cc decodes bytes with ByteReader; these hold its offsets to
// libnvme's own definitions of the FDP structures.
static_assert(sizeof(nvme_fdp_config_log) == kFdpConfigHeaderBytes);
static_assert(sizeof(nvme_fdp_config_desc) == kFdpConfigDescriptorBytes);
static_assert(offsetof(nvme_fdp_config_desc, nrg) == 4 && offsetof(nvme_fdp_config_desc, nruh) == 8);
static_assert(offsetof(nvme_fdp_config_desc, maxpids) == 10 && offsetof(nvme_fdp_config_desc, nnss) == 12);
static_assert(offsetof(nvme_fdp_config_desc, runs) == 16 && offsetof(nvme_fdp_config_desc, erutl) == 24);
static_assert(sizeof(nvme_fdp_ruh_desc) == kFdpRuhDescriptorBytes);
static_assert(sizeof(nvme_fdp_ruhu_log) == kFdpRuhUsageHeaderBytes);
static_assert(sizeof(nvme_fdp_ruhu_desc) == kFdpRuhUsageDescriptorBytes);
static_assert(sizeof(nvme_fdp_stats_log) == kFdpStatisticsBytes && offsetof(nvme_fdp_stats_log, mbe) == 32);
static_assert(sizeof(nvme_fdp_event) == kFdpEventBytes && offsetof(nvme_fdp_event, nsid) == 12);
static_assert(offsetof(nvme_fdp_event, rgid) == 32 && offsetof(nvme_fdp_event, ruhid) == 34);
static_assert(sizeof(nvme_fdp_events_log) == kFdpEventsLogBytes);
static_assert(NVME_FEAT_FID_FDP == kNvmeFeatureFdp && NVME_CTRL_CTRATT_FDPS == kNvmeCtrattFdps);
static_assert(NVME_LOG_LID_FDP_CONFIGS == kNvmeLogFdpConfigurations && NVME_LOG_LID_FDP_EVENTS == kNvmeLogFdpEvents);
// nvme_endurance_log.cc's offsets against libnvme's Endurance Group
// Information log (this libnvme still calls bytes 160..511 reserved: TEGCAP
// and UEGCAP come from NVMe 2.0, so they have no assert here).
static_assert(sizeof(nvme_endurance_group_log) == kNvmeEnduranceLogBytes);
static_assert(offsetof(nvme_endurance_group_log, avl_spare) == kEnduranceAvailableSpareOffset);
static_assert(offsetof(nvme_endurance_group_log, percent_used) == kEndurancePercentUsedOffset);
static_assert(offsetof(nvme_endurance_group_log, endurance_estimate) == kEnduranceEstimateOffset);
static_assert(offsetof(nvme_endurance_group_log, media_units_written) == kEnduranceMediaUnitsWrittenOffset);
static_assert(offsetof(nvme_endurance_group_log, num_err_info_log_entries) == kEnduranceErrorEntriesOffset);
static_assert(NVME_LOG_LID_ENDURANCE_GROUP == kNvmeLogEnduranceGroup);
static_assert(NVME_CTRL_CTRATT_ENDURANCE_GROUPS == kNvmeCtrattEnduranceGroups);
static_assert(NVME_EG_CRITICAL_WARNING_READ_ONLY == kEnduranceWarningReadOnly);

constexpr uint32_t kLogPieceBytes = 4096;
constexpr uint16_t kStatusMask = 0x7ff;  // SCT (10:8) and SC (7:0)
constexpr const char* kCapability = "NVMe passthrough needs CAP_SYS_ADMIN (run as root)";

Error errno_error(const std::string& what, const std::string& path, int err) {
  if (err == EPERM || err == EACCES)
    return Error(ErrorCategory::permission, fmt::format("{} on {}: {} ({})", what, path, kCapability, std::strerror(err)));
  if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP)
    return Error(ErrorCategory::unsupported, fmt::format("{} on {}: {}", what, path, std::strerror(err)));
  return os_error(fmt::format("{} on {}", what, path), err);
}

class LibnvmeAdmin final : public NvmeAdmin {
 public:
  LibnvmeAdmin(UniqueFd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}

  std::vector<uint8_t> identify_ctrl() override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_identify_ctrl(fd_.get(), reinterpret_cast<nvme_id_ctrl*>(data.data())), "Identify Controller");
    return data;
  }

  std::vector<uint8_t> identify_ns(uint32_t nsid) override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_identify_ns(fd_.get(), nsid, reinterpret_cast<nvme_id_ns*>(data.data())), "Identify Namespace");
    return data;
  }

  std::vector<uint8_t> identify_ns_nvm(uint32_t nsid) override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_identify_ns_csi(fd_.get(), nsid, NVME_UUID_NONE, NVME_CSI_NVM, data.data()),
          "Identify Namespace (NVM command set)");
    return data;
  }

  std::vector<uint8_t> smart_log() override {
    std::vector<uint8_t> data(sizeof(nvme_smart_log));
    check(nvme_get_log_smart(fd_.get(), NVME_NSID_ALL, false, reinterpret_cast<nvme_smart_log*>(data.data())),
          "Get Log Page 02h (SMART/Health)");
    return data;
  }

  std::vector<uint8_t> log_page(uint8_t lid, uint32_t length) override {
    std::vector<uint8_t> data(length);
    check(nvme_get_nsid_log(fd_.get(), false, static_cast<nvme_cmd_get_log_lid>(lid), NVME_NSID_ALL, length,
                            data.data()),
          fmt::format("Get Log Page {:02X}h", lid));
    return data;
  }

  std::vector<uint8_t> identify_ns_zns(uint32_t nsid) override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_zns_identify_ns(fd_.get(), nsid, reinterpret_cast<nvme_zns_id_ns*>(data.data())),
          "Identify Namespace (Zoned Namespace command set)");
    return data;
  }

  std::vector<uint8_t> identify_ctrl_zns() override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_zns_identify_ctrl(fd_.get(), reinterpret_cast<nvme_zns_id_ctrl*>(data.data())),
          "Identify Controller (Zoned Namespace command set)");
    return data;
  }

  std::vector<uint8_t> endurance_group_log(uint8_t lid, uint16_t endgid, uint8_t lsp, uint32_t length) override {
    std::vector<uint8_t> data(length);
    nvme_get_log_args args{};
    args.args_size = sizeof(args);
    args.fd = fd_.get();
    args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
    args.lid = static_cast<nvme_cmd_get_log_lid>(lid);
    args.len = length;
    args.log = data.data();
    args.nsid = NVME_NSID_NONE;
    args.csi = NVME_CSI_NVM;
    args.lsi = endgid;
    args.lsp = lsp;
    args.uuidx = NVME_UUID_NONE;
    // In 4 KiB pieces (offsets in LPO): a configurations page may be larger
    // than the controller's maximum transfer, and 4 KiB is within any MDTS.
    check(nvme_get_log_page(fd_.get(), kLogPieceBytes, &args),
          fmt::format("Get Log Page {:02X}h (endurance group {})", lid, endgid));
    return data;
  }

  uint32_t get_feature(uint8_t fid, uint32_t cdw11) override {
    __u32 result = 0;
    nvme_get_features_args args{};
    args.args_size = sizeof(args);
    args.fd = fd_.get();
    args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
    args.result = &result;
    args.sel = NVME_GET_FEATURES_SEL_CURRENT;
    args.cdw11 = cdw11;
    args.fid = fid;
    args.uuidx = NVME_UUID_NONE;
    check(nvme_get_features(&args), fmt::format("Get Features {:02X}h", fid));
    return result;
  }

  std::vector<uint8_t> identify_endurance_groups(uint16_t start) override {
    std::vector<uint8_t> data(NVME_IDENTIFY_DATA_SIZE);
    check(nvme_identify_endurance_group_list(fd_.get(), start,
                                             reinterpret_cast<nvme_id_endurance_group_list*>(data.data())),
          "Identify CNS 19h (Endurance Group List)");
    return data;
  }

  std::vector<uint8_t> directive_parameters(uint32_t nsid, uint8_t dtype) override {
    std::vector<uint8_t> data(dtype == NVME_DIRECTIVE_DTYPE_STREAMS ? sizeof(nvme_streams_directive_params)
                                                                     : sizeof(nvme_id_directives));
    nvme_directive_recv_args args{};
    args.args_size = sizeof(args);
    args.fd = fd_.get();
    args.timeout = NVME_DEFAULT_IOCTL_TIMEOUT;
    args.nsid = nsid;
    args.doper = NVME_DIRECTIVE_RECEIVE_IDENTIFY_DOPER_PARAM;  // 01h: Return Parameters, for both types
    args.dtype = static_cast<nvme_directive_dtype>(dtype);
    args.data_len = static_cast<__u32>(data.size());
    args.data = data.data();
    check(nvme_directive_recv(&args), fmt::format("Directive Receive (type {:02X}h, Return Parameters)", dtype));
    return data;
  }

  std::optional<uint32_t> nsid() override {
    __u32 nsid = 0;
    if (nvme_get_nsid(fd_.get(), &nsid) != 0 || nsid == 0) return std::nullopt;
    return nsid;
  }

 private:
  void check(int rc, const std::string& what) const {
    if (rc == 0) return;
    if (rc < 0) throw errno_error(what, path_, errno);
    const auto category = nvme_status_is_unsupported(rc) ? ErrorCategory::unsupported : ErrorCategory::io;
    throw Error(category, fmt::format("{} on {}: NVMe status {}", what, path_, nvme_status_text(rc)));
  }

  UniqueFd fd_;
  std::string path_;
};

}  // namespace

std::string nvme_status_text(int status) {
  return fmt::format("{} (0x{:x})", nvme_status_to_string(status, false), status & kStatusMask);
}

bool nvme_status_is_unsupported(int status) {
  const int sct = (status >> 8) & 0x7;
  const int sc = status & 0xff;
  if (sct == 0) return sc == 0x01 || sc == 0x02;  // Invalid Opcode, Invalid Field in Command
  return sct == 1 && sc == 0x09;                  // Invalid Log Page
}

std::unique_ptr<NvmeAdmin> open_nvme_admin(const std::string& device_path) {
  UniqueFd fd(::open(device_path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    if (err == EPERM || err == EACCES)
      throw Error(ErrorCategory::permission, fmt::format("open {}: {} ({})", device_path, kCapability, std::strerror(err)));
    throw os_error("open " + device_path, err);
  }
  return std::make_unique<LibnvmeAdmin>(std::move(fd), device_path);
}

}  // namespace ssdprobe
