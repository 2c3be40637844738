//===- DecomposeEinsum.cpp - n-ary einsums as pairwise contractions -------===//
//
// Implements tessel-decompose-einsum: every einsum of three or more inputs
// becomes a tree of two-input einsums (which the runtimes run as matmuls),
// in the order that minimises the FLOPs of the pairwise steps. The order is
// found by dynamic programming over subsets of the inputs (every
// contraction tree, like opt_einsum's "optimal") for up to
// `optimal-max-operands` inputs, and greedily beyond.
//
// The intermediate of a set S of inputs keeps exactly the dimensions that
// are still needed: those of S that the result or an input outside S has.
// Everything else is summed as soon as S is combined; a dimension that only
// one input has (and the result lacks) is summed by a `tessel.reduce sum`
// of that input before any product.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <limits>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELDECOMPOSEEINSUM
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The contraction tree of one einsum: the inputs and dimensions of the
/// einsum by number, and how they are combined.
class ContractionPlan {
public:
  explicit ContractionPlan(EinsumOp einsum) {
    auto number = [&](NamedTensorType type) {
      llvm::BitVector set;
      for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape())) {
        auto [it, inserted] = dimIds.try_emplace(name.getValue(), names.size());
        if (inserted) {
          names.push_back(name);
          sizes.push_back(size);
        }
        if (set.size() <= it->second)
          set.resize(it->second + 1);
        set.set(it->second);
      }
      return set;
    };
    // Numbered in order of first appearance: the inputs in order, then the
    // result (whose dimensions all appear in an input).
    for (Value input : einsum.getInputs())
      inputDims.push_back(number(cast<NamedTensorType>(input.getType())));
    resultDims = number(einsum.getType());
    for (llvm::BitVector &set : inputDims)
      set.resize(names.size());
    resultDims.resize(names.size());
  }

  unsigned numInputs() const { return inputDims.size(); }

  /// The dimensions of the intermediate of the inputs in `set` (one bit per
  /// input): those of its inputs that the result or another input needs.
  llvm::BitVector neededDims(const llvm::BitVector &set) const {
    llvm::BitVector have(names.size()), outside = resultDims;
    for (unsigned i = 0; i < numInputs(); ++i)
      (set.test(i) ? have : outside) |= inputDims[i];
    return have &= outside;
  }

  /// Product of the sizes of the dimensions in `dims`, as a double (costs
  /// may exceed int64_t; only their order matters).
  double volume(const llvm::BitVector &dims) const {
    double product = 1;
    for (unsigned dim : dims.set_bits())
      product *= static_cast<double>(sizes[dim]);
    return product;
  }

  /// The type of the intermediate with `dims`, in order of first
  /// appearance in the einsum's inputs.
  NamedTensorType typeOf(const llvm::BitVector &dims, Type elementType) const {
    SmallVector<StringAttr> dimNames;
    SmallVector<int64_t> shape;
    for (unsigned dim : dims.set_bits()) {
      dimNames.push_back(names[dim]);
      shape.push_back(sizes[dim]);
    }
    return NamedTensorType::get(dimNames, shape, elementType);
  }

  /// A node of the contraction tree: a leaf (an input, `left` and `right`
  /// -1) or the product of two nodes.
  struct Node {
    llvm::BitVector inputs;
    llvm::BitVector dims;
    int left = -1, right = -1;
  };

  /// Chooses the tree: optimal up to `optimalMax` inputs, greedy beyond.
  /// Returns the total cost (the FLOP count of the pairwise steps).
  double plan(unsigned optimalMax) {
    nodes.clear();
    for (unsigned i = 0; i < numInputs(); ++i) {
      llvm::BitVector set(numInputs());
      set.set(i);
      nodes.push_back({set, neededDims(set)});
    }
    // A 64-bit mask per subset; 3^n splits in all.
    if (numInputs() <= std::min(optimalMax, 16u))
      return planOptimal();
    return planGreedy();
  }

  const Node &node(int index) const { return nodes[index]; }
  int root() const { return nodes.size() - 1; }
  /// The dimensions of input `i` as written.
  const llvm::BitVector &dimsOfInput(unsigned i) const { return inputDims[i]; }

