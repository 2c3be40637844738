//===- Fibers.cu - Reductions, softmax, layer norm, cross-entropy ---------===//
//
// Each of these ops works on fibers: the elements that share an index on
// every dim but the reduced ones. One block handles one fiber (the grid
// strides over fibers): its threads stride over the fiber's elements and
// combine their partial results in shared memory, in double, following
// Reductions.cpp's formulas (max subtracted before exp, population
// variance). The order of additions differs from the reference's loop, so
// results agree to double rounding before the final rounding to the type.
//
// A reduction with few long fibers (a gradient's sum of squares, one result
// from a million elements) would leave all but a few SMs idle and one block
// walking the whole tensor: it runs in two passes instead, each fiber cut
// into chunks that blocks reduce to partials side by side, then one block
// per fiber combining its partials in chunk order (the same order on every
// run, so results stay reproducible).
//
//===----------------------------------------------------------------------===//

#include "gpu/Elements.h"

namespace tessel::runtime::gpu {

namespace {

__device__ double identityOf(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
  case ReduceOp::Mean:
    return 0.0;
  case ReduceOp::Max:
    return -INFINITY;
  case ReduceOp::Min:
    return INFINITY;
  case ReduceOp::Prod:
    return 1.0;
  }
  return 0.0;
}

/// ref::reductionCombine: Max and Min propagate NaN.
__device__ double combine(ReduceOp op, double acc, double value) {
  switch (op) {
  case ReduceOp::Sum:
  case ReduceOp::Mean:
    return acc + value;
  case ReduceOp::Max:
    return (isnan(acc) || isnan(value)) ? nan("") : (value > acc ? value : acc);
  case ReduceOp::Min:
    return (isnan(acc) || isnan(value)) ? nan("") : (value < acc ? value : acc);
  case ReduceOp::Prod:
    return acc * value;
  }
  return acc;
}

/// Combines every thread's `value` across the block; all threads get the
/// result. `scratch` holds kBlock doubles.
__device__ double blockCombine(ReduceOp op, double value, double *scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      scratch[threadIdx.x] =
          combine(op, scratch[threadIdx.x], scratch[threadIdx.x + half]);
    __syncthreads();
  }
  double result = scratch[0];
  __syncthreads();
  return result;
}

#define TESSEL_FIBER_LOOP(fiber, fibers)                                       \
  for (int64_t fiber = blockIdx.x; fiber < (fibers).outer.count();             \
       fiber += gridDim.x)
#define TESSEL_ELEMENT_LOOP(j, fibers)                                         \
  for (int64_t j = threadIdx.x; j < (fibers).inner.count(); j += blockDim.x)

__global__ void reduceKernel(ReduceOp op, Fibers fibers, DType inType,
                             const void *in, DType outType, void *out) {
  __shared__ double scratch[kBlock];
  TESSEL_FIBER_LOOP(fiber, fibers) {
    int64_t base = offsetOf(fibers.outer, fibers.outerIn, fiber);
    double acc = identityOf(op);
    TESSEL_ELEMENT_LOOP(j, fibers) {
      acc = combine(
          op, acc,
          load(inType, in, base + offsetOf(fibers.inner, fibers.innerIn, j)));
    }
    acc = blockCombine(op, acc, scratch);
    if (op == ReduceOp::Mean)
      acc /= static_cast<double>(fibers.inner.count());
    if (threadIdx.x == 0)
      store(outType, out, offsetOf(fibers.outer, fibers.outerOut, fiber), acc);
  }
}

/// Pass one of a chunked reduction: partials[fiber * chunks + chunk], the
/// combination of one chunk of one fiber's elements (Mean's division waits
/// for pass two).
__global__ void reduceChunksKernel(ReduceOp op, Fibers fibers, int64_t chunks,
                                   DType inType, const void *in,
                                   double *partials) {
  __shared__ double scratch[kBlock];
  int64_t inner = fibers.inner.count();
  int64_t chunkLength = (inner + chunks - 1) / chunks;
  for (int64_t item = blockIdx.x; item < fibers.outer.count() * chunks;
       item += gridDim.x) {
    int64_t fiber = item / chunks, chunk = item % chunks;
    int64_t base = offsetOf(fibers.outer, fibers.outerIn, fiber);
    int64_t end = (chunk + 1) * chunkLength < inner ? (chunk + 1) * chunkLength
                                                     : inner;
    double acc = identityOf(op);
    for (int64_t j = chunk * chunkLength + threadIdx.x; j < end; j += blockDim.x)
      acc = combine(
          op, acc,
          load(inType, in, base + offsetOf(fibers.inner, fibers.innerIn, j)));
    acc = blockCombine(op, acc, scratch);
    if (threadIdx.x == 0)
      partials[item] = acc;
  }
}

