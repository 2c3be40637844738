//===- Einsum.cpp - Einsum through oneDNN reorders and one matmul ---------===//
//
// The C entry points of tessel/runtime/kernels.h. oneDNN reports errors by
// throwing dnnl::error; every entry point catches them, and anything else
// (guarded(), kernels/Primitives.h), so that no exception crosses the C ABI.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/kernels.h"

#include "base/Status.h"
#include "base/TensorView.h"
#include "kernels/EinsumPlan.h"
#include "kernels/Primitives.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>

using namespace tessel::runtime;

namespace {

const char *kOp = "tessel_kernels_einsum";

/// The row-major strides of a shape.
dnnl::memory::dims stridesOf(const std::vector<int64_t> &shape) {
  dnnl::memory::dims strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// The dims and strides of `shape` visited in `order`: a view of the same
/// memory with its dims permuted.
dnnl::memory::desc permutedView(const std::vector<int64_t> &shape,
                                const std::vector<unsigned> &order,
                                dnnl::memory::data_type type) {
  dnnl::memory::dims strides = stridesOf(shape), dims, permutedStrides;
  for (unsigned dim : order) {
    dims.push_back(shape[dim]);
    permutedStrides.push_back(strides[dim]);
  }
  return dnnl::memory::desc(dims, type, permutedStrides);
}

/// The same dims, dense and row-major.
dnnl::memory::desc denseLike(const dnnl::memory::desc &view) {
  dnnl::memory::dims dims = view.dims();
  std::vector<int64_t> shape(dims.begin(), dims.end());
  return dnnl::memory::desc(dims, view.data_type(), stridesOf(shape));
}

/// Copies `from` described by `fromDesc` into `to` described by `toDesc`
/// (same dims, any strides).
void reorder(tessel_kernels_t &kernels, const dnnl::memory::desc &fromDesc,
             void *from, const dnnl::memory::desc &toDesc, void *to) {
  dnnl::memory source(fromDesc, kernels.engine, from);
  dnnl::memory destination(toDesc, kernels.engine, to);
  dnnl::reorder(source, destination)
      .execute(kernels.stream, source, destination);
}

/// `tensor` with its dims in `order`, dense: the tensor's own memory when the
/// order is its own, otherwise a permuted copy in `storage`.
void *inOrder(tessel_kernels_t &kernels, const TensorView &tensor,
              const std::vector<unsigned> &order, dnnl::memory::data_type type,
              std::vector<unsigned char> &storage) {
  if (isIdentity(order) || tensor.rank() == 0)
    return tensor.data;
  storage.resize(tensor.numBytes());
  dnnl::memory::desc view = permutedView(tensor.shape, order, type);
  reorder(kernels, view, tensor.data, denseLike(view), storage.data());
  return storage.data();
}

std::vector<int32_t> labelsOf(const int32_t *labels, unsigned rank) {
  return std::vector<int32_t>(labels, labels + rank);
}

tessel_status_t checkLabels(const int32_t *labels, const TensorView &tensor,
                            const char *role) {
  if (tensor.rank() > 0 && !labels)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: the {} has rank {} but no labels", kOp, role,
                 tensor.rank());
  if (tensor.rank() > DNNL_MAX_NDIMS)
    return failf(TESSEL_STATUS_UNIMPLEMENTED,
                 "{}: the {} has rank {}; oneDNN takes at most {} dims", kOp,
                 role, tensor.rank(), DNNL_MAX_NDIMS);
  if (tensor.type != TESSEL_ELEMENT_TYPE_F32 &&
      tensor.type != TESSEL_ELEMENT_TYPE_BF16)
    return failf(TESSEL_STATUS_UNIMPLEMENTED,
                 "{}: the {} is {}; only f32 and bf16 are provided", kOp, role,
                 describe(tensor));
  return TESSEL_STATUS_OK;
}

tessel_status_t einsum(tessel_kernels_t &kernels, const TensorView &lhs,
                       const int32_t *lhsLabels, const TensorView &rhs,
                       const int32_t *rhsLabels, const TensorView &result,
                       const int32_t *resultLabels) {
  TESSEL_RETURN_IF_ERROR(checkLabels(lhsLabels, lhs, "lhs"));
  TESSEL_RETURN_IF_ERROR(checkLabels(rhsLabels, rhs, "rhs"));
  TESSEL_RETURN_IF_ERROR(checkLabels(resultLabels, result, "result"));
  if (lhs.type != result.type || rhs.type != result.type)
    return failf(TESSEL_STATUS_UNIMPLEMENTED,
                 "{}: the lhs is {}, the rhs {} and the result {}; mixed "
                 "types are not provided",
                 kOp, describe(lhs), describe(rhs), describe(result));
  dnnl::memory::data_type type = *dnnlType(result.type);
  // Small products on one thread, as the prepared kernels do.
  int64_t largest =
      std::max({lhs.numElements(), rhs.numElements(), result.numElements()});
  ThreadCount threads(
      largest <= kSingleThreadedElements ? 1 : ThreadCount::current());
  EinsumPlan plan;
  TESSEL_RETURN_IF_ERROR(
      planEinsum(lhs.shape, labelsOf(lhsLabels, lhs.rank()), rhs.shape,
                 labelsOf(rhsLabels, rhs.rank()), result.shape,
                 labelsOf(resultLabels, result.rank()), plan));
  if (result.numElements() == 0)
    return TESSEL_STATUS_OK;
  if (plan.k == 0) { // An empty sum: +0, all bits clear in f32 and bf16.
    std::memset(result.data, 0, result.numBytes());
    return TESSEL_STATUS_OK;
  }

  std::vector<unsigned char> lhsStorage, rhsStorage, product;
  void *a = inOrder(kernels, lhs, plan.lhsOrder, type, lhsStorage);
  void *b = inOrder(kernels, rhs, plan.rhsOrder, type, rhsStorage);

  // Dense [batch, M, K] x [batch, K, N]: every class collapses into one dim.
  using tag = dnnl::memory::format_tag;
  dnnl::memory::desc aDesc({plan.batch, plan.m, plan.k}, type, tag::abc);
  dnnl::memory::desc bDesc({plan.batch, plan.k, plan.n}, type, tag::abc);
  dnnl::memory::desc cDesc({plan.batch, plan.m, plan.n}, type, tag::abc);
  bool directResult = isIdentity(plan.resultOrder);
  void *c = result.data;
  if (!directResult) {
    product.resize(result.numBytes());
    c = product.data();
  }
  dnnl::matmul::primitive_desc matmulDesc(
      dnnl::matmul::desc(aDesc, bDesc, cDesc), kernels.engine);
  dnnl::memory aMemory(aDesc, kernels.engine, a);
  dnnl::memory bMemory(bDesc, kernels.engine, b);
  dnnl::memory cMemory(cDesc, kernels.engine, c);
  dnnl::matmul(matmulDesc)
      .execute(kernels.stream, {{DNNL_ARG_SRC, aMemory},
                                {DNNL_ARG_WEIGHTS, bMemory},
                                {DNNL_ARG_DST, cMemory}});

  if (!directResult) {
    // The product's dims are the result's in plan.resultOrder: write it
    // through a permuted view of the result.
    dnnl::memory::desc view =
        permutedView(result.shape, plan.resultOrder, type);
    reorder(kernels, denseLike(view), product.data(), view, result.data);
  }
  kernels.stream.wait();
  return TESSEL_STATUS_OK;
}

} // namespace

