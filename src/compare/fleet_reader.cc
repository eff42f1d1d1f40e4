#include "compare/fleet_reader.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <thread>

#include "core/error.h"

namespace ssdprobe {

FleetRead read_fleet(const std::vector<std::string>& files, unsigned threads) {
  // One slot per file, filled by whichever thread takes it: the result's
  // order is the files' order however the threads interleave.
  struct Slot {
    std::optional<DocumentSummary> summary;
    std::string warning;
  };
  std::vector<Slot> slots(files.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < files.size(); i = next++) {
      try {
        slots[i].summary = summarize_document(read_saved_result(files[i], GridDetail::medians));
      } catch (const Error& e) {
        slots[i].warning = e.what();  // read_saved_result's messages start with the file name
      } catch (const std::exception& e) {
        slots[i].warning = files[i] + ": " + e.what();  // std::bad_alloc on a huge document
      }
    }
  };
  const unsigned count = std::clamp<unsigned>(threads, 1, std::max<size_t>(files.size(), 1));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count; ++t) pool.emplace_back(work);
  work();
  for (auto& thread : pool) thread.join();

  FleetRead out;
  out.documents.reserve(files.size());
  for (Slot& slot : slots) {
    if (slot.summary) out.documents.push_back(std::move(*slot.summary));
    else out.warnings.push_back(std::move(slot.warning));
  }
  return out;
}

}  // namespace ssdprobe
