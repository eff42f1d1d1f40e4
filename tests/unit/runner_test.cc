// The probe runner against a scripted Device whose clock only moves when a
// scripted IO completes, so every latency is known exactly: what is
// submitted, what comes back in which order, how deep the queue gets, and
// how a failed IO and a signal end a run.
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/error.h"
#include "core/interrupt.h"
#include "core/random.h"
#include "device/device.h"
#include "runner/runner.h"

using namespace ssdprobe;

namespace {

constexpr uint64_t kDefaultLatencyNs = 50'000;

// A Device whose IOs take scripted times on a virtual clock. IO #i (counted
// per submit) completes latency_ns[i] after it was submitted (the clock does
// not move at submit), with result results[i] (default: its length). With
// several in flight, the one due first completes first, so completions may
// come back out of submission order.
class ScriptedDevice : public Device {
 public:
  explicit ScriptedDevice(uint32_t max_queue_depth, bool writable = true) : writable_(writable) {
    limits_.size_bytes = 1ull << 30;
    limits_.logical_block = 512;
    limits_.max_queue_depth = max_queue_depth;
  }

  // The script.
  std::vector<uint64_t> latency_ns;                 // by IO index; missing: kDefaultLatencyNs
  std::map<uint64_t, int64_t> results;              // by IO index; missing: the request's length
  std::function<void(uint64_t index)> on_submit;    // called after IO #index is queued

  // What happened.
  std::vector<IoRequest> submitted;
  std::vector<IoCompletion> completed;
  std::vector<size_t> attached_sizes;
  int attach_calls = 0;
  uint32_t in_flight() const { return static_cast<uint32_t>(pending_.size()); }
  uint32_t max_in_flight = 0;
  std::vector<std::string> violations;  // contract breaches by the caller

  const DeviceLimits& limits() const override { return limits_; }
  std::string engine_description() const override { return "scripted"; }
  bool writable() const override { return writable_; }
  void attach_buffers(std::span<AlignedBuffer> buffers) override {
    ++attach_calls;
    attached_sizes.clear();
    for (const auto& b : buffers) attached_sizes.push_back(b.size());
  }
  void submit(const IoRequest& request) override {
    const uint64_t index = submitted.size();
    submitted.push_back(request);
    if (attach_calls == 0) violations.push_back(fmt::format("IO #{} submitted before attach_buffers", index));
    if (request.buffer_index >= attached_sizes.size()) {
      violations.push_back(fmt::format("IO #{} names buffer {} of {}", index, request.buffer_index, attached_sizes.size()));
    } else if (request.length > attached_sizes[request.buffer_index]) {
      violations.push_back(fmt::format("IO #{} is longer than its buffer", index));
    }
    for (const auto& p : pending_) {
      if (p.request.buffer_index == request.buffer_index) {
        violations.push_back(fmt::format("IO #{} reuses buffer {} while IO #{} is in flight", index,
                                         request.buffer_index, p.index));
      }
    }
    if (pending_.size() >= limits_.max_queue_depth) {
      violations.push_back(fmt::format("IO #{} exceeds the device's queue depth {}", index, limits_.max_queue_depth));
    }
    const uint64_t latency = index < latency_ns.size() ? latency_ns[index] : kDefaultLatencyNs;
    const auto scripted = results.find(index);
    const int64_t result = scripted != results.end() ? scripted->second : static_cast<int64_t>(request.length);
    pending_.push_back({request, index, now_ + latency, result});
    events += 'S';
    max_in_flight = std::max(max_in_flight, in_flight());
    if (on_submit) on_submit(index);
  }
  // With `fail_wait_at`, the wait that would return completion number N
  // (counting from 0) throws instead, as a failed io_uring_enter does, with
  // every request still pending.
  std::optional<size_t> fail_wait_at;
  int abandon_calls = 0;
  size_t abandoned_in_flight = 0;  // what abandon_in_flight found out
  void abandon_in_flight() override {
    ++abandon_calls;
    abandoned_in_flight = pending_.size();
    pending_.clear();  // the engine reaps and drops them
  }
  IoCompletion wait_one() override {
    if (pending_.empty()) throw Error(ErrorCategory::internal, "wait_one() with nothing in flight");
    if (fail_wait_at && completed.size() == *fail_wait_at) {
      throw Error(ErrorCategory::io, "io_uring_wait_cqe: Cannot allocate memory");
    }
    auto next = pending_.begin();
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->due_ns < next->due_ns) next = it;
    }
    now_ = std::max(now_, next->due_ns);
    events += 'W';
    const IoCompletion done{next->request.tag, next->result};
    pending_.erase(next);
    completed.push_back(done);
    return done;
  }
  uint64_t now_ns() override { return now_; }
  // With `pollable`, a request whose time has come (due by the clock as it
  // stands) is handed out without a wait, as io_uring's completion queue
  // does; `events` records S(ubmit), W(ait), P(oll hit) and Q
  // (submit_queued) in order.
  bool pollable = false;
  std::string events;
  std::optional<IoCompletion> poll_one() override {
    if (!pollable) return std::nullopt;
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->due_ns > now_) continue;
      const IoCompletion done{it->request.tag, it->result};
      pending_.erase(it);
      completed.push_back(done);
      events += 'P';
      return done;
    }
    return std::nullopt;
  }
  // Q: the runner handed what it queued to the kernel mid-batch (the
  // scripted device starts every request at submit already).
  void submit_queued() override { events += 'Q'; }

 private:
  struct Pending {
    IoRequest request;
    uint64_t index;
    uint64_t due_ns;
    int64_t result;
  };
  DeviceLimits limits_;
  bool writable_;
  uint64_t now_ = 1'000'000'000;  // not zero: latencies must be differences
  std::vector<Pending> pending_;
};

