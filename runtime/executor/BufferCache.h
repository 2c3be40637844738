//===- BufferCache.h - Host buffers reused from step to step ----*- C++ -*-===//
//
// A compiled step allocates a buffer for every op result and frees it after
// its last use, the same sizes every step. Through malloc, a small model's
// step spends a tenth of its time in the allocator's bookkeeping (bins,
// consolidation). The cache keeps freed buffers by size and hands them out
// again, so after the first step a step allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_BUFFERCACHE_H
#define TESSEL_RUNTIME_EXECUTOR_BUFFERCACHE_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tessel::runtime {

class BufferCache {
public:
  /// Buffers are aligned to (and sized in multiples of) this many bytes.
  static constexpr size_t kAlignment = 64;

  /// `limit`: the most bytes kept free in the cache; a buffer freed beyond
  /// it goes back to the system.
  explicit BufferCache(size_t limit) : limit_(limit) {}
  ~BufferCache();
  BufferCache(const BufferCache &) = delete;
  BufferCache &operator=(const BufferCache &) = delete;

  /// A buffer of at least `bytes` (a distinct one for 0), or null when the
  /// system has no memory.
  void *allocate(int64_t bytes);
  /// Takes back a buffer of allocate().
  void release(void *buffer);

  /// Bytes held free in the cache.
  size_t cachedBytes() const;

private:
  std::unordered_map<size_t, std::vector<void *>> free_;
  std::unordered_map<void *, size_t> sizes_;
  size_t cached_ = 0;
  size_t limit_;
  mutable std::mutex mutex_;
};

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_BUFFERCACHE_H
