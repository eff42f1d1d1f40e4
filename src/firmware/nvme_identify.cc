#include "firmware/nvme_identify.h"

#include <algorithm>
#include <fmt/format.h>

#include "firmware/checked_math.h"

namespace ssdprobe {

namespace {

constexpr size_t kLbafOffset = 128;
constexpr size_t kMaxLbaFormats = 64;

void decode_ctrl_identity(const ByteReader& r, NvmeIdCtrl& c) {
  c.vid = r.le16(0);
  c.ssvid = r.le16(2);
  c.sn = r.ascii(4, 20);
  c.mn = r.ascii(24, 40);
  c.fr = r.ascii(64, 8);
  c.rab = r.u8(72);
  c.ieee = static_cast<uint32_t>(r.le(73, 3));
  c.cmic = r.u8(76);
  c.mdts = r.u8(77);
  c.cntlid = r.le16(78);
  c.ver = r.le32(80);
  c.ctratt = r.le32(96);
  c.cntrltype = r.u8(111);
}

void decode_ctrl_admin(const ByteReader& r, NvmeIdCtrl& c) {
  c.oacs = r.le16(256);
  c.frmw = r.u8(260);
  c.lpa = r.u8(261);
  c.wctemp = r.le16(266);
  c.cctemp = r.le16(268);
  c.tnvmcap = r.le128(280);
  c.unvmcap = r.le128(296);
  c.endgidmax = r.le16(340);
}

void decode_ctrl_nvm(const ByteReader& r, NvmeIdCtrl& c) {
  c.sqes = r.u8(512);
  c.cqes = r.u8(513);
  c.nn = r.le32(516);
  c.oncs = r.le16(520);
  c.fuses = r.le16(522);
  c.fna = r.u8(524);
  c.vwc = r.u8(525);
  c.awun = r.le16(526);
  c.awupf = r.le16(528);
  c.nvscc = r.u8(530);
  c.nwpc = r.u8(531);
  c.acwu = r.le16(532);
  c.sgls = r.le32(536);
  c.mnan = r.le32(540);
  c.subnqn = r.ascii(768, 256);
}

void decode_ns_header(const ByteReader& r, NvmeIdNs& n) {
  n.nsze = r.le64(0);
  n.ncap = r.le64(8);
  n.nuse = r.le64(16);
  n.nsfeat = r.u8(24);
  n.nlbaf = r.u8(25);
  n.flbas = r.u8(26);
  n.mc = r.u8(27);
  n.dpc = r.u8(28);
  n.dps = r.u8(29);
  n.nmic = r.u8(30);
  n.rescap = r.u8(31);
  n.fpi = r.u8(32);
  n.dlfeat = r.u8(33);
}

void decode_ns_geometry(const ByteReader& r, NvmeIdNs& n) {
  n.nawun = r.le16(34);
  n.nawupf = r.le16(36);
  n.nacwu = r.le16(38);
  n.nabsn = r.le16(40);
  n.nabo = r.le16(42);
  n.nabspf = r.le16(44);
  n.noiob = r.le16(46);
  n.nvmcap = r.le128(48);
  n.npwg = r.le16(64);
  n.npwa = r.le16(66);
  n.npdg = r.le16(68);
  n.npda = r.le16(70);
  n.nows = r.le16(72);
  n.mssrl = r.le16(74);
  n.mcl = r.le32(76);
  n.msrc = r.u8(80);
  n.nulbaf = r.u8(82);
}

void decode_ns_ids(const ByteReader& r, NvmeIdNs& n) {
  n.anagrpid = r.le32(92);
  n.nsattr = r.u8(99);
  n.nvmsetid = r.le16(100);
  n.endgid = r.le16(102);
  n.nguid = r.hex(104, 16);
  n.eui64 = r.hex(120, 8);
}

void decode_lba_formats(const ByteReader& r, NvmeIdNs& n) {
  const size_t count = std::min<size_t>(size_t{n.nlbaf} + 1 + n.nulbaf, kMaxLbaFormats);
  for (size_t i = 0; i < count; ++i) {
    const size_t at = kLbafOffset + 4 * i;
    n.lbaf.push_back(NvmeLbaFormat{r.le16(at), r.u8(at + 2), static_cast<uint8_t>(r.u8(at + 3) & 0x3)});
  }
}

// (value + 1) × lba: the encoding of the 0's based LBA counts.
std::optional<uint64_t> zeros_based(uint64_t value, std::optional<uint64_t> lba) {
  if (!lba) return std::nullopt;
  return checked_mul(value + 1, *lba);
}

std::optional<uint64_t> plain_count(uint64_t value, std::optional<uint64_t> lba) {
  if (!lba || value == 0) return std::nullopt;
  return checked_mul(value, *lba);
}

std::optional<uint64_t> mdts_bytes(uint8_t mdts, uint64_t memory_page_bytes) {
  if (mdts == 0 || mdts >= 64) return std::nullopt;
  return checked_mul(uint64_t{1} << mdts, memory_page_bytes);
}

void derive_ns_sizes(const NvmeIdNs& ns, NvmeDerivedSizes& s) {
  const auto lba = s.lba_bytes;
  if (lba) {
    s.nsze_bytes = checked_mul(ns.nsze, *lba);
    s.ncap_bytes = checked_mul(ns.ncap, *lba);
    s.nuse_bytes = checked_mul(ns.nuse, *lba);
    if (ns.nabo != 0 || ns.nabsn != 0 || ns.nabspf != 0) s.nabo_bytes = checked_mul(ns.nabo, *lba);
  }
  if (ns.optperf()) {
    s.npwg_bytes = zeros_based(ns.npwg, lba);
    s.npwa_bytes = zeros_based(ns.npwa, lba);
    s.npdg_bytes = zeros_based(ns.npdg, lba);
    s.npda_bytes = zeros_based(ns.npda, lba);
    s.nows_bytes = zeros_based(ns.nows, lba);
  }
  if (ns.nsabp()) {
    s.nawun_bytes = zeros_based(ns.nawun, lba);
    s.nawupf_bytes = zeros_based(ns.nawupf, lba);
    s.nacwu_bytes = zeros_based(ns.nacwu, lba);
  }
  if (ns.nabsn != 0) s.nabsn_bytes = zeros_based(ns.nabsn, lba);
  if (ns.nabspf != 0) s.nabspf_bytes = zeros_based(ns.nabspf, lba);
  s.noiob_bytes = plain_count(ns.noiob, lba);
}

}  // namespace

std::optional<uint64_t> NvmeIdNs::lba_bytes() const {
  const unsigned index = lbaf_in_use();
  if (index >= lbaf.size()) return std::nullopt;
  const uint8_t ds = lbaf[index].ds;
  if (ds < 9 || ds > 31) return std::nullopt;
  return uint64_t{1} << ds;
}

std::optional<std::vector<uint16_t>> decode_nvme_endurance_group_list(std::span<const uint8_t> buffer) {
  if (buffer.size() < 2) return std::nullopt;
  const ByteReader r(buffer.first(std::min(buffer.size(), kNvmeIdentifyBytes)));
  const size_t listed = std::min<size_t>(r.le16(0), kNvmeEnduranceGroupListMax);
  std::vector<uint16_t> ids;
  for (size_t i = 0; i < listed && r.has(2 + 2 * i, 2); ++i) ids.push_back(r.le16(2 + 2 * i));
  return ids;
}

std::optional<NvmeIdCtrl> decode_nvme_id_ctrl(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeIdentifyBytes));
  NvmeIdCtrl c;
  decode_ctrl_identity(r, c);
  decode_ctrl_admin(r, c);
  decode_ctrl_nvm(r, c);
  return c;
}

