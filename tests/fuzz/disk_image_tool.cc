// fuzz-disk-image-tool: makes and reads the inputs of the disk_image fuzz
// target (the form is described in disk_image.h). make_disk_image_seeds.sh
// uses it to turn images made by the real tools into seeds.
//
//   encode IMAGE OUT [--logical-block B] [--physical-block B] [--read-page B]
//          [--write-unit B] [--erase-block B] [--repair gpt,md,lvm] [--reduce]
//       IMAGE (a sparse file; its size a multiple of 512) as an input: its
//       non-zero sectors, in runs. --reduce leaves out every 4 KiB piece the
//       audit does not need (the document's audit section is the same
//       without it: the superblock backups, inode tables and journals a
//       mkfs writes but the layout reader never reads). Units must be ones
//       the header can name (disk_image.h).
//   decode INPUT IMAGE
//       the image an input describes, as a sparse file (checksums repaired
//       as the target repairs them): to look at a crash input with sfdisk,
//       blkid or `ssdprobe audit IMAGE`.
//   audit INPUT
//       the audit section of the result document, as JSON, as the target
//       computes it.
//   md-member IMAGE --offset B --size B --version 0|1|2 --level L
//          --raid-disks N --role R [--chunk B] [--data-offset B]
//       writes an md v1.x member superblock for the member at
//       [offset, offset + size) of IMAGE, built from the format
//       (layout/md_superblock.h): the kernel here has no md driver for
//       mdadm --create.
//   fix-gpt IMAGE [--logical-block B]
//       recomputes the CRCs of IMAGE's GPT headers and entry arrays, after
//       a crafted edit.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "disk_image.h"
#include "report/audit_render.h"

using namespace disk_image;

namespace {

constexpr uint64_t kPieceBytes = 4096;
constexpr uint64_t kMaxChunkBytes = 32768;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "fuzz-disk-image-tool: %s\n", message.c_str());
  std::exit(1);
}

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;
  uint64_t number(const std::string& key, uint64_t fallback) const {
    const auto it = options.find(key);
    return it == options.end() ? fallback : std::stoull(it->second);
  }
  bool has(const std::string& key) const { return options.count(key) != 0; }
};

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 2; i < argc; ++i) {
    const std::string word = argv[i];
    if (!word.starts_with("--")) {
      args.positional.push_back(word);
    } else if (word == "--reduce") {
      args.options[word] = "1";
    } else if (i + 1 < argc) {
      args.options[word] = argv[++i];
    } else {
      fail(word + " needs a value");
    }
  }
  return args;
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) fail("cannot write " + path);
}

int open_or_fail(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) fail("cannot open " + path);
  return fd;
}

uint64_t file_size(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail("fstat");
  return static_cast<uint64_t>(st.st_size);
}

// The index of `value` in `table`, for the header's unit fields.
template <size_t N>
uint8_t index_of(const std::array<uint64_t, N>& table, uint64_t value, const char* what) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i] == value) return static_cast<uint8_t>(i);
  }
  fail(std::string("no ") + what + " of " + std::to_string(value) + " B in disk_image.h's table");
}

uint8_t log2_of(uint64_t value, uint64_t base, const char* what) {
  for (uint8_t n = 0; n < 8; ++n) {
    if ((base << n) == value) return n;
  }
  fail(std::string(what) + " " + std::to_string(value) + " is not " + std::to_string(base) + " << n");
}

std::array<uint8_t, kHeaderBytes> header_of(const Args& args, uint64_t size) {
  std::array<uint8_t, kHeaderBytes> header{};
  const uint64_t logical = args.number("--logical-block", 512);
  header[0] = log2_of(logical, 512, "logical block");
  if (args.has("--repair")) {
    const std::string repair = args.options.at("--repair");
    if (repair.find("gpt") != std::string::npos) header[0] |= kRepairGpt;
    if (repair.find("md") != std::string::npos) header[0] |= kRepairMd;
    if (repair.find("lvm") != std::string::npos) header[0] |= kRepairLvm;
  }
  header[1] = index_of(kReadPages, args.number("--read-page", 0), "read page") |
              static_cast<uint8_t>(index_of(kWriteUnits, args.number("--write-unit", 0), "write unit") << 3) |
              static_cast<uint8_t>(log2_of(args.number("--physical-block", logical), logical, "physical block") << 6);
  header[2] = index_of(kEraseBlocks, args.number("--erase-block", 0), "erase block");
  if (size % kSector != 0 || size / kSector > UINT32_MAX) fail("the image's size is not a 32-bit count of sectors");
  put_le(&header[3], size / kSector, 4);
  return header;
}

