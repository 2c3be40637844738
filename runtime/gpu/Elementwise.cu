//===- Elementwise.cu - Unary, binary, compare, select, one_hot, gather ---===//
//
// The formulas (Formulas.h) are ref::applyUnary and ref::applyBinary's, in
// double, so the rounded results match the reference kernels.
//
//===----------------------------------------------------------------------===//

#include "gpu/Elements.h"
#include "gpu/Formulas.h"

namespace tessel::runtime::gpu {

namespace {

#define TESSEL_GRID_LOOP(i, count)                                             \
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;             \
       i < (count); i += int64_t(gridDim.x) * blockDim.x)

__global__ void unaryKernel(UnaryOp op, DType type, Walk walk, const void *x,
                            Strides xStrides, void *result, int64_t count) {
  TESSEL_GRID_LOOP(i, count) {
    double value = load(type, x, offsetOf(walk, xStrides, i));
    store(type, result, i, applyUnary(op, value));
  }
}

__global__ void binaryKernel(BinaryOp op, Walk walk, DType aType, const void *a,
                             Strides aStrides, DType bType, const void *b,
                             Strides bStrides, DType resultType, void *result,
                             int64_t count) {
  bool integerResult = isIntegerType(resultType);
  TESSEL_GRID_LOOP(i, count) {
    double x = load(aType, a, offsetOf(walk, aStrides, i));
    double y = load(bType, b, offsetOf(walk, bStrides, i));
    store(resultType, result, i, applyBinary(op, x, y, integerResult));
  }
}

__global__ void compareKernel(CompareOp op, Walk walk, DType aType,
                              const void *a, Strides aStrides, DType bType,
                              const void *b, Strides bStrides, void *result,
                              int64_t count) {
  TESSEL_GRID_LOOP(i, count) {
    double x = load(aType, a, offsetOf(walk, aStrides, i));
    double y = load(bType, b, offsetOf(walk, bStrides, i));
    static_cast<unsigned char *>(result)[i] = applyCompare(op, x, y) ? 1 : 0;
  }
}

__global__ void selectKernel(Walk walk, DType condType, const void *cond,
                             Strides condStrides, DType aType, const void *a,
                             Strides aStrides, DType bType, const void *b,
                             Strides bStrides, DType resultType, void *result,
                             int64_t count) {
  TESSEL_GRID_LOOP(i, count) {
    bool pick = load(condType, cond, offsetOf(walk, condStrides, i)) != 0.0;
    double value = pick ? load(aType, a, offsetOf(walk, aStrides, i))
                        : load(bType, b, offsetOf(walk, bStrides, i));
    store(resultType, result, i, value);
  }
}

__global__ void oneHotKernel(Walk walk, int32_t classDim, DType labelType,
                             const void *labels, Strides labelStrides,
                             DType resultType, void *result, int64_t count) {
  TESSEL_GRID_LOOP(i, count) {
    // The class is the walk index along classDim.
    int64_t rest = i, klass = 0;
    for (int32_t d = walk.rank - 1; d >= 0; --d) {
      if (d == classDim)
        klass = rest % walk.shape[d];
      rest /= walk.shape[d];
    }
    double label = load(labelType, labels, offsetOf(walk, labelStrides, i));
    store(resultType, result, i, label == static_cast<double>(klass) ? 1 : 0);
  }
}

__global__ void gatherKernel(Walk walk, DType type, const void *table,
                             Strides tableStrides, int64_t vocabStride,
                             int64_t vocab, DType idType, const void *ids,
                             Strides idStrides, void *result,
                             long long *badIndex, int64_t count) {
  TESSEL_GRID_LOOP(i, count) {
    double id = load(idType, ids, offsetOf(walk, idStrides, i));
    if (!(id >= 0.0 && id < static_cast<double>(vocab))) {
      atomicCAS(reinterpret_cast<unsigned long long *>(badIndex),
                static_cast<unsigned long long>(-1LL),
                static_cast<unsigned long long>(i));
      continue;
    }
    int64_t offset = offsetOf(walk, tableStrides, i) +
                     static_cast<int64_t>(id) * vocabStride;
    store(type, result, i, load(type, table, offset));
  }
}

} // namespace

void launchGather(cudaStream_t stream, const Walk &walk, DType type,
                  const void *table, const Strides &tableStrides,
                  int64_t vocabStride, int64_t vocab, DType idType,
                  const void *ids, const Strides &idStrides, void *result,
                  long long *badIndex) {
  int64_t count = walk.count();
  if (count > 0)
    gatherKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        walk, type, table, tableStrides, vocabStride, vocab, idType, ids,
        idStrides, result, badIndex, count);
}

void launchUnary(cudaStream_t stream, UnaryOp op, DType type, const Walk &walk,
                 const void *x, const Strides &xStrides, void *result) {
  int64_t count = walk.count();
  if (count > 0)
    unaryKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        op, type, walk, x, xStrides, result, count);
}

void launchBinary(cudaStream_t stream, BinaryOp op, const Walk &walk,
                  DType aType, const void *a, const Strides &aStrides,
                  DType bType, const void *b, const Strides &bStrides,
                  DType resultType, void *result) {
  int64_t count = walk.count();
  if (count > 0)
    binaryKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        op, walk, aType, a, aStrides, bType, b, bStrides, resultType, result,
        count);
}

void launchCompare(cudaStream_t stream, CompareOp op, const Walk &walk,
                   DType aType, const void *a, const Strides &aStrides,
                   DType bType, const void *b, const Strides &bStrides,
                   void *result) {
  int64_t count = walk.count();
  if (count > 0)
    compareKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        op, walk, aType, a, aStrides, bType, b, bStrides, result, count);
}

void launchSelect(cudaStream_t stream, const Walk &walk, DType condType,
                  const void *cond, const Strides &condStrides, DType aType,
                  const void *a, const Strides &aStrides, DType bType,
                  const void *b, const Strides &bStrides, DType resultType,
                  void *result) {
  int64_t count = walk.count();
  if (count > 0)
    selectKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        walk, condType, cond, condStrides, aType, a, aStrides, bType, b,
        bStrides, resultType, result, count);
}

void launchOneHot(cudaStream_t stream, const Walk &walk, int32_t classDim,
                  DType labelType, const void *labels,
                  const Strides &labelStrides, DType resultType, void *result) {
  int64_t count = walk.count();
  if (count > 0)
    oneHotKernel<<<blocksFor(count), kBlock, 0, stream>>>(
        walk, classDim, labelType, labels, labelStrides, resultType, result,
        count);
}

} // namespace tessel::runtime::gpu
