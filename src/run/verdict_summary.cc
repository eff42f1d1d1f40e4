#include "run/verdict_summary.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string_view>

#include "analysis/block_size_policy.h"
#include "core/units.h"
#include "report/unit_answer.h"

namespace ssdprobe {
namespace {

// What a summary line aims to fit, with the two spaces the text report
// indents it by: 100 columns (a terminal, a ticket's first lines).
constexpr size_t kLineWidth = 98;

bool fits(const std::string& line) { return line.size() <= kLineWidth; }

// "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  if (items.size() <= 1) return items.empty() ? "" : items.front();
  return fmt::format("{} and {}", fmt::join(items.begin(), items.end() - 1, ", "), items.back());
}

// "read page", "SLC cache": a unit's name in words.
std::string unit_name_words(const std::string& name) {
  if (name == "slc_cache") return "SLC cache";
  std::string words = name;
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

// "read page 16 KiB", "no erase block up to 85.3 MiB": the answer without
// the qualifiers and hints the unit lines below carry.
std::string short_answer(const VerdictUnit& u) {
  if (!u.short_text.empty()) return u.short_text;
  return unit_phrase(unit_name_words(u.name), u.answer, u.bytes, u.searched_up_to_bytes, "");
}

// `text` cut at its last clause boundary that leaves it within `width`,
// marked with an ellipsis: the finding's first words say what it is, and the
// audit below has all of it.
std::string clipped(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  size_t cut = std::string::npos;
  for (const char* boundary : {": ", " (", "; ", ", "}) {
    const size_t at = text.rfind(boundary, width - 2);
    if (at != std::string::npos && at > 0 && (cut == std::string::npos || at > cut)) cut = at;
  }
  return cut == std::string::npos ? text : text.substr(0, cut) + " …";
}

std::string action_headline(const Verdict& v) {
  const VerdictFinding& worst = v.findings.front();
  constexpr size_t kStatusWord = sizeof("ACTION: ") - 1;
  std::string text = clipped(worst.headline, kLineWidth + 2 - kStatusWord);
  const std::string cost = fmt::format("; costs up to {:.2f}x", worst.cost_ratio);
  if (worst.cost_ratio > 0.0 && fits(text + cost)) text += cost;
  if (v.findings.size() > 1) {
    const std::string more = fmt::format("; {} more below", v.findings.size() - 1);
    if (fits(text + more)) text += more;
  }
  return text;
}

std::string inconclusive_headline(const Verdict& v, const RunFacts& facts) {
  if (!v.stopped.empty()) return v.stopped;
  if (!facts.timed) return "nothing measured (no timing IO) and no layout to audit";
  std::vector<std::string> open;
  for (const VerdictUnit& u : v.units) {
    const bool decides = u.name == "read_page" || (u.name == "write_unit" && facts.write);
    if (decides && u.answer == UnitAnswer::not_determined) open.push_back(unit_name_words(u.name));
  }
  return fmt::format("{} not determined: the advice below rests on defaults", listed(open));
}

std::string ok_headline(const Verdict& v, const ResultDocument& doc, const RunFacts& facts) {
  std::string text = doc.audit && doc.audit->layout ? "nothing on the disk to change" : "nothing to change";
  if (v.defaults_right) text += ": 1 MiB partition alignment and 4 KiB blocks suit this drive";
  else if (!facts.timed) text += " (the layout's checks; no timing IO was done)";
  const auto notes = std::count_if(v.findings.begin(), v.findings.end(), optional_fix);
  if (notes > 0) text += fmt::format("; {} optional note{} below", notes, notes == 1 ? "" : "s");
  return text;
}

// "use 16 KiB blocks (ZFS ashift 14)" for the advice line.
std::string block_size_words(const BlockSizePolicy& policy) {
  if (!policy.unit || *policy.unit <= kDefaultFilesystemBlock || *policy.physical_block <= kDefaultFilesystemBlock) {
    return "4 KiB filesystem blocks";
  }
  return fmt::format("{} blocks (ZFS ashift {}{})", format_size(*policy.physical_block), *policy.ashift,
                     policy.ashift_clamped ? ", the largest it takes" : "");
}

// With nothing to fix: what the units found mean for new layouts.
std::string advice_line(const ResultDocument& doc) {
  const uint64_t alignment = doc.recommendations.partition_alignment_bytes;
  const std::string blocks = block_size_words(block_size_policy(doc.read_page.bytes, doc.write_unit.bytes));
  if (doc.zoned_block_device()) return fmt::format("advice: a zoned filesystem on the whole device, {}", blocks);
  return fmt::format("advice: partitions at multiples of {}, {}", format_size(alignment), blocks);
}

// "first: sfdisk ..." with its purpose when both fit; a rerun is its
// command (the line about what is open says why).
std::string first_line(const FirstAction& action, bool rerun) {
  if (action.command.empty()) return "first: " + action.text;
  if (rerun) return "first: " + action.command;
  const std::string both = fmt::format("first: {}: {}", action.text, action.command);
  return fits(both) ? both : "first: " + action.command;
}

// The units found or ruled out; where they do not fit, the answers no
// advice rests on (the SLC cache's, then the erase block's) give way first:
// the unit lines below keep them.
std::string units_line(const Verdict& v) {
  std::vector<const VerdictUnit*> known;
  for (const VerdictUnit& u : v.units) {
    if (u.answer == UnitAnswer::found || u.answer == UnitAnswer::ruled_out) known.push_back(&u);
  }
  auto line = [&] {
    std::vector<std::string> words;
    for (const VerdictUnit* u : known) words.push_back(short_answer(*u));
    return words.empty() ? std::string() : fmt::format("units: {}", fmt::join(words, ", "));
  };
  while (!fits(line()) && !known.empty() && !decides_advice(*known.back())) known.pop_back();
  return line();
}

constexpr std::string_view kBelowTells = "below: what would tell";

// "not determined: erase block; not measured: write unit: ssdprobe --write
// sim:x" with the one rerun that would tell, unless the first line already
// gives it.
std::string open_line(const Verdict& v, const std::string& rerun_above) {
  std::vector<std::string> undetermined, unmeasured;
  std::string rerun;
  bool advice_open = false;
  for (const VerdictUnit& u : v.units) {
    if (u.answer != UnitAnswer::not_determined && u.answer != UnitAnswer::not_measured) continue;
    (u.answer == UnitAnswer::not_determined ? undetermined : unmeasured).push_back(unit_name_words(u.name));
    advice_open = advice_open || decides_advice(u);
    if (rerun.empty() && decides_advice(u)) rerun = u.rerun;
  }
  std::vector<std::string> parts;
  if (!undetermined.empty()) parts.push_back("not determined: " + listed(undetermined));
  if (!unmeasured.empty()) parts.push_back("not measured: " + listed(unmeasured));
  if (parts.empty()) return "";
  std::string line = fmt::format("{}", fmt::join(parts, "; "));
  if (!rerun.empty() && rerun == rerun_above) return line + " (the rerun above may tell)";
  if (!rerun.empty()) return line + ": " + rerun;
  const bool one = undetermined.size() + unmeasured.size() == 1;
  if (!advice_open) return line + fmt::format(" (the advice does not rest on {}; {})", one ? "it" : "them", kBelowTells);
  return line + " (below: why)";
}

// The last line, saying that a caution follows: "... (and a caution
// below)"; where that would not fit, the line's own pointer below takes the
// caution in ("...; below: what would tell, and a caution)"), and where even
// that is too long, the pointer alone replaces the line's parenthesis.
std::string with_caution(const std::string& line) {
  const std::string appended = line + " (and a caution below)";
  if (fits(appended)) return appended;
  const std::string pointing = fmt::format("{})", kBelowTells);
  if (!line.ends_with(pointing)) return appended;
  const std::string joined = line.substr(0, line.size() - 1) + ", and a caution)";
  if (fits(joined)) return joined;
  return fmt::format("{} ({}, and a caution)", line.substr(0, line.rfind(" (")), kBelowTells);
}

}  // namespace

bool decides_advice(const VerdictUnit& u) { return u.name == "read_page" || u.name == "write_unit"; }

std::string status_headline(const Verdict& v, const ResultDocument& doc, const RunFacts& facts) {
  switch (v.status) {
    case VerdictStatus::action: return action_headline(v);
    case VerdictStatus::inconclusive: return inconclusive_headline(v, facts);
    case VerdictStatus::ok: return ok_headline(v, doc, facts);
  }
  return "";
}

std::vector<std::string> summary_lines(const Verdict& v, const ResultDocument& doc, const RunFacts& facts) {
  std::vector<std::string> lines;
  std::string rerun_above;
  const bool acts = v.first_action && (v.status == VerdictStatus::action || !v.first_action->command.empty());
  if (acts && v.status != VerdictStatus::ok) {
    lines.push_back(first_line(*v.first_action, v.findings.empty()));
    rerun_above = v.first_action->command;
  } else if (facts.timed && v.stopped.empty()) {
    lines.push_back(advice_line(doc));
  }
  if (std::string units = units_line(v); !units.empty()) lines.push_back(units);
  if (std::string open = open_line(v, rerun_above); !open.empty()) lines.push_back(open);
  if (lines.size() > 3) lines.resize(3);
  if (!v.cautions.empty()) {
    if (lines.size() < 3) lines.push_back("caution: the timings may have been disturbed (below)");
    else lines.back() = with_caution(lines.back());
  }
  return lines;
}

std::string burst_phrase(const ResultDocument& doc) {
  if (doc.slc_cache.state != UnitState::found || !doc.slc_cache.bytes || !doc.slc_cache_detail) return "";
  const SlcCacheDetail& d = *doc.slc_cache_detail;
  if (!d.in_cache_bytes_per_s || !d.native_bytes_per_s) return "";
  return fmt::format("writes beyond ~{} in a burst run at {}/s ({}/s before)", format_size(*doc.slc_cache.bytes),
                     format_size(static_cast<uint64_t>(*d.native_bytes_per_s)),
                     format_size(static_cast<uint64_t>(*d.in_cache_bytes_per_s)));
}

}  // namespace ssdprobe
