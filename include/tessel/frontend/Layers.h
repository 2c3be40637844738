//===- Layers.h - reusable layers of the front end ---------------*- C++ -*-===//
//
// Each layer is a small value holding its hyperparameters and a name; its
// call operator traces the layer into a private function of the model and
// calls it with the name as scope, so its weights are `<name>.w`, ... Two
// layers with the same name share their weights (a tied embedding).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_LAYERS_H
#define TESSEL_FRONTEND_LAYERS_H

#include "tessel/frontend/Ops.h"

#include <utility>

namespace tessel {

/// x . w + b: contracts the dimensions `in` of x into `out`.
struct Linear {
  Linear(std::string name, Dims out, std::vector<std::string> in,
         bool bias = true, Initializer init = Initializer::normal(0.02));
  Tensor operator()(const Tensor &x) const;

  std::string name;
  Dims out;
  std::vector<std::string> in;
  bool bias;
  Initializer init;
};

/// Layer normalisation over `dims` with a learned scale and bias.
struct LayerNorm {
  LayerNorm(std::string name, std::vector<std::string> dims,
            double epsilon = 1e-5);
  Tensor operator()(const Tensor &x) const;

  std::string name;
  std::vector<std::string> dims;
  double epsilon;
};

/// Root-mean-square normalisation over `dims` with a learned scale.
struct RMSNorm {
  RMSNorm(std::string name, std::vector<std::string> dims,
          double epsilon = 1e-6);
  Tensor operator()(const Tensor &x) const;

  std::string name;
  std::vector<std::string> dims;
  double epsilon;
};

/// A lookup table over `vocab`: ids -> rows of `features`. `attend`
/// multiplies activations with the same table (tied output projection).
struct Embedding {
  Embedding(std::string name, Dim vocab, Dims features,
            Initializer init = Initializer::normal(0.02));
  Tensor operator()(const Tensor &ids) const;
  /// Logits over `vocab`: contracts x's `features` with the table.
  Tensor attend(const Tensor &x) const;

  std::string name;
  Dim vocab;
  Dims features;
  Initializer init;
};

/// Batch normalisation of each `channels` index over `over` (say ["batch",
/// "h", "w"]), with a learned scale and bias. Traced for training, it
/// normalises with the batch's mean and (biased) variance and updates the
/// buffers `running_mean` and `running_var`: r' = (1 - momentum) r +
/// momentum s, the variance's s unbiased (n / (n - 1)), as in PyTorch.
/// Traced for evaluation (Model::training() false: `evaluate`), it
/// normalises with the running statistics.
struct BatchNorm {
  BatchNorm(std::string name, std::string channels,
            std::vector<std::string> over, double momentum = 0.1,
            double epsilon = 1e-5);
  Tensor operator()(const Tensor &x) const;

  std::string name;
  std::string channels;
  std::vector<std::string> over;
  double momentum;
  double epsilon;
};

enum class Activation { Relu, Gelu, Tanh, Sigmoid };
Tensor activate(Activation activation, const Tensor &x);

/// Two Linear layers with an activation between: `in` -> `hidden` -> `in`.
struct MLP {
  MLP(std::string name, Dim hidden, std::string in,
      Activation activation = Activation::Gelu);
  Tensor operator()(const Tensor &x) const;

  std::string name;
  Dim hidden;
  std::string in;
  Activation activation;
};

/// Scaled dot-product attention: softmax over `key` of q.k / sqrt(|headDim|),
/// times v. `q` has the query positions `seq` and `headDim`; `k` and `v`
/// name their positions `key`. With `causal`, the query at position i sees
/// the keys at positions <= i. The result has q's dimensions. No weights:
/// the core of MultiHeadAttention, for attention layers of one's own (a
/// rotary one, say).
Tensor dotProductAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                           const std::string &seq, const std::string &key,
                           const std::string &headDim, bool causal = true);

/// The keys and values an attention layer has seen while decoding, one
/// position at a time: each `[batch..., key, heads, head_dim]`, zeros at the
/// positions not yet written (MultiHeadAttention::cacheDims).
struct KVCache {
  Tensor k;
  Tensor v;
};

/// One position's attention over a key/value cache: writes this position's
/// `k` and `v` (the cache's dimensions without `key`) into `cache` at
/// `position` (an integer scalar), then attends `q` (with `headDim`) to the
/// cache's positions <= `position`, as dotProductAttention's causal mask
/// does. Returns the attention (q's dimensions) and the updated cache. No
/// weights: the core of MultiHeadAttention::step, for attention layers of
/// one's own (a rotary one, say).
std::pair<Tensor, KVCache>
cachedAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                const KVCache &cache, const Tensor &position,
                const std::string &key, const std::string &headDim);

/// Multi-head self-attention over the sequence dimension `seq` (keys and
/// values use `key`, a renamed copy), features `model` in and out.
struct MultiHeadAttention {
  MultiHeadAttention(std::string name, Dim heads, Dim headDim,
                     std::string model, std::string seq,
                     std::string key = "key", bool causal = true);
  Tensor operator()(const Tensor &x) const;

  /// One decoding step with a key/value cache: `x` holds one position's
  /// features (`model`, no `seq`), `position` is that position (an integer
  /// scalar) and `cache` the keys and values of the positions before it.
  /// Writes this position's key and value into the cache at `position`,
  /// attends to the positions <= `position`, and returns the output (x's
  /// dimensions) and the updated cache. Fed positions 0, 1, ... in turn, it
  /// computes at each what operator() computes there, with the same
  /// weights, at the cost of one position instead of the whole prefix.
  std::pair<Tensor, KVCache> step(const Tensor &x, const Tensor &position,
                                  const KVCache &cache) const;
  /// The dimensions of a cache for `positions` positions (the longest
  /// sequence) and the leading dimensions `batch`.
  Dims cacheDims(const Dims &batch, int64_t positions) const;

  std::string name;
  Dim heads;
  Dim headDim;
  std::string model;
  std::string seq;
  std::string key;
  bool causal;
};

/// 2-D convolution with a bias: `in` channels -> `out`, square kernel;
/// `groups` > 1 makes it grouped (depthwise with groups = in channels).
struct Conv2d {
  Conv2d(std::string name, Dim out, std::string in,
         std::array<std::string, 2> spatial, int64_t kernelSize,
         int64_t stride = 1, int64_t padding = 0, int64_t groups = 1);
  Tensor operator()(const Tensor &x) const;

  std::string name;
  Dim out;
  std::string in;
  std::array<std::string, 2> spatial;
  int64_t kernelSize;
  int64_t stride;
  int64_t padding;
  int64_t groups;
};

} // namespace tessel

#endif // TESSEL_FRONTEND_LAYERS_H
