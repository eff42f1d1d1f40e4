// The one door every file ssdprobe writes besides the probe window leaves
// through: result documents, report and comparison pages, metrics, NDJSON,
// CSV, Markdown, fio job files, pictures and their numbers. ssdprobe runs as
// root, is handed paths by shells, scripts and globs, and writes into
// directories that other users may write to (a node_exporter textfile
// directory, /tmp), so an output path is never trusted to be a file:
//
//  - A block or character device, FIFO, socket, directory or symbolic link
//    at the path is refused, unless the user named a stream explicitly: "-"
//    (standard output), /dev/stdout, /dev/stderr, /dev/fd/N,
//    /proc/self/fd/N or /dev/null. A planted link to /dev/kmsg, a FIFO that
//    nobody reads (it would hang a daily job) or `-o /dev/loop0` cannot take
//    the output. --force replaces a symbolic link itself, never its target.
//  - A path that looks like a target ("sim:...", a /dev node that is not a
//    stream) is refused: a forgotten target must not become the output.
//  - The file is written as PATH.partial, created O_CREAT|O_EXCL|O_NOFOLLOW
//    in the destination directory, synced and renamed over PATH once
//    complete (keeping the permissions of the file it replaces): a reader
//    never sees half of it, nothing is written through a link. A link or
//    another user's file at PATH.partial is refused before any work (exit
//    7); one planted while a run wrote is left alone and the output written
//    through an unforeseeable name instead, so a run's result is not lost.
//  - A file already at PATH is replaced only when its first bytes show it is
//    the same kind of output as ssdprobe writes it (OutputKind), or with
//    --force: `--json disk.img` never replaces a disk image.
//  - Standard output ("-", /dev/stdout) goes through print_quietly (a closed
//    pipe cannot stop a --write run before it restores); a failed or short
//    write there is remembered and makes the exit code 6 when the command
//    ends (core/output.h standard_output_failure).
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace ssdprobe {

// One kind of file ssdprobe writes, as it writes it.
struct OutputKind {
  const char* what = "";  // "a result document", "a PNG picture": named in refusals
  // Whether `head`, up to the first 4 KiB of a non-empty file, begins as
  // ssdprobe writes this kind. An empty file may always be replaced.
  bool (*ours)(std::string_view head) = nullptr;
  // What a file that is not of this kind holds, for the refusal: "a saved
  // result document"; "" when it is nothing ssdprobe knows.
  std::string (*describe)(std::string_view head) = nullptr;
};

struct OutputSpec {
  std::string path;    // "-": standard output
  std::string option;  // "--json", "-o": names the output in messages
  OutputKind kind;
  bool force = false;  // replace a file of another kind, or a symbolic link itself
};

// Whether `path` names a stream explicitly ("-", /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, /dev/null): written through, never renamed.
bool names_stream(const std::string& path);

// Whether `path` is standard output ("-", /dev/stdout, /dev/fd/1,
// /proc/self/fd/1): two outputs cannot share it with the text report.
bool names_standard_output(const std::string& path);

// Checks an output before any work, so that a long run does not end in a
// refusal: everything above, and that the directory exists and is
// writable. Throws Error(usage) naming the option and the path (a missing
// permission: Error(permission)). OutputFile checks again when it opens.
void check_output(const OutputSpec& output);

// The first bytes of the regular file at `path` (up to `limit`), read
// without following a symbolic link or opening anything that is not a
// regular file; "" for anything else.
std::string file_head(const std::string& path, size_t limit = 4096);

// One output, written piece by piece. Buffered: one write(2) per 256 KiB.
class OutputFile {
 public:
  // Checks (check_output) and opens: PATH.partial, or the stream named.
  explicit OutputFile(OutputSpec output);
  // Without commit(), PATH.partial is removed: the output is incomplete.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  // Flushes, syncs, closes and renames PATH.partial to PATH. When the
  // rename is refused (a file of another kind appeared at PATH meanwhile),
  // the complete output stays in PATH.partial and the error says so.
  void commit();

 private:
  void flush();
  void open_stream();
  void open_partial();
  void rename_into_place();

  OutputSpec output_;
  std::string partial_;      // "" for a stream
  int fd_ = -1;              // -1: standard output through print_quietly
  bool owns_fd_ = false;     // fd_ was opened or dup'ed here (every fd_ but standard output's)
  bool committed_ = false;
  std::string buffer_;
  std::optional<mode_t> replaced_mode_;  // the permissions of the file PATH.partial replaces
};

// Writes `text` whole through an OutputFile and commits it.
void write_output(const OutputSpec& output, std::string_view text);

}  // namespace ssdprobe
