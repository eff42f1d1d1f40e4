#include "run/unit_answers.h"

#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "core/shell_command.h"
#include "core/units.h"
#include "run/other_io.h"
#include "run/run_budget.h"
#include "run/run_cautions.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr int kStreamPasses = 2;     // the erase stream writes its window twice
constexpr int kMinStallPeriods = 6;  // a period must repeat this often in the stream (erase_stream_probe.h)

const PhaseRecord* phase_named(const ResultDocument& doc, const char* name) {
  for (const auto& p : doc.phases) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string budget_text(double seconds) { return fmt::format("{:g}", std::ceil(seconds)); }

// Twice the budget (at least 10 s more): a grid cut by --budget settles with
// more rounds, and doubling is what a person would try next.
double doubled_budget(const RunFacts& facts) { return std::max(2.0 * facts.budget_s, facts.budget_s + 10); }

std::string more_budget(const RunFacts& facts, const char* extra = "") {
  return fmt::format("rerun with {}--budget {}", extra, budget_text(doubled_budget(facts)));
}

// A caution held over the phase that decides a unit, and the phase ran to
// its end or its --budget: what disturbed its timings is the likely reason
// the unit stayed open, so the rerun to try is on an idle host (or disk),
// with the budget it had, or twice it where --budget cut the phase. Nullopt
// when no caution held there (run/run_cautions.h).
std::optional<std::string> disturbed_hint(const ResultDocument& doc, const char* phase, const RunFacts& facts,
                                          const char* extra) {
  const PhaseRecord* p = phase_named(doc, phase);
  if (p == nullptr || (p->state != PhaseState::done && p->state != PhaseState::budget)) return std::nullopt;
  const std::optional<PhaseDisturbance> disturbed = phase_disturbance(doc, phase);
  if (!disturbed) return std::nullopt;
  const bool cut = p->state == PhaseState::budget;
  return fmt::format("rerun with {}--budget {} on {}: {}, the likely reason the {} {}", extra,
                     budget_text(cut ? doubled_budget(facts) : facts.budget_s), disturbed->idle_place(),
                     disturbed->words, phase_words(phase),
                     cut ? "did not settle within --budget" : "settled without a confident answer");
}

// Why the phase that decides a unit did not give it, when that phase is the
// reason: it did not run, failed, was interrupted or cut by --budget.
std::string phase_hint(const ResultDocument& doc, const char* phase, const RunFacts& facts, const char* extra) {
  const PhaseRecord* p = phase_named(doc, phase);
  if (p == nullptr) return "";
  switch (p->state) {
    case PhaseState::budget: return more_budget(facts, extra);
    case PhaseState::interrupted:
    case PhaseState::failed:
    case PhaseState::not_run: return fmt::format("the {} phase did not finish ({}): rerun", phase, p->reason);
    case PhaseState::skipped: return fmt::format("the {} phase was skipped: {}", phase, p->reason);
    case PhaseState::done: return "";
  }
  return "";
}

// The first grid read never-written space: written data would tell. A
// --write run re-read the window it wrote; when that did not settle it, more
// budget would.
std::string unwritten_space_hint(const ResultDocument& doc, const RunFacts& facts) {
  if (facts.write) {
    if (auto disturbed = disturbed_hint(doc, "read_written", facts, "--write ")) return *disturbed;
    std::string hint = phase_hint(doc, "read_written", facts, "--write ");
    return hint.empty() ? more_budget(facts, "--write ") + " (the re-read of the written window did not settle)" : hint;
  }
  return "rerun with --write on a window the run writes and then re-reads, or with --region over space that holds "
         "data (the read grid's space reads as never written or trimmed)";
}

std::string read_page_hint(const ResultDocument& doc, const RunFacts& facts) {
  if (doc.read_page.state == UnitState::found || doc.read_page.state == UnitState::absent) return "";
  if (!facts.timed) return fmt::format("run `ssdprobe {}` to measure it", shell_quote(doc.path));
  if (doc.read_page.state == UnitState::not_measured || doc.read_page.state == UnitState::undetermined) {
    // Space that reads as never written explains a flat grid better than a caution does.
    if (!facts.read_space_unwritten) {
      if (auto disturbed = disturbed_hint(doc, "read_grid", facts, "")) return *disturbed;
    }
    std::string hint = phase_hint(doc, "read_grid", facts, "");
    if (!hint.empty()) return hint;
    if (facts.read_space_unwritten) return unwritten_space_hint(doc, facts);
    return more_budget(facts) + " on an idle drive (the grid settled without a confident answer)";
  }
  return "";
}

// A zoned block device takes no random-offset writes: --write is refused
// there (safety/zoned_refusal.h), or on a whole host-managed disk writes only
// empty zones sequentially (zoned_write), so the write units are not to be
// asked for there.
bool refuses_writes(const ResultDocument& doc) {
  const bool block = doc.kind == TargetKind::block || doc.kind == TargetKind::partition;
  return block && doc.topology.zoned && doc.topology.zoned->zoned();
}

std::string zoned_write_hint(const ResultDocument& doc) {
  const std::string& model = doc.topology.zoned->model;
  if (model == "host-managed" && doc.kind == TargetKind::block) {
    return "not measurable here: a host-managed zoned device takes only sequential writes, so --write writes empty "
           "zones from their write pointer (zoned_write) instead of the random-offset probes";
  }
  return fmt::format("not measurable here: --write is refused on {} zoned device",
                     doc.kind == TargetKind::partition ? "a partition of a " + model : "a " + model);
}

std::string write_hint(const ResultDocument& doc, const DetectedUnit& unit, const char* phase, const RunFacts& facts) {
  if (unit.state == UnitState::found) return "";
  if (refuses_writes(doc)) return zoned_write_hint(doc);
  if (unit.state == UnitState::absent && std::string(phase) == "write_grid") return "";
  if (!facts.timed && unit.state != UnitState::not_measured) return "";
  if (!facts.timed) return fmt::format("run `ssdprobe --write {}` to measure it", shell_quote(doc.path));
  if (!facts.write) return "rerun with --write";
  if (unit.state == UnitState::absent && std::string(phase) == "erase_stream") return erase_block_search_hint(doc);
  if (unit.state == UnitState::found) return "";
  if (auto disturbed = disturbed_hint(doc, phase, facts, "--write ")) return *disturbed;
  std::string hint = phase_hint(doc, phase, facts, "--write ");
  if (!hint.empty()) return hint;
  return more_budget(facts, "--write ") + " on an idle drive";
}

// A stripe is told beside a found write unit only, from the same grid: what
// tells is what tells the write unit (--write), or the grid's own phase when
// it did not finish. A grid that finished leaves nothing to rerun for it: its
// evidence says what the data allow.
std::string stripe_hint(const ResultDocument& doc, const RunFacts& facts) {
  const DetectedUnit& stripe = doc.write_stripe;
  if (stripe.state == UnitState::not_measured) return write_hint(doc, stripe, "write_grid", facts);
  if (stripe.state != UnitState::undetermined || doc.write_unit.state != UnitState::found) return "";
  return phase_hint(doc, "write_grid", facts, "--write ");
}

VerdictUnit verdict_unit(const char* name, const char* words, const DetectedUnit& unit) {
  VerdictUnit v;
  v.name = name;
  v.answer = unit_answer(unit.state);
  v.bytes = unit.bytes;
  v.confidence = unit.confidence;
  v.searched_up_to_bytes = unit.searched_up_to_bytes;
  v.to_determine = unit.to_determine;
  v.text = unit_phrase(words, v.answer, unit.bytes, unit.searched_up_to_bytes, "");
  // A write phase that saw the drive change state (the grid's rounds moved
  // together, the stream slowed for good): two states in one answer, never
  // one unqualified value. Native: measured where data ends up.
  if (unit.bytes && unit.regime == "mixed") v.text += " (measured while the drive changed state)";
  if (unit.bytes && unit.regime == "native") v.text += " (after the SLC cache ran out)";
  // Only the read page can come from re-reading written space; its answer
  // then holds for written data, and the verdict says so.
  if (unit.bytes && !unit.device_state.empty() && std::string_view(name) == "read_page") {
    v.text += " (on freshly written space)";
  }
  return v;
}

// A write unit measured with no cache drop seen, or with cache left after a
// second fill, may be an SLC cache's: said beside it, with how far the cache
// probe looked.
void qualify_unknown_regime(VerdictUnit& v, const ResultDocument& doc) {
  if (!v.bytes || doc.write_unit.regime != "unknown" || doc.slc_cache.state == UnitState::not_measured) return;
  if (doc.slc_cache.state == UnitState::found) {
    v.text += " (written while the SLC cache had room again after idling: it may be the cache's unit)";
    return;
  }
  const uint64_t written = doc.slc_cache_detail ? doc.slc_cache_detail->written_bytes : 0;
  // Not determined with no reach claimed: the fill saw a step it could not confirm.
  const bool step_seen = doc.slc_cache.state == UnitState::undetermined && !doc.slc_cache.searched_up_to_bytes;
  if (written == 0) {
    v.text += " (the SLC cache probe wrote nothing: it may be the cache's unit)";
  } else if (step_seen) {
    v.text += fmt::format(" (the SLC cache probe saw a slowdown within {} it could not confirm: it may be the cache's "
                          "unit)", format_size(written));
  } else {
    v.text += fmt::format(" (no SLC cache drop within {}: it may be the cache's unit)", format_size(written));
  }
}

// The write unit inside the SLC cache, where the grid ran there too: beside
// the native one, so a unit that differs between the regimes is never one
// unqualified answer (the advice aligns on the native unit: where data ends
// up).
void name_in_cache_unit(VerdictUnit& v, ResultDocument& doc) {
  if (!doc.slc_cache_detail || !doc.slc_cache_detail->write_unit) return;
  const DetectedUnit& in_cache = *doc.slc_cache_detail->write_unit;
  if (in_cache.state != UnitState::found || !in_cache.bytes) return;
  if (in_cache.regime != "slc_cache") return;  // mixed: the cache ran out during it
  // Only beside a unit measured where the cache had run out: beside one that
  // may be the cache's own, "the same inside the cache" would sound like a
  // confirmation it is not (the document keeps both).
  const DetectedUnit& native = doc.write_unit;
  if (native.regime != "native") return;
  if (native.bytes == in_cache.bytes) {
    v.text += ", the same inside the cache";
    return;
  }
  v.text += fmt::format(", {} inside the cache", format_size(*in_cache.bytes));
  if (!native.bytes) return;
  doc.notes.push_back(fmt::format(
      "the write unit differs between the drive's states: {} once the SLC cache ran out (support {:.3f}), {} while it "
      "had room (support {:.3f}); each support says how one state's grid agreed with itself, not which answer holds: "
      "alignment advice uses the first, where data ends up", format_size(*native.bytes), native.confidence,
      format_size(*in_cache.bytes), in_cache.confidence));
}

// A write unit programmed in stripes over parallel units: the stripe beside
// it, never instead of it (the stripe's own answer is detected.write_stripe).
void qualify_stripe(VerdictUnit& v, const ResultDocument& doc) {
  const WriteStripeDetail& d = doc.write_stripe_detail;
  if (!v.bytes || !doc.write_stripe.bytes || !d.units) return;
  v.text += fmt::format(" (programmed {} at a time on parallel units: a {} stripe)", *d.units,
                        format_size(*doc.write_stripe.bytes));
}

// The seconds one stream pass over `bytes` takes at the rate the timed pass measured.
std::optional<double> stream_seconds(const WriteProbeSummary& w, uint64_t bytes) {
  const double pass_us = std::accumulate(w.stream_latency_us.begin(), w.stream_latency_us.end(), 0.0);
  if (pass_us <= 0.0 || w.streamed_bytes == 0) return std::nullopt;
  return kStreamPasses * static_cast<double>(bytes) * (pass_us / 1e6) / static_cast<double>(w.streamed_bytes);
}

// The --budget whose erase-stream share (when the grids use all of theirs,
// run/run_budget.h) covers `stream_s` seconds.
double budget_for_stream(double stream_s) {
  const RunBudget unit{1.0, true};
  const double write_phases = unit.write_phases_s(unit.read_grid_s());
  const double share = unit.erase_stream_s(write_phases, unit.write_grid_s(write_phases));
  return share > 0.0 ? stream_s / share : stream_s;
}

}  // namespace