std::vector<PlannedIo> mixed_plan(size_t count) {
  std::vector<PlannedIo> plan;
  for (size_t i = 0; i < count; ++i) {
    const IoOp op = i % 3 == 2 ? IoOp::write : IoOp::read;
    plan.push_back({op, (i * 7 % 64) * 65536 + (i % 8) * 512, static_cast<uint32_t>(512 * (1 + i % 16))});
  }
  return plan;
}

std::vector<double> expected_us(const std::vector<uint64_t>& latency_ns) {
  std::vector<double> us;
  for (uint64_t ns : latency_ns) us.push_back(static_cast<double>(ns) / 1000.0);
  return us;
}

// Clears the interrupt flag however the test ends.
struct InterruptReset {
  InterruptReset() { clear_interrupt(); }
  ~InterruptReset() { clear_interrupt(); }
};

std::string describe(const IoRequest& r) {
  return fmt::format("{} {} bytes at {} (buffer {}, tag {})", r.op == IoOp::read ? "read" : "write", r.length,
                     r.offset, r.buffer_index, r.tag);
}

}  // namespace

TEST_CASE("the runner attaches queue-depth buffers of the largest request once", "[runner]") {
  ScriptedDevice device(8);
  ProbeRunner runner(device, 4, 128 * 1024);
  CHECK(device.attach_calls == 1);
  CHECK(device.attached_sizes == std::vector<size_t>(4, 128 * 1024));
  CHECK(runner.queue_depth() == 4u);
}

TEST_CASE("a queue depth of 0 or above the device's limit is a usage error", "[runner]") {
  ScriptedDevice device(4);
  for (uint32_t qd : {0u, 5u, 256u}) {
    INFO("queue depth " << qd);
    try {
      ProbeRunner runner(device, qd, 4096);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.category() == ErrorCategory::usage);
      CHECK(std::string(e.what()).find(std::to_string(qd)) != std::string::npos);
    }
  }
  CHECK(device.attach_calls == 0);
}