/// Pass two: each fiber's result from its chunks' partials.
__global__ void combineChunksKernel(ReduceOp op, Fibers fibers, int64_t chunks,
                                    const double *partials, DType outType,
                                    void *out) {
  __shared__ double scratch[kBlock];
  TESSEL_FIBER_LOOP(fiber, fibers) {
    double acc = identityOf(op);
    for (int64_t chunk = threadIdx.x; chunk < chunks; chunk += blockDim.x)
      acc = combine(op, acc, partials[fiber * chunks + chunk]);
    acc = blockCombine(op, acc, scratch);
    if (op == ReduceOp::Mean)
      acc /= static_cast<double>(fibers.inner.count());
    if (threadIdx.x == 0)
      store(outType, out, offsetOf(fibers.outer, fibers.outerOut, fiber), acc);
  }
}

__global__ void softmaxKernel(bool inLog, Fibers fibers, DType type,
                              const void *in, void *out) {
  __shared__ double scratch[kBlock];
  TESSEL_FIBER_LOOP(fiber, fibers) {
    int64_t inBase = offsetOf(fibers.outer, fibers.outerIn, fiber);
    int64_t outBase = offsetOf(fibers.outer, fibers.outerOut, fiber);
    double maximum = -INFINITY;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      double x =
          load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j));
      maximum = fmax(maximum, x);
    }
    maximum = blockCombine(ReduceOp::Max, maximum, scratch);
    double sum = 0.0;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      sum += exp(
          load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j)) -
          maximum);
    }
    sum = blockCombine(ReduceOp::Sum, sum, scratch);
    double logSum = log(sum);
    TESSEL_ELEMENT_LOOP(j, fibers) {
      double shifted =
          load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j)) -
          maximum;
      store(type, out, outBase + offsetOf(fibers.inner, fibers.innerOut, j),
            inLog ? shifted - logSum : exp(shifted) / sum);
    }
  }
}

__global__ void layerNormKernel(Fibers fibers, DType type, double epsilon,
                                const void *in, void *out) {
  __shared__ double scratch[kBlock];
  double count = static_cast<double>(fibers.inner.count());
  TESSEL_FIBER_LOOP(fiber, fibers) {
    int64_t inBase = offsetOf(fibers.outer, fibers.outerIn, fiber);
    int64_t outBase = offsetOf(fibers.outer, fibers.outerOut, fiber);
    double sum = 0.0;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      sum += load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j));
    }
    double mean = blockCombine(ReduceOp::Sum, sum, scratch) / count;
    double squares = 0.0;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      double deviation =
          load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j)) -
          mean;
      squares += deviation * deviation;
    }
    double variance = blockCombine(ReduceOp::Sum, squares, scratch) / count;
    double scale = 1.0 / sqrt(variance + epsilon);
    TESSEL_ELEMENT_LOOP(j, fibers) {
      double x =
          load(type, in, inBase + offsetOf(fibers.inner, fibers.innerIn, j));
      store(type, out, outBase + offsetOf(fibers.inner, fibers.innerOut, j),
            (x - mean) * scale);
    }
  }
}

