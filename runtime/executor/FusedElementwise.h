//===- FusedElementwise.h - A chain of element-wise ops as one --*- C++ -*-===//
//
// The compiler's element-wise fusion turns a chain of element-wise ops into
// one `tessel.fused` op whose "body" attribute lists the chain (the format
// is in tessel/runtime/program.h). Run op by op, such a chain is a runtime
// call, a buffer and a pass over memory per op; a Transformer's training
// step is some 400 calls on 1K-16K elements, where those costs are most of
// the time. The fused kernel makes one pass over the result instead: it
// walks the result in tiles of a few hundred elements, brings each operand's
// elements of the tile into a small register (or reads them in place), runs
// every op of the body over the tile in f32, and writes the last op's tile
// straight into the result.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FUSEDELEMENTWISE_H
#define TESSEL_RUNTIME_EXECUTOR_FUSEDELEMENTWISE_H

#include "executor/Op.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime {

/// What a body entry computes. Comparisons give 1 where they hold and 0
/// elsewhere.
enum class FusedOpcode : uint8_t {
  Neg,
  Abs,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Relu,
  Gelu,
  Erf,
  Sin,
  Cos,
  Add,
  Sub,
  Mul,
  Div,
  Max,
  Min,
  Pow,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Select,
  // Copies its argument: tessel.cast, and the instruction of a body whose
  // last entry is a constant, which is otherwise not an instruction but a
  // tile filled when the site is prepared.
  Copy,
};

/// A body entry as read from the descriptor and checked.
struct FusedEntry {
  std::string op;
  FusedOpcode opcode = FusedOpcode::Copy;
  bool isConstant = false;
  /// Value numbers: the operands first, then the body's entries.
  std::vector<int> args;
  TensorType result;
  float value = 0; // A constant's, rounded to its type.
};

/// The body of a `tessel.fused` descriptor, checked as buildFused checks it
/// (the GPU runtime's fused kernel encodes the same entries). OpError
/// naming the entry and the problem otherwise.
std::vector<FusedEntry> checkFusedBody(const OpDescriptor &desc);

/// Which of a checked body's values (its `numOperands` operands, then its
/// entries) the results need, and each one's last use: the index of the
/// last live entry that reads it, -1 for none, and past the last entry
/// (body.size()) for the values of the results after the first
/// (`outputs`, value numbers), which are written at the end of each tile.
/// The compilers of the CPU's and the GPU's fused kernels free a value's
/// register after its last use.
struct FusedLiveness {
  std::vector<bool> live;
  std::vector<int> lastUse;
};
FusedLiveness fusedLiveness(size_t numOperands,
                            const std::vector<FusedEntry> &body,
                            const std::vector<int> &outputs = {});

/// Makes the kernel of a `tessel.fused` descriptor: checks the body (its
/// ops, their argument counts, indices and types, and that every entry has
/// the result's dims) and the results after the first ("more_results",
/// the body values of attribute "outputs"), and compiles it into a list of
/// register instructions. OpError naming the entry and the problem
/// otherwise. The kernel finds the buffers of the results after the first
/// after the operands' (program.h).
Kernel buildFused(const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FUSEDELEMENTWISE_H
