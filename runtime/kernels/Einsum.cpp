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
#include "kernels/Einsum.h"
#include "kernels/EinsumPlan.h"
#include "kernels/Primitives.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <unordered_map>

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
  dnnl::memory::desc view = permutedView(tensor.shapeVector(), order, type);
  reorder(kernels, view, tensor.data, denseLike(view), storage.data());
  return storage.data();
}

/// The view of `shape`'s memory with its dims in `order` as three dims of
/// the sizes `classes` ([batch, M, K] and the like), each the product of
/// consecutive dims of the order, with one stride per class: matmul then
/// reads a transposed operand where it lies instead of a permuted copy.
/// None when a class's dims do not step through memory evenly (a copy is
/// needed then).
std::optional<dnnl::memory::desc>
classView(const std::vector<int64_t> &shape, const std::vector<unsigned> &order,
          const dnnl::memory::dims &classes, dnnl::memory::data_type type) {
  dnnl::memory::dims strides = stridesOf(shape), classStrides;
  // Dims of size 1 take no part in addressing.
  std::vector<unsigned> dims;
  for (unsigned dim : order)
    if (shape[dim] != 1)
      dims.push_back(dim);
  size_t next = 0;
  for (int64_t size : classes) {
    int64_t product = 1;
    int64_t stride = 1;
    bool first = true;
    while (product < size && next < dims.size()) {
      unsigned dim = dims[next++];
      // Each dim must step over exactly the dims after it in the class.
      if (!first && stride != strides[dim] * shape[dim])
        return std::nullopt;
      product *= shape[dim];
      stride = strides[dim];
      first = false;
    }
    if (product != size)
      return std::nullopt;
    classStrides.push_back(stride);
  }
  if (next != dims.size())
    return std::nullopt;
  // A class of size 1 takes no part in addressing either; it gets the span
  // of the classes after it, as a dense layout of them in their own order
  // would give it: a tensor already in the order's layout is described as
  // plainly dense (format abc), and a transposed one as a plain transposed
  // format (acb), as oneDNN describes its own. (The stride of the class
  // right after it instead, which is 1 for a transposed matrix, made
  // oneDNN 2.6 take its jit GEMM rather than brgemm for the batch of one
  // of every weight gradient: 1.2 ms against 0.56 for 256 x 1024 x 256.)
  for (size_t i = classes.size(); i-- > 0;) {
    if (classes[i] != 1)
      continue;
    int64_t span = 1;
    for (size_t j = i + 1; j < classes.size(); ++j)
      span = std::max(span, classStrides[j] * classes[j]);
    classStrides[i] = span;
  }
  return dnnl::memory::desc(classes, type, classStrides);
}

/// A matmul that reads an einsum's operands and writes its result where
/// they lie. `swapped` when it computes the transposed product,
/// C^T = B^T A^T, with the rhs as its source and the lhs as its weights:
/// oneDNN has fast kernels for a transposed weights matrix but only its
/// reference kernel for some transposed sources and results.
struct InPlaceMatmul {
  dnnl::matmul::primitive_desc desc;
  bool swapped = false;
};

/// The dims of `order` (batch, then two classes of `first` and `second`
/// dims) with the two classes exchanged.
std::vector<unsigned> exchangeClasses(const std::vector<unsigned> &order,
                                      size_t batch, size_t first) {
  std::vector<unsigned> exchanged(order.begin(), order.begin() + batch);
  exchanged.insert(exchanged.end(), order.begin() + batch + first,
                   order.end());
  exchanged.insert(exchanged.end(), order.begin() + batch,
                   order.begin() + batch + first);
  return exchanged;
}

