// A fresh temporary directory for a test, removed again (with everything in
// it) on destruction: fake /sys and /dev trees, scratch target files, journal
// directories. Files are written as sysfs prints them (value + newline).
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace test_support {

class TempTree {
 public:
  // A directory named "<prefix>-XXXXXX" under `parent` (default: the
  // system's temporary directory, $TMPDIR or /tmp).
  explicit TempTree(const std::string& prefix = "ssdprobe-test",
                    const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string pattern = (parent / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
    }
    root_ = pattern;
  }
  ~TempTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path path(const std::filesystem::path& relative) const { return root_ / relative; }

  // Writes `value` plus the newline sysfs prints to root/relative, creating
  // the directories on the way.
  void write(const std::filesystem::path& relative, const std::string& value) const {
    const std::filesystem::path file = root_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file);
    out << value << "\n";
    if (!out) throw std::runtime_error("cannot write " + file.string());
  }
  void dir(const std::filesystem::path& relative) const { std::filesystem::create_directories(root_ / relative); }
  void remove(const std::filesystem::path& relative) const { std::filesystem::remove(root_ / relative); }
  // A symlink root/from -> target (relative targets as sysfs has them).
  void link(const std::filesystem::path& from, const std::filesystem::path& target) const {
    std::filesystem::create_directories((root_ / from).parent_path());
    std::filesystem::create_directory_symlink(target, root_ / from);
  }

 private:
  std::filesystem::path root_;
};

}  // namespace test_support
