//===- CostReport.cpp - what a layout costs, per rank ---------------------===//

#include "analysis/CostReport.h"

#include "dialect/MeshConversion.h"
#include "layouts/CheckedArithmetic.h"
#include "layouts/Sharding.h"

#include "mlir/IR/AsmState.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;
namespace layout = ::tessel::layout;
using ::tessel::analysis::CollectiveCost;
using ::tessel::analysis::CostReport;
using ::tessel::analysis::TensorCost;

namespace {

// Counts saturate at 2^63 - 1 instead of wrapping (layouts/
// CheckedArithmetic.h): a model can be representable (every tensor under
// 2^63 bytes, as the type verifier checks) while its sums and FLOPs are
// not, and a wrapped count would be reported as a small or negative number.
using ::tessel::saturatingAdd;
using ::tessel::saturatingMul;
using ::tessel::saturatingSub;

int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Computes per-rank sizes of the values of one function.
class CostModel {
public:
  explicit CostModel(layout::Mesh mesh) : mesh(std::move(mesh)) {}

  std::vector<int64_t> localShape(NamedTensorType type) const {
    return layout::localShape(mesh, toTensorLayout(type));
  }

  int64_t localElements(NamedTensorType type) const {
    return ::tessel::analysis::localElements(mesh, type);
  }

  int64_t localBytes(Value value) const {
    return ::tessel::analysis::localBytes(mesh, value);
  }

  int64_t localDimSize(NamedTensorType type, StringRef dim) const {
    return ::tessel::analysis::localDimSize(mesh, type, dim);
  }

  int64_t flops(Operation *op) const;
  std::optional<CollectiveCost> collective(Operation *op) const;

  const layout::Mesh &getMesh() const { return mesh; }

private:
  int64_t resultElements(Operation *op) const {
    return localElements(cast<NamedTensorType>(op->getResult(0).getType()));
  }
  int64_t operandElements(Operation *op, unsigned i) const {
    return localElements(cast<NamedTensorType>(op->getOperand(i).getType()));
  }
  int64_t groupSize(ArrayAttr axes) const {
    std::vector<std::string> names;
    for (Attribute axis : axes)
      names.push_back(cast<StringAttr>(axis).str());
    return mesh.groupSize(names);
  }