std::string erase_block_search_hint(const ResultDocument& doc) {
  if (!doc.write_probe) return "";
  const WriteProbeSummary& w = *doc.write_probe;
  const uint64_t chunk = w.stream_chunk_bytes;
  if (chunk == 0) return "";
  auto reach_of = [&](uint64_t bytes) { return bytes / chunk / kMinStallPeriods * chunk; };
  if (w.stream_cut_to_budget) {
    const auto seconds = stream_seconds(w, w.length);
    return fmt::format("the stream covered {} of the {} window within --budget; covering all of it searches up to "
                       "{}{}", format_size(w.streamed_bytes), format_size(w.length), format_size(reach_of(w.length)),
                       seconds ? fmt::format(": rerun with --write --budget {}", budget_text(budget_for_stream(*seconds)))
                               : std::string(": rerun with a larger --budget"));
  }
  const uint64_t size = doc.topology.size_bytes;
  if (size < 4 * kMiB || w.length == 0) return "";
  const uint64_t usable = (size - 2 * kMiB) / kMiB * kMiB;  // off the first and last MiB
  const uint64_t length = std::min<uint64_t>(4 * w.length, usable);
  if (reach_of(length) <= reach_of(w.length)) return "the window already spans the device: no wider one searches further";
  uint64_t offset = w.offset;
  if (offset + length > size - kMiB) offset = ((size - length) / 2) / kMiB * kMiB;
  const auto seconds = stream_seconds(w, length);
  return fmt::format("a wider window searches further: --write --region {}:{} searches up to {}{}", size_argument(offset),
                     size_argument(length), format_size(reach_of(length)),
                     seconds ? fmt::format(" (two passes, about {:.0f} s of writing: --budget {})", *seconds,
                                           budget_text(budget_for_stream(*seconds)))
                             : std::string());
}

