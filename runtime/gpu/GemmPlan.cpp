//===- GemmPlan.cpp - An einsum as one strided batched GEMM ---------------===//

#include "gpu/GemmPlan.h"

#include "kernels/EinsumPlan.h"

#include <algorithm>
#include <climits>
#include <map>

namespace tessel::runtime::gpu {

namespace {

bool hasUniqueDims(const TensorType &type) {
  std::vector<std::string> sorted = type.dims;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

/// `type` with its dims in the plan's order.
TensorType inOrder(const TensorType &type, const std::vector<unsigned> &order) {
  std::vector<std::string> dims;
  for (unsigned i : order)
    dims.push_back(type.dims[i]);
  return reordered(type, dims);
}

/// Plans `first` x `second` into `result`, in that operand order.
std::optional<GemmPlan> planInOrder(const TensorType &first,
                                    const TensorType &second,
                                    const TensorType &result) {
  // Every dim name gets a label, the same on every tensor.
  std::map<std::string, int32_t> labelOf;
  auto labels = [&](const TensorType &type) {
    std::vector<int32_t> labelled;
    for (const std::string &dim : type.dims)
      labelled.push_back(
          labelOf.emplace(dim, static_cast<int32_t>(labelOf.size()))
              .first->second);
    return labelled;
  };
  std::vector<int32_t> firstLabels = labels(first),
                       secondLabels = labels(second),
                       resultLabels = labels(result);
  EinsumPlan classes;
  if (planEinsum(first.shape, firstLabels, second.shape, secondLabels,
                 result.shape, resultLabels, classes) != TESSEL_STATUS_OK)
    return std::nullopt;
  for (int64_t size :
       {classes.m, classes.n, classes.k, classes.batch, classes.m * classes.k,
        classes.k * classes.n, classes.m * classes.n})
    if (size > INT_MAX)
      return std::nullopt;
  GemmPlan plan;
  if (!plan.first.plan(first, inOrder(first, classes.lhsOrder)) ||
      !plan.second.plan(second, inOrder(second, classes.rhsOrder)) ||
      !plan.product.plan(inOrder(result, classes.resultOrder), result))
    return std::nullopt;
  plan.firstBytes = static_cast<size_t>(first.numBytes());
  plan.secondBytes = static_cast<size_t>(second.numBytes());
  plan.productBytes = static_cast<size_t>(result.numBytes());
  // Column-major C^T (N x M) = B^T (N x K) A^T (K x M): cuBLAS's m is our
  // N, its n our M, its A our second operand, its B our first.
  plan.m = static_cast<int>(classes.n);
  plan.n = static_cast<int>(classes.m);
  plan.k = static_cast<int>(classes.k);
  plan.batch = static_cast<int>(classes.batch);
  plan.lda = plan.m;
  plan.ldb = plan.k;
  plan.ldc = plan.m;
  plan.strideA = static_cast<long long>(classes.k) * classes.n;
  plan.strideB = static_cast<long long>(classes.m) * classes.k;
  plan.strideC = static_cast<long long>(classes.m) * classes.n;
  return plan;
}

} // namespace

std::optional<GemmPlan> planGemm(const TensorType &lhs, const TensorType &rhs,
                                 const TensorType &result) {
  for (const TensorType *type : {&lhs, &rhs, &result})
    if (!hasUniqueDims(*type) || type->numElements() == 0)
      return std::nullopt;
  std::optional<GemmPlan> plan = planInOrder(lhs, rhs, result);
  if (plan && !plan->product.identity()) {
    // A gradient such as [batch, classes] x [batch, hidden] -> [hidden,
    // classes] is [N, M] as written; swapped, it needs no permute.
    std::optional<GemmPlan> swapped = planInOrder(rhs, lhs, result);
    if (swapped && swapped->product.identity()) {
      swapped->swapped = true;
      return swapped;
    }
  }
  return plan;
}

} // namespace tessel::runtime::gpu
