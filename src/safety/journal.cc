#include "safety/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/crc32c.h"
#include "core/error.h"
#include "core/output.h"

namespace ssdprobe {
namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'P', 'J', 'R', 'N', '1'};
constexpr uint32_t kVersion1 = 1;                       // no state field (read only)
constexpr uint32_t kVersion = 2;
constexpr uint32_t kJournaling = 0;                     // state: copying the window
constexpr uint32_t kWritesMayHaveStarted = 0x54495257;  // state: "WRIT"
constexpr uint32_t kRestored = 0x54534552;              // state: "REST": written back and verified
constexpr uint64_t kStateOffset = 12;
constexpr uint32_t kRecordMagic = 0x31434552;  // "REC1"
constexpr uint32_t kCommitMagic = 0x31544d43;  // "CMT1"
constexpr uint32_t kMaxIdentity = 64 * 1024;
constexpr uint32_t kMinLogicalBlock = 512, kMaxLogicalBlock = 64 * 1024;

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

Error corrupt(const std::string& name, const std::string& what) {
  return Error(ErrorCategory::target, fmt::format("journal {} is corrupt: {}; nothing was restored", name, what));
}

// Paths, models and serials are bytes, and JSON text must be UTF-8: a
// string that is not valid UTF-8 is stored as hex under "<key>_hex" (with
// its printable form under <key> for people), so the identity survives
// exactly and compares exactly at restore time.
bool valid_utf8(std::string_view text) {
  while (!text.empty()) {
    const size_t length = utf8_sequence_length(text);
    if (length == 0) return false;
    text.remove_prefix(length);
  }
  return true;
}