struct Piece {
  uint64_t offset;
  std::vector<uint8_t> bytes;
};

// The image's non-zero sectors, in pieces that do not cross a 4 KiB boundary.
std::vector<Piece> nonzero_pieces(int fd, uint64_t size) {
  std::vector<Piece> pieces;
  std::vector<uint8_t> block(kPieceBytes);
  for (off_t data = ::lseek(fd, 0, SEEK_DATA); data >= 0 && static_cast<uint64_t>(data) < size;) {
    const off_t hole = ::lseek(fd, data, SEEK_HOLE);
    for (uint64_t at = static_cast<uint64_t>(data) / kPieceBytes * kPieceBytes; at < static_cast<uint64_t>(hole);
         at += kPieceBytes) {
      const ssize_t n = ::pread(fd, block.data(), kPieceBytes, static_cast<off_t>(at));
      for (ssize_t s = 0; s + static_cast<ssize_t>(kSector) <= n; s += kSector) {
        const auto sector = std::span(block).subspan(static_cast<size_t>(s), kSector);
        if (std::all_of(sector.begin(), sector.end(), [](uint8_t b) { return b == 0; })) continue;
        const uint64_t offset = at + static_cast<uint64_t>(s);
        if (!pieces.empty() && pieces.back().offset + pieces.back().bytes.size() == offset && offset % kPieceBytes != 0) {
          pieces.back().bytes.insert(pieces.back().bytes.end(), sector.begin(), sector.end());
        } else {
          pieces.push_back({offset, {sector.begin(), sector.end()}});
        }
      }
    }
    data = ::lseek(fd, hole, SEEK_DATA);
  }
  return pieces;
}

void append_chunk(std::vector<uint8_t>& out, uint64_t offset, std::span<const uint8_t> bytes, uint64_t size) {
  // Chunks in the image's second half count back from its end (disk_image.h).
  const uint32_t sector = offset >= size / 2 ? kFromEnd | static_cast<uint32_t>((size - offset) / kSector)
                                             : static_cast<uint32_t>(offset / kSector);
  uint8_t head[kChunkHeaderBytes];
  put_le(head, sector, 4);
  put_le(head + 4, bytes.size(), 2);
  out.insert(out.end(), head, head + kChunkHeaderBytes);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// Header and pieces as an input, adjacent pieces merged into chunks.
std::vector<uint8_t> serialize(const std::array<uint8_t, kHeaderBytes>& header, const std::vector<Piece>& pieces,
                               const std::vector<bool>& keep, uint64_t size) {
  std::vector<uint8_t> out(header.begin(), header.end());
  std::vector<uint8_t> run;
  uint64_t run_offset = 0;
  auto flush = [&] {
    if (!run.empty()) append_chunk(out, run_offset, run, size);
    run.clear();
  };
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!keep[i]) continue;
    const Piece& p = pieces[i];
    const bool adjacent = !run.empty() && run_offset + run.size() == p.offset && run.size() + p.bytes.size() <= kMaxChunkBytes &&
                          (p.offset >= size / 2) == (run_offset >= size / 2);
    if (!adjacent) {
      flush();
      run_offset = p.offset;
    }
    run.insert(run.end(), p.bytes.begin(), p.bytes.end());
  }
  flush();
  return out;
}

// The audit section as the target computes it (the comparison --reduce makes).
std::string audit_of(const std::vector<uint8_t>& bytes) {
  static const int fd = make_memfd("fuzz-disk-image-tool");
  const auto input = parse(bytes);
  if (!input || !write_image(fd, *input)) fail("the input does not make an image");
  repair_checksums(fd, *input);
  return ssdprobe::audit_json(audit_image(fd, *input).audit).dump(2);
}

