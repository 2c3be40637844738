//===- BufferCache.cpp - Host buffers reused from step to step ------------===//

#include "executor/BufferCache.h"

#include <cstdlib>

namespace tessel::runtime {

BufferCache::~BufferCache() {
  for (auto &[size, buffers] : free_)
    for (void *buffer : buffers)
      std::free(buffer);
}

void *BufferCache::allocate(int64_t bytes) {
  // aligned_alloc wants a multiple of the alignment, and a zero-size
  // tensor still gets a distinct pointer.
  size_t size = bytes <= 0 ? kAlignment
                           : (static_cast<size_t>(bytes) + kAlignment - 1) /
                                 kAlignment * kAlignment;
  std::lock_guard<std::mutex> lock(mutex_);
  auto reusable = free_.find(size);
  if (reusable != free_.end() && !reusable->second.empty()) {
    void *buffer = reusable->second.back();
    reusable->second.pop_back();
    cached_ -= size;
    return buffer;
  }
  void *buffer = std::aligned_alloc(kAlignment, size);
  if (buffer)
    sizes_[buffer] = size;
  return buffer;
}

void BufferCache::release(void *buffer) {
  if (!buffer)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto known = sizes_.find(buffer);
  if (known == sizes_.end()) {
    // Not one of ours: whoever allocated it used malloc.
    std::free(buffer);
    return;
  }
  size_t size = known->second;
  if (cached_ + size > limit_) {
    sizes_.erase(known);
    std::free(buffer);
    return;
  }
  free_[size].push_back(buffer);
  cached_ += size;
}

size_t BufferCache::cachedBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

} // namespace tessel::runtime
