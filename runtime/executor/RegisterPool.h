//===- RegisterPool.h - registers of a fused body's program -----*- C++ -*-===//
//
// A fused op's body runs as a small program over registers, each holding
// one value of a tile (on the CPU) or of an element (on the GPU). The
// programs reuse a register once the value it held has no more uses, so
// that a long chain needs few of them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_REGISTERPOOL_H
#define TESSEL_RUNTIME_EXECUTOR_REGISTERPOOL_H

#include <vector>

namespace tessel::runtime {

/// Hands out registers, reusing those of dead values.
class RegisterPool {
public:
  int take() {
    if (free_.empty())
      return count_++;
    int reg = free_.back();
    free_.pop_back();
    return reg;
  }
  void give(int reg) { free_.push_back(reg); }
  /// The registers handed out at once, at the most.
  int count() const { return count_; }

private:
  std::vector<int> free_;
  int count_ = 0;
};

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_REGISTERPOOL_H
