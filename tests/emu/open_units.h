// emudrive's open erase units (--open-units K): cheap flash keeps K erase
// blocks open for writing, least recently written first out. A write into
// a block that is not open closes one (a fold: its rest is copied) and costs
// --fold-us more; writes into open blocks cost what they always did.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

namespace emudrive {

class OpenUnits {
 public:
  // open 0: no limit (every write costs nothing more).
  OpenUnits(uint32_t open, uint64_t erase_block, double fold_us)
      : open_(open), erase_block_(erase_block), fold_us_(fold_us) {}

  // The fold cost of a write of [off, off+len), and the blocks it opened.
  double fold_us(uint64_t off, uint64_t len) {
    if (open_ == 0 || erase_block_ == 0 || len == 0) return 0.0;
    double us = 0.0;
    for (uint64_t b = off / erase_block_; b <= (off + len - 1) / erase_block_; ++b) {
      const auto it = std::find(blocks_.begin(), blocks_.end(), b);
      if (it != blocks_.end()) {
        blocks_.erase(it);
      } else {
        if (blocks_.size() >= open_) blocks_.pop_back();
        us += fold_us_;
        ++folds_;
      }
      blocks_.push_front(b);
    }
    return us;
  }

  uint64_t folds() const { return folds_; }

 private:
  uint32_t open_;
  uint64_t erase_block_;
  double fold_us_;
  std::deque<uint64_t> blocks_;  // most recently written first
  uint64_t folds_ = 0;
};

}  // namespace emudrive
