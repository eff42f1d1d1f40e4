// Helpers for the firmware decoder tests: byte pages with fields set at their
// spec offsets, ATA IDENTIFY sectors with words and byte-swapped strings, a
// fake sysfs tree, and the path of tests/data/firmware.
#pragma once

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../support/temp_tree.h"

namespace firmware_test {

namespace fs = std::filesystem;

// A zeroed page of `size` bytes with little-endian field setters.
class Page {
 public:
  explicit Page(size_t size) : bytes_(size, 0) {}
  Page& u8(size_t offset, uint8_t value) {
    bytes_.at(offset) = value;
    return *this;
  }
  Page& le(size_t offset, uint64_t value, size_t length) {
    for (size_t i = 0; i < length; ++i) bytes_.at(offset + i) = i < 8 ? static_cast<uint8_t>(value >> (8 * i)) : 0;
    return *this;
  }
  Page& le16(size_t offset, uint16_t value) { return le(offset, value, 2); }
  Page& le32(size_t offset, uint32_t value) { return le(offset, value, 4); }
  Page& le64(size_t offset, uint64_t value) { return le(offset, value, 8); }
  Page& be(size_t offset, uint64_t value, size_t length) {
    for (size_t i = 0; i < length; ++i)
      bytes_.at(offset + length - 1 - i) = i < 8 ? static_cast<uint8_t>(value >> (8 * i)) : 0;
    return *this;
  }
  // ASCII padded with spaces to `length`, as NVMe strings are.
  Page& ascii(size_t offset, const std::string& text, size_t length) {
    for (size_t i = 0; i < length; ++i) bytes_.at(offset + i) = i < text.size() ? static_cast<uint8_t>(text[i]) : ' ';
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// NVMe Identify Namespace with one LBA format per (ds, ms, rp) entry.
struct LbaFormatSpec {
  uint8_t ds;
  uint16_t ms;
  uint8_t rp;
};
inline Page nvme_namespace(const std::vector<LbaFormatSpec>& formats, uint8_t flbas, uint8_t nsfeat) {
  Page p(4096);
  p.le64(0, 1000000).le64(8, 1000000).le64(16, 500000);
  p.u8(24, nsfeat).u8(25, static_cast<uint8_t>(formats.size() - 1)).u8(26, flbas);
  for (size_t i = 0; i < formats.size(); ++i) {
    p.le16(128 + 4 * i, formats[i].ms).u8(128 + 4 * i + 2, formats[i].ds).u8(128 + 4 * i + 3, formats[i].rp);
  }
  return p;
}

// NVMe Identify Controller with identity strings and a few limits.
inline Page nvme_controller(uint8_t mdts = 5, uint16_t awupf = 0, uint16_t oncs = 0x0004) {
  Page p(4096);
  p.le16(0, 0x1b36).le16(2, 0x1af4);
  p.ascii(4, "SN-1234", 20).ascii(24, "Example NVMe SSD", 40).ascii(64, "FW1.0", 8);
  p.u8(77, mdts).le32(80, 0x00010400);
  p.le16(256, 0x000a).le16(520, oncs).u8(525, 1).le16(528, awupf).le32(516, 1);
  return p;
}

// 512-byte ATA IDENTIFY DEVICE sector.
class AtaSector {
 public:
  AtaSector() : page_(512) {}
  AtaSector& word(size_t index, uint16_t value) {
    page_.le16(2 * index, value);
    return *this;
  }
  // ATA string in words [first, first + count): two characters per word,
  // the first in the high byte, padded with spaces.
  AtaSector& text(size_t first, size_t count, const std::string& value) {
    for (size_t i = 0; i < count; ++i) {
      const char hi = 2 * i < value.size() ? value[2 * i] : ' ';
      const char lo = 2 * i + 1 < value.size() ? value[2 * i + 1] : ' ';
      word(first + i, static_cast<uint16_t>(static_cast<uint8_t>(hi) << 8 | static_cast<uint8_t>(lo)));
    }
    return *this;
  }
  // Word 255: signature A5h and the checksum byte that makes the sum 0.
  AtaSector& seal() {
    auto& b = page_.bytes();
    b[510] = 0xa5;
    b[511] = 0;
    unsigned sum = 0;
    for (size_t i = 0; i < 511; ++i) sum += b[i];
    b[511] = static_cast<uint8_t>(-static_cast<int>(sum & 0xff));
    return *this;
  }
  const std::vector<uint8_t>& bytes() const { return page_.bytes(); }
  std::vector<uint8_t>& bytes() { return page_.bytes(); }

 private:
  Page page_;
};

// A fake /sys (or any tree) in a fresh temporary directory, removed again.
using test_support::TempTree;

// A fake sysfs with one NVMe namespace, nvme0n1 (nsid 1) of controller
// nvme0, linked as the kernel links them.
inline void build_nvme_sysfs(const TempTree& sys) {
  const fs::path ctrl = "devices/pci0000:00/0000:00:04.0/nvme/nvme0";
  sys.write(ctrl / "nvme0n1" / "nsid", "1");
  sys.link(ctrl / "nvme0n1" / "device", "..");
  sys.link("block/nvme0n1", "../" + (ctrl / "nvme0n1").string());
  sys.link("class/nvme/nvme0", "../../" + ctrl.string());
}

inline std::string read_data_file(const std::string& name) {
  std::ifstream in(fs::path(SSDPROBE_FIRMWARE_DATA) / name);
  REQUIRE(in.good());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A captured page's bytes, for tests that patch a field before decoding.
inline std::vector<uint8_t> read_data_bytes(const std::string& name) {
  const std::string text = read_data_file(name);
  return std::vector<uint8_t>(text.begin(), text.end());
}

// Byte offsets of the fields the LBA format tests patch in captured pages.
inline constexpr size_t kIdNsFlbasOffset = 26;   // Identify Namespace FLBAS
inline constexpr size_t kIdCtrlFnaOffset = 524;  // Identify Controller FNA

}  // namespace firmware_test