// A cache the fill did not run out: a larger cap, or more budget, would tell.
std::string slc_cache_hint(const ResultDocument& doc, const RunFacts& facts) {
  const DetectedUnit& cache = doc.slc_cache;
  if (cache.state == UnitState::found || cache.state == UnitState::not_measured) return "";
  const uint64_t cap = doc.slc_cache_detail ? doc.slc_cache_detail->cap_bytes : 0;
  if (cache.state == UnitState::undetermined) {
    if (auto disturbed = disturbed_hint(doc, "slc_cache", facts, "--write ")) return *disturbed;
    std::string hint = phase_hint(doc, "slc_cache", facts, "--write ");
    if (!hint.empty()) return hint;
    // The phase ran to its cap and saw a slowdown it could not confirm:
    // more of the same fill would tell whether it lasts.
    return fmt::format("a longer fill tells whether the slowdown lasts: --write --cache-bytes {} (and the --budget to "
                       "write it), on an otherwise idle host", size_argument(cap * 2));
  }
  return fmt::format("a cache larger than {} needs a larger --cache-bytes (e.g. {}) and the --budget to write it",
                     format_size(cap), size_argument(cap * 4));
}

std::vector<VerdictUnit> answer_units(ResultDocument& doc, const RunFacts& facts) {
  doc.read_page.to_determine = doc.read_page.state == UnitState::found ? "" : read_page_hint(doc, facts);
  doc.write_unit.to_determine = write_hint(doc, doc.write_unit, "write_grid", facts);
  doc.write_stripe.to_determine = stripe_hint(doc, facts);
  doc.erase_block.to_determine = write_hint(doc, doc.erase_block, "erase_stream", facts);
  if (doc.read_page.state == UnitState::absent) doc.read_page.to_determine.clear();
  if (doc.write_unit.state == UnitState::absent) doc.write_unit.to_determine.clear();
  std::vector<VerdictUnit> units{verdict_unit("read_page", "read page", doc.read_page),
                                 verdict_unit("write_unit", "write unit", doc.write_unit),
                                 verdict_unit("erase_block", "erase block", doc.erase_block)};
  qualify_unknown_regime(units[1], doc);
  qualify_stripe(units[1], doc);
  name_in_cache_unit(units[1], doc);
  // The SLC cache is an answer only where its probe ran (or was to run).
  if (doc.slc_cache.state != UnitState::not_measured || doc.slc_cache_detail) {
    doc.slc_cache.to_determine = slc_cache_hint(doc, facts);
    units.push_back(verdict_unit("slc_cache", "SLC cache", doc.slc_cache));
  }
  return units;
}

}  // namespace ssdprobe