int encode(const Args& args) {
  if (args.positional.size() != 2) fail("encode IMAGE OUT");
  const int fd = open_or_fail(args.positional[0], O_RDONLY);
  const uint64_t size = file_size(fd);
  const auto header = header_of(args, size);
  const auto pieces = nonzero_pieces(fd, size);
  ::close(fd);
  std::vector<bool> keep(pieces.size(), true);
  if (args.has("--reduce")) {
    // Drops runs of pieces, halving the run: a mkfs writes long stretches
    // (an xfs log, ext4's group tables) the reader never looks at.
    const std::string wanted = audit_of(serialize(header, pieces, keep, size));
    size_t run = 1;
    while (run * 2 <= pieces.size()) run *= 2;
    for (; run >= 1; run /= 2) {
      for (size_t i = 0; i < pieces.size(); i += run) {
        const size_t end = std::min(pieces.size(), i + run);
        if (std::none_of(keep.begin() + i, keep.begin() + end, [](bool k) { return k; })) continue;
        const std::vector<bool> before = keep;
        std::fill(keep.begin() + i, keep.begin() + end, false);
        if (audit_of(serialize(header, pieces, keep, size)) != wanted) keep = before;
      }
    }
  }
  const auto out = serialize(header, pieces, keep, size);
  write_file(args.positional[1], out);
  std::fprintf(stderr, "%s: %zu of %zu pieces, %zu bytes\n", args.positional[1].c_str(),
               static_cast<size_t>(std::count(keep.begin(), keep.end(), true)), pieces.size(), out.size());
  return 0;
}

int decode(const Args& args) {
  if (args.positional.size() != 2) fail("decode INPUT IMAGE");
  const auto bytes = read_file(args.positional[0]);
  const auto input = parse(bytes);
  if (!input) fail("shorter than the header");
  const int fd = open_or_fail(args.positional[1], O_RDWR | O_CREAT | O_TRUNC);
  if (!write_image(fd, *input)) fail("cannot write the image");
  repair_checksums(fd, *input);
  ::close(fd);
  return 0;
}

int audit(const Args& args) {
  if (args.positional.size() != 1) fail("audit INPUT");
  std::cout << audit_of(read_file(args.positional[0])) << "\n";
  return 0;
}

int md_member(const Args& args) {
  if (args.positional.size() != 1) fail("md-member IMAGE --offset B --size B --version 0|1|2 ...");
  const uint64_t offset = args.number("--offset", 0);
  const uint64_t size = args.number("--size", 0);
  ssdprobe::MdSuperblock sb;
  sb.minor_version = static_cast<int>(args.number("--version", 2));
  sb.level = static_cast<int>(std::stoll(args.options.count("--level") ? args.options.at("--level") : "1"));
  sb.raid_disks = static_cast<int>(args.number("--raid-disks", 2));
  sb.role = static_cast<int>(std::stoll(args.options.count("--role") ? args.options.at("--role") : "0"));
  sb.chunk_bytes = args.number("--chunk", 0);
  sb.array_uuid = "0123456789abcdef0123456789abcdef";
  sb.name = "fuzzseed:0";
  // 1.0 sits near the end with the data before it; 1.1 and 1.2 at 0 and
  // 4 KiB with the data after them (mdadm's default data offset: 1 MiB).
  if (sb.minor_version == 0) {
    sb.superblock_offset_bytes = ssdprobe::md_superblock_locations(size).back().second;
    sb.data_offset_bytes = 0;
    sb.data_size_bytes = sb.superblock_offset_bytes / 65536 * 65536;
  } else {
    sb.superblock_offset_bytes = sb.minor_version == 1 ? 0 : 4096;
    sb.data_offset_bytes = args.number("--data-offset", kMiB);
    if (sb.data_offset_bytes >= size) fail("the data offset is past the member's end");
    sb.data_size_bytes = (size - sb.data_offset_bytes) / 65536 * 65536;
  }
  std::vector<uint8_t> block(ssdprobe::kMdSuperblockBytes);
  ssdprobe::encode_md_superblock(sb, block);
  const int fd = open_or_fail(args.positional[0], O_RDWR);
  if (!pwrite_all(fd, block.data(), block.size(), offset + sb.superblock_offset_bytes)) fail("write");
  ::close(fd);
  return 0;
}

int fix_gpt(const Args& args) {
  if (args.positional.size() != 1) fail("fix-gpt IMAGE");
  const int fd = open_or_fail(args.positional[0], O_RDWR);
  const uint64_t size = file_size(fd);
  const auto logical = static_cast<uint32_t>(args.number("--logical-block", 512));
  repair_gpt(fd, logical, logical, size);
  repair_gpt(fd, size / logical * logical - logical, logical, size);
  ::close(fd);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) fail("encode | decode | audit | md-member | fix-gpt (see the file's comment)");
  const std::string command = argv[1];
  const Args args = parse_args(argc, argv);
  try {
    if (command == "encode") return encode(args);
    if (command == "decode") return decode(args);
    if (command == "audit") return audit(args);
    if (command == "md-member") return md_member(args);
    if (command == "fix-gpt") return fix_gpt(args);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  fail("unknown command " + command);
}