/// The plan's matmul on the operands and result where they lie (classView),
/// as it is or transposed, or none when one of them needs a permuted copy
/// or when oneDNN has only its reference matmul for the strides (a copy
/// costs less then).
std::optional<InPlaceMatmul>
inPlaceMatmul(const EinsumPlan &plan, const std::vector<int64_t> &lhsShape,
              const std::vector<int64_t> &rhsShape,
              const std::vector<int64_t> &resultShape,
              dnnl::memory::data_type type, const dnnl::engine &engine) {
  // The batch as one dim; where its dims do not lie evenly in memory as one
  // (attention's [batch, heads] between the sequence dims), each batch dim
  // on its own: matmul takes any number of batch dims, each with a stride.
  std::vector<dnnl::memory::dims> batchForms = {{plan.batch}};
  if (plan.batchSizes.size() > 1 &&
      plan.batchSizes.size() + 2 <= DNNL_MAX_NDIMS)
    batchForms.emplace_back(plan.batchSizes.begin(), plan.batchSizes.end());
  size_t batch = plan.batchDims;
  std::vector<unsigned> lhsTransposed =
      exchangeClasses(plan.lhsOrder, batch, plan.mDims);
  std::vector<unsigned> rhsTransposed =
      exchangeClasses(plan.rhsOrder, batch, plan.kDims);
  std::vector<unsigned> resultTransposed =
      exchangeClasses(plan.resultOrder, batch, plan.mDims);
  for (bool swapped : {false, true}) {
    for (const dnnl::memory::dims &batchDims : batchForms) {
      auto classes = [&](int64_t rows, int64_t columns) {
        dnnl::memory::dims all = batchDims;
        all.push_back(rows);
        all.push_back(columns);
        return all;
      };
      std::optional<dnnl::memory::desc> source, weights, destination;
      if (!swapped) {
        source = classView(lhsShape, plan.lhsOrder, classes(plan.m, plan.k),
                           type);
        weights = classView(rhsShape, plan.rhsOrder, classes(plan.k, plan.n),
                            type);
        destination = classView(resultShape, plan.resultOrder,
                                classes(plan.m, plan.n), type);
      } else {
        source = classView(rhsShape, rhsTransposed, classes(plan.n, plan.k),
                           type);
        weights = classView(lhsShape, lhsTransposed, classes(plan.k, plan.m),
                            type);
        destination = classView(resultShape, resultTransposed,
                                classes(plan.n, plan.m), type);
      }
      if (!source || !weights || !destination)
        continue;
      dnnl::matmul::primitive_desc matmul(
          dnnl::matmul::desc(*source, *weights, *destination),
          callerScratchpad(), engine);
      if (std::string(matmul.impl_info_str()).find("ref") == std::string::npos)
        return InPlaceMatmul{matmul, swapped};
    }
  }
  return std::nullopt;
}

/// The matmul on dense [batch, M, K] and [batch, K, N] operands and a
/// dense [batch, M, N] result: the plan's order, after permuted copies.
dnnl::matmul::primitive_desc denseMatmul(const EinsumPlan &plan,
                                         dnnl::memory::data_type type,
                                         const dnnl::engine &engine) {
  using tag = dnnl::memory::format_tag;
  return dnnl::matmul::primitive_desc(
      dnnl::matmul::desc(
          dnnl::memory::desc({plan.batch, plan.m, plan.k}, type, tag::abc),
          dnnl::memory::desc({plan.batch, plan.k, plan.n}, type, tag::abc),
          dnnl::memory::desc({plan.batch, plan.m, plan.n}, type, tag::abc)),
      callerScratchpad(), engine);
}

/// Whether oneDNN runs `matmul` on its brgemm kernels. For strides that
/// brgemm does not take oneDNN 2.6 falls back to its older jit GEMM, which
/// ran the realistic Transformer's gradient matmuls 1.2 to 1.6 times slower
/// than brgemm the same product on dense operands (bf16's more). (Most of
/// those were a batch of one given a stride that hid a plain transposed
/// layout: see classView.)
bool isBrgemm(const dnnl::matmul::primitive_desc &matmul) {
  return std::string(matmul.impl_info_str()).rfind("brg", 0) == 0;
}

/// Whether permuted copies of the einsum's operands and result cost little
/// beside its product: at least 1024 FLOPs per copied element. A copy runs
/// at memory speed (a 256 x 256 transpose in 30 us, 1024 x 1024 in 700 us
/// on 2 cores); a 1024 x 256 x 256 product that brgemm runs 0.5 ms faster
/// than the jit GEMM copies 64 Ki elements for 134 MFLOPs, while copying a
/// 1024 x 1024 source for a 1024 x 1024 x 256 product costs what brgemm
/// saves.
bool copyPaysOff(const EinsumPlan &plan, const TensorView &lhs,
                 const TensorView &rhs, const TensorView &result) {
  constexpr double kFlopsPerCopiedElement = 1024;
  double copied = 0;
  if (!isIdentity(plan.lhsOrder))
    copied += static_cast<double>(lhs.numElements());
  if (!isIdentity(plan.rhsOrder))
    copied += static_cast<double>(rhs.numElements());
  if (!isIdentity(plan.resultOrder))
    copied += static_cast<double>(result.numElements());
  double flops = 2.0 * static_cast<double>(plan.batch) *
                 static_cast<double>(plan.m) * static_cast<double>(plan.n) *
                 static_cast<double>(plan.k);
  return copied * kFlopsPerCopiedElement <= flops;
}