void put_text(nlohmann::json& j, const char* key, const std::string& text) {
  if (valid_utf8(text)) {
    j[key] = text;
    return;
  }
  std::string hex;
  for (unsigned char c : text) hex += fmt::format("{:02x}", c);
  j[key] = printable(text);
  j[std::string(key) + "_hex"] = hex;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// `fallback` when the key is absent (fields a version 1 journal lacks);
// nullopt when the hex form is malformed.
std::optional<std::string> get_text(const nlohmann::json& j, const char* key, const std::string& fallback) {
  const auto hex = j.find(std::string(key) + "_hex");
  if (hex == j.end()) {
    const auto plain = j.find(key);
    return plain == j.end() ? fallback : plain->get<std::string>();
  }
  const std::string digits = hex->get<std::string>();
  if (digits.size() % 2 != 0) return std::nullopt;
  std::string text;
  for (size_t i = 0; i < digits.size(); i += 2) {
    const int high = hex_digit(digits[i]), low = hex_digit(digits[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    text += static_cast<char>(high * 16 + low);
  }
  return text;
}

nlohmann::json identity_json(const JournalIdentity& id) {
  nlohmann::json j = {{"rdev", id.rdev},
          {"size_bytes", id.size_bytes},
          {"logical_block", id.logical_block},
          {"disk_rdev", id.disk_rdev},
          {"partition_start", id.partition_start},
          {"backing_dev", id.backing_dev},
          {"backing_ino", id.backing_ino},
          {"backing_offset", id.backing_offset},
          {"probe_data_tagged", id.probe_data_tagged},
          {"window_offset", id.window_offset},
          {"window_length", id.window_length},
          {"region_given", id.region_given},
          {"created_at", id.created_at}};
  if (!id.reset_zones.empty()) {
    nlohmann::json zones = nlohmann::json::array();
    for (const ZoneRange& z : id.reset_zones) zones.push_back({{"start", z.start}, {"length", z.length}});
    j["reset_zones"] = zones;
  }
  for (const auto& [key, text] : {std::pair{"path", &id.path}, {"canonical_path", &id.canonical_path},
                                  {"model", &id.model}, {"serial", &id.serial}, {"wwid", &id.wwid}, {"disk", &id.disk}}) {
    put_text(j, key, *text);
  }
  return j;
}

// An unsigned integer field, checked before conversion: a float (1e300) or
// a negative number would be undefined behaviour or a silent wrap in
// nlohmann's get<>. Version 1 journals lack the binding fields, which then
// read as `fallback`.
uint64_t unsigned_field(const nlohmann::json& j, const char* key, std::optional<uint64_t> fallback = std::nullopt) {
  const auto it = j.find(key);
  if (it == j.end()) {
    if (fallback) return *fallback;
    throw std::invalid_argument(std::string("missing ") + key);
  }
  if (!it->is_number_unsigned()) throw std::invalid_argument(std::string(key) + " is not an unsigned integer");
  return it->get<uint64_t>();
}

bool bool_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return false;
  if (!it->is_boolean()) throw std::invalid_argument(std::string(key) + " is not a boolean");
  return it->get<bool>();
}

JournalIdentity identity_from(const nlohmann::json& j) {
  JournalIdentity id;
  const auto text = [&j](const char* key, bool required) {
    const auto value = get_text(j, key, "");
    if (!value || (required && !j.contains(key))) throw std::invalid_argument(std::string("bad or missing ") + key);
    return *value;
  };
  id.path = text("path", true);
  id.canonical_path = text("canonical_path", false);
  id.rdev = unsigned_field(j, "rdev");
  id.size_bytes = unsigned_field(j, "size_bytes");
  const uint64_t block = unsigned_field(j, "logical_block");
  if (block > UINT32_MAX) throw std::invalid_argument("logical_block out of range");
  id.logical_block = static_cast<uint32_t>(block);
  id.model = text("model", true);
  id.serial = text("serial", true);
  id.wwid = text("wwid", false);
  id.disk = text("disk", false);
  id.disk_rdev = unsigned_field(j, "disk_rdev", 0);
  id.partition_start = unsigned_field(j, "partition_start", 0);
  id.backing_dev = unsigned_field(j, "backing_dev", 0);
  id.backing_ino = unsigned_field(j, "backing_ino", 0);
  id.backing_offset_known = j.contains("backing_offset");
  id.backing_offset = unsigned_field(j, "backing_offset", 0);
  id.probe_data_tagged = j.contains("probe_data_tagged") && bool_field(j, "probe_data_tagged");
  id.window_offset = unsigned_field(j, "window_offset");
  id.window_length = unsigned_field(j, "window_length");
  id.region_given = bool_field(j, "region_given");
  id.created_at = j.at("created_at").get<std::string>();
  if (const auto zones = j.find("reset_zones"); zones != j.end()) {
    if (!zones->is_array() || zones->empty()) throw std::invalid_argument("reset_zones is not a non-empty array");
    for (const auto& z : *zones) {
      if (!z.is_object()) throw std::invalid_argument("a reset_zones entry is not an object");
      id.reset_zones.push_back({unsigned_field(z, "start"), unsigned_field(z, "length")});
    }
  }
  return id;
}

// A zone journal's zones: aligned, non-empty, ascending without overlap, and
// inside its window, which they must span exactly.
void validate_reset_zones(const JournalIdentity& id, const std::string& name) {
  const uint64_t window_end = id.window_offset + id.window_length;
  uint64_t at = id.window_offset;
  for (const ZoneRange& z : id.reset_zones) {
    const bool fits = z.length != 0 && z.start % id.logical_block == 0 && z.length % id.logical_block == 0 &&
                      z.start >= at && z.start < window_end && z.length <= window_end - z.start;
    if (!fits) {
      throw corrupt(name, fmt::format("zone {}+{} is empty, unaligned, out of order or outside the window {}+{}",
                                      z.start, z.length, id.window_offset, id.window_length));
    }
    at = z.start + z.length;
  }
  if (id.reset_zones.front().start != id.window_offset || at != window_end) {
    throw corrupt(name, "its zones do not span its window");
  }
}

// Every integer of the identity is checked before anything divides by it,
// adds it or trusts it as a range: the same rules a write run applies.
void validate_identity(const JournalIdentity& id, const std::string& name) {
  const uint32_t block = id.logical_block;
  if (block < kMinLogicalBlock || block > kMaxLogicalBlock || (block & (block - 1)) != 0) {
    throw corrupt(name, fmt::format("logical block {} is not a power of two from 512 B to 64 KiB", block));
  }
  if (id.window_length == 0 || id.window_offset % block != 0 || id.window_length % block != 0) {
    throw corrupt(name, fmt::format("window {}+{} is empty or not aligned to its {} B logical block", id.window_offset,
                                    id.window_length, block));
  }
  if (id.window_offset > id.size_bytes || id.window_length > id.size_bytes - id.window_offset) {
    throw corrupt(name, fmt::format("window {}+{} runs past the device's {} bytes", id.window_offset, id.window_length,
                                    id.size_bytes));
  }
  // Overlap checks add these to window offsets (device_identity.h).
  if (id.partition_start > UINT64_MAX - id.size_bytes ||
      id.backing_offset > UINT64_MAX - id.size_bytes - id.partition_start) {
    throw corrupt(name, fmt::format("backing offset {} or partition start {} puts the device past 2^64 bytes",
                                    id.backing_offset, id.partition_start));
  }
  if (!id.reset_zones.empty()) {
    validate_reset_zones(id, name);
    return;  // zones may start at byte 0: a reset of an empty zone touches no partition table
  }
  const bool touches_edges = id.window_offset < kProtectedEdgeBytes ||
                             id.size_bytes - id.window_offset - id.window_length < kProtectedEdgeBytes;
  if (touches_edges && !id.region_given) {
    throw corrupt(name, fmt::format("window {}+{} touches the first or last MiB of the device, which a write run never "
                                    "does unless --region said so, and this journal does not say so",
                                    id.window_offset, id.window_length));
  }
}

// Positioned reads on a journal descriptor; a short read is the end.
class JournalReader {
 public:
  JournalReader(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  bool read(std::byte* out, size_t n) {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, out + done, n - done, static_cast<off_t>(position_ + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw os_error("reading journal " + name_, errno);
      if (got == 0) return false;
      done += static_cast<size_t>(got);
    }
    position_ += n;
    return true;
  }
  bool at_end() {
    std::byte probe;
    const ssize_t got = ::pread(fd_, &probe, 1, static_cast<off_t>(position_));
    if (got < 0) throw os_error("reading journal " + name_, errno);
    return got == 0;
  }
  uint64_t position() const { return position_; }
  const std::string& name() const { return name_; }

 private:
  int fd_;
  std::string name_;
  uint64_t position_ = 0;
};

struct Header {
  JournalIdentity identity;
  uint32_t version = 0;
  uint32_t state = kJournaling;
};

Header read_header(JournalReader& in) {
  const std::string& name = in.name();
  std::byte fixed[12];
  if (!in.read(fixed, sizeof fixed) || std::memcmp(fixed, kMagic, 8) != 0) {
    throw Error(ErrorCategory::target, fmt::format("{} is not an ssdprobe journal", name));
  }
  Header header;
  header.version = static_cast<uint32_t>(get_le(fixed + 8, 4));
  if (header.version != kVersion && header.version != kVersion1) throw corrupt(name, "unknown journal version");
  std::byte more[8];
  const size_t more_bytes = header.version == kVersion ? 8 : 4;  // [state,] identity_len
  if (!in.read(more, more_bytes)) throw corrupt(name, "truncated header");
  const std::byte* length_bytes = more + more_bytes - 4;
  const uint64_t length = get_le(length_bytes, 4);
  if (length > kMaxIdentity) throw corrupt(name, "identity length out of range");
  if (header.version == kVersion) {
    header.state = static_cast<uint32_t>(get_le(more, 4));
    if (header.state != kJournaling && header.state != kWritesMayHaveStarted && header.state != kRestored) {
      throw corrupt(name, "unknown state");
    }
  }
  std::vector<std::byte> rest(length + 4);
  if (!in.read(rest.data(), rest.size())) throw corrupt(name, "truncated header");
  uint32_t crc = crc32c(std::span(fixed, sizeof fixed));
  crc = crc32c(std::span(length_bytes, 4), crc);
  crc = crc32c(std::span(rest.data(), length), crc);
  if (crc != get_le(rest.data() + length, 4)) throw corrupt(name, "header checksum mismatch");
  try {
    header.identity = identity_from(nlohmann::json::parse(reinterpret_cast<const char*>(rest.data()),
                                                          reinterpret_cast<const char*>(rest.data()) + length));
  } catch (const std::exception& e) {  // nlohmann's exceptions and a malformed _hex field
    throw corrupt(name, std::string("unreadable identity: ") + e.what());
  }
  validate_identity(header.identity, name);
  return header;
}

// The commit must count exactly the records before it, and they must cover
// the window exactly: a journal that would restore less (or more) than the
// window is not this session's journal.
void check_commit(const std::byte* head, const JournalContents& contents, uint64_t total, const std::string& name) {
  if (crc32c(std::span(head, 20)) != get_le(head + 20, 4)) throw corrupt(name, "commit checksum mismatch");
  if (get_le(head + 4, 8) != contents.records.size() || get_le(head + 12, 8) != total) {
    throw corrupt(name, "commit does not match the records before it");
  }
  const uint64_t expected = contents.identity.reset_zones.empty() ? contents.identity.window_length : 0;
  if (total != expected) {
    throw corrupt(name, fmt::format("its records cover {} of the window's {} bytes", total,
                                    contents.identity.window_length));
  }
}

// Records tile the window in order from its first byte: each starts where
// the previous one ended and stays inside the window.
void check_record_range(const JournalRecord& record, const JournalIdentity& id, uint64_t expected_offset,
                        uint64_t at, const std::string& name) {
  const uint64_t window_end = id.window_offset + id.window_length;  // validated: no overflow
  const bool fits = record.length != 0 && record.length <= kJournalMaxRecord && record.length % id.logical_block == 0 &&
                    record.offset == expected_offset && record.length <= window_end - record.offset;
  if (!fits) {
    throw corrupt(name, fmt::format("record at byte {} has an impossible range {}+{} (expected one starting at {})", at,
                                    record.offset, record.length, expected_offset));
  }
}

}  // namespace

uint64_t JournalContents::recorded_bytes() const {
  uint64_t total = 0;
  for (const auto& r : records) total += r.length;
  return total;
}

JournalWriter::JournalWriter(const std::filesystem::path& file, const JournalIdentity& identity) : path_(file) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw os_error("cannot create journal " + file.string(), errno);
  fd_ = UniqueFd(fd);
  const std::string text = identity_json(identity).dump();
  std::vector<std::byte> header(reinterpret_cast<const std::byte*>(kMagic), reinterpret_cast<const std::byte*>(kMagic) + 8);
  put_u32(header, kVersion);
  std::vector<std::byte> checked = header;  // every header byte but the state
  put_u32(header, kJournaling);
  std::vector<std::byte> rest;
  put_u32(rest, static_cast<uint32_t>(text.size()));
  for (char c : text) rest.push_back(static_cast<std::byte>(c));
  checked.insert(checked.end(), rest.begin(), rest.end());
  header.insert(header.end(), rest.begin(), rest.end());
  put_u32(header, crc32c(checked));
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
  // The journal's name must be durable too, or a power loss could leave the
  // device written and no journal to find.
  const std::filesystem::path dir = path_.has_parent_path() ? path_.parent_path() : ".";
  UniqueFd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd.valid()) throw os_error("opening journal directory " + dir.string() + " to fsync it", errno);
  if (::fsync(dir_fd.get()) != 0) throw os_error("fsync of journal directory " + dir.string(), errno);
  committed_ = true;
}

