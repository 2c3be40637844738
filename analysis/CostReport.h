//===- CostReport.h - what a layout costs, per rank --------------*- C++
//-*-===//
//
// Answers a performance engineer's first questions about a model under a
// layout before anything runs: how every tensor is split, how many bytes
// each rank holds, how many FLOPs it computes, and what it communicates.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_COSTREPORT_H
#define TESSEL_ANALYSIS_COSTREPORT_H

#include "analysis/MachineProfile.h"
#include "analysis/RuntimeMemory.h"
#include "dialect/TesselDialect.h"
#include "layouts/Mesh.h"

#include <optional>

#include <string>
#include <vector>

namespace tessel::analysis {

struct TensorCost {
  /// The tensor's name (tessel.name or parameter name), else its SSA name.
  std::string name;
  /// "parameter", "input" or "activation".
  std::string kind;
  std::vector<std::string> dims;
  std::vector<int64_t> globalShape;
  std::vector<int64_t> localShape;
  /// The mesh axes that split each dimension (empty: replicated).
  std::vector<std::vector<std::string>> axes;
  std::string elementType;
  int64_t bytesPerRank = 0;
};

struct CollectiveCost {
  std::string kind;
  std::vector<std::string> axes;
  /// Bytes each rank sends, counting a ring algorithm for the collectives
  /// that reduce or gather.
  int64_t bytesPerRank = 0;
  /// The elements of a 16-bit reduction's local input, which the runtime
  /// widens to f32 before it and narrows after (reducesWidenedToF32); 0
  /// for every other collective.
  int64_t widenedElements = 0;
};

struct CostReport {
  std::string function;
  std::vector<std::string> meshAxes;
  std::vector<int64_t> meshSizes;
  int64_t numRanks = 1;
  std::vector<TensorCost> tensors;
  std::vector<CollectiveCost> collectives;
  int64_t parameterBytesPerRank = 0;
  /// Optimizer state (momentum, Adam's moments) a training step carries.
  int64_t stateBytesPerRank = 0;
  int64_t inputBytesPerRank = 0;
  int64_t activationBytesPerRank = 0;
  /// The most bytes live at once on a rank: parameters, plus the inputs and
  /// activations that are still to be used at each op.
  int64_t peakBytesPerRank = 0;
  /// What the compiled step holds on a rank (addRuntimeMemory), and from
  /// the machine profile the driver's own memory (MPI, oneDNN, the
  /// executable) and the data set's: the most loading it takes, and what
  /// stays. Memory loading freed is reused by the step's buffers.
  std::optional<RuntimeMemory> runtime;
  int64_t driverBytes = 0;
  /// What the runtime's call sites hold beyond those of the program that
  /// measured driverBytes (MachineProfile::callSitesBytes): negative for a
  /// shorter program.
  int64_t callSiteBytes = 0;
  int64_t dataLoadBytes = 0;
  int64_t dataResidentBytes = 0;
  int64_t commBytesPerRank = 0;
  int64_t flopsPerRank = 0;
};

/// The elements of a tensor of `type` (which carries its layout) that one
/// rank of `mesh` holds.
int64_t localElements(const ::tessel::layout::Mesh &mesh,
                      mlir::tessel::NamedTensorType type);

/// The bytes of `value` one rank of `mesh` holds: its local elements times
/// its element's bytes (at least one); 0 for a value that is not a tensor.
int64_t localBytes(const ::tessel::layout::Mesh &mesh, mlir::Value value);

/// Whether a reduction (all_reduce, reduce_scatter, of any kind) of a
/// tensor of `type` runs widened to f32: both backends reduce bf16 and f16
/// in f32 and round once (MPI has no 16-bit float reductions, NCCL's sums
/// would round at every hop), so such a collective sends, and holds, 4
/// bytes an element.
bool reducesWidenedToF32(mlir::tessel::NamedTensorType type);

/// The size of `dim` in `type` on one rank of `mesh`, 0 if the type lacks
/// it.
int64_t localDimSize(const ::tessel::layout::Mesh &mesh,
                     mlir::tessel::NamedTensorType type, llvm::StringRef dim);

/// Builds the report of `func`, whose values carry layouts (after
/// tessel-apply-layout) on the mesh of its module.
/// A declaration (no body) has no tensors and no work.
CostReport buildCostReport(mlir::func::FuncOp func);

/// Replaces the report's FLOPs and communication with those of
/// `partitioned`, the per-rank program tessel-partition made of the
/// report's function: what each rank really computes and sends.
void addPartitionedCosts(CostReport &report, mlir::func::FuncOp partitioned);

/// Adds what the runtime holds running `init` (if any) and then `lowered`,
/// the per-rank functions as compile lowers them (partitioned and fused),
/// and the driver's own memory from `profile` (the built-in profile's if it
/// has none), with the Fashion-MNIST the driver loads for a step that
/// takes `images`.
void addRuntimeMemory(CostReport &report, mlir::func::FuncOp lowered,
                      mlir::func::FuncOp init, const MachineProfile &profile);

/// The peak memory per rank: with addRuntimeMemory, the driver's bytes plus
/// the larger of the data set's load and what stays of it plus what the
/// step holds (RuntimeMemory::totalBytes), adjusted by what its call sites
/// hold beyond the driver's program's (callSiteBytes, either sign);
/// without, the parameters plus the values live at once
/// (peakBytesPerRank).
int64_t memoryBytesPerRank(const CostReport &report);

/// Returns the FLOPs each op of `func` (laid out, or partitioned) computes
/// on one rank, as flopsPerRank counts them, in program order; ops without
/// arithmetic (copies, collectives) count 0.
std::vector<std::pair<mlir::Operation *, int64_t>>
flopsPerOp(mlir::func::FuncOp func);

/// Returns each collective of `func` (partitioned) with what it sends, as
/// the report's `collectives` counts them, in program order.
std::vector<std::pair<mlir::Operation *, CollectiveCost>>
collectivesPerOp(mlir::func::FuncOp func);

struct StepTime;

/// Renders the report as aligned text tables; with `step`, the function's
/// predicted time on a rank last (tessel search's prediction, on the
/// profile named `profile`), and its `sites` costliest call sites.
std::string formatText(const CostReport &report, const StepTime *step = nullptr,
                       const std::string &profile = "", int64_t sites = 0);

/// Renders the report as JSON: `tensors[]` (name, kind, dims, global_shape,
/// layout, local_shape, bytes_per_rank), `collectives[]` (kind, axes,
/// bytes_per_rank) and `totals`; with `step`, `step_time` (step_seconds,
/// compute_seconds, comm_seconds, hidden_comm_seconds, kernel_seconds by
/// class, runtime_ops, runtime_op_seconds, profile), as tessel search's
/// JSON names them, and with `sites` above 0 its costliest call sites
/// (`sites[]`: op, location, seconds per step).
std::string formatJson(const CostReport &report, const StepTime *step = nullptr,
                       const std::string &profile = "", int64_t sites = 0);

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_COSTREPORT_H
