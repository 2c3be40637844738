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

namespace tessel::runtime {

/// Makes the kernel of a `tessel.fused` descriptor: checks the body (its
/// ops, their argument counts, indices and types, and that every entry has
/// the result's dims) and compiles it into a list of register
/// instructions. OpError naming the entry and the problem otherwise.
Kernel buildFused(const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FUSEDELEMENTWISE_H