private:
  double planOptimal() {
    unsigned n = numInputs();
    uint64_t full = (uint64_t(1) << n) - 1;
    auto toSet = [&](uint64_t mask) {
      llvm::BitVector set(n);
      for (unsigned i = 0; i < n; ++i)
        if (mask >> i & 1)
          set.set(i);
      return set;
    };
    std::vector<llvm::BitVector> dims(full + 1);
    std::vector<double> cost(full + 1, 0);
    std::vector<uint64_t> split(full + 1, 0);
    for (uint64_t mask = 1; mask <= full; ++mask) {
      dims[mask] = neededDims(toSet(mask));
      if ((mask & (mask - 1)) == 0)
        continue;
      // Each split once: the part with the lowest input is the left one.
      // Ties keep the first split in this order, so the plan is
      // deterministic.
      uint64_t lowest = mask & -mask, rest = mask ^ lowest;
      cost[mask] = std::numeric_limits<double>::infinity();
      for (uint64_t sub = rest;; sub = (sub - 1) & rest) {
        uint64_t left = lowest | sub, right = mask ^ left;
        if (right != 0) {
          llvm::BitVector step = dims[left];
          step |= dims[right];
          double total = cost[left] + cost[right] + volume(step);
          if (total < cost[mask] ||
              (total == cost[mask] && left < split[mask])) {
            cost[mask] = total;
            split[mask] = left;
          }
        }
        if (sub == 0)
          break;
      }
    }
    std::function<int(uint64_t)> build = [&](uint64_t mask) -> int {
      if ((mask & (mask - 1)) == 0)
        return llvm::countr_zero(mask);
      int left = build(split[mask]), right = build(mask ^ split[mask]);
      nodes.push_back({toSet(mask), dims[mask], left, right});
      return nodes.size() - 1;
    };
    build(full);
    return cost[full];
  }

  double planGreedy() {
    std::vector<int> live;
    for (unsigned i = 0; i < numInputs(); ++i)
      live.push_back(i);
    double total = 0;
    while (live.size() > 1) {
      // The cheapest step; ties go to the smaller intermediate, then to
      // the first pair.
      unsigned bestA = 0, bestB = 1;
      double bestCost = std::numeric_limits<double>::infinity(), bestSize = 0;
      llvm::BitVector bestDims;
      for (unsigned a = 0; a < live.size(); ++a)
        for (unsigned b = a + 1; b < live.size(); ++b) {
          llvm::BitVector step = nodes[live[a]].dims;
          step |= nodes[live[b]].dims;
          llvm::BitVector set = nodes[live[a]].inputs;
          set |= nodes[live[b]].inputs;
          llvm::BitVector kept = neededDims(set);
          double cost = volume(step), size = volume(kept);
          if (cost < bestCost || (cost == bestCost && size < bestSize)) {
            bestA = a;
            bestB = b;
            bestCost = cost;
            bestSize = size;
            bestDims = kept;
          }
        }
      llvm::BitVector set = nodes[live[bestA]].inputs;
      set |= nodes[live[bestB]].inputs;
      // The left operand is the one with the lower first input.
      int left = live[bestA], right = live[bestB];
      if (nodes[right].inputs.find_first() < nodes[left].inputs.find_first())
        std::swap(left, right);
      nodes.push_back({set, bestDims, left, right});
      total += bestCost;
      live[bestA] = nodes.size() - 1;
      live.erase(live.begin() + bestB);
    }
    return total;
  }

  llvm::StringMap<unsigned> dimIds;
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  SmallVector<llvm::BitVector> inputDims;
  llvm::BitVector resultDims;
  std::vector<Node> nodes;
};

bool hasLayout(Type type) {
  return static_cast<bool>(cast<NamedTensorType>(type).getLayout());
}

struct TesselDecomposeEinsumPass
    : public tessel::impl::TesselDecomposeEinsumBase<
          TesselDecomposeEinsumPass> {
  using TesselDecomposeEinsumBase::TesselDecomposeEinsumBase;

  void runOnOperation() override {
    SmallVector<EinsumOp> einsums;
    getOperation()->walk([&](EinsumOp einsum) {
      if (einsum.getInputs().size() < 3)
        return;
      // Intermediates would need layouts of their own: decompose before
      // tessel-apply-layout.
      if (hasLayout(einsum.getType()) ||
          llvm::any_of(einsum.getInputs().getTypes(), hasLayout))
        return;
      einsums.push_back(einsum);
    });
    for (EinsumOp einsum : einsums)
      decompose(einsum);
  }

  void decompose(EinsumOp einsum) {
    ContractionPlan plan(einsum);
    plan.plan(optimalMaxOperands);
    OpBuilder builder(einsum);
    Location loc = einsum.getLoc();
    Type elementType = einsum.getType().getElementType();
    std::function<Value(int)> emit = [&](int index) -> Value {
      const ContractionPlan::Node &node = plan.node(index);
      if (node.left < 0) {
        // An input; a dimension nobody else needs is summed first.
        Value input = einsum.getInputs()[index];
        if (node.dims == plan.dimsOfInput(index))
          return input;
        ++reductionsAdded;
        return ReduceOp::create(builder, loc,
                                plan.typeOf(node.dims, elementType),
                                ReduceKind::Sum, input);
      }
      Value left = emit(node.left), right = emit(node.right);
      bool last = index == plan.root();
      auto step = EinsumOp::create(builder, loc,
                                   last ? einsum.getType()
                                        : plan.typeOf(node.dims, elementType),
                                   ValueRange{left, right});
      ++pairwiseEinsums;
      if (last)
        step->setDiscardableAttrs(einsum->getDiscardableAttrDictionary());
      return step;
    };
    Value result = emit(plan.root());
    einsum.replaceAllUsesWith(result);
    einsum.erase();
    ++einsumsDecomposed;
  }
};

} // namespace
