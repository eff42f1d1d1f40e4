#include "safety/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/crc32c.h"
#include "core/error.h"

namespace ssdprobe {
namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'P', 'J', 'R', 'N', '1'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kRecordMagic = 0x31434552;  // "REC1"
constexpr uint32_t kCommitMagic = 0x31544d43;  // "CMT1"
constexpr uint32_t kMaxIdentity = 64 * 1024;

void put_u32(std::vector<std::byte>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
void put_u64(std::vector<std::byte>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}
uint64_t get_le(const std::byte* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

Error corrupt(const std::filesystem::path& file, const std::string& what) {
  return Error(ErrorCategory::target, fmt::format("journal {} is corrupt: {}; nothing was restored", file.string(), what));
}

nlohmann::json identity_json(const JournalIdentity& id) {
  return {{"path", id.path},       {"rdev", id.rdev},
          {"size_bytes", id.size_bytes}, {"logical_block", id.logical_block},
          {"model", id.model},     {"serial", id.serial},
          {"window_offset", id.window_offset}, {"window_length", id.window_length},
          {"created_at", id.created_at}};
}

JournalIdentity identity_from(const nlohmann::json& j) {
  JournalIdentity id;
  id.path = j.at("path").get<std::string>();
  id.rdev = j.at("rdev").get<uint64_t>();
  id.size_bytes = j.at("size_bytes").get<uint64_t>();
  id.logical_block = j.at("logical_block").get<uint32_t>();
  id.model = j.at("model").get<std::string>();
  id.serial = j.at("serial").get<std::string>();
  id.window_offset = j.at("window_offset").get<uint64_t>();
  id.window_length = j.at("window_length").get<uint64_t>();
  id.created_at = j.at("created_at").get<std::string>();
  return id;
}

// Reads exactly n bytes; returns false at a clean or partial end of file.
bool read_exact(std::ifstream& in, std::byte* out, size_t n) {
  in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n));
  return static_cast<size_t>(in.gcount()) == n;
}

JournalIdentity read_header(std::ifstream& in, const std::filesystem::path& file) {
  std::byte fixed[16];
  if (!read_exact(in, fixed, sizeof fixed) || std::memcmp(fixed, kMagic, 8) != 0) {
    throw Error(ErrorCategory::target, fmt::format("{} is not an ssdprobe journal", file.string()));
  }
  if (get_le(fixed + 8, 4) != kVersion) throw corrupt(file, "unknown journal version");
  const uint64_t length = get_le(fixed + 12, 4);
  if (length > kMaxIdentity) throw corrupt(file, "identity length out of range");
  std::vector<std::byte> rest(length + 4);
  if (!read_exact(in, rest.data(), rest.size())) throw corrupt(file, "truncated header");
  uint32_t crc = crc32c(std::span(fixed, sizeof fixed));
  crc = crc32c(std::span(rest.data(), length), crc);
  if (crc != get_le(rest.data() + length, 4)) throw corrupt(file, "header checksum mismatch");
  try {
    return identity_from(nlohmann::json::parse(reinterpret_cast<const char*>(rest.data()),
                                               reinterpret_cast<const char*>(rest.data()) + length));
  } catch (const nlohmann::json::exception& e) {
    throw corrupt(file, std::string("unreadable identity: ") + e.what());
  }
}

}  // namespace

JournalWriter::JournalWriter(const std::filesystem::path& file, const JournalIdentity& identity) : path_(file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw os_error("cannot create journal " + file.string(), errno);
  fd_ = UniqueFd(fd);
  const std::string text = identity_json(identity).dump();
  std::vector<std::byte> header(reinterpret_cast<const std::byte*>(kMagic), reinterpret_cast<const std::byte*>(kMagic) + 8);
  put_u32(header, kVersion);
  put_u32(header, static_cast<uint32_t>(text.size()));
  for (char c : text) header.push_back(static_cast<std::byte>(c));
  put_u32(header, crc32c(header));
  write_all(header);
}

void JournalWriter::write_all(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_.get(), bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw os_error("writing journal " + path_.string(), n < 0 ? errno : ENOSPC);
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
}

