//===- RuntimeMemory.h - the memory a rank's runtime holds -------*- C++
//-*-===//
//
// What a compiled training step really holds on one rank, worked out from
// the per-rank function as tessel-lower-to-runtime lowers it: one buffer
// per op result, allocated before the op and freed after the op that uses
// it last (a started collective uses its operands until its wait, before
// its first user); the function's arguments (the driver's parameters, optimizer
// state and data batch) alive throughout; its results kept for the caller.
// The runtime's buffer cache (runtime/executor/BufferCache) keeps every
// freed buffer for reuse by a buffer of the same size, so from the second
// step on a rank holds, for every buffer size, as many buffers as were ever
// alive at once: more than the bytes alive at any one moment.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_RUNTIMEMEMORY_H
#define TESSEL_ANALYSIS_RUNTIMEMEMORY_H

#include "analysis/MachineProfile.h"
#include "dialect/TesselDialect.h"

#include <cstdint>
#include <map>

namespace tessel::analysis {

struct RuntimeMemory {
  /// The function's arguments: buffers the driver holds through the step.
  int64_t argumentBytes = 0;
  /// The arguments the driver fills from the data (not parameters,
  /// optimizer state or buffers): it stages each in host memory first.
  int64_t stagingBytes = 0;
  /// The most bytes of buffers alive at once during the step, arguments
  /// and results included: the liveness peak.
  int64_t livePeakBytes = 0;
  /// The bytes the buffer cache holds from the second step on: for each
  /// buffer size (rounded as the cache rounds), the size times the most
  /// buffers of that size alive at once. At least livePeakBytes.
  int64_t heldBytes = 0;
  /// heldBytes by size: for each buffer size (rounded as the cache rounds),
  /// the most buffers of it alive at once. Functions run one after another
  /// on one cache hold, for each size, the most any of them needs.
  std::map<int64_t, int64_t> heldBuffersBySize;
  /// The values of the dense tessel.constant ops of the functions run: each
  /// keeps its bytes for the life of the process (the executor makes them
  /// once, when it first prepares the op, and copies them at every call). A
  /// splat keeps nothing: each call fills its result with the one value.
  int64_t constantBytes = 0;
  /// The most one op's kernel copies besides its buffers: an einsum the
  /// operands it cannot read in place into the order the matmul reads, and
  /// its product back where it cannot write it in place; a gather or
  /// scatter its chunks packed. Freed after the op, the memory stays in the
  /// process's heap.
  int64_t scratchBytes = 0;
  /// The f32 copies of the bf16 and f16 tensors of the ops the CPU runtime
  /// computes on their f32 kernels between conversions
  /// (runtime/executor/WidenedOps.h): one buffer per operand position and
  /// one for the result, each grown to the largest it held and kept for the
  /// life of the process.
  int64_t widenedCopyBytes = 0;
  /// The most the collectives in flight at once hold besides their
  /// operands and results: the runtime's packed and widened copies and the
  /// all-reduces' libnbc buffers, each from its start until its wait, and
  /// libnbc's reduce-scatter buffers while they move their data, for the
  /// two largest collectives in flight per link the group's first member
  /// receives on. Heap memory beside the buffer cache's.
  int64_t inFlightBytes = 0;
  /// The runtime call sites of the functions replayed (runtimeOpCount of
  /// init and the step). The runtime keeps a prepared op for
  /// each call site for the life of the process (its parsed descriptor,
  /// its kernel, oneDNN's primitive object) and the executable its code
  /// and descriptor text: memory that grows with the program's length,
  /// not its tensors' sizes, which the machine profile prices
  /// (MachineProfile::callSitesBytes) and totalBytes leaves out.
  int64_t callSites = 0;
  /// What the step's buffers, its constants, its kernels' scratch, the
  /// widened copies, the collectives in flight and the driver's staging
  /// come to on a rank.
  int64_t totalBytes() const;
};

/// Bytes of the buffer the runtime allocates for a value of `type`: as
/// tessel-lower-to-runtime sizes it (i1 as a byte, at least one element),
/// rounded up as the buffer cache rounds.
int64_t runtimeBufferBytes(mlir::tessel::NamedTensorType type);

/// The ops a compiled `lowered` runs per call, its runtime call sites:
/// tessel-lower-to-runtime makes one runtime call of each op of its body
/// but a rename or reshape that keeps its operand's buffer (a collective
/// it starts and waits for counts once), and a tessel.fused op is one call
/// whatever its body holds. `lowered` is the function as compile lowers
/// it, after tessel-fuse-elementwise; null or a declaration: 0.
int64_t runtimeOpCount(mlir::func::FuncOp lowered);

/// Replays `perRank`'s allocations and frees in program order, as the
/// lowered function makes them. `perRank` is a function after
/// tessel-partition (and buildLoweredFormPipeline's fusion and ordering,
/// as compile runs them).
/// With `init`, the function that makes the state first: its results stay
/// alive as the arguments of `perRank` that are parameters, optimizer state
/// or buffers, and its buffers count for the cache too.
/// A declaration (no body) holds and allocates nothing. `bf16`: how the
/// machine computes bf16 einsums and convolutions (widened ones hold f32
/// copies of their tensors).
RuntimeMemory runtimeMemory(mlir::func::FuncOp perRank,
                            mlir::func::FuncOp init = nullptr,
                            Bf16Kernels bf16 = {});

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_RUNTIMEMEMORY_H