namespace {

// Rewrites a version 2 journal's state in place and fsyncs it.
void write_state(int fd, uint32_t value, const std::string& what) {
  std::vector<std::byte> state;
  put_u32(state, value);
  if (::pwrite(fd, state.data(), state.size(), kStateOffset) != static_cast<ssize_t>(state.size())) {
    throw os_error("marking " + what, errno);
  }
  if (::fsync(fd) != 0) throw os_error("fsync of " + what, errno);
}

}  // namespace

void JournalWriter::mark_writes_started() {
  if (!committed_) throw Error(ErrorCategory::internal, "journal marked written before its commit");
  write_state(fd_.get(), kWritesMayHaveStarted, "journal " + path_.string());
}

JournalHead read_journal_head(int fd, const std::string& name) {
  JournalReader in(fd, name);
  const Header header = read_header(in);
  return {header.identity, header.state == kRestored};
}

JournalIdentity read_journal_identity(int fd, const std::string& name) { return read_journal_head(fd, name).identity; }

void mark_journal_restored(int fd, const std::string& name) {
  // A version 1 journal has no state field: byte 12 is its identity length.
  JournalReader in(fd, name);
  if (read_header(in).version != kVersion) {
    throw Error(ErrorCategory::target, fmt::format("{} is a version 1 journal, which has no state to mark", name));
  }
  write_state(fd, kRestored, "journal " + name + " restored");
}

