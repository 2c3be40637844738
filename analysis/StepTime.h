//===- StepTime.h - a layout's training step time, predicted -----*- C++
//-*-===//
//
// The time one rank's program takes per step on a machine profile: each
// op's kernel time for its class and work (FLOPs or elements, as CostReport
// counts them; a fused op's elements times its body's transcendental ops,
// and its further entries at the profile's fused_entry rate),
// the compiled program's own work around each op it runs (the profile's
// per-op seconds, once per op of the program as compile lowers it, after
// fusion), plus each collective's alpha-beta time for its group and bytes
// (from the profile's started fits for one the program starts and waits
// for later, where it has them), less the communication that moves while the
// rank computes: the runtime runs one op after another, but starts all_reduce,
// all_gather, reduce_scatter and halo_exchange where they stand and waits for
// each before its first user (docs/search.md, "Overlap").
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_STEPTIME_H
#define TESSEL_ANALYSIS_STEPTIME_H

#include "analysis/CostReport.h"
#include "analysis/MachineProfile.h"

#include "dialect/TesselDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::analysis {

/// One call site's predicted time in a step, as the runtime's `--profile`
/// lists the measured ones: an op of the lowered step (element-wise chains
/// fused), named with its source location (dialect/SourceLocations.h),
/// which several sites may share (a weight's einsum forward and for its
/// gradient); a collective's seconds are its whole time, hidden or not.
struct SiteTime {
  std::string op;
  std::string location;
  double seconds = 0;
};

struct StepTime {
  /// The kernels' seconds and the per-op seconds around them.
  double computeSeconds = 0;
  double commSeconds = 0;
  /// The part of commSeconds that moves while the rank computes.
  double hiddenSeconds = 0;
  /// Kernel seconds by op class (kernelClasses()).
  std::map<std::string, double> classSeconds;
  /// The ops the compiled program runs (runtimeOpCount) and what it spends
  /// on them outside their kernels: part of computeSeconds.
  int64_t runtimeOps = 0;
  double runtimeOpSeconds = 0;
  /// The kernels' and collectives' call sites, costliest first.
  std::vector<SiteTime> sites;

  double totalSeconds() const {
    return computeSeconds + commSeconds - hiddenSeconds;
  }
};

/// Whether `op` is an element-wise transcendental function (gelu, erf, exp,
/// log, tanh, sigmoid, sin, cos, pow).
bool isTranscendental(mlir::Operation *op);

/// How many transcendental functions `op` computes per element of its
/// result: 1 for a transcendental op, the transcendental ops of its body for
/// a tessel.fused op, 0 for any other.
int64_t transcendentalOpsPerElement(mlir::Operation *op);

/// Returns the profile's kernel class of `op` (one of kernelClasses()), or
/// an empty string for a mesh-level collective, which is timed as
/// communication. A tessel.fused op is "transcendental" when its body
/// computes a transcendental function, else "elementwise".
std::string kernelClassOf(mlir::Operation *op);

/// Returns the element type `op`'s kernel is timed on (KernelRates::
/// pointsFor): "bf16" or "f16" when every float tensor it reads and writes
/// is of that type (a mixed-precision step's einsums, softmaxes, fused
/// chains), else "f32" (f32 ops, and casts and fused ops that mix types,
/// which read or write f32 values).
std::string kernelElementTypeOf(mlir::Operation *op);

/// The thin matmuls' other two sides, as tessel-calibrate-probe times them
/// (class "matmul_thin": t rows against a 512 x 512 matrix, work 2 t 512
/// 512).
inline constexpr int64_t kThinMatmulSide = 512;

/// Whether `op` is an einsum of two operands with a dim in both and in the
/// result (a batched product: attention's per example and head), which
/// the profile's matmul_batched points time.
bool isBatchedProduct(mlir::Operation *op);

/// The smallest of an einsum's three extents on a rank of `mesh` (M, the
/// elements of the dims only the first operand and the result have; N,
/// only the second's; K, the contracted ones), or std::nullopt for an
/// einsum that is not one product of two matrices: not two operands, or
/// dims in all three (a batched product, timed as square ones).
std::optional<int64_t> thinnestMatmulExtent(mlir::Operation *op,
                                            const ::tessel::layout::Mesh &mesh);