__global__ void crossEntropyKernel(Fibers fibers, DType logitsType,
                                   const void *logits, DType labelType,
                                   const void *labels, DType outType, void *out,
                                   long long *badFiber) {
  __shared__ double scratch[kBlock];
  int64_t classes = fibers.inner.count();
  TESSEL_FIBER_LOOP(fiber, fibers) {
    int64_t base = offsetOf(fibers.outer, fibers.outerIn, fiber);
    double label =
        load(labelType, labels, offsetOf(fibers.outer, fibers.outerAux, fiber));
    if (!(label >= 0.0 && label < static_cast<double>(classes))) {
      if (threadIdx.x == 0)
        atomicCAS(reinterpret_cast<unsigned long long *>(badFiber),
                  static_cast<unsigned long long>(-1LL),
                  static_cast<unsigned long long>(fiber));
      continue;
    }
    double maximum = -INFINITY;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      maximum =
          fmax(maximum, load(logitsType, logits,
                             base + offsetOf(fibers.inner, fibers.innerIn, j)));
    }
    maximum = blockCombine(ReduceOp::Max, maximum, scratch);
    double sum = 0.0;
    TESSEL_ELEMENT_LOOP(j, fibers) {
      sum += exp(load(logitsType, logits,
                      base + offsetOf(fibers.inner, fibers.innerIn, j)) -
                 maximum);
    }
    sum = blockCombine(ReduceOp::Sum, sum, scratch);
    if (threadIdx.x == 0) {
      double picked = load(logitsType, logits,
                           base + offsetOf(fibers.inner, fibers.innerIn,
                                           static_cast<int64_t>(label)));
      store(outType, out, offsetOf(fibers.outer, fibers.outerOut, fiber),
            maximum + log(sum) - picked);
    }
  }
}

unsigned fiberBlocks(const Fibers &fibers) {
  int64_t count = fibers.outer.count();
  return static_cast<unsigned>(count < 1 ? 1 : (count > 65535 ? 65535 : count));
}

} // namespace

int64_t reduceChunks(const Fibers &fibers) {
  // Enough fibers to give every SM of the largest GPUs a few blocks: one
  // block per fiber is best. Otherwise about kChunkElements elements per
  // block (16 per thread), at most kMaxChunks chunks per fiber.
  constexpr int64_t kEnoughFibers = 512, kChunkElements = 16 * kBlock,
                    kMaxChunks = 1024;
  int64_t outer = fibers.outer.count(), inner = fibers.inner.count();
  if (outer >= kEnoughFibers || inner <= 2 * kChunkElements)
    return 1;
  int64_t chunks = (inner + kChunkElements - 1) / kChunkElements;
  return chunks < kMaxChunks ? chunks : kMaxChunks;
}

void launchReduce(cudaStream_t stream, ReduceOp op, const Fibers &fibers,
                  DType inType, const void *in, DType outType, void *out,
                  double *partials) {
  if (fibers.outer.count() == 0)
    return;
  int64_t chunks = reduceChunks(fibers);
  if (chunks == 1) {
    reduceKernel<<<fiberBlocks(fibers), kBlock, 0, stream>>>(op, fibers, inType,
                                                             in, outType, out);
    return;
  }
  reduceChunksKernel<<<blocksFor(fibers.outer.count() * chunks * kBlock),
                       kBlock, 0, stream>>>(op, fibers, chunks, inType, in,
                                            partials);
  combineChunksKernel<<<fiberBlocks(fibers), kBlock, 0, stream>>>(
      op, fibers, chunks, partials, outType, out);
}

void launchSoftmax(cudaStream_t stream, bool inLog, const Fibers &fibers,
                   DType type, const void *in, void *out) {
  if (fibers.outer.count() > 0 && fibers.inner.count() > 0)
    softmaxKernel<<<fiberBlocks(fibers), kBlock, 0, stream>>>(inLog, fibers,
                                                              type, in, out);
}

void launchLayerNorm(cudaStream_t stream, const Fibers &fibers, DType type,
                     double epsilon, const void *in, void *out) {
  if (fibers.outer.count() > 0 && fibers.inner.count() > 0)
    layerNormKernel<<<fiberBlocks(fibers), kBlock, 0, stream>>>(
        fibers, type, epsilon, in, out);
}

void launchCrossEntropy(cudaStream_t stream, const Fibers &fibers,
                        DType logitsType, const void *logits, DType labelType,
                        const void *labels, DType outType, void *out,
                        long long *badFiber) {
  if (fibers.outer.count() > 0)
    crossEntropyKernel<<<fiberBlocks(fibers), kBlock, 0, stream>>>(
        fibers, logitsType, logits, labelType, labels, outType, out, badFiber);
}

} // namespace tessel::runtime::gpu