JournalContents read_journal(int fd, const std::string& name) {
  JournalReader in(fd, name);
  JournalContents contents;
  const Header header = read_header(in);
  contents.identity = header.identity;
  contents.writes_may_have_started = header.state == kWritesMayHaveStarted || header.state == kRestored;
  contents.restored = header.state == kRestored;
  const JournalIdentity& id = contents.identity;
  uint64_t total = 0;
  std::vector<std::byte> data;
  for (;;) {
    std::byte head[24];
    const uint64_t at = in.position();
    if (!in.read(head, 4)) {
      contents.incomplete_reason = fmt::format("the journal ends at byte {} without a commit", at);
      return contents;
    }
    const uint64_t magic = get_le(head, 4);
    if (magic == kCommitMagic) {
      if (!in.read(head + 4, 20)) throw corrupt(name, "truncated commit record");
      check_commit(head, contents, total, name);
      if (!in.at_end()) throw corrupt(name, "bytes after the commit record");
      contents.committed = true;
      // A version 1 journal has no state: once committed, assume the worst.
      if (header.version == kVersion1) contents.writes_may_have_started = true;
      return contents;
    }
    if (magic != kRecordMagic) throw corrupt(name, fmt::format("unknown record type at byte {}", at));
    if (!in.read(head + 4, 20)) {
      contents.incomplete_reason = fmt::format("the journal stops inside the record at byte {}", at);
      return contents;
    }
    if (crc32c(std::span(head, 20)) != get_le(head + 20, 4)) {
      throw corrupt(name, fmt::format("record header checksum mismatch at byte {}", at));
    }
    JournalRecord record{get_le(head + 4, 8), static_cast<uint32_t>(get_le(head + 12, 4)),
                         static_cast<uint32_t>(get_le(head + 16, 4)), at + 24};
    if (!id.reset_zones.empty()) throw corrupt(name, fmt::format("a zone journal has a record at byte {}", at));
    check_record_range(record, id, id.window_offset + total, at, name);
    data.resize(record.length);
    if (!in.read(data.data(), data.size())) {
      contents.incomplete_reason = fmt::format("the journal stops inside the data of the record at byte {}", at);
      return contents;
    }
    if (crc32c(data) != record.crc) throw corrupt(name, fmt::format("data checksum mismatch in the record at byte {}", at));
    total += record.length;
    contents.records.push_back(record);
  }
}

