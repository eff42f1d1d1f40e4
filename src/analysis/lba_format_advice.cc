#include "analysis/lba_format_advice.h"

#include <fmt/format.h>

#include "core/shell_command.h"
#include "core/units.h"

namespace ssdprobe {
namespace {

constexpr uint8_t kSmallestDs = 9;   // 512 B: the smallest LBA the spec allows
constexpr uint8_t kLargestDs = 12;   // 4 KiB: the memory page (see the header)

bool usable_without_metadata(const LbaFormatEntry& f) { return f.ms == 0 && f.ds >= kSmallestDs && f.ds <= kLargestDs; }

// Lower RP first, then the larger data size; equal ones keep the lower index.
bool better_than(const LbaFormatEntry& a, const LbaFormatEntry& b) {
  return a.rp < b.rp || (a.rp == b.rp && a.ds > b.ds);
}

std::optional<unsigned> best_format(const std::vector<LbaFormatEntry>& formats) {
  std::optional<unsigned> best;
  for (unsigned i = 0; i < formats.size(); ++i) {
    if (!usable_without_metadata(formats[i])) continue;
    if (!best || better_than(formats[i], formats[*best])) best = i;
  }
  return best;
}

LbaFormatChoice choice(const std::vector<LbaFormatEntry>& formats, unsigned index) {
  const LbaFormatEntry& f = formats[index];
  return {index, uint64_t{1} << f.ds, f.ms, f.rp};
}

std::string described(const LbaFormatChoice& c) {
  return fmt::format("{} blocks, no metadata, relative performance {}: {}", format_size(c.data_bytes), c.rp,
                     relative_performance_name(c.rp));
}

// What the suggested format changes, from the drive's own ratings.
std::string gain(const LbaFormatChoice& now, const LbaFormatChoice& next) {
  const std::string rated = next.rp < now.rp ? "which it rates better" : "which it rates as well";
  if (next.data_bytes > now.data_bytes) {
    return fmt::format("{}, and whose larger blocks keep every IO smaller than {}, or not aligned to it, from "
                       "reaching the drive", rated, format_size(next.data_bytes));
  }
  if (next.data_bytes < now.data_bytes) return rated + ", though its blocks are smaller";
  return rated;
}

std::string namespace_words(const NamespaceFormats& f) {
  if (f.nsid) return fmt::format("namespace {} ({})", *f.nsid, f.device);
  return fmt::format("the namespace {}", f.device);
}

std::string erases(const NamespaceFormats& f) {
  const std::string ns = namespace_words(f);
  if (!f.format_applies_to_all_namespaces) {
    return fmt::format("erases every byte of {}, and maybe of every other namespace of the drive: Identify "
                       "Controller was not read, so whether a format applies to all namespaces (FNA bit 0) is not "
                       "known", ns);
  }
  if (*f.format_applies_to_all_namespaces) {
    return fmt::format("erases every byte of every namespace of the drive, not only of {}: the controller reports "
                       "that a format applies to all namespaces (FNA bit 0 set)", ns);
  }
  return fmt::format("erases every byte of {}: every partition, filesystem and file on it is lost; the drive's "
                     "other namespaces keep theirs (FNA bit 0 clear: a format applies to one namespace)", ns);
}

std::string purpose(const NamespaceFormats& f, const LbaFormatChoice& now, const LbaFormatChoice& next) {
  std::string text = fmt::format("{} in LBA format {} ({} blocks, no metadata); nvme-cli waits 10 s before it "
                                 "sends the format (Ctrl-C cancels)", namespace_words(f), next.index,
                                 format_size(next.data_bytes));
  if (next.data_bytes != now.data_bytes) {
    text += fmt::format(". The partition steps count sectors of {}, the block in use now: run ssdprobe again after "
                        "the format for sectors of {}", format_size(now.data_bytes), format_size(next.data_bytes));
  }
  return text;
}

ShellCommand format_command(const NamespaceFormats& f, unsigned index) {
  ShellCommand command{{"nvme", "format", f.device}};
  // Named explicitly: on a controller node (/dev/nvme0) nvme-cli would
  // otherwise send the format to every namespace (NSID FFFFFFFFh).
  if (f.nsid) command.argv.push_back(fmt::format("--namespace-id={}", *f.nsid));
  command.argv.push_back(fmt::format("--lbaf={}", index));
  return command;
}

}  // namespace

const char* relative_performance_name(uint8_t rp) {
  switch (rp & 0x3) {
    case 0: return "best";
    case 1: return "better";
    case 2: return "good";
    default: return "degraded";
  }
}

std::optional<LbaFormatAdvice> lba_format_advice(const NamespaceFormats& f) {
  if (f.in_use >= f.formats.size() || !usable_without_metadata(f.formats[f.in_use])) return std::nullopt;
  const auto best = best_format(f.formats);
  if (!best || !better_than(f.formats[*best], f.formats[f.in_use])) return std::nullopt;
  LbaFormatAdvice advice;
  advice.in_use = choice(f.formats, f.in_use);
  advice.suggested = choice(f.formats, *best);
  advice.all_namespaces = f.format_applies_to_all_namespaces;
  advice.why = fmt::format("LBA format {} is in use ({}); the drive also lists format {} ({}), {}",
                           advice.in_use.index, described(advice.in_use), advice.suggested.index,
                           described(advice.suggested), gain(advice.in_use, advice.suggested));
  advice.step = {"nvme_format", render_command(format_command(f, *best)),
                 purpose(f, advice.in_use, advice.suggested), true, erases(f), ""};
  return advice;
}

}  // namespace ssdprobe