std::optional<NvmeIdNs> decode_nvme_id_ns(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeIdentifyBytes));
  NvmeIdNs n;
  decode_ns_header(r, n);
  decode_ns_geometry(r, n);
  decode_ns_ids(r, n);
  decode_lba_formats(r, n);
  return n;
}

std::optional<NvmeNvmIdNs> decode_nvme_nvm_id_ns(std::span<const uint8_t> buffer) {
  if (buffer.size() < kNvmeIdentifyBytes) return std::nullopt;
  const ByteReader r(buffer.first(kNvmeIdentifyBytes));
  NvmeNvmIdNs n;
  n.lbstm = r.le64(0);
  n.pic = r.u8(8);
  n.pifa = r.u8(9);
  n.npdgl = r.le32(268);
  n.nprg = r.le32(272);
  n.npra = r.le32(276);
  n.nors = r.le32(280);
  n.npdal = r.le32(284);
  return n;
}

std::string nvme_version_string(uint32_t ver) {
  if (ver == 0) return {};
  return fmt::format("{}.{}.{}", ver >> 16, (ver >> 8) & 0xff, ver & 0xff);
}

NvmeDerivedSizes derive_nvme_sizes(const NvmeIdCtrl* ctrl, const NvmeIdNs* ns, const NvmeNvmIdNs* nvm,
                                   uint64_t memory_page_bytes) {
  NvmeDerivedSizes s;
  if (ns != nullptr) {
    s.lba_bytes = ns->lba_bytes();
    derive_ns_sizes(*ns, s);
  }
  if (ctrl != nullptr) {
    s.mdts_bytes = mdts_bytes(ctrl->mdts, memory_page_bytes);
    s.awun_bytes = zeros_based(ctrl->awun, s.lba_bytes);
    s.awupf_bytes = zeros_based(ctrl->awupf, s.lba_bytes);
    s.acwu_bytes = zeros_based(ctrl->acwu, s.lba_bytes);
  }
  if (nvm != nullptr) {
    s.npdgl_bytes = plain_count(nvm->npdgl, s.lba_bytes);
    s.npdal_bytes = plain_count(nvm->npdal, s.lba_bytes);
  }
  return s;
}

}  // namespace ssdprobe