void for_each_record_piece(int fd, const std::string& name, const JournalRecord& record, std::span<std::byte> buffer,
                           const RecordPieceFn& take) {
  uint32_t crc = 0;
  for (uint64_t done = 0; done < record.length;) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(buffer.size(), record.length - done));
    size_t got = 0;
    while (got < want) {
      const auto at = static_cast<off_t>(record.file_position + done + got);
      const ssize_t n = ::pread(fd, buffer.data() + got, want - got, at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw corrupt(name, fmt::format("record for offset {} is shorter than when it was validated", record.offset));
      }
      got += static_cast<size_t>(n);
    }
    const std::span<const std::byte> piece(buffer.data(), want);
    crc = crc32c(piece, crc);
    take(record.offset + done, piece);
    done += want;
  }
  if (crc != record.crc) {
    throw corrupt(name, fmt::format("record for offset {} changed since it was validated", record.offset));
  }
}

std::vector<std::byte> read_record_data(int fd, const std::string& name, const JournalRecord& record) {
  std::vector<std::byte> data(record.length);
  for_each_record_piece(fd, name, record, data, [](uint64_t, std::span<const std::byte>) {});
  return data;
}

UniqueFd open_journal_for_reading(const std::filesystem::path& file) {
  UniqueFd fd(::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid()) {
    const int err = errno;
    if (err == ELOOP) {
      throw Error(ErrorCategory::refused, fmt::format("journal {} is a symbolic link; ssdprobe never follows one "
                                                      "(name the journal file itself)", file.string()));
    }
    throw os_error("cannot open journal " + file.string(), err);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw os_error("journal " + file.string(), errno);
  if (!S_ISREG(st.st_mode)) {
    throw Error(ErrorCategory::refused, fmt::format("journal {} is not a regular file", file.string()));
  }
  return fd;
}

JournalContents read_journal(const std::filesystem::path& file) {
  const UniqueFd fd = open_journal_for_reading(file);
  return read_journal(fd.get(), file.string());
}

JournalIdentity read_journal_identity(const std::filesystem::path& file) {
  const UniqueFd fd = open_journal_for_reading(file);
  return read_journal_identity(fd.get(), file.string());
}

std::vector<std::byte> read_record_data(const std::filesystem::path& file, const JournalRecord& record) {
  const UniqueFd fd = open_journal_for_reading(file);
  return read_record_data(fd.get(), file.string(), record);
}

}  // namespace ssdprobe