TEST_CASE("every planned IO is submitted in plan order with its op, offset and length", "[runner]") {
  for (uint32_t qd : {1u, 4u}) {
    INFO("queue depth " << qd);
    ScriptedDevice device(qd);
    ProbeRunner runner(device, qd, 8192);
    const auto plan = mixed_plan(40);
    const auto latencies = runner.run(plan);
    CHECK(latencies.size() == plan.size());
    REQUIRE(device.submitted.size() == plan.size());
    uint64_t bytes = 0;
    for (size_t i = 0; i < plan.size(); ++i) {
      INFO("IO #" << i << ": " << describe(device.submitted[i]));
      CHECK(device.submitted[i].op == plan[i].op);
      CHECK(device.submitted[i].offset == plan[i].offset);
      CHECK(device.submitted[i].length == plan[i].length);
      bytes += plan[i].length;
    }
    for (const auto& v : device.violations) FAIL_CHECK(v);
    CHECK(device.completed.size() == plan.size());
    CHECK(device.in_flight() == 0u);
    CHECK(runner.ios_issued() == plan.size());
    CHECK(runner.bytes_issued() == bytes);
  }
}

TEST_CASE("at queue depth 1 the latencies are exactly the scripted ones, in plan order", "[runner]") {
  ScriptedDevice device(1);
  device.latency_ns = {80'000, 12'500, 1'000'000, 7, 333'333, 90'000'000, 64'000, 1};
  ProbeRunner runner(device, 1, 4096);
  const std::vector<PlannedIo> plan(device.latency_ns.size(), PlannedIo{IoOp::read, 4096, 4096});
  CHECK(runner.run(plan) == expected_us(device.latency_ns));
  CHECK(device.max_in_flight == 1u);
}

TEST_CASE("completions out of order still give each IO its own latency, in plan order", "[runner]") {
  ScriptedDevice device(4);
  // The first IOs are slow and the later ones fast: they complete in reverse.
  device.latency_ns = {400'000, 300'000, 200'000, 100'000, 10'000, 20'000, 30'000, 40'000};
  ProbeRunner runner(device, 4, 8192);
  const auto plan = mixed_plan(device.latency_ns.size());
  CHECK(runner.run(plan) == expected_us(device.latency_ns));
  REQUIRE(device.completed.size() == plan.size());
  CHECK(device.completed[0].tag != 0u);  // the script did reorder them
  for (const auto& v : device.violations) FAIL_CHECK(v);
}

TEST_CASE("a deeper queue keeps at most queue-depth IOs in flight, and uses all of them", "[runner]") {
  for (uint32_t qd : {2u, 3u, 8u}) {
    INFO("queue depth " << qd);
    ScriptedDevice device(16);
    Random random(qd);
    for (int i = 0; i < 200; ++i) device.latency_ns.push_back(1'000 + random.below(500'000));
    ProbeRunner runner(device, qd, 8192);
    const auto plan = mixed_plan(device.latency_ns.size());
    CHECK(runner.run(plan) == expected_us(device.latency_ns));
    CHECK(device.max_in_flight == qd);
    for (const auto& v : device.violations) FAIL_CHECK(v);  // e.g. a buffer shared by two IOs in flight
    std::set<uint32_t> buffers;
    for (const auto& r : device.submitted) buffers.insert(r.buffer_index);
    CHECK(buffers.size() == qd);
  }
}

TEST_CASE("a failed or short IO is an io error naming the IO and its offset", "[runner]") {
  struct Failure {
    const char* name;
    int64_t result;
    std::string why;  // expected in the message
  };
  const std::vector<Failure> failures{
      {"EIO", -EIO, std::strerror(EIO)},
      {"ENOSPC", -ENOSPC, std::strerror(ENOSPC)},
      {"short by one block", 4096 - 512, "short transfer of 3584 bytes"},
      {"nothing transferred", 0, "short transfer of 0 bytes"},
  };
  for (const auto& failure : failures) {
    for (uint32_t qd : {1u, 4u}) {
      INFO(failure.name << " at queue depth " << qd);
      ScriptedDevice device(qd);
      device.results[5] = failure.result;
      ProbeRunner runner(device, qd, 8192);
      std::vector<PlannedIo> plan;
      for (uint64_t i = 0; i < 12; ++i) plan.push_back({i == 5 ? IoOp::write : IoOp::read, 1'048'576 + i * 8192, 4096});
      try {
        runner.run(plan);
        FAIL("no error");
      } catch (const Error& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK(e.category() == ErrorCategory::io);
        CHECK(message.find("write of 4096 bytes at offset 1089536") != std::string::npos);  // 1 MiB + 5 * 8 KiB
        CHECK(message.find(failure.why) != std::string::npos);
      }
      // Nothing is submitted once the failure is seen: only what was
      // already in flight beside it.
      CHECK(device.submitted.size() <= 6 + qd - 1);
    }
  }
}

