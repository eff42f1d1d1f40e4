#include "plot/gnuplot_run.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <gnuplot-iostream.h>
#include <sstream>

#include "core/error.h"
#include "core/output.h"
#include "plot/picture_mark.h"

namespace ssdprobe {
namespace {

namespace fs = std::filesystem;

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A private directory for gnuplot's output and messages, removed with it.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base ? base : "/tmp") + "/ssdprobe-plot-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw os_error("cannot create a temporary directory " + pattern, errno);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_whole(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// gnuplot's message: it echoes the offending command and a "^" marker, then
// says what is wrong on a line naming where ("-", line 12: ...); that line
// when there is one, else the first line with text.
std::string first_error_line(const std::string& said) {
  std::istringstream lines(said);
  std::string line, first;
  while (std::getline(lines, line)) {
    const auto start = line.find_first_not_of(" \t^");
    if (start == std::string::npos) continue;
    if (line.find(", line ") != std::string::npos) return line.substr(start);
    if (first.empty()) first = line.substr(start);
  }
  return first;
}

}  // namespace

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    const size_t colon = std::min(dirs.find(':', begin), dirs.size());
    const std::string dir = dirs.substr(begin, colon - begin);
    const std::string candidate = (dir.empty() ? "." : dir) + "/gnuplot";
    if (access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return candidate;
    begin = colon + 1;
  }
  throw Error(ErrorCategory::unsupported,
              "gnuplot is not installed (not found on PATH): install gnuplot-nox (scripts/install-deps)");
}

std::string gnuplot_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : printable(text, true)) {
    // gnuplot runs `...` inside a double-quoted string as a shell command:
    // text from a document (a model name, an audit layer) must never reach
    // it as one. "\140" is the same character, seen only after the scan.
    if (c == '`') {
      out += "\\140";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string svg_with_title(const std::string& svg, const std::string& title) {
  const std::string element = "<title>" + html_text(title) + "</title>";
  const size_t open = svg.find("<title>");
  const size_t close = open == std::string::npos ? std::string::npos : svg.find("</title>", open);
  if (close != std::string::npos) return svg.substr(0, open) + element + svg.substr(close + 8);
  const size_t svg_tag = svg.find("<svg");
  const size_t tag_end = svg_tag == std::string::npos ? std::string::npos : svg.find('>', svg_tag);
  if (tag_end == std::string::npos) return svg;
  return svg.substr(0, tag_end + 1) + "\n" + element + svg.substr(tag_end + 1);
}

std::string run_gnuplot(const GnuplotImage& image, const std::function<void(gnuplotio::Gnuplot&)>& write_script) {
  const std::string gnuplot = find_gnuplot();
  TempDir dir;
  const std::string output = dir.file(image.format == ImageFormat::svg ? "picture.svg" : "picture.png");
  const std::string messages = dir.file("gnuplot.err"), status = dir.file("gnuplot.status");
  {
    // gnuplot's exit status goes to a file: the library would only print
    // "pclose returned error" and lose it.
    SigpipeIgnored no_sigpipe;  // a gnuplot that died early must not kill us
    Gnuplot gp(fmt::format("{} 2>{}; echo $? >{}", shell_quoted(gnuplot), shell_quoted(messages),
                           shell_quoted(status)));
    if (image.format == ImageFormat::svg) {
      gp << fmt::format("set terminal svg size {},{} font \"sans,11\" background rgb \"white\"\n", image.width_px,
                        image.height_px);
    } else {
      gp << fmt::format("set terminal pngcairo size {},{} font \"sans,10\" background rgb \"white\"\n",
                        image.width_px, image.height_px);
    }
    gp << "set output " << gnuplot_quoted(output) << "\n";
    write_script(gp);
    gp << "\nunset multiplot\nset output\n";
  }
  const std::string said = read_whole(messages);
  const std::string code = read_whole(status);
  std::string bytes = read_whole(output);
  if (code.empty() || std::atoi(code.c_str()) != 0 || bytes.empty()) {
    const std::string line = first_error_line(said);
    throw Error(ErrorCategory::unsupported, fmt::format("gnuplot ({}) failed to draw {}{}{}", gnuplot, image.what,
                                                        line.empty() ? "" : ": ", printable(line)));
  }
  if (image.format == ImageFormat::svg) bytes = svg_with_title(bytes, image.title);
  return marked_picture(std::move(bytes), image.format);
}

ImageFormat image_format_for(const std::string& file) {
  std::string extension = fs::path(file).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".png") return ImageFormat::png;
  if (extension == ".svg") return ImageFormat::svg;
  throw Error(ErrorCategory::usage,
              fmt::format("{}: unknown image format '{}': name the output .png or .svg, or give --format png|svg",
                          file, extension.empty() ? "(no extension)" : extension));
}

}  // namespace ssdprobe
