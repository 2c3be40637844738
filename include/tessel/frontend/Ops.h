//===- Ops.h - the model-level ops of the front end -------------*- C++ -*-===//
//
// One function per tessel op. Each infers its result's dimensions from the
// operands' names, checks what the op's verifier checks (and says which
// dimension is at fault), and appends the op to the function being
// defined. The op reference (docs/dialect/ModelOps.md) gives each op's
// exact semantics.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_OPS_H
#define TESSEL_FRONTEND_OPS_H

#include "tessel/frontend/Model.h"

#include <array>

namespace tessel {

//===--- Sources ---------------------------------------------------------===//

/// A constant filled with `value`; rank 0 unless `dims` are given.
Tensor constant(Model &model, double value, const Dims &dims = {},
                DType dtype = DType::F32);
/// Each element's index along `along` (one of `dims`).
Tensor iota(Model &model, const Dims &dims, const std::string &along,
            DType dtype = DType::I32);

//===--- Contractions ----------------------------------------------------===//

/// Multiplies the inputs and sums over every dimension missing from `out`.
/// `einsum({x, w}, {batch, hidden})` is a dense layer's product.
Tensor einsum(const std::vector<Tensor> &inputs, const Dims &out);

//===--- Element-wise ----------------------------------------------------===//

Tensor add(const Tensor &lhs, const Tensor &rhs);
Tensor sub(const Tensor &lhs, const Tensor &rhs);
Tensor mul(const Tensor &lhs, const Tensor &rhs);
Tensor div(const Tensor &lhs, const Tensor &rhs);
Tensor maximum(const Tensor &lhs, const Tensor &rhs);
Tensor minimum(const Tensor &lhs, const Tensor &rhs);
Tensor pow(const Tensor &lhs, const Tensor &rhs);

Tensor neg(const Tensor &x);
Tensor abs(const Tensor &x);
Tensor exp(const Tensor &x);
Tensor log(const Tensor &x);
Tensor sqrt(const Tensor &x);
Tensor rsqrt(const Tensor &x);
Tensor tanh(const Tensor &x);
Tensor sigmoid(const Tensor &x);
Tensor relu(const Tensor &x);
Tensor gelu(const Tensor &x);
Tensor erf(const Tensor &x);
Tensor sin(const Tensor &x);
Tensor cos(const Tensor &x);

enum class Comparison { Eq, Ne, Lt, Le, Gt, Ge };
/// An i1 tensor over the union of the operands' dimensions.
Tensor compare(Comparison kind, const Tensor &lhs, const Tensor &rhs);
/// `condition ? onTrue : onFalse`, broadcast by name.
Tensor where(const Tensor &condition, const Tensor &onTrue,
             const Tensor &onFalse);
Tensor cast(const Tensor &x, DType dtype);
/// Repeats `x` along the dimensions of `dims` it lacks.
Tensor broadcast(const Tensor &x, const Dims &dims);

//===--- Reductions, normalisation, losses -------------------------------===//

enum class Reduction { Sum, Mean, Max, Min, Prod };
/// Reduces the named dimensions (all of them when `dims` is empty).
Tensor reduce(Reduction kind, const Tensor &x,
              const std::vector<std::string> &dims = {});
Tensor reduceSum(const Tensor &x, const std::vector<std::string> &dims = {});
Tensor reduceMean(const Tensor &x, const std::vector<std::string> &dims = {});
Tensor reduceMax(const Tensor &x, const std::vector<std::string> &dims = {});

Tensor softmax(const Tensor &x, const std::string &dim);
Tensor logSoftmax(const Tensor &x, const std::string &dim);
/// The inclusive prefix sum along `dim` (the suffix sum with `reverse`).
Tensor cumsum(const Tensor &x, const std::string &dim, bool reverse = false);
/// The index along `dim` of each maximum (the first of equal ones), as an
/// i32 tensor over the other dimensions; it has no gradient.
Tensor argmax(const Tensor &x, const std::string &dim);
/// Inverted dropout: with `training`, zeroes each element with probability
/// `rate` and scales the others by 1 / (1 - rate); without, returns `x`.
/// The mask is a function of (`seed`, the value of the scalar integer
/// `step`, each element's global index), so every layout draws the same
/// one; declare `step` as an input named "dropout_step" (an i32 or i64
/// scalar), which `tessel run` sets to the step's number. Give each dropout
/// its own seed (a layer's scope is mixed in when it is inlined).
Tensor dropout(const Tensor &x, double rate, const Tensor &step,
               int64_t seed = 0, bool training = true);
/// The k largest elements along a dimension and their indices.
struct TopK {
  /// x's dimensions with `dim` replaced by `outDim` (of size k).
  Tensor values;
  /// The same dimensions, i32: each value's index along `dim`.
  Tensor indices;
};
/// The `k` largest elements along `dim`, largest first (equal ones by their
/// index, NaN first), and their indices; `dim` is replaced by the new
/// dimension `outDim` of size k. The values have a gradient (dy goes back
/// to the chosen elements), the indices none.
TopK topK(const Tensor &x, const std::string &dim, int64_t k,
          const std::string &outDim);
/// Normalises to zero mean and unit variance over `dims` (no scale/bias).
Tensor layerNorm(const Tensor &x, const std::vector<std::string> &dims,
                 double epsilon = 1e-5);
/// Softmax cross-entropy of `logits` against integer `labels` over the
/// class dimension `dim`: one loss per label.
Tensor crossEntropy(const Tensor &logits, const Tensor &labels,
                    const std::string &dim);

//===--- Convolution and pooling -----------------------------------------===//

struct Conv2dOptions {
  std::array<int64_t, 2> strides{1, 1};
  /// low_h, high_h, low_w, high_w.
  std::array<int64_t, 4> padding{0, 0, 0, 0};
  std::array<int64_t, 2> dilations{1, 1};
  /// Grouped convolution: the channels split into `groups` groups, each
  /// output group seeing only its input group; the filter's inChannel then
  /// has the size inChannel / groups (1 for depthwise, groups = channels).
  int64_t groups = 1;
};
/// Cross-correlation of `x` (with `inChannel` and the two `spatial` dims)
/// with `filter` ([inChannel, outChannel, kernel[0], kernel[1]]; inChannel
/// of size channels / options.groups).
Tensor conv2d(const Tensor &x, const Tensor &filter,
              const std::string &inChannel, const std::string &outChannel,
              const std::array<std::string, 2> &spatial,
              const std::array<std::string, 2> &kernel,
              const Conv2dOptions &options = {});

enum class Pooling { Max, Avg };
Tensor pool(Pooling kind, const Tensor &x,
            const std::array<std::string, 2> &spatial,
            std::array<int64_t, 2> window, std::array<int64_t, 2> strides,
            std::array<int64_t, 4> padding = {0, 0, 0, 0});

//===--- Lookups ---------------------------------------------------------===//

/// Rows of `table` picked along `dim` by the integer `ids`.
Tensor gather(const Tensor &table, const Tensor &ids, const std::string &dim);
/// Adds `dim`: 1 where its index equals the id, 0 elsewhere.
Tensor oneHot(const Tensor &ids, const Dim &dim, DType dtype = DType::F32);

//===--- Shapes ----------------------------------------------------------===//

Tensor rename(const Tensor &x, const std::string &from, const std::string &to);
/// Reinterprets the elements (row-major) as `dims`.
Tensor reshape(const Tensor &x, const Dims &dims);
/// Stores the dimensions in the order of `order`.
Tensor transpose(const Tensor &x, const std::vector<std::string> &order);
/// `size` elements of `dim` from `start`.
Tensor slice(const Tensor &x, const std::string &dim, int64_t start,
             int64_t size);
Tensor concat(const std::vector<Tensor> &inputs, const std::string &dim);
Tensor pad(const Tensor &x, const std::string &dim, int64_t low, int64_t high,
           double value = 0.0);

} // namespace tessel

#endif // TESSEL_FRONTEND_OPS_H
