#include "firmware/firmware_query.h"

#include <filesystem>
#include <fmt/format.h>
#include <system_error>

#include "core/error.h"
#include "core/units.h"
#include "firmware/ata_scsi_expectations.h"
#include "firmware/nvme_capabilities.h"
#include "firmware/nvme_expectations.h"
#include "firmware/nvme_zns_query.h"
#include "device/nvme_paths.h"

namespace ssdprobe {

namespace {

namespace fs = std::filesystem;

void append(std::vector<Mismatch>& to, std::vector<Mismatch> from) {
  for (auto& m : from) to.push_back(std::move(m));
}

void set_identity(FirmwareReport& r, const std::string& model, const std::string& serial,
                  const std::string& firmware, const char* source) {
  if (!r.identity_source.empty() || (model.empty() && serial.empty())) return;
  r.model = model;
  r.serial = serial;
  r.firmware = firmware;
  r.identity_source = source;
}

void add_expectation(FirmwareReport& r, SysfsExpectation expectation, const Topology& sysfs) {
  append(r.mismatches, compare_with_sysfs(expectation, sysfs));
  r.expectations.push_back(std::move(expectation));
}

void apply_nvme(const NvmeTarget& t, const Topology& sysfs, std::optional<uint64_t> measured,
                const FirmwareBackends& b, FirmwareReport& r) {
  NvmeFirmwareData data = read_nvme_firmware(t, b.open_nvme, r.notes);
  if (!data.ctrl && !data.ns) return;
  if (sysfs.zoned && sysfs.zoned->zoned()) read_nvme_zns(t, b.open_nvme, data, r.notes);
  if (auto note = undecoded_capabilities_note(nvme_capabilities(data)); !note.empty()) r.notes.push_back(std::move(note));
  r.nvme = data;
  if (data.ctrl) set_identity(r, data.ctrl->mn, data.ctrl->sn, data.ctrl->fr, "NVMe Identify Controller");
  if (!data.ns) return;
  add_expectation(r, expected_nvme_sysfs(data.ctrl ? &*data.ctrl : nullptr, *data.ns), sysfs);
  append(r.mismatches, nvme_firmware_findings(*data.ns, measured));
}

void apply_sd(const std::string& disk_path, const Topology& sysfs, const FirmwareBackends& b, FirmwareReport& r) {
  const ScsiFirmwareData data = read_scsi_firmware(disk_path, b.open_sgio, r.notes);
  const ScsiPages& scsi = data.scsi;
  if (data.ata) {
    r.ata = data.ata;
    set_identity(r, data.ata->model, data.ata->serial, data.ata->firmware, "ATA IDENTIFY DEVICE");
    add_expectation(r, expected_ata_sysfs(*data.ata), sysfs);
  } else if (scsi.capacity) {
    add_expectation(r, expected_scsi_sysfs(*scsi.capacity, scsi.block_limits), sysfs);
  }
  if (scsi.any()) r.scsi = scsi;
  if (scsi.inquiry)
    set_identity(r, scsi.inquiry->product, scsi.unit_serial.value_or(""), scsi.inquiry->revision, "SCSI INQUIRY");
}

void apply_mmc(const Topology& sysfs, const FirmwareBackends& b, FirmwareReport& r) {
  r.mmc = read_mmc_card(sysfs.disk_name, b.sysfs_root, r.notes);
  if (!r.mmc) {
    r.notes.push_back("no MMC card device in sysfs for " + sysfs.disk_name + ": the card registers were not read");
    return;
  }
  if (const auto& cid = r.mmc->cid) {
    set_identity(r, cid->pnm, fmt::format("0x{:08x}", cid->psn), fmt::format("{}.{}", cid->prv_major, cid->prv_minor),
                 "card CID");
  }
}

std::optional<SmartctlReport> run_and_parse_smartctl(const std::string& device, const FirmwareBackends& b,
                                                     std::vector<std::string>& notes) {
  if (!b.run_smartctl) return std::nullopt;
  const SmartctlRun run = b.run_smartctl(device);
  if (!run.ran) {
    notes.push_back(run.note);
    return std::nullopt;
  }
  SmartctlReport parsed = parse_smartctl_json(run.output);
  if (!parsed.parsed) {
    notes.push_back(fmt::format("smartctl -j -a {}: output is not smartctl JSON (exit status {})", device,
                                run.exit_status));
    return std::nullopt;
  }
  if (!parsed.has_data) {
    std::string why = fmt::format("smartctl could not read {} (exit status {}", device, parsed.exit_status);
    for (const auto& bit : smartctl_exit_status_bits(parsed.exit_status)) why += ": " + bit;
    for (const auto& message : parsed.messages) why += "; " + message;
    notes.push_back(why + ")");
  }
  return parsed;
}

void apply_smartctl(const std::string& device, const FirmwareBackends& b, FirmwareReport& r) {
  const auto parsed = run_and_parse_smartctl(device, b, r.notes);
  if (!parsed) return;
  r.smart = parsed;
  if (parsed->has_data) set_identity(r, parsed->model, parsed->serial, parsed->firmware, "smartctl");
}

std::string smartctl_node(const NvmeTarget& t) {
  return t.namespace_disk.empty() ? t.controller_path() : t.namespace_path();
}

std::string no_firmware_note(const Topology& sysfs) {
  const std::string& transport = sysfs.transport;
  if (transport == "file") return "target is a regular file: no firmware-level data is read, only sysfs";
  if (transport == "sim") return "simulated drive: there is no firmware to ask";
  if (transport == "virtio") return "virtio disks pass no drive identify data to the guest: only sysfs is available";
  if (transport == "loop") return "loop device: no firmware behind it (backing file " + sysfs.backing_file + ")";
  return fmt::format("no firmware-level interface for a {} target ({}): only sysfs is available", transport,
                     sysfs.disk_name.empty() ? "no disk" : sysfs.disk_name);
}

bool is_firmwareless(const std::string& transport) {
  return transport == "file" || transport == "sim" || transport == "virtio" || transport == "loop";
}

// The whole disk a (partition) device name belongs to, via sysfs.
std::string whole_disk(const std::string& name, const std::string& sysfs_root) {
  const fs::path node = fs::path(sysfs_root) / "class" / "block" / name;
  std::error_code ec;
  if (!fs::exists(node / "partition", ec)) return name;
  const fs::path resolved = fs::canonical(node, ec);
  return ec ? name : resolved.parent_path().filename().string();
}

// What a read run on a zoned device reads: written data only below the
// write pointers.
std::string readable_note(const ZoneSummary& s) {
  return fmt::format("zoned device: {} of data lie below the write pointers ({} of {} zones empty, {} full); reads "
                     "above a write pointer return what the device returns for unwritten blocks, not data from the "
                     "medium, so read timings there would describe the controller; a timed run reads only below them",
                     format_size(s.written_bytes), s.empty, s.zones, s.full);
}

// The zone report of a zoned whole disk (a host-aware disk's partitions
// share their disk's zones).
void apply_zone_report(const Topology& sysfs, const FirmwareBackends& b, FirmwareReport& r) {
  if (!sysfs.zoned || !sysfs.zoned->zoned() || sysfs.disk_name.empty() || !b.report_zones) return;
  try {
    const std::vector<Zone> zones = b.report_zones("/dev/" + sysfs.disk_name);
    r.zones = summarize_zones(zones);
    r.notes.push_back(readable_note(*r.zones));
  } catch (const Error& e) {
    r.notes.emplace_back(e.what());
  }
}

void use_identity_fallback(const Topology& sysfs, FirmwareReport& r) {
  set_identity(r, sysfs.model, sysfs.serial, sysfs.firmware, "sysfs");
}

}  // namespace

FirmwareBackends default_firmware_backends() {
  FirmwareBackends b;
  b.open_nvme = open_nvme_admin;
  b.open_sgio = open_sgio_admin;
  b.run_smartctl = [](const std::string& device) { return run_smartctl(device); };
  b.report_zones = [](const std::string& device) { return read_zone_report(device); };
  return b;
}

FirmwareReport query_firmware(const std::string& path, const Topology& sysfs, std::optional<uint64_t> measured_unit,
                              const FirmwareBackends& backends) {
  FirmwareReport r;
  auto nvme = is_firmwareless(sysfs.transport) ? std::nullopt : resolve_nvme_target(path, backends.sysfs_root);
  if (!nvme && sysfs.transport == "nvme") nvme = resolve_nvme_target("/dev/" + sysfs.disk_name, backends.sysfs_root);
  if (nvme) {
    apply_nvme(*nvme, sysfs, measured_unit, backends, r);
    apply_smartctl(smartctl_node(*nvme), backends, r);
  } else if (!is_firmwareless(sysfs.transport) && sysfs.disk_name.starts_with("sd")) {
    apply_sd("/dev/" + sysfs.disk_name, sysfs, backends, r);
    apply_smartctl("/dev/" + sysfs.disk_name, backends, r);
  } else if (sysfs.transport == "mmc") {
    apply_mmc(sysfs, backends, r);
  } else {
    r.notes.push_back(no_firmware_note(sysfs));
  }
  if (sysfs.transport != "sim" && sysfs.transport != "file") apply_zone_report(sysfs, backends, r);
  use_identity_fallback(sysfs, r);
  return r;
}

SmartWriteCounters read_write_counters(const std::string& path, const FirmwareBackends& backends) {
  SmartWriteCounters counters;
  std::string smartctl_device = "/dev/" + whole_disk(device_name_of(path), backends.sysfs_root);
  if (const auto nvme = resolve_nvme_target(path, backends.sysfs_root)) {
    const NvmeFirmwareData data = read_nvme_logs(*nvme, backends.open_nvme, counters.notes);
    if (data.smart) {
      auto from_logs = counters_from_nvme_logs(&*data.smart, data.ocp ? &*data.ocp : nullptr,
                                               data.fdp ? &*data.fdp : nullptr,
                                               data.endurance ? &*data.endurance : nullptr);
      from_logs.notes = std::move(counters.notes);
      return from_logs;
    }
    smartctl_device = smartctl_node(*nvme);
  }
  if (const auto parsed = run_and_parse_smartctl(smartctl_device, backends, counters.notes); parsed) {
    auto from_smartctl = counters_from_smartctl(*parsed);
    from_smartctl.notes = std::move(counters.notes);
    return from_smartctl;
  }
  return counters;
}

}  // namespace ssdprobe
