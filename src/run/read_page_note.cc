#include "run/read_page_note.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "analysis/stats.h"
#include "core/units.h"
#include "run/run_cautions.h"

namespace ssdprobe {
namespace {

// Written space that reads this much slower than the first grid's space
// was sensed where the first was not.
constexpr double kSlowerWhenWritten = 1.25;
// The queue depth suggested for a straddling read when the probe found
// neither a knee nor a unit count: deep enough to keep 8-16 dies busy.
constexpr uint32_t kSuggestedDepth = 32;
// A link moves a KiB in 0.25 us (NVMe) to 1.8 us (SATA at 550 MB/s). Reads
// that cost more than this per extra KiB pay for something else: a sense
// for each block they cover, one after another.
constexpr double kLinkUsPerKiB = 3.0;

// What a grid's latencies looked like: the smallest and largest request
// sizes' median latency, and how far apart the offsets of one size lay.
struct GridLevel {
  uint64_t small_bytes = 0;
  double small_us = 0.0;
  uint64_t large_bytes = 0;
  double large_us = 0.0;
  std::optional<double> offset_spread;  // largest (max - min) / median of one size's cell medians
  uint32_t queue_depth = 1;             // the grid's: above 1, every latency includes waiting in the queue
};

const GridReport* grid_named(const ResultDocument& doc, const char* name) {
  for (const auto& g : doc.grids) {
    if (g.name == name) return &g;
  }
  return nullptr;
}


// From the grid when the document has it, else the verdict's typical
// small-IO latency alone.
std::optional<GridLevel> level_of(const GridReport* report, const std::optional<UnitVerdict>& verdict,
                                  uint32_t queue_depth) {
  GridLevel level;
  level.queue_depth = report != nullptr ? report->queue_depth : queue_depth;
  if (report != nullptr && !report->grid.sizes.empty() && !report->grid.offsets.empty()) {
    const LatencyGrid& grid = report->grid;
    double spread = 0.0;
    bool first_row = true;
    for (size_t row = 0; row < grid.sizes.size(); ++row) {
      std::vector<double> medians;
      for (size_t column = 0; column < grid.offsets.size(); ++column) {
        if (!grid.cell(row, column).empty()) medians.push_back(summarize_cell(grid.cell(row, column)).median_us);
      }
      if (medians.empty()) continue;
      const double m = median(medians);
      if (first_row) {
        level.small_bytes = grid.sizes[row];
        level.small_us = m;
        first_row = false;
      }
      level.large_bytes = grid.sizes[row];
      level.large_us = m;
      const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
      if (m > 0.0) spread = std::max(spread, (*hi - *lo) / m);
    }
    if (!first_row) {
      level.offset_spread = spread;
      return level;
    }
  }
  if (!verdict || verdict->typical_us <= 0.0) return std::nullopt;
  level.small_us = verdict->typical_us;
  return level;
}

std::string small_reads(const GridLevel& level) {
  return level.small_bytes ? format_size(level.small_bytes) + " reads" : std::string("smallest reads");
}

std::string us(double value) { return fmt::format("{:.1f} us", value); }

// "its 4 KiB reads took a median of 9.8 us (32 KiB: 17.4 us), every offset of
// a size within 6 % of the others"
std::string level_text(const GridLevel& level) {
  std::string text = fmt::format("{} took a median of {}", small_reads(level), us(level.small_us));
  if (level.large_bytes > level.small_bytes) {
    text += fmt::format(" ({}: {})", format_size(level.large_bytes), us(level.large_us));
  }
  if (level.offset_spread) {
    text += fmt::format(", every offset of a size within {:.0f} % of the others", 100.0 * *level.offset_spread);
  }
  return text;
}

// What each extra 4 KiB a read covers costs, from the smallest size to the
// largest; nothing when the grid had one size.
std::optional<double> per_4k(const GridLevel& level) {
  if (level.large_bytes <= level.small_bytes) return std::nullopt;
  return 4096.0 * (level.large_us - level.small_us) / static_cast<double>(level.large_bytes - level.small_bytes);
}

// Reads whose cost grows with their size faster than a link transfers (at
// queue depth 1: deeper, waiting in the queue grows with the size too).
bool sensed_block_by_block(const std::optional<GridLevel>& level) {
  if (!level || level->queue_depth > 1) return false;
  const auto cost = per_4k(*level);
  return cost && *cost > 4.0 * kLinkUsPerKiB;
}

std::string block_by_block_text(const GridLevel& level) {
  return fmt::format("each extra 4 KiB a read covers costs {} more, far more than a link takes to move it (about "
                     "7 us on SATA, 1 us on NVMe), as if every block were sensed on its own, one after another "
                     "(unless the link is slower: USB 2, an SD card)", us(*per_4k(level)));
}

// The sentence before the reasons when reads pay per block (the reasons
// then refer to it as "above").
std::string block_by_block_sentence(const GridLevel& level, bool written, bool block_sized_page) {
  return fmt::format(". {}he reads look sensed block by block: {}{}", written ? "In the written window t" : "T",
                     block_by_block_text(level), block_sized_page ? ", which fits a page no larger than a block" : "");
}

// Small reads fast enough to have sensed no NAND (at queue depth 1: deeper,
// their latency includes waiting for the others).
bool senseless(const std::optional<GridLevel>& level) {
  return level && level->queue_depth <= 1 && level->small_us < kSenselessReadUs;
}

std::string percent(double share) { return fmt::format("{:.0f} %", 100.0 * share); }

// "no read page up to 128 KiB (ruled out)" / "read page not determined":
// the three answers' words (report/unit_answer.h).
std::string answer_phrase(const UnitVerdict& v) {
  if (v.state == UnitState::absent) {
    if (!v.searched_up_to_bytes) return "read page ruled out";
    return fmt::format("no read page up to {} (ruled out)", format_size(*v.searched_up_to_bytes));
  }
  return "read page not determined";
}

// What a grid that found no page did, as a clause: "ruled one out up to
// 128 KiB", "leaned to 16 KiB (only 62 % ...)", "showed no step, but did not
// rule one out".
std::string grid_result(const UnitVerdict& v);

// A re-read that leaned to a page without support enough to name it.
bool leans(const UnitVerdict& v) { return v.state == UnitState::undetermined && v.leading.has_value(); }

std::string leaning_text(const UnitVerdict& v) {
  return fmt::format("leaned to {} (only {} of bootstrap resamples agree)", format_size(*v.leading),
                     percent(v.leading_support));
}

std::string grid_result(const UnitVerdict& v) {
  if (leans(v)) return leaning_text(v);
  if (v.state != UnitState::absent) return "showed no step, but did not rule one out";
  return v.searched_up_to_bytes ? "ruled one out up to " + format_size(*v.searched_up_to_bytes)
                                : std::string("ruled one out");
}

// The queue depth that keeps the units busy, as the parallelism probe
// found it: the knee, else the unit count; nothing when it found neither.
struct BusyDepth {
  uint32_t depth = 0;
  const char* what = "";
};

std::optional<BusyDepth> busy_depth(const ResultDocument& doc) {
  if (!doc.parallelism) return std::nullopt;
  const ParallelismVerdict& v = doc.parallelism->verdict;
  if (v.queue_depth_knee.state == UnitState::found && v.queue_depth_knee.value) {
    return BusyDepth{static_cast<uint32_t>(std::lround(*v.queue_depth_knee.value)), "the queue depth knee"};
  }
  if (v.parallel_units.state == UnitState::found && v.parallel_units.value) {
    return BusyDepth{static_cast<uint32_t>(std::lround(*v.parallel_units.value)), "the parallel units"};
  }
  return std::nullopt;
}

// What a straddling read at a deeper queue would tell, against the depth
// the read grids ran at.
std::string queue_depth_text(const ResultDocument& doc, uint32_t queue_depth) {
  const std::optional<BusyDepth> busy = busy_depth(doc);
  const std::string deeper = busy ? fmt::format("--qd {}, {}", busy->depth, busy->what)
                                  : fmt::format("--qd {}", kSuggestedDepth);
  if (queue_depth <= 1) {
    return fmt::format("a read grid at a deeper queue ({}), where the units are busy and a straddling read waits for "
                       "the busier of its two, would tell", deeper);
  }
  const std::string ran = fmt::format("the read grid ran at --qd {}, where a straddling read waits for the busier of "
                                      "its two units more often than at 1", queue_depth);
  if (busy && queue_depth >= busy->depth) {
    return fmt::format("the read grid already ran at --qd {}, at or past {} ({}), where a straddling read waits for "
                       "the busier of its two units, which makes this unlikely", queue_depth, busy->what,
                       busy->depth);
  }
  if (busy || queue_depth < kSuggestedDepth) return ran + fmt::format("; a deeper queue ({}) would tell", deeper);
  return ran + fmt::format("; the parallelism probe found no queue depth knee to say whether --qd {} keeps every "
                           "unit busy", queue_depth);
}

// The first grid's space returned one byte value only: never written, or
// trimmed (probes/read_content_probe.h).
bool unread_space(const ReadPageEvidence& ev) { return ev.content && ev.content->blank(); }

// Reason 1: never-written or trimmed space. `written` is the re-read's
// verdict when it ran; `skipped` why it did not, when --write was given.
std::string unwritten_reason(const ReadPageEvidence& ev, const ResultDocument& doc,
                             const std::optional<GridLevel>& first, const std::optional<GridLevel>& written) {
  std::string text =
      "(1) never-written or trimmed space, which many drives answer from the mapping table without sensing NAND: ";
  if (ev.read_written_data) {
    return text + "ruled out: the grid read only written data, below the zoned device's write pointers";
  }
  if (!ev.write && unread_space(ev)) {
    return text + fmt::format("the likeliest: the {} reads sampled from the grid's space returned only bytes 0x{:02x}, "
                              "as unwritten or trimmed blocks read; --write (the run then re-reads the window it "
                              "wrote) or --region over space that holds data would tell",
                              ev.content->reads, *ev.content->only_byte);
  }
  if (!ev.write) {
    text += "not tested, as this run wrote nothing; --write (the run then re-reads the window it wrote) or "
            "--region over space that holds data would tell";
    if (senseless(first)) {
      text += fmt::format(" (the {} at {} were fast enough to have sensed no NAND, which fits)", small_reads(*first),
                          us(first->small_us));
    }
    return text;
  }
  if (!ev.reread) {
    const PhaseRecord* p = doc.phase_named("read_written");
    std::string why = "it did not run";
    if (p != nullptr && p->state == PhaseState::skipped) why = "it was skipped: " + p->reason;
    else if (p != nullptr && p->state != PhaseState::done) why = "it did not finish: " + p->reason;
    return text + fmt::format("not tested: --write re-reads the window it wrote, but {}; --region over space that "
                              "holds data would tell", why);
  }
  const UnitVerdict& r = *ev.reread;
  if (leans(r)) {
    return text + fmt::format("the likeliest: the re-read of the window this run wrote {}, so a page may show on "
                              "written space; a larger --budget would tell", leaning_text(r));
  }
  text += "not the reason here: the re-read of the window this run wrote (and restored) ";
  text += r.state == UnitState::absent
              ? "shows none either: " + answer_phrase(r)
              : std::string("shows no step either, though its noise still allows one (a larger --budget would tell)");
  if (first && written) {
    text += fmt::format("; its {} took {}, against {} in the first grid", small_reads(*written), us(written->small_us),
                        us(first->small_us));
  }
  return text;
}

// What the parallelism probe's strides say about where neighbouring pages
// live; empty when it measured no strides. `searched` is the largest page
// the grid looked for.
std::string stride_text(const ResultDocument& doc, std::optional<uint64_t> searched, bool& excluded) {
  excluded = false;
  if (!doc.parallelism || doc.parallelism->verdict.op != IoOp::read || doc.parallelism->verdict.strides.empty()) {
    return "the parallelism probe did not measure which units neighbouring blocks sit on";
  }
  const ParallelismVerdict& v = doc.parallelism->verdict;
  const std::vector<StrideSummary>& strides = v.strides;
  const bool any_serialized =
      std::any_of(strides.begin(), strides.end(), [](const StrideSummary& s) { return s.serialized; });
  if (v.interleave_bytes.state == UnitState::found && v.interleave_bytes.value) {
    const auto interleave = static_cast<uint64_t>(*v.interleave_bytes.value);
    std::string text = fmt::format("the parallelism probe found reads {0} apart on different units and closer ones "
                                   "on the same unit: a page smaller than {0} shares a unit with its neighbour, so "
                                   "only a page of {0} or a multiple of it could hide this way",
                                   format_size(interleave));
    if (searched && interleave > *searched) {
      excluded = true;
      text += fmt::format(", and the grid looks for none larger than {}", format_size(*searched));
    }
    return text;
  }
  if (!any_serialized) {
    return fmt::format("no stride of the parallelism probe ({} to {}) made concurrent reads wait for each other, so "
                       "it cannot say which unit a page sits on (nothing queues per unit: page-less media, space "
                       "answered without a sense, or a mapping that strides cannot see)",
                       format_size(strides.front().stride_bytes), format_size(strides.back().stride_bytes));
  }
  if (!strides.front().serialized) {
    return fmt::format("the parallelism probe found reads {} apart already on different units, so neighbouring "
                       "pages sit on different units, as this needs", format_size(strides.front().stride_bytes));
  }
  uint64_t same_unit_up_to = 0;
  for (const auto& s : strides) {
    if (!s.serialized) break;
    same_unit_up_to = s.stride_bytes;
  }
  if (searched && same_unit_up_to >= *searched) excluded = true;
  const std::string reach = format_size(same_unit_up_to);
  if (same_unit_up_to == strides.back().stride_bytes) {
    return fmt::format("every stride of the parallelism probe up to {0} made concurrent reads wait for each other "
                       "(one unit), so a page of {0} or less shares a unit with its neighbour and cannot hide this "
                       "way", reach);
  }
  return fmt::format("reads up to {0} apart waited for each other in the parallelism probe (one unit), so a page of "
                     "{0} or less shares a unit with its neighbour and cannot hide this way (the probe settled on no "
                     "interleave)", reach);
}

// Reason 2: neighbouring pages on different dies, sensed in parallel.
std::string parallel_reason(const ReadPageEvidence& ev, const ResultDocument& doc, const UnitVerdict& first,
                            const std::optional<GridLevel>& first_level, const std::optional<GridLevel>& written) {
  std::string text = "(2) neighbouring pages on different dies, which a read that straddles them senses in "
                     "parallel (it costs the slower of two senses, not their sum): ";
  bool excluded = false;
  const std::string strides = stride_text(doc, first.searched_up_to_bytes, excluded);
  if (excluded) return text + "not the reason here: " + strides;
  const std::optional<GridLevel>& level = written ? written : first_level;
  if (sensed_block_by_block(level)) {
    return text + "unlikely: the blocks a read covers are sensed one after another (above), not in parallel; " +
           strides;
  }
  text += strides;
  if (written && first_level && written->small_us > kSlowerWhenWritten * first_level->small_us) {
    text += fmt::format("; written space reads slower than the first grid's ({} against {}), so it senses NAND, yet "
                        "shows no page: this fits", us(written->small_us), us(first_level->small_us));
  }
  if (senseless(level)) {
    text += fmt::format("; but the {}{} took {}, fast enough to have sensed no NAND, which fits {} better: a read "
                        "that senses pages in parallel still pays one sense", written ? "written window's " : "",
                        small_reads(*level), us(level->small_us), written ? "(3)" : "(1) or (3)");
  }
  text += "; " + queue_depth_text(doc, ev.queue_depth);
  return text;
}

// Reason 3: media without pages.
std::string pageless_reason(const std::optional<GridLevel>& first, const std::optional<GridLevel>& written) {
  std::string text = "(3) media without pages (DRAM, Optane, a RAM disk, a loop device over tmpfs or the page "
                     "cache): ";
  if (written && first && written->small_us > kSlowerWhenWritten * first->small_us) {
    return text + fmt::format("unlikely: page-less media reads written and unwritten space alike, and the written "
                              "window's {} took {} against {} in the first grid", small_reads(*written),
                              us(written->small_us), us(first->small_us));
  }
  const std::optional<GridLevel>& level = written ? written : first;
  if (!level) return text + "the run kept no latencies to judge it by";
  const std::string where = written ? "in the written window, " : "";
  if (sensed_block_by_block(level)) {
    return text + fmt::format("less likely: {}{}, and larger reads pay per block (above)", where, level_text(*level));
  }
  if (level->queue_depth > 1) {
    return text + fmt::format("not determined by this run: {}{}, but at --qd {} every read also waits for the "
                              "others in the queue, so their level does not say whether they sensed NAND; a grid at "
                              "--qd 1 would tell",
                              where, level_text(*level), level->queue_depth);
  }
  if (senseless(level)) {
    return text + fmt::format("fits: {}{}, fast enough to have sensed no NAND (a TLC or QLC sense takes 40 us and "
                              "more)", where, level_text(*level));
  }
  return text + fmt::format("less likely: {}{}, slower than page-less media answers (under {:.0f} us), unless it "
                            "sits behind a slow link (SATA, USB, a network)",
                            where, level_text(*level), kSenselessReadUs);
}

// A caution held over the first read grid (run/run_cautions.h): the likely
// reason the page stayed open, and the same run where it would not hold
// what would tell.
std::string disturbed_grid(const PhaseDisturbance& disturbed, const char* what) {
  return fmt::format("{}, the likely reason {}: the same run on {} would tell", disturbed.words, what,
                     disturbed.idle_place());
}

// The first grid showed no step and did not rule one out.
std::string flat_grid_text(const ResultDocument& doc) {
  const std::string text = "read page not determined: the read grid shows no step, but its noise still allows one "
                           "that matters";
  const auto disturbed = phase_disturbance(doc, "read_grid");
  if (!disturbed) return text + " (a larger --budget would tell)";
  return text + "; " + disturbed_grid(*disturbed, "for that noise");
}

// The first grid showed no page, the re-read of the written window did.
std::string found_on_written(const UnitVerdict& first, const UnitVerdict& reread, const std::optional<GridLevel>& f,
                             const std::optional<GridLevel>& w) {
  std::string text = fmt::format("read page {0} found on written space only: the first read grid {1}, the re-read of "
                                 "the window this run wrote found {0}. ",
                                 format_size(*reread.bytes), grid_result(first));
  const bool sensed_only_when_written = f && w && w->small_us > kSlowerWhenWritten * f->small_us;
  if (leans(first) && !sensed_only_when_written) {
    // The page showed in the first grid too, only not confidently.
    return text + "The first grid saw a step there too, only not confidently: a larger --budget over its range "
                  "would tell whether that space reads the same";
  }
  text += "The first grid's space was most likely never written or trimmed, and answered from the mapping table "
          "without sensing NAND";
  if (f && w) {
    text += fmt::format(" (its {} took {}, {} on written space)", small_reads(*f), us(f->small_us), us(w->small_us));
  }
  return text + "; neighbouring pages sensed in parallel and page-less media are not the reason, as the page shows "
                "on written space at the same queue depth";
}

}  // namespace

std::optional<std::string> read_page_note(const ResultDocument& doc, const ReadPageEvidence& ev) {
  if (!ev.first || ev.first->state == UnitState::found || ev.first->state == UnitState::not_measured) {
    return std::nullopt;
  }
  const UnitVerdict& first = *ev.first;
  const std::optional<GridLevel> first_level = level_of(grid_named(doc, "read"), ev.first, ev.queue_depth);
  const std::optional<GridLevel> written_level =
      ev.reread ? level_of(grid_named(doc, "read-written"), ev.reread, ev.queue_depth) : std::nullopt;
  if (ev.reread && ev.reread->state == UnitState::found && ev.reread->bytes) {
    return found_on_written(first, *ev.reread, first_level, written_level);
  }
  if (leans(first)) {
    // A step shows, only not confidently: no reason to look for a hidden page.
    const auto disturbed = phase_disturbance(doc, "read_grid");
    std::string text = fmt::format("read page not determined: the read grid {}, so a page may well be there; {}",
                                   leaning_text(first),
                                   disturbed ? disturbed_grid(*disturbed, "it stayed unsure")
                                             : std::string("a larger --budget would tell"));
    if (ev.reread) {
      text += fmt::format(" (the re-read of the window this run wrote {})", grid_result(*ev.reread));
    }
    return text;
  }
  std::string text = first.state == UnitState::absent
                         ? fmt::format("{} in the read grid: a read that straddles a boundary costs no more "
                                       "than one inside a unit", answer_phrase(first))
                     : unread_space(ev) && ev.reread && ev.reread->state == UnitState::absent
                         ? fmt::format("{} in the written window: the first read grid's space reads as never "
                                       "written or trimmed, so the re-read of the window this run wrote decides",
                                       answer_phrase(*ev.reread))
                     : unread_space(ev)
                         ? std::string("read page not determined: the read grid shows no step, but its space reads "
                                       "as never written or trimmed, which a drive answers without reading flash, "
                                       "so a flat grid there rules nothing out")
                         : flat_grid_text(doc);
  const uint64_t block = doc.topology.logical_block_size.value_or(512);
  const bool block_sized_page = block >= 4096;
  if (block_sized_page) {
    text += fmt::format(". A page no larger than the {} logical block cannot show in any grid (every read covers "
                        "whole blocks)", format_size(block));
  }
  const std::optional<GridLevel>& level = written_level ? written_level : first_level;
  if (sensed_block_by_block(level)) {
    text += block_by_block_sentence(*level, written_level.has_value(), block_sized_page);
  }
  text += block_sized_page ? ". A larger page hides from a read grid in three ways: "
                           : ". A page hides from a read grid in three ways: ";
  text += unwritten_reason(ev, doc, first_level, written_level) + "; ";
  text += parallel_reason(ev, doc, first, first_level, written_level) + "; ";
  text += pageless_reason(first_level, written_level);
  return text;
}

}  // namespace ssdprobe