/// The matmul tessel_kernels_einsum runs: on the operands and result where
/// they lie, or on dense copies permuted into the plan's order.
struct ChosenMatmul {
  dnnl::matmul::primitive_desc desc;
  bool inPlace = false;
  /// In place, computing C^T = B^T A^T (InPlaceMatmul).
  bool swapped = false;
};

/// Operands and result whose classes lie evenly in memory (a transposed
/// matrix, say) are used where they are, through strides; the others are
/// permuted into dense copies. Where oneDNN would take its jit GEMM in place
/// but brgemm on dense copies that are cheap beside the product, the copies.
ChosenMatmul chooseMatmul(const EinsumPlan &plan, const TensorView &lhs,
                          const TensorView &rhs, const TensorView &result,
                          dnnl::memory::data_type type,
                          const dnnl::engine &engine) {
  std::optional<InPlaceMatmul> inPlace =
      inPlaceMatmul(plan, lhs.shapeVector(), rhs.shapeVector(),
                    result.shapeVector(), type, engine);
  if (inPlace &&
      (isBrgemm(inPlace->desc) || !copyPaysOff(plan, lhs, rhs, result)))
    return {inPlace->desc, true, inPlace->swapped};
  dnnl::matmul::primitive_desc dense = denseMatmul(plan, type, engine);
  if (inPlace && !isBrgemm(dense))
    return {inPlace->desc, true, inPlace->swapped};
  return {dense, false, false};
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
  const std::vector<int64_t> lhsShape = lhs.shapeVector(),
                             rhsShape = rhs.shapeVector(),
                             resultShape = result.shapeVector();
  EinsumPlan plan;
  TESSEL_RETURN_IF_ERROR(
      planEinsum(lhsShape, labelsOf(lhsLabels, lhs.rank()), rhsShape,
                 labelsOf(rhsLabels, rhs.rank()), resultShape,
                 labelsOf(resultLabels, result.rank()), plan));
  if (result.numElements() == 0)
    return TESSEL_STATUS_OK;
  if (plan.k == 0) { // An empty sum: +0, all bits clear in f32 and bf16.
    std::memset(result.data, 0, result.numBytes());
    return TESSEL_STATUS_OK;
  }

  ChosenMatmul chosen =
      chooseMatmul(plan, lhs, rhs, result, type, kernels.engine);
  std::vector<unsigned char> lhsStorage, rhsStorage;
  std::unique_ptr<unsigned char[]> product;
  void *a = lhs.data, *b = rhs.data, *c = result.data;
  if (chosen.inPlace) {
    if (chosen.swapped)
      std::swap(a, b);
  } else {
    a = inOrder(kernels, lhs, plan.lhsOrder, type, lhsStorage);
    b = inOrder(kernels, rhs, plan.rhsOrder, type, rhsStorage);
    if (!isIdentity(plan.resultOrder)) {
      // Not zeroed: the matmul writes every element.
      product.reset(new unsigned char[result.numBytes()]);
      c = product.get();
    }
  }
  const dnnl::matmul::primitive_desc &matmulDesc = chosen.desc;
  dnnl::memory aMemory(matmulDesc.src_desc(), kernels.engine, a);
  dnnl::memory bMemory(matmulDesc.weights_desc(), kernels.engine, b);
  dnnl::memory cMemory(matmulDesc.dst_desc(), kernels.engine, c);
  std::unordered_map<int, dnnl::memory> arguments = {
      {DNNL_ARG_SRC, aMemory},
      {DNNL_ARG_WEIGHTS, bMemory},
      {DNNL_ARG_DST, cMemory}};
  addThreadScratchpad(arguments, matmulDesc.scratchpad_desc());
  dnnl::matmul(matmulDesc).execute(kernels.stream, arguments);

  if (product) {
    // The product's dims are the result's in plan.resultOrder: write it
    // through a permuted view of the result.
    dnnl::memory::desc view = permutedView(resultShape, plan.resultOrder, type);
    reorder(kernels, denseLike(view), product.get(), view, result.data);
  }
  kernels.stream.wait();
  return TESSEL_STATUS_OK;
}

} // namespace

