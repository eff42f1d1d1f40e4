#include "compare/fleet_reader.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "compare/ndjson_rows.h"
#include "core/error.h"

namespace ssdprobe {
namespace {

ReadDocument read_one(const std::string& file, FleetReading what) {
  ReadDocument out;
  try {
    // Without summaries the grids are not needed: GridDetail::none skips
    // building them (the parser still validates the whole document).
    const SavedResult result = read_saved_result(file, what.summaries ? GridDetail::medians : GridDetail::none,
                                                 ChartData::skip, what.rows ? RowFacts::read : RowFacts::skip);
    if (what.summaries) out.summary = summarize_document(result);
    if (what.rows) out.row = ndjson_row(result);
  } catch (const Error& e) {
    out.warning = e.what();  // read_saved_result's messages start with the file name
  } catch (const std::exception& e) {
    out.warning = file + ": " + e.what();  // std::bad_alloc on a huge document
  }
  return out;
}

// The documents between the next one handed over and the last one taken by a
// reader: slot i % window holds document i. A reader takes document i only
// once document i - window was handed over, so the window bounds memory
// while readers run ahead of a slow document by up to `window`.
class ReadWindow {
 public:
  ReadWindow(size_t files, size_t window) : files_(files), slots_(window) {}

  // The next document for a reader, or nullopt when there is none (or stop()).
  std::optional<size_t> claim() {
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return stopped_ || next_ >= files_ || next_ < handed_ + slots_.size(); });
    if (stopped_ || next_ >= files_) return std::nullopt;
    return next_++;
  }
  void fill(size_t i, ReadDocument document) {
    {
      const std::lock_guard lock(mutex_);
      slots_[i % slots_.size()] = std::move(document);
    }
    filled_.notify_all();
  }
  // Document `handed_` once it is read; frees its slot.
  ReadDocument take_next() {
    std::unique_lock lock(mutex_);
    std::optional<ReadDocument>& slot = slots_[handed_ % slots_.size()];
    filled_.wait(lock, [&] { return slot.has_value(); });
    ReadDocument out = std::move(*slot);
    slot.reset();
    ++handed_;
    lock.unlock();
    freed_.notify_all();
    return out;
  }
  void stop() {
    {
      const std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    freed_.notify_all();
  }

 private:
  const size_t files_;
  std::vector<std::optional<ReadDocument>> slots_;
  std::mutex mutex_;
  std::condition_variable filled_, freed_;
  size_t next_ = 0, handed_ = 0;
  bool stopped_ = false;
};

}  // namespace

void stream_fleet(const std::vector<std::string>& files, unsigned threads, FleetReading what,
                  const std::function<void(ReadDocument&)>& take) {
  if (files.empty()) return;
  const unsigned count = std::clamp<unsigned>(threads, 1, static_cast<unsigned>(std::min<size_t>(files.size(), 64)));
  ReadWindow window(files.size(), 4 * size_t{count});
  auto work = [&] {
    while (const std::optional<size_t> i = window.claim()) window.fill(*i, read_one(files[*i], what));
  };
  // The calling thread hands documents over in order while `count` threads
  // read (with 8 readers the handing over is a small part of one core).
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < count; ++t) pool.emplace_back(work);
  std::exception_ptr failure;
  try {
    for (size_t i = 0; i < files.size(); ++i) {
      ReadDocument document = window.take_next();
      take(document);
    }
  } catch (...) {
    failure = std::current_exception();
    window.stop();
  }
  for (auto& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

FleetRead read_fleet(const std::vector<std::string>& files, unsigned threads) {
  FleetRead out;
  out.documents.reserve(files.size());
  stream_fleet(files, threads, FleetReading{}, [&](ReadDocument& document) {
    if (document.summary) out.documents.push_back(std::move(*document.summary));
    else out.warnings.push_back(std::move(document.warning));
  });
  return out;
}

}  // namespace ssdprobe
