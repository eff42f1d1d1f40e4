#include "run/unit_answers.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "core/shell_command.h"
#include "core/units.h"
#include "report/open_units_render.h"
#include "run/other_io.h"
#include "run/rerun_command.h"
#include "run/run_budget.h"
#include "run/run_cautions.h"

namespace ssdprobe {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr int kStreamPasses = 2;     // the erase stream writes its window twice
constexpr int kMinStallPeriods = 6;  // a period must repeat this often in the stream (erase_stream_probe.h)

// What would tell a unit the run did not: in words (the document's
// to_determine) and as the options a rerun changes (none: no rerun would
// tell; rerun_as_is: the same run again, e.g. after an interrupted phase).
struct Hint {
  std::string text;
  std::vector<CommandOption> rerun;
  bool rerun_as_is = false;
};

Hint erase_block_search(const ResultDocument& doc, const RunFacts& facts);


std::string budget_text(double seconds) { return fmt::format("{:g}", std::ceil(seconds)); }

const CommandOption kWrite{"--write", ""};

// Twice the budget, at least 10 s more: what a phase cut by --budget gets.
double doubled_budget(const RunFacts& facts) { return std::max(2.0 * facts.budget_s, facts.budget_s + 10); }

// Twice the budget (at least 10 s more): a grid cut by --budget settles with
// more rounds, and doubling is what a person would try next. Suggested once:
// a run already given more than the default budget gets no further doubling
// (that would never end on a drive whose noise hides the unit); it says what
// it had instead.
Hint more_budget(const RunFacts& facts, bool write, const char* why = "") {
  if (facts.budget_s > Options{}.budget_s) {
    return {fmt::format("not settled within --budget {}, more than the default already", budget_text(facts.budget_s)), {}};
  }
  const std::string budget = budget_text(doubled_budget(facts));
  Hint hint{fmt::format("rerun with {}--budget {}{}", write ? "--write " : "", budget, why), {{"--budget", budget}}};
  if (write) hint.rerun.insert(hint.rerun.begin(), kWrite);
  return hint;
}

// A caution held over the phase that decides a unit, and the phase ran to
// its end or its --budget: what disturbed its timings is the likely reason
// the unit stayed open, so the rerun to try is on an idle host (or disk),
// with the budget it had, or twice it where --budget cut the phase (once:
// not past a budget already above the default). Empty when no caution held
// there (run/run_cautions.h).
Hint disturbed_hint(const ResultDocument& doc, const char* phase, const RunFacts& facts, bool write) {
  const PhaseRecord* p = doc.phase_named(phase);
  if (p == nullptr || (p->state != PhaseState::done && p->state != PhaseState::budget)) return {};
  const std::optional<PhaseDisturbance> disturbed = phase_disturbance(doc, phase);
  if (!disturbed) return {};
  const bool cut = p->state == PhaseState::budget;
  const bool more = cut && facts.budget_s <= Options{}.budget_s;
  const std::string budget = budget_text(more ? doubled_budget(facts) : facts.budget_s);
  Hint hint{fmt::format("rerun with {}--budget {} on {}: {}, the likely reason the {} {}", write ? "--write " : "",
                        budget, disturbed->idle_place(), disturbed->words, phase_words(phase),
                        cut ? "did not settle within --budget" : "settled without a confident answer"),
            {{"--budget", budget}}};
  if (write) hint.rerun.insert(hint.rerun.begin(), kWrite);
  return hint;
}

// Why the phase that decides a unit did not give it, when that phase is the
// reason: it did not run, failed, was interrupted or cut by --budget.
Hint phase_hint(const ResultDocument& doc, const char* phase, const RunFacts& facts, bool write) {
  const PhaseRecord* p = doc.phase_named(phase);
  if (p == nullptr) return {};
  switch (p->state) {
    case PhaseState::budget: return more_budget(facts, write);
    case PhaseState::interrupted:
    case PhaseState::failed:
    case PhaseState::not_run: {
      Hint hint{fmt::format("the {} phase did not finish ({}): rerun", phase, p->reason), {}};
      if (write) hint.rerun.push_back(kWrite);
      hint.rerun_as_is = true;
      return hint;
    }
    case PhaseState::skipped: return {fmt::format("the {} phase was skipped: {}", phase, p->reason), {}};
    case PhaseState::done: return {};
  }
  return {};
}

// The first grid read never-written space: written data would tell. A
// --write run re-read the window it wrote; when that did not settle it, more
// budget would.
Hint unwritten_space_hint(const ResultDocument& doc, const RunFacts& facts) {
  if (facts.write) {
    if (Hint disturbed = disturbed_hint(doc, "read_written", facts, true); !disturbed.text.empty()) return disturbed;
    Hint hint = phase_hint(doc, "read_written", facts, true);
    return hint.text.empty() ? more_budget(facts, true, " (the re-read of the written window did not settle)") : hint;
  }
  return {"rerun with --write on a window the run writes and then re-reads, or with --region over space that holds "
          "data (the read grid's space reads as never written or trimmed)", {kWrite}};
}

Hint read_page_hint(const ResultDocument& doc, const RunFacts& facts) {
  if (doc.read_page.state == UnitState::found || doc.read_page.state == UnitState::absent) return {};
  if (!facts.timed) return {fmt::format("run `ssdprobe {}` to measure it", shell_quote(doc.path)), {}, true};
  if (doc.read_page.state == UnitState::not_measured || doc.read_page.state == UnitState::undetermined) {
    // Space that reads as never written explains a flat grid better than a caution does.
    if (!facts.read_space_unwritten) {
      if (Hint disturbed = disturbed_hint(doc, "read_grid", facts, false); !disturbed.text.empty()) return disturbed;
    }
    Hint hint = phase_hint(doc, "read_grid", facts, false);
    if (!hint.text.empty()) return hint;
    if (facts.read_space_unwritten) return unwritten_space_hint(doc, facts);
    return more_budget(facts, false, " on an idle drive (the grid settled without a confident answer)");
  }
  return {};
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

// The write grid's writes stalled heavily (run/run_cautions.h): a full
// drive's garbage collection, which more --budget only meets more often.
// What helps is a drive that has caught up (idle time) or space it has not
// written lately; the rerun keeps the run's budget. Empty without heavy
// stalls, or for a grid that did not run to its end or its budget.
Hint stalled_grid_hint(const ResultDocument& doc) {
  const PhaseRecord* p = doc.phase_named("write_grid");
  if (p == nullptr || (p->state != PhaseState::done && p->state != PhaseState::budget)) return {};
  const std::optional<std::string> stalls = write_grid_stalls(doc);
  if (!stalls) return {};
  return {fmt::format("rerun after the drive has idled (its garbage collection catches up), or with --write --region "
                      "over space it has not written lately: {}, which a larger --budget only meets more often",
                      *stalls), {kWrite}};
}

Hint write_hint(const ResultDocument& doc, const DetectedUnit& unit, const char* phase, const RunFacts& facts) {
  if (unit.state == UnitState::found) return {};
  if (refuses_writes(doc)) return {zoned_write_hint(doc), {}};
  if (unit.state == UnitState::absent && std::string(phase) == "write_grid") return {};
  if (!facts.timed && unit.state != UnitState::not_measured) return {};
  if (!facts.timed) return {fmt::format("run `ssdprobe --write {}` to measure it", shell_quote(doc.path)), {kWrite}};
  if (!facts.write) return {"rerun with --write", {kWrite}};
  if (unit.state == UnitState::absent && std::string(phase) == "erase_stream") return erase_block_search(doc, facts);
  if (Hint disturbed = disturbed_hint(doc, phase, facts, true); !disturbed.text.empty()) return disturbed;
  if (std::string_view(phase) == "write_grid" || std::string_view(phase) == "erase_stream") {
    if (Hint stalled = stalled_grid_hint(doc); !stalled.text.empty()) return stalled;
  }
  if (std::string_view(phase) == "erase_stream" && unit.best_candidate_bytes) {
    return {fmt::format("rerun after the drive has idled (its garbage collection catches up): stalls recur every {} "
                        "but stood out on only {:.0f} % of the block starts, which a larger --budget does not change",
                        format_size(*unit.best_candidate_bytes), 100.0 * unit.best_candidate_support), {kWrite}};
  }
  if (std::string_view(phase) == "erase_stream" && unit.state == UnitState::undetermined && unit.stall_floor_us) {
    return {fmt::format("rerun after the drive has idled (its garbage collection catches up), or with --write "
                        "--region over space it has not written lately: the stream's writes spread so widely that a "
                        "stall under +{:.0f} us could hide, which a larger --budget does not change",
                        *unit.stall_floor_us), {kWrite}};
  }
  Hint hint = phase_hint(doc, phase, facts, true);
  if (!hint.text.empty()) return hint;
  return more_budget(facts, true, " on an idle drive");
}

// A stripe is told beside a found write unit only, from the same grid: what
// tells is what tells the write unit (--write), or the grid's own phase when
// it did not finish. A grid that finished leaves nothing to rerun for it: its
// evidence says what the data allow.
Hint stripe_hint(const ResultDocument& doc, const RunFacts& facts) {
  const DetectedUnit& stripe = doc.write_stripe;
  if (stripe.state == UnitState::not_measured) return write_hint(doc, stripe, "write_grid", facts);
  if (stripe.state != UnitState::undetermined || doc.write_unit.state != UnitState::found) return {};
  return phase_hint(doc, "write_grid", facts, true);
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
  v.short_text = v.text;
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

// A write unit may be an SLC cache's only where something measured shows a
// second state: a cache found, which had room again when the grid ran after
// idling, or a fill that slowed in a way it could not confirm. A fill that
// saw no drop saw one state: the unit stands unqualified (the cache's lower
// bound is its own answer).
void qualify_unknown_regime(VerdictUnit& v, const ResultDocument& doc) {
  if (!v.bytes || doc.write_unit.regime != "unknown") return;
  if (doc.slc_cache.state == UnitState::found) {
    v.text += " (written while the SLC cache had room again after idling: it may be the cache's unit)";
    return;
  }
  const uint64_t written = doc.slc_cache_detail ? doc.slc_cache_detail->written_bytes : 0;
  const bool step_seen = doc.slc_cache.state == UnitState::undetermined && !doc.slc_cache.searched_up_to_bytes;
  if (written > 0 && step_seen) {
    v.text += fmt::format(" (the SLC cache probe saw a slowdown within {} it could not confirm: it may be the cache's "
                          "unit)", format_size(written));
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

bool given(const RunFacts& facts, std::string_view spelling) {
  return std::any_of(facts.shaping_args.begin(), facts.shaping_args.end(),
                     [&](const CommandOption& o) { return o.first == spelling; });
}

// An erase block the stream did not find: all of a window the budget cut
// short, or a wider window than the run's default one. Suggested once: a
// window the user chose with --region is not widened again.
Hint erase_block_search(const ResultDocument& doc, const RunFacts& facts) {
  if (!doc.write_probe) return {};
  const WriteProbeSummary& w = *doc.write_probe;
  const uint64_t chunk = w.stream_chunk_bytes;
  if (chunk == 0) return {};
  auto reach_of = [&](uint64_t bytes) { return bytes / chunk / kMinStallPeriods * chunk; };
  if (w.stream_cut_to_budget) {
    const std::string covered = fmt::format("the stream covered {} of the {} window within --budget",
                                            format_size(w.streamed_bytes), format_size(w.length));
    const auto seconds = stream_seconds(w, w.length);
    if (!seconds || facts.budget_s > Options{}.budget_s) return {covered, {}};
    const std::string budget = budget_text(budget_for_stream(*seconds));
    return {fmt::format("{}; covering all of it searches up to {}: rerun with --write --budget {}", covered,
                        format_size(reach_of(w.length)), budget), {kWrite, {"--budget", budget}}};
  }
  const uint64_t size = doc.topology.size_bytes;
  if (size < 4 * kMiB || w.length == 0 || given(facts, "--region")) return {};
  const uint64_t usable = (size - 2 * kMiB) / kMiB * kMiB;  // off the first and last MiB
  const uint64_t length = std::min<uint64_t>(4 * w.length, usable);
  if (reach_of(length) <= reach_of(w.length)) return {"the window already spans the device: no wider one searches further", {}};
  uint64_t offset = w.offset;
  if (offset + length > size - kMiB) offset = ((size - length) / 2) / kMiB * kMiB;
  const std::string region = fmt::format("{}:{}", size_argument(offset), size_argument(length));
  Hint hint{fmt::format("a wider window searches further: --write --region {} searches up to {}", region,
                        format_size(reach_of(length))), {kWrite, {"--region", region}}};
  if (const auto seconds = stream_seconds(w, length)) {
    const std::string budget = budget_text(std::max(facts.budget_s, budget_for_stream(*seconds)));
    hint.text += fmt::format(" (two passes, about {:.0f} s of writing: --budget {})", *seconds, budget);
    hint.rerun.push_back({"--budget", budget});
  }
  return hint;
}

// A cache the fill did not run out is a lower bound, a result in itself: no
// hint. One whose fill saw a slowdown it could not confirm: a longer fill
// would tell. Neither changes the alignment or block-size advice, so the
// verdict never leads with these (run/verdict_builder.cc).
Hint slc_cache_hint(const ResultDocument& doc, const RunFacts& facts) {
  const DetectedUnit& cache = doc.slc_cache;
  if (cache.state != UnitState::undetermined) return {};
  if (Hint disturbed = disturbed_hint(doc, "slc_cache", facts, true); !disturbed.text.empty()) return disturbed;
  Hint hint = phase_hint(doc, "slc_cache", facts, true);
  if (!hint.text.empty()) return hint;
  const uint64_t cap = doc.slc_cache_detail ? doc.slc_cache_detail->cap_bytes : 0;
  if (cap > 0 && cap < facts.cache_bytes) {
    // The drive's own size ended the fill: no longer fill can be written.
    return {"the fill wrote 1.2 times this drive's capacity, more than any cache on it holds: the slowdown it saw is "
            "not a cache running out; a rerun after the drive has idled would show it again if it were",
            {kWrite}};
  }
  const std::string bytes = size_argument(cap * 2);
  // The longer fill's bound is `cap` more than this run's, which fitted in
  // --max-write-bytes: raised by as much, the rerun is not refused its fill
  // (run/write_cap.h).
  const std::string most = size_argument(facts.max_write_bytes + cap);
  return {fmt::format("a longer fill tells whether the slowdown lasts: --write --cache-bytes {} --max-write-bytes {} "
                      "(and the --budget to write it), on an otherwise idle host", bytes, most),
          {kWrite, {"--cache-bytes", bytes}, {"--max-write-bytes", most}}};
}

// The unit's words as the verdict lists them, with the hint that would tell
// and that hint's rerun as a command keeping the run's own options.
VerdictUnit answered(const char* name, const char* words, DetectedUnit& unit, const Hint& hint,
                     const ResultDocument& doc, const RunFacts& facts) {
  unit.to_determine = hint.text;
  VerdictUnit v = verdict_unit(name, words, unit);
  if (!hint.rerun.empty() || hint.rerun_as_is) v.rerun = rerun_command(facts.shaping_args, hint.rerun, doc.path);
  return v;
}

// The open-units probe's answer, a count of streams rather than bytes:
// "open units 4 streams", "no open-unit limit up to 16 streams".
VerdictUnit open_units_unit(const OpenUnitsSection& section) {
  const OpenUnitsVerdict& verdict = section.verdict;
  VerdictUnit v;
  v.name = "open_units";
  v.answer = unit_answer(verdict.state);
  if (v.answer == UnitAnswer::found) {
    v.count = verdict.streams;
    v.confidence = verdict.confidence;
  }
  if (v.answer == UnitAnswer::found && verdict.streams && verdict.at_most) {
    v.short_text = "open units " + open_units_answer(verdict);
  } else if (v.answer == UnitAnswer::ruled_out && verdict.searched_up_to) {
    v.short_text = fmt::format("no open-unit limit up to {} streams", *verdict.searched_up_to);
  } else {
    v.short_text = std::string("open units ") + unit_answer_words(v.answer);
  }
  v.text = v.short_text;
  if (v.count && section.firmware_streams && *section.firmware_streams != *v.count) {
    v.text += fmt::format(" (the firmware states {}: {})", *section.firmware_streams, section.firmware_streams_field);
  }
  v.to_determine = section.to_determine;
  return v;
}

}  // namespace

std::vector<VerdictUnit> answer_units(ResultDocument& doc, const RunFacts& facts) {
  const bool page_open = doc.read_page.state != UnitState::found && doc.read_page.state != UnitState::absent;
  const bool unit_open = doc.write_unit.state != UnitState::absent;
  std::vector<VerdictUnit> units{
      answered("read_page", "read page", doc.read_page, page_open ? read_page_hint(doc, facts) : Hint{}, doc, facts),
      answered("write_unit", "write unit", doc.write_unit,
               unit_open ? write_hint(doc, doc.write_unit, "write_grid", facts) : Hint{}, doc, facts),
      answered("erase_block", "erase block", doc.erase_block, write_hint(doc, doc.erase_block, "erase_stream", facts),
               doc, facts)};
  doc.write_stripe.to_determine = stripe_hint(doc, facts).text;
  qualify_unknown_regime(units[1], doc);
  qualify_stripe(units[1], doc);
  name_in_cache_unit(units[1], doc);
  // The SLC cache is an answer only where its probe ran (or was to run).
  if (doc.slc_cache.state != UnitState::not_measured || doc.slc_cache_detail) {
    units.push_back(answered("slc_cache", "SLC cache", doc.slc_cache, slc_cache_hint(doc, facts), doc, facts));
  }
  if (doc.open_units.verdict.state != UnitState::not_measured) units.push_back(open_units_unit(doc.open_units));
  return units;
}

}  // namespace ssdprobe