namespace tessel::runtime {

std::unique_ptr<PreparedKernel>
prepareEinsum(const std::vector<int64_t> &lhsShape,
              const std::vector<int32_t> &lhsLabels,
              const std::vector<int64_t> &rhsShape,
              const std::vector<int32_t> &rhsLabels,
              const std::vector<int64_t> &resultShape,
              const std::vector<int32_t> &resultLabels,
              tessel_element_type_t elementType) {
  std::optional<dnnl::memory::data_type> type = dnnlType(elementType);
  EinsumPlan plan;
  if (!type || planEinsum(lhsShape, lhsLabels, rhsShape, rhsLabels,
                          resultShape, resultLabels,
                          plan) != TESSEL_STATUS_OK)
    return nullptr;
  StridedTensor lhs = StridedTensor::rowMajor(lhsShape, elementType);
  StridedTensor rhs = StridedTensor::rowMajor(rhsShape, elementType);
  StridedTensor result = StridedTensor::rowMajor(resultShape, elementType);
  if (plan.k == 0 || numElements(result) == 0)
    return nullptr;
  // Only single-threaded products: planning a call costs as much as a small
  // product, and nothing next to a large one. (Large ones prepared here ran
  // ten times slower on two OpenMP threads, for reasons not yet known.)
  if (std::max({numElements(lhs), numElements(rhs), numElements(result)}) >
      kSingleThreadedElements)
    return nullptr;
  return preparedOrNull({&lhs, &rhs, &result},
                        [&]() -> std::unique_ptr<PreparedKernel> {
    std::optional<InPlaceMatmul> matmul = inPlaceMatmul(
        plan, lhsShape, rhsShape, resultShape, *type, cpuEngine());
    if (!matmul)
      return nullptr;
    const dnnl::matmul::primitive_desc &desc = matmul->desc;
    // Inputs are numbered in the order they are added: the lhs first.
    auto chain = std::make_unique<PrimitiveChain>();
    const dnnl::memory::desc &lhsDesc =
        matmul->swapped ? desc.weights_desc() : desc.src_desc();
    const dnnl::memory::desc &rhsDesc =
        matmul->swapped ? desc.src_desc() : desc.weights_desc();
    auto lhsSlot = chain->addInput(lhsDesc, lhsDesc);
    auto rhsSlot = chain->addInput(rhsDesc, rhsDesc);
    auto resultSlot = chain->setOutput(desc.dst_desc(), desc.dst_desc());
    chain->addStep(dnnl::matmul(desc),
                   {{DNNL_ARG_SRC, matmul->swapped ? rhsSlot : lhsSlot},
                    {DNNL_ARG_WEIGHTS, matmul->swapped ? lhsSlot : rhsSlot},
                    {DNNL_ARG_DST, resultSlot}});
    return chain;
  });
}

EinsumImplementation einsumImplementation(
    const std::vector<int64_t> &lhsShape, const std::vector<int32_t> &lhsLabels,
    const std::vector<int64_t> &rhsShape, const std::vector<int32_t> &rhsLabels,
    const std::vector<int64_t> &resultShape,
    const std::vector<int32_t> &resultLabels, tessel_element_type_t type) {
  std::optional<dnnl::memory::data_type> dnnl = dnnlType(type);
  EinsumPlan plan;
  if (!dnnl ||
      planEinsum(lhsShape, lhsLabels, rhsShape, rhsLabels, resultShape,
                 resultLabels, plan) != TESSEL_STATUS_OK ||
      plan.k == 0)
    return {};
  // Views of no memory: only the shapes and types are read.
  auto view = [type](const std::vector<int64_t> &shape) {
    return TensorView{nullptr, type, Shape(shape.begin(), shape.end())};
  };
  TensorView lhs = view(lhsShape), rhs = view(rhsShape),
             result = view(resultShape);
  ChosenMatmul chosen =
      chooseMatmul(plan, lhs, rhs, result, *dnnl, cpuEngine());
  return {chosen.desc.impl_info_str(), chosen.inPlace};
}

} // namespace tessel::runtime

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
