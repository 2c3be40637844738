//===- Launch.h - Host-side entry points of the CUDA kernels ----*- C++ -*-===//
//
// The .cu files hold the CUDA kernels; these are the functions the op
// builders call to launch them on a stream. Everything a kernel needs is
// passed by value in small fixed-size structs, worked out once per call
// site on the host: for a tensor walked in some order, its sizes and each
// buffer's stride (in elements) per dim, 0 for a dim the buffer is
// broadcast along. So one kernel serves every dim order and broadcast, and
// named dims never reach the device.
//
// Values are computed in double, as the reference kernels compute them, and
// rounded once to the result's type (bf16 through f32, like
// ref::roundToType), so an element-wise GPU result equals the reference's.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_LAUNCH_H
#define TESSEL_RUNTIME_GPU_LAUNCH_H

#include <cuda_runtime_api.h>

#include <cstdint>

// Walk::count() runs on both sides; plain C++ files include this too.
#ifdef __CUDACC__
#define TESSEL_HOST_DEVICE __host__ __device__
#else
#define TESSEL_HOST_DEVICE
#endif

namespace tessel::runtime::gpu {

/// Element types in ref::ElementType's order (checked where they meet).
enum class DType : int32_t { F32, F16, BF16, F64, I1, I32, I64 };

/// The most dims a walk has; a call site with more runs on the host.
constexpr int kMaxDims = 8;

/// An iteration space: row-major over `shape`, the last dim fastest.
struct Walk {
  int32_t rank = 0;
  int64_t shape[kMaxDims] = {};
  TESSEL_HOST_DEVICE int64_t count() const {
    int64_t product = 1;
    for (int32_t i = 0; i < rank; ++i)
      product *= shape[i];
    return product;
  }
};

/// A buffer's stride in elements along each dim of a walk.
struct Strides {
  int64_t at[kMaxDims] = {};
};

/// Kinds, in the order of ref::UnaryKind, ref::BinaryKind,
/// ref::CompareKind and ref::ReductionKind.
enum class UnaryOp : int32_t {
  Neg,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Relu,
  Gelu,
  Abs,
  Erf,
  Sin,
  Cos
};
enum class BinaryOp : int32_t { Add, Sub, Mul, Div, Max, Min, Pow };
enum class CompareOp : int32_t { Eq, Ne, Lt, Le, Gt, Ge };
enum class ReduceOp : int32_t { Sum, Mean, Max, Min, Prod };

/// The offset in a buffer of flat index `flat` of a walk: the index split
/// into one per dim (row-major), each times the buffer's stride.
TESSEL_HOST_DEVICE inline int64_t
offsetOf(const Walk &walk, const Strides &strides, int64_t flat) {
  int64_t offset = 0;
  for (int32_t d = walk.rank - 1; d >= 0; --d) {
    int64_t size = walk.shape[d];
    offset += (flat % size) * strides.at[d];
    flat /= size;
  }
  return offset;
}

/// Tensors split into fibers: `outer` walks the fibers and `inner` the
/// elements of one. Each buffer has strides over both.
struct Fibers {
  Walk outer, inner;
  Strides outerIn, innerIn;   // the operand
  Strides outerOut, innerOut; // the result
  Strides outerAux;           // a second operand over the fibers (labels)
};

// Copy.cu --------------------------------------------------------------------

/// dst[walk index] = src[walk index], raw elements of `elementBytes` (1, 2,
/// 4 or 8) bytes: transposes, broadcasts, packing for collectives, slices.
void launchCopy(cudaStream_t stream, int elementBytes, const Walk &walk,
                void *dst, const Strides &dstStrides, const void *src,
                const Strides &srcStrides);

/// Sets `count` elements of `dst` to `value` rounded to `type`.
void launchFill(cudaStream_t stream, DType type, void *dst, int64_t count,
                double value);

/// Converts `count` dense elements from one type to another, rounding once.
void launchConvert(cudaStream_t stream, DType fromType, const void *src,
                   DType toType, void *dst, int64_t count);

// Elementwise.cu -------------------------------------------------------------

/// A dense result over `walk` from operands read through their strides.
void launchUnary(cudaStream_t stream, UnaryOp op, DType type, const Walk &walk,
                 const void *x, const Strides &xStrides, void *result);
void launchBinary(cudaStream_t stream, BinaryOp op, const Walk &walk,
                  DType aType, const void *a, const Strides &aStrides,
                  DType bType, const void *b, const Strides &bStrides,
                  DType resultType, void *result);
/// The result is i1 (one byte per element).
void launchCompare(cudaStream_t stream, CompareOp op, const Walk &walk,
                   DType aType, const void *a, const Strides &aStrides,
                   DType bType, const void *b, const Strides &bStrides,
                   void *result);
void launchSelect(cudaStream_t stream, const Walk &walk, DType condType,
                  const void *cond, const Strides &condStrides, DType aType,
                  const void *a, const Strides &aStrides, DType bType,
                  const void *b, const Strides &bStrides, DType resultType,
                  void *result);
/// result[..., c, ...] = labels[...] == c, over a walk of the result whose
/// dim `classDim` is the class; labels are read with the class stride 0.
void launchOneHot(cudaStream_t stream, const Walk &walk, int32_t classDim,
                  DType labelType, const void *labels,
                  const Strides &labelStrides, DType resultType, void *result);

/// result[i] = table[i's table offset + ids[i] * vocabStride], over a walk
/// of the result; the table is read with stride 0 along the ids' dims and
/// the ids with stride 0 along the table's. An id outside [0, vocab)
/// stores the first such result index in *badIndex (device memory, -1
/// before the call) and leaves the element unwritten.
void launchGather(cudaStream_t stream, const Walk &walk, DType type,
                  const void *table, const Strides &tableStrides,
                  int64_t vocabStride, int64_t vocab, DType idType,
                  const void *ids, const Strides &idStrides, void *result,
                  long long *badIndex);

// Fibers.cu ------------------------------------------------------------------

/// How many chunks launchReduce cuts each fiber into: 1 (one block per
/// fiber), or more when there are too few fibers to fill the GPU.
int64_t reduceChunks(const Fibers &fibers);
/// One result element per fiber: the reduction of its elements. With more
/// than one chunk per fiber, `partials` is device memory for
/// fibers.outer.count() * reduceChunks(fibers) doubles.
void launchReduce(cudaStream_t stream, ReduceOp op, const Fibers &fibers,
                  DType inType, const void *in, DType outType, void *out,
                  double *partials);
/// softmax or log_softmax along each fiber; in and out have one type.
void launchSoftmax(cudaStream_t stream, bool inLog, const Fibers &fibers,
                   DType type, const void *in, void *out);
/// (x - mean) / sqrt(var + epsilon) over each fiber.
void launchLayerNorm(cudaStream_t stream, const Fibers &fibers, DType type,
                     double epsilon, const void *in, void *out);
/// logsumexp(fiber) - fiber[label], one result per fiber; the label is read
/// through outerAux. A label outside [0, classes) stores the first such
/// fiber's index in *badFiber (device memory, -1 before the call).
void launchCrossEntropy(cudaStream_t stream, const Fibers &fibers,
                        DType logitsType, const void *logits, DType labelType,
                        const void *labels, DType outType, void *out,
                        long long *badFiber);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_LAUNCH_H