  layout::Mesh mesh;
};

int64_t CostModel::flops(Operation *op) const {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([&](EinsumOp einsum) {
        // Every point of the joint iteration space multiplies the inputs
        // and adds into the result; a dimension split in any operand is
        // only iterated over locally.
        llvm::StringMap<int64_t> extent;
        SmallVector<NamedTensorType> types;
        for (Value input : einsum.getInputs())
          types.push_back(cast<NamedTensorType>(input.getType()));
        types.push_back(einsum.getType());
        for (NamedTensorType type : types)
          for (StringAttr dim : type.getDimNames()) {
            int64_t local = localDimSize(type, dim.getValue());
            auto [it, inserted] = extent.try_emplace(dim.getValue(), local);
            if (!inserted)
              it->second = std::min(it->second, local);
          }
        int64_t points = 1;
        for (const auto &entry : extent)
          points = saturatingMul(points, entry.getValue());
        return saturatingMul(
            2, points, std::max<int64_t>(1, einsum.getInputs().size() - 1));
      })
      .Case<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
            ReluOp, GeluOp, ErfOp, SinOp, CosOp, AddOp, SubOp, MulOp, DivOp,
            MaxOp, MinOp, PowOp, CompareOp, SelectOp, CastOp, BroadcastOp,
            CumsumOp, DropoutOp>(
          [&](Operation *) { return resultElements(op); })
      // A comparison or so per input element (k is small beside the dim).
      .Case<ArgmaxOp, TopKOp>(
          [&](Operation *) { return operandElements(op, 0); })
      .Case([&](ReduceOp) { return operandElements(op, 0); })
      // max, subtract, exp, sum, divide (or log) per element.
      .Case<SoftmaxOp, LogSoftmaxOp, SoftmaxCrossEntropyOp>(
          [&](Operation *) { return saturatingMul(5, operandElements(op, 0)); })
      // mean, centre, square, sum, scale per element, roughly.
      .Case(
          [&](LayerNormOp) { return saturatingMul(8, operandElements(op, 0)); })
      .Case([&](Conv2DOp conv) {
        NamedTensorType filter = conv.getFilter().getType();
        int64_t window = 1;
        for (Attribute kernel : conv.getKernel())
          window = saturatingMul(
              window, *filter.getDimSize(cast<StringAttr>(kernel).getValue()));
        int64_t channelsPerGroup =
            localDimSize(conv.getInput().getType(), conv.getInputChannel()) /
            conv.getGroups();
        return saturatingMul(2, resultElements(op), channelsPerGroup, window);
      })
      // Each gradient of a convolution does the forward's multiply-adds.
      .Case<Conv2DBackwardInputOp, Conv2DBackwardFilterOp>([&](auto conv) {
        int64_t window = 1, channels = 1;
        auto filterType = cast<NamedTensorType>(
            isa<Conv2DBackwardInputOp>(op) ? op->getOperand(1).getType()
                                           : op->getResult(0).getType());
        for (Attribute kernel : conv.getKernel())
          window = saturatingMul(
              window,
              *filterType.getDimSize(cast<StringAttr>(kernel).getValue()));
        channels = localDimSize(filterType, conv.getInputChannel());
        return saturatingMul(
            2, operandElements(op, isa<Conv2DBackwardInputOp>(op) ? 0 : 1),
            channels, window);
      })
      .Case([&](PoolOp pool) {
        return saturatingMul(resultElements(op), pool.getWindow()[0],
                             pool.getWindow()[1]);
      })
      .Case([&](PoolBackwardOp pool) {
        return saturatingMul(operandElements(op, 1), pool.getWindow()[0],
                             pool.getWindow()[1]);
      })
      .Default([](Operation *) { return 0; });
}

std::optional<CollectiveCost> CostModel::collective(Operation *op) const {
  auto cost = [&](StringRef kind, ArrayAttr axes, int64_t bytes) {
    CollectiveCost result;
    result.kind = kind.str();
    for (Attribute axis : axes)
      result.axes.push_back(cast<StringAttr>(axis).str());
    result.bytesPerRank = bytes;
    return result;
  };
  int64_t inputBytes = op->getNumOperands() ? localBytes(op->getOperand(0)) : 0;
  // What a reduction sends and converts: bf16 and f16 widened to f32.
  int64_t reducedBytes = inputBytes, widenedElements = 0;
  if (op->getNumOperands())
    if (auto type = dyn_cast<NamedTensorType>(op->getOperand(0).getType()))
      if (::tessel::analysis::reducesWidenedToF32(type)) {
        reducedBytes = saturatingMul(2, inputBytes);
        widenedElements = localElements(type);
      }
  auto widened = [&](CollectiveCost result) {
    result.widenedElements = widenedElements;
    return result;
  };
  return llvm::TypeSwitch<Operation *, std::optional<CollectiveCost>>(op)
      // Ring algorithms: a reduce-scatter then an all-gather.
      .Case([&](AllReduceOp a) {
        int64_t g = groupSize(a.getAxes());
        return widened(cost("all_reduce", a.getAxes(),
                            saturatingMul(2, g - 1, reducedBytes / g)));
      })
      .Case([&](AllGatherOp a) {
        int64_t g = groupSize(a.getAxes());
        return cost("all_gather", a.getAxes(),
                    saturatingMul(g - 1, inputBytes));
      })
      .Case([&](ReduceScatterOp a) {
        int64_t g = groupSize(a.getAxes());
        return widened(cost("reduce_scatter", a.getAxes(),
                            saturatingMul(g - 1, reducedBytes / g)));
      })
      .Case([&](AllToAllOp a) {
        int64_t g = groupSize(a.getAxes());
        return cost("all_to_all", a.getAxes(),
                    saturatingMul(g - 1, inputBytes / g));
      })
      .Case([&](HaloExchangeOp h) {
        NamedTensorType type = h.getInput().getType();
        int64_t rowBytes =
            inputBytes / std::max<int64_t>(1, localDimSize(type, h.getDim()));
        ArrayAttr axes = ArrayAttr::get(op->getContext(), {h.getAxisAttr()});
        return cost("halo_exchange", axes,
                    saturatingMul(saturatingAdd(h.getHalo()[0], h.getHalo()[1]),
                                  rowBytes));
      })
      .Case([&](CollectivePermuteOp c) {
        return cost("collective_permute", c.getAxes(), inputBytes);
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace

/// Adds the FLOPs and collectives of every op of `func` to `report`.
static void countWork(const CostModel &model, func::FuncOp func,
                      CostReport &report) {
  if (func.isExternal())
    return;
  for (Operation &op : func.getBody().front().without_terminator()) {
    report.flopsPerRank = saturatingAdd(report.flopsPerRank, model.flops(&op));
    if (std::optional<CollectiveCost> collective = model.collective(&op)) {
      report.commBytesPerRank =
          saturatingAdd(report.commBytesPerRank, collective->bytesPerRank);
      report.collectives.push_back(*collective);
    }
  }
}

namespace tessel::analysis {

int64_t localElements(const layout::Mesh &mesh, NamedTensorType type) {
  int64_t count = 1;
  for (int64_t size : layout::localShape(mesh, toTensorLayout(type)))
    count = saturatingMul(count, size);
  return count;
}

bool reducesWidenedToF32(NamedTensorType type) {
  return type.getElementType().isBF16() || type.getElementType().isF16();
}

int64_t localBytes(const layout::Mesh &mesh, Value value) {
  auto type = dyn_cast<NamedTensorType>(value.getType());
  return type ? saturatingMul(localElements(mesh, type),
                              elementBytes(type.getElementType()))
              : 0;
}

int64_t localDimSize(const layout::Mesh &mesh, NamedTensorType type,
                     StringRef dim) {
  std::optional<unsigned> index = type.getDimIndex(dim);
  return index ? layout::localShape(mesh, toTensorLayout(type))[*index] : 0;
}

CostReport buildCostReport(func::FuncOp func) {
  CostModel model(toLayoutMesh(getEnclosingMesh(func)));
  CostReport report;
  report.function = func.getSymName().str();
  report.meshAxes = model.getMesh().axisNames();
  report.meshSizes = model.getMesh().axisSizes();
  report.numRanks = model.getMesh().numRanks();

  AsmState asmState(func);
  auto describe = [&](Value value, StringRef kind) {
    auto type = cast<NamedTensorType>(value.getType());
    TensorCost tensor;
    tensor.name = getTensorName(value).str();
    if (tensor.name.empty()) {
      llvm::raw_string_ostream os(tensor.name);
      value.printAsOperand(os, asmState);
    }
    tensor.kind = kind.str();
    layout::TensorLayout tensorLayout = toTensorLayout(type);
    tensor.dims = tensorLayout.dims;
    tensor.globalShape = tensorLayout.shape;
    tensor.axes = tensorLayout.axes;
    tensor.localShape = model.localShape(type);
    llvm::raw_string_ostream os(tensor.elementType);
    os << type.getElementType();
    tensor.bytesPerRank = model.localBytes(value);
    report.tensors.push_back(tensor);
  };

  // A declaration has no tensors or work to count.
  if (func.isExternal())
    return report;
  // Values stay live from their definition to their last use; parameters
  // stay for the whole step.
  Block &body = func.getBody().front();
  llvm::DenseMap<Value, Operation *> lastUse;
  for (Operation &op : body)
    for (Value operand : op.getOperands())
      lastUse[operand] = &op;
  int64_t live = 0;
  for (BlockArgument argument : body.getArguments()) {
    if (!isa<NamedTensorType>(argument.getType()))
      continue;
    // A training step takes the parameters and the optimizer's state as
    // arguments (tessel-autodiff marks them), and buffers (batch norm's
    // running statistics), which count as state; the rest is data.
    auto role = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                  kRoleAttrName);
    int64_t bytes = model.localBytes(argument);
    if (role && role.getValue() == "parameter") {
      describe(argument, "parameter");
      report.parameterBytesPerRank =
          saturatingAdd(report.parameterBytesPerRank, bytes);
    } else if (role && (role.getValue() == "optimizer_state" ||
                        role.getValue() == "buffer")) {
      describe(argument, "state");
      report.stateBytesPerRank = saturatingAdd(report.stateBytesPerRank, bytes);
    } else {
      describe(argument, "input");
      report.inputBytesPerRank = saturatingAdd(report.inputBytesPerRank, bytes);
    }
    live = saturatingAdd(live, bytes);
  }
  report.peakBytesPerRank = live;
  for (Operation &op : body.without_terminator()) {
    bool isParameter = isa<ParameterOp>(op);
    for (Value result : op.getResults()) {
      if (!isa<NamedTensorType>(result.getType()))
        continue;
      describe(result, isParameter ? "parameter" : "activation");
      int64_t bytes = model.localBytes(result);
      int64_t &total = isParameter ? report.parameterBytesPerRank
                                   : report.activationBytesPerRank;
      total = saturatingAdd(total, bytes);
      live = saturatingAdd(live, bytes);
    }
    report.peakBytesPerRank = std::max(report.peakBytesPerRank, live);
    for (Value operand : op.getOperands())
      if (lastUse.lookup(operand) == &op &&
          !operand.getDefiningOp<ParameterOp>())
        live = saturatingSub(live, model.localBytes(operand));
  }
  countWork(model, func, report);
  return report;
}

std::vector<std::pair<Operation *, int64_t>> flopsPerOp(func::FuncOp func) {
  CostModel model(toLayoutMesh(getEnclosingMesh(func)));
  std::vector<std::pair<Operation *, int64_t>> result;
  if (func.isExternal())
    return result;
  for (Operation &op : func.getBody().front().without_terminator())
    result.emplace_back(&op, model.flops(&op));
  return result;
}

std::vector<std::pair<Operation *, CollectiveCost>>
collectivesPerOp(func::FuncOp func) {
  CostModel model(toLayoutMesh(getEnclosingMesh(func)));
  std::vector<std::pair<Operation *, CollectiveCost>> result;
  if (func.isExternal())
    return result;
  for (Operation &op : func.getBody().front().without_terminator())
    if (std::optional<CollectiveCost> collective = model.collective(&op))
      result.emplace_back(&op, std::move(*collective));
  return result;
}

void addRuntimeMemory(CostReport &report, func::FuncOp lowered,
                      func::FuncOp init, const MachineProfile &profile) {
  const MachineProfile &measured =
      profile.hasMemory ? profile : defaultMachineProfile();
  // The driver trains a step that takes `images` on Fashion-MNIST, which
  // it holds in memory; a text corpus is small beside the driver, and
  // --data arrays are the user's to count.
  bool readsImages = llvm::any_of(report.tensors, [](const TensorCost &t) {
    return t.kind == "input" && t.name == "images";
  });
  // The bf16 products of the machine the profile describes.
  report.runtime = runtimeMemory(lowered, init, profile.bf16Kernels());
  report.driverBytes = measured.driverBytes;
  report.callSiteBytes = measured.callSitesBytes(report.runtime->callSites);
  report.dataLoadBytes = readsImages ? measured.imageLoadBytes : 0;
  report.dataResidentBytes = readsImages ? measured.imageResidentBytes : 0;
}

int64_t memoryBytesPerRank(const CostReport &report) {
  if (!report.runtime)
    return report.peakBytesPerRank;
  int64_t bytes =
      saturatingAdd(report.driverBytes,
                    std::max(report.dataLoadBytes,
                             saturatingAdd(report.dataResidentBytes,
                                           report.runtime->totalBytes())));
  return saturatingAdjust(bytes, report.callSiteBytes);
}

void addPartitionedCosts(CostReport &report, func::FuncOp partitioned) {
  report.flopsPerRank = 0;
  report.commBytesPerRank = 0;
  report.collectives.clear();
  countWork(CostModel(toLayoutMesh(getEnclosingMesh(partitioned))), partitioned,
            report);
}
} // namespace tessel::analysis