void JournalWriter::append(uint64_t offset, std::span<const std::byte> data) {
  if (data.size() > kJournalMaxRecord) throw Error(ErrorCategory::internal, "journal record too large");
  std::vector<std::byte> head;
  put_u32(head, kRecordMagic);
  put_u64(head, offset);
  put_u32(head, static_cast<uint32_t>(data.size()));
  put_u32(head, crc32c(data));
  put_u32(head, crc32c(head));
  write_all(head);
  write_all(data);
  ++records_;
  bytes_ += data.size();
}

void JournalWriter::commit() {
  // Data first, then the commit: a commit on disk implies all records are.
  if (::fsync(fd_.get()) != 0) throw os_error("fsync of journal " + path_.string(), errno);
  std::vector<std::byte> tail;
  put_u32(tail, kCommitMagic);
  put_u64(tail, records_);
  put_u64(tail, bytes_);
  put_u32(tail, crc32c(tail));
  write_all(tail);
  if (::fsync(fd_.get()) != 0) throw os_error("fsync of journal " + path_.string(), errno);
  const int dir = ::open(path_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

JournalIdentity read_journal_identity(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw os_error("cannot open journal " + file.string(), errno);
  return read_header(in, file);
}

JournalContents read_journal(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw os_error("cannot open journal " + file.string(), errno);
  JournalContents contents;
  contents.identity = read_header(in, file);
  const JournalIdentity& id = contents.identity;
  uint64_t total = 0;
  std::vector<std::byte> data;
  for (;;) {
    std::byte head[24];
    const uint64_t at = static_cast<uint64_t>(in.tellg());
    if (!read_exact(in, head, 4)) {
      contents.incomplete_reason = fmt::format("the journal ends at byte {} without a commit", at);
      return contents;
    }
    const uint64_t magic = get_le(head, 4);
    if (magic == kCommitMagic) {
      if (!read_exact(in, head + 4, 20)) throw corrupt(file, "truncated commit record");
      if (crc32c(std::span(head, 20)) != get_le(head + 20, 4)) throw corrupt(file, "commit checksum mismatch");
      if (get_le(head + 4, 8) != contents.records.size() || get_le(head + 12, 8) != total) {
        throw corrupt(file, "commit does not match the records before it");
      }
      if (in.peek() != std::char_traits<char>::eof()) throw corrupt(file, "bytes after the commit record");
      contents.committed = true;
      return contents;
    }
    if (magic != kRecordMagic) throw corrupt(file, fmt::format("unknown record type at byte {}", at));
    if (!read_exact(in, head + 4, 20)) {
      contents.incomplete_reason = fmt::format("the journal stops inside the record at byte {}", at);
      return contents;
    }
    if (crc32c(std::span(head, 20)) != get_le(head + 20, 4)) throw corrupt(file, fmt::format("record header checksum mismatch at byte {}", at));
    JournalRecord record{get_le(head + 4, 8), static_cast<uint32_t>(get_le(head + 12, 4)),
                         static_cast<uint32_t>(get_le(head + 16, 4)), at + 24};
    const bool inside = record.offset >= id.window_offset && record.length <= id.window_length &&
                        record.offset - id.window_offset <= id.window_length - record.length;
    if (record.length == 0 || record.length > kJournalMaxRecord || !inside || record.length % id.logical_block != 0) {
      throw corrupt(file, fmt::format("record at byte {} has an impossible range {}+{}", at, record.offset, record.length));
    }
    data.resize(record.length);
    if (!read_exact(in, data.data(), data.size())) {
      contents.incomplete_reason = fmt::format("the journal stops inside the data of the record at byte {}", at);
      return contents;
    }
    if (crc32c(data) != record.crc) throw corrupt(file, fmt::format("data checksum mismatch in the record at byte {}", at));
    total += record.length;
    contents.records.push_back(record);
  }
}

std::vector<std::byte> read_record_data(const std::filesystem::path& file, const JournalRecord& record) {
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(record.file_position));
  std::vector<std::byte> data(record.length);
  if (!in || !read_exact(in, data.data(), data.size()) || crc32c(data) != record.crc) {
    throw corrupt(file, fmt::format("record for offset {} changed since it was validated", record.offset));
  }
  return data;
}

}  // namespace ssdprobe