/// The channels oneDNN computes a convolution's vectorized channel in, each
/// block whole: a 64-byte vector of f32 (AVX-512). On AVX2 oneDNN's blocks
/// are 8; a profile calibrated there counts its points in blocks of 16
/// all the same, so that what it measured and what search counts agree.
/// The calibrate probe (runtime/calibrate/CalibrateProbe.cpp) counts its
/// convolution points with the same block.
constexpr int64_t kConvolutionChannelBlock = 16;

/// The work a convolution kernel (conv2d or one of its gradients) of
/// `flops` does on a rank of `mesh`: oneDNN holds the channel it
/// vectorizes (the result's channel: the output channel forward and for
/// the filter's gradient, the input channel for the input's) in blocks of
/// kConvolutionChannelBlock, so a layer of 2 local channels costs what one
/// of 16 does (the CNN's first convolution on [8, 1, 28, 28] with 2 output
/// channels: 30 us a call, against 10 us with 8 channels and a quarter of
/// the batch, the same FLOPs). A grouped convolution's groups each fill
/// whole blocks, but for depthwise groups of one channel, which oneDNN
/// vectorizes across. Calibrate counts its convolution points the same
/// way. Other ops, and a convolution without the channel: `flops`.
int64_t vectorizedConvolutionWork(mlir::Operation *op, int64_t flops,
                                  const ::tessel::layout::Mesh &mesh);

/// The share of the bytes each op of `func` reads and writes that the
/// caches no longer hold when it runs, in a step whose buffers outgrow a
/// rank's share of them (`cacheShareBytes`), the ops run in order: an
/// operand is out of them when the distinct buffers read and written
/// since it was last touched (its LRU stack distance) exceed that share,
/// or when the step reads it first (a parameter, optimizer state, the
/// batch); a result's buffer always is (it comes from the runtime's cache
/// of freed buffers). A started collective's result is written when it is
/// waited for; renames that keep their operand's buffer are that buffer.
llvm::DenseMap<mlir::Operation *, double>
coldByteFractions(mlir::func::FuncOp func, const ::tessel::layout::Mesh &mesh,
                  int64_t cacheShareBytes);

/// The entries of a tessel.fused body that its kernel computes beyond what
/// its class times (kernelClassOf): every entry but constants (tiles the
/// runtime fills once) and transcendental ones (timed by their class),
/// less the first where there are none of those (the element-wise pass
/// that times the op). Each costs the profile's fused_entry rate per
/// element.
int64_t furtherFusedEntries(mlir::tessel::FusedOp fused);

/// Predicts the step of `lowered`, the report's function as compile lowers
/// it: per rank (`report` gives the mesh, and the collectives only of a
/// declaration), element-wise chains fused and the ops in the order they
/// run (after tessel-fuse-elementwise and tessel-schedule-collectives), in
/// a job of `report.numRanks` ranks on `profile`. Each op is timed as the
/// compiled program runs it: a fused op as one element-wise pass of its
/// result, or its transcendental entries at their class's rate, plus its
/// further entries (furtherFusedEntries) at the fused_entry rate. Where the
/// profile measured kernels cold, an op that reads and writes more than
/// 1 MiB takes its warm time plus the share of its bytes that
/// coldByteFractions finds out of the caches of the difference to its
/// cold time; a convolution's work is vectorizedConvolutionWork's.
///
/// With `overlapCommunication` (compile's default), the started
/// collectives (dialect/StartedCollectives.h) are timed by the profile's
/// started fits and hide behind the ops between their start and their
/// first user: hiddenSeconds, scaled by the profile's overlapFraction
/// (absent: 1), when the job has no more ranks than the profile's machine
/// has cores.
StepTime predictStepTime(mlir::func::FuncOp lowered, const CostReport &report,
                         const MachineProfile &profile,
                         bool overlapCommunication = true);

/// The communication time of `func`'s collectives that its computation
/// covers, run as the compiled program runs them: one op after another,
/// each taking `kernelSeconds` (of the op; absent: none) and `perOpSeconds`;
/// one collective moving at a time, each taking `collectiveSeconds` of it;
/// a started collective moving while the ops after it compute, until the
/// first op that uses its result (or the return) waits for it; a blocking
/// one waiting for those before it and then moving while nothing computes.
/// Returns the serial time (every op's and collective's) less that
/// timeline's.
double hiddenCommunicationSeconds(
    mlir::func::FuncOp func,
    const llvm::DenseMap<mlir::Operation *, double> &kernelSeconds,
    double perOpSeconds,
    llvm::function_ref<double(mlir::Operation *, const CollectiveCost &)>
        collectiveSeconds);

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_STEPTIME_H
