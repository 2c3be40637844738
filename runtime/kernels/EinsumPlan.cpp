//===- EinsumPlan.cpp - An einsum as one batched matmul -------------------===//

#include "kernels/EinsumPlan.h"

#include "base/Status.h"

#include <algorithm>
#include <optional>

namespace tessel::runtime {

namespace {
const char *kOp = "tessel_kernels_einsum";

/// Where a label sits in one tensor.
std::optional<unsigned> find(const std::vector<int32_t> &labels,
                             int32_t label) {
  auto it = std::find(labels.begin(), labels.end(), label);
  if (it == labels.end())
    return std::nullopt;
  return static_cast<unsigned>(it - labels.begin());
}

tessel_status_t checkUnique(const std::vector<int32_t> &labels,
                            const char *role) {
  for (size_t i = 0; i < labels.size(); ++i)
    if (find(labels, labels[i]) != i)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: label {} is on dims {} and {} of the {}; diagonals "
                   "are not provided",
                   kOp, labels[i], *find(labels, labels[i]), i, role);
  return TESSEL_STATUS_OK;
}

/// Checks that a label has the same size wherever it appears.
tessel_status_t checkSize(int32_t label, int64_t size, int64_t other,
                          const char *role, const char *otherRole) {
  if (size != other)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: label {} has size {} on the {} but {} on the {}", kOp,
                 label, size, role, other, otherRole);
  return TESSEL_STATUS_OK;
}
} // namespace

bool isIdentity(const std::vector<unsigned> &order) {
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != i)
      return false;
  return true;
}

tessel_status_t planEinsum(const std::vector<int64_t> &lhsShape,
                           const std::vector<int32_t> &lhsLabels,
                           const std::vector<int64_t> &rhsShape,
                           const std::vector<int32_t> &rhsLabels,
                           const std::vector<int64_t> &resultShape,
                           const std::vector<int32_t> &resultLabels,
                           EinsumPlan &plan) {
  TESSEL_RETURN_IF_ERROR(checkUnique(lhsLabels, "lhs"));
  TESSEL_RETURN_IF_ERROR(checkUnique(rhsLabels, "rhs"));
  TESSEL_RETURN_IF_ERROR(checkUnique(resultLabels, "result"));
  plan = EinsumPlan();

  // Result dims, in the result's order, by where else they appear.
  std::vector<unsigned> batchDims, mDims, nDims;
  for (unsigned r = 0; r < resultLabels.size(); ++r) {
    int32_t label = resultLabels[r];
    std::optional<unsigned> l = find(lhsLabels, label);
    std::optional<unsigned> h = find(rhsLabels, label);
    if (l)
      TESSEL_RETURN_IF_ERROR(
          checkSize(label, lhsShape[*l], resultShape[r], "lhs", "result"));
    if (h)
      TESSEL_RETURN_IF_ERROR(
          checkSize(label, rhsShape[*h], resultShape[r], "rhs", "result"));
    if (l && h) {
      batchDims.push_back(r);
      plan.batch *= resultShape[r];
      if (resultShape[r] != 1)
        plan.batchSizes.push_back(resultShape[r]);
    } else if (l) {
      mDims.push_back(r);
      plan.m *= resultShape[r];
    } else if (h) {
      nDims.push_back(r);
      plan.n *= resultShape[r];
    } else {
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: label {} of result dim {} is on neither operand", kOp,
                   label, r);
    }
  }

  // Operand dims not in the result are contracted, and must be on both.
  std::vector<unsigned> kLhs, kRhs;
  for (unsigned i = 0; i < lhsLabels.size(); ++i) {
    int32_t label = lhsLabels[i];
    if (find(resultLabels, label))
      continue;
    std::optional<unsigned> h = find(rhsLabels, label);
    if (!h)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: label {} of lhs dim {} is on neither the rhs nor the "
                   "result; sums over one operand are not provided",
                   kOp, label, i);
    TESSEL_RETURN_IF_ERROR(
        checkSize(label, lhsShape[i], rhsShape[*h], "lhs", "rhs"));
    kLhs.push_back(i);
    kRhs.push_back(*h);
    plan.k *= lhsShape[i];
  }
  for (unsigned i = 0; i < rhsLabels.size(); ++i)
    if (!find(resultLabels, rhsLabels[i]) && !find(lhsLabels, rhsLabels[i]))
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: label {} of rhs dim {} is on neither the lhs nor the "
                   "result; sums over one operand are not provided",
                   kOp, rhsLabels[i], i);

  auto dimOf = [](const std::vector<int32_t> &labels, int32_t label) {
    return *find(labels, label);
  };
  for (unsigned r : batchDims) {
    plan.lhsOrder.push_back(dimOf(lhsLabels, resultLabels[r]));
    plan.rhsOrder.push_back(dimOf(rhsLabels, resultLabels[r]));
  }
  for (unsigned r : mDims)
    plan.lhsOrder.push_back(dimOf(lhsLabels, resultLabels[r]));
  plan.lhsOrder.insert(plan.lhsOrder.end(), kLhs.begin(), kLhs.end());
  plan.rhsOrder.insert(plan.rhsOrder.end(), kRhs.begin(), kRhs.end());
  for (unsigned r : nDims)
    plan.rhsOrder.push_back(dimOf(rhsLabels, resultLabels[r]));
  plan.batchDims = batchDims.size();
  plan.mDims = mDims.size();
  plan.nDims = nDims.size();
  plan.kDims = kLhs.size();
  plan.resultOrder = batchDims;
  plan.resultOrder.insert(plan.resultOrder.end(), mDims.begin(), mDims.end());
  plan.resultOrder.insert(plan.resultOrder.end(), nDims.begin(), nDims.end());
  return TESSEL_STATUS_OK;
}

} // namespace tessel::runtime