namespace {

// Runs `plan`, which a signal is to stop: the Error(interrupted)'s message.
std::string interruption_of(ProbeRunner& runner, const std::vector<PlannedIo>& plan) {
  try {
    runner.run(plan);
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::interrupted);
    return e.what();
  }
  FAIL("not interrupted");
  return "";
}

}  // namespace

TEST_CASE("an interrupt stops the run between IOs with Error(interrupted)", "[runner][interrupt]") {
  InterruptReset reset;
  const InterruptGuard guard;  // SIGINT/SIGTERM now only raise the flag

  SECTION("queue depth 1: the IO in progress completes, nothing more is submitted") {
    ScriptedDevice device(1);
    device.on_submit = [](uint64_t index) {
      if (index == 2) std::raise(SIGTERM);
    };
    ProbeRunner runner(device, 1, 8192);
    CHECK(interruption_of(runner, mixed_plan(50)).find(std::to_string(SIGTERM)) != std::string::npos);
    CHECK(interrupt_signal() == SIGTERM);
    CHECK(device.submitted.size() == 3u);
    CHECK(device.completed.size() == 3u);
    CHECK(device.in_flight() == 0u);
  }
  SECTION("queue depth 4: what is in flight is reaped before the error") {
    ScriptedDevice device(4);
    device.latency_ns.assign(50, 100'000);
    device.on_submit = [](uint64_t index) {
      if (index == 9) std::raise(SIGINT);
    };
    ProbeRunner runner(device, 4, 8192);
    interruption_of(runner, mixed_plan(50));
    CHECK(device.submitted.size() >= 10u);
    CHECK(device.submitted.size() < 10u + 4u);
    CHECK(device.in_flight() == 0u);  // every submitted IO was waited for
    CHECK(device.completed.size() == device.submitted.size());
    for (const auto& v : device.violations) FAIL_CHECK(v);
  }
  SECTION("completions that keep coming within one batch: the signal is still seen after queue_depth of them") {
    // Every IO completes the moment it is submitted (as a NOP does), so a
    // batch of polls would never run dry.
    ScriptedDevice device(4);
    device.pollable = true;
    device.latency_ns.assign(100, 0);
    device.on_submit = [](uint64_t index) {
      if (index == 10) std::raise(SIGINT);
    };
    ProbeRunner runner(device, 4, 8192);
    interruption_of(runner, mixed_plan(100));
    CHECK(device.submitted.size() <= 11u + 4u);
    CHECK(device.in_flight() == 0u);
    for (const auto& v : device.violations) FAIL_CHECK(v);
  }
  SECTION("a signal that arrived before the run: nothing is submitted") {
    std::raise(SIGINT);
    ScriptedDevice device(2);
    ProbeRunner runner(device, 2, 8192);
    CHECK_THROWS_AS(runner.run(mixed_plan(5)), Error);
    CHECK(device.submitted.empty());
  }
}

TEST_CASE("an empty plan does no IO", "[runner]") {
  ScriptedDevice device(2);
  ProbeRunner runner(device, 2, 4096);
  CHECK(runner.run({}).empty());
  CHECK(device.submitted.empty());
  CHECK(device.completed.empty());
}

// On a failed IO at queue depth > 1 the runner reaps the other IOs before it
// throws: its buffers are freed next, while the device (io_uring with
// registered buffers) could still transfer into them, and a later runner on
// the same device would be handed their stale completions.
TEST_CASE("a failed IO at queue depth 4 leaves nothing in flight", "[runner]") {
  ScriptedDevice device(4);
  device.results[5] = -EIO;
  ProbeRunner runner(device, 4, 8192);
  CHECK_THROWS_AS(runner.run(mixed_plan(12)), Error);
  CHECK(device.in_flight() == 0u);
}

namespace {

// Runs `ios` reads at `depth` on a pollable device where every IO takes the
// same 40 us, so they finish in batches of `depth`; returns its events.
std::string events_in_batches(uint32_t depth, size_t ios) {
  ScriptedDevice device(depth);
  device.pollable = true;
  device.latency_ns = std::vector<uint64_t>(ios, 40'000);
  ProbeRunner runner(device, depth, 4096);
  const std::vector<PlannedIo> plan(ios, PlannedIo{IoOp::read, 8192, 4096});
  CHECK(runner.run(plan) == expected_us(device.latency_ns));
  CHECK(device.max_in_flight == depth);
  for (const auto& v : device.violations) FAIL_CHECK(v);
  CHECK(device.in_flight() == 0u);
  return device.events;
}

}  // namespace

TEST_CASE("completions already there are reaped before the runner waits again, each replaced as its slot frees",
          "[runner]") {
  // Four IOs finish at the same moment, then four more: one wait and three
  // polls reap a batch, each reaped IO's replacement queued at once.
  CHECK(events_in_batches(4, 12) == "SSSSWSPSPSPSWSPSPSPSWPPP");
}

TEST_CASE("a long batch hands its replacements to the kernel every kSubmitEvery, not only at the next wait",
          "[runner]") {
  static_assert(ProbeRunner::kSubmitEvery == 8, "the script below counts in eights");
  // Sixteen IOs finish at the same moment; the plan has eight more. The
  // batch queues their eight replacements and submits them after the
  // eighth; the rest of the batch and the replacements are reaped without
  // a submission of their own.
  CHECK(events_in_batches(16, 24) ==
        std::string(16, 'S') + "WS" + "PSPSPSPSPSPSPS" + "Q" + std::string(8, 'P') + "W" + std::string(7, 'P'));
}

TEST_CASE("a failed IO found by polling ends the run with the rest reaped", "[runner]") {
  ScriptedDevice device(4);
  device.pollable = true;
  device.latency_ns = std::vector<uint64_t>(8, 10'000);
  device.results[2] = -EIO;  // reaped by a poll, after IO #0's wait
  ProbeRunner runner(device, 4, 4096);
  const std::vector<PlannedIo> plan(8, PlannedIo{IoOp::read, 4096, 4096});
  try {
    runner.run(plan);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.category() == ErrorCategory::io);
    CHECK(std::string(e.what()).find("Input/output error") != std::string::npos);
  }
  CHECK(device.in_flight() == 0u);
  // IOs #0 and #1 were reaped before it and their replacements queued
  // (an io_uring engine hands those to the kernel while it drains);
  // nothing is started after the failure was seen.
  CHECK(device.submitted.size() == 6u);
}

// A failed engine call (not a failed IO) leaves requests the runner cannot
// account for: the device must reap them before the caller frees buffers or
// restores written content, and the error must not pass for a drained IO
// failure that an optional probe may shrug off.
TEST_CASE("an engine failure abandons what is in flight and is not an IoFailed", "[runner]") {
  ScriptedDevice device(4);
  device.fail_wait_at = 3;
  ProbeRunner runner(device, 4, 4096);
  const std::vector<PlannedIo> plan(12, PlannedIo{IoOp::read, 4096, 4096});
  bool io_failed = false, other = false;
  try {
    runner.run(plan);
  } catch (const IoFailed&) {
    io_failed = true;
  } catch (const Error& e) {
    other = true;
    CHECK(std::string(e.what()).find("io_uring_wait_cqe") != std::string::npos);
  }
  CHECK_FALSE(io_failed);
  CHECK(other);
  CHECK(device.abandon_calls == 1);
  CHECK(device.abandoned_in_flight == 4u);
  CHECK(device.in_flight() == 0u);
}

TEST_CASE("a failed IO is an IoFailed and leaves the device usable", "[runner]") {
  ScriptedDevice device(4);
  device.results[5] = -EIO;
  ProbeRunner runner(device, 4, 8192);
  CHECK_THROWS_AS(runner.run(mixed_plan(12)), IoFailed);
  CHECK(device.abandon_calls == 0);
  // The same device serves the next run.
  device.results.clear();
  const std::vector<PlannedIo> plan(4, PlannedIo{IoOp::read, 4096, 4096});
  CHECK(runner.run(plan).size() == 4u);
}
