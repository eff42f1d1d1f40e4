// Page-aligned memory for O_DIRECT IO (the kernel requires the buffer to meet
// the device's DMA alignment; a 4 KiB page satisfies every device we target).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace ssdprobe {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 4096;

  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t size) : size_(size) {
    size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded == 0) rounded = kAlignment;
    data_ = static_cast<std::byte*>(std::aligned_alloc(kAlignment, rounded));
    if (data_ == nullptr) throw std::bad_alloc();
    std::memset(data_, 0, rounded);
  }
  AlignedBuffer(AlignedBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept {
    if (this != &other) {
      std::free(data_);
      data_ = other.data_;
      size_ = other.size_;
      other.data_ = nullptr;
      other.size_ = 0;
    }
    return *this;
  }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer() { std::free(data_); }

  std::byte* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  std::byte* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ssdprobe