extern "C" {

tessel_status_t tessel_kernels_create(tessel_kernels_t **out_kernels) {
  return guarded("tessel_kernels_create", [&] {
    if (!out_kernels)
      return fail(TESSEL_STATUS_INVALID_ARGUMENT,
                  "tessel_kernels_create: out_kernels is NULL");
    *out_kernels = new tessel_kernels_t{cpuEngine(), dnnl::stream(cpuEngine())};
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t tessel_kernels_destroy(tessel_kernels_t *kernels) {
  return guarded("tessel_kernels_destroy", [&] {
    delete kernels;
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t
tessel_kernels_einsum(tessel_kernels_t *kernels, const tessel_tensor_t *lhs,
                      const int32_t *lhs_labels, const tessel_tensor_t *rhs,
                      const int32_t *rhs_labels, const tessel_tensor_t *result,
                      const int32_t *result_labels) {
  return guarded(kOp, [&] {
    if (!kernels)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: kernels is NULL", kOp);
    TensorView a, b, c;
    TESSEL_RETURN_IF_ERROR(viewOf(lhs, kOp, "lhs", a));
    TESSEL_RETURN_IF_ERROR(viewOf(rhs, kOp, "rhs", b));
    TESSEL_RETURN_IF_ERROR(viewOf(result, kOp, "result", c));
    return einsum(*kernels, a, lhs_labels, b, rhs_labels, c, result_labels);
  });
}

} // extern "C"
