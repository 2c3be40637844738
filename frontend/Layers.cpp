//===- Layers.cpp - layers traced into functions of the model -------------===//

#include "tessel/frontend/Layers.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

namespace tessel {

namespace {

/// The dimensions of `x` named by `names`, in that order.
Dims pick(const Tensor &x, const std::vector<std::string> &names,
          const std::string &layer) {
  Dims picked;
  for (const std::string &name : names) {
    if (!x.has(name))
      throw Error(fmt::format("{}: the input {} has no dimension '{}'", layer,
                              x.str(), name));
    picked.push_back(x.dim(name));
  }
  return picked;
}

/// Calls a one-input, one-result layer.
Tensor callUnary(const char *kind, const std::string &scope, const Tensor &x,
                 const std::function<Tensor(Model &, const Tensor &)> &body) {
  Model &model = Model::of(x);
  return model
      .callLayer(kind, scope, {x},
                 [&](const std::vector<Tensor> &args) -> std::vector<Tensor> {
                   return {body(model, args[0])};
                 })
      .front();
}

} // namespace

//===--- Linear ----------------------------------------------------------===//

Linear::Linear(std::string name, Dims out, std::vector<std::string> in,
               bool bias, Initializer init)
    : name(std::move(name)), out(std::move(out)), in(std::move(in)),
      bias(bias), init(init) {}

Tensor Linear::operator()(const Tensor &x) const {
  std::string what = fmt::format("Linear '{}'", name);
  Dims weightDims = pick(x, in, what);
  Dims resultDims = withoutDims(x.dims(), in);
  for (const Dim &dim : out) {
    for (const Dim &kept : resultDims)
      if (kept.name == dim.name)
        throw Error(fmt::format("{}: output dimension '{}' is already a "
                                "dimension of the input {}",
                                what, dim.name, x.str()));
    weightDims.push_back(dim);
    resultDims.push_back(dim);
  }
  return callUnary("Linear", name, x, [&](Model &model, const Tensor &input) {
    Tensor w = model.parameter("w", weightDims, init, input.dtype());
    Tensor y = einsum({input, w}, resultDims);
    if (bias)
      y = y + model.parameter("b", out, Initializer::zeros(), input.dtype());
    return y;
  });
}

//===--- Normalisation ---------------------------------------------------===//

LayerNorm::LayerNorm(std::string name, std::vector<std::string> dims,
                     double epsilon)
    : name(std::move(name)), dims(std::move(dims)), epsilon(epsilon) {}

Tensor LayerNorm::operator()(const Tensor &x) const {
  Dims over = pick(x, dims, fmt::format("LayerNorm '{}'", name));
  return callUnary("LayerNorm", name, x, [&](Model &model, const Tensor &in) {
    Tensor gamma = model.parameter("gamma", over, Initializer::ones(),
                                   in.dtype());
    Tensor beta = model.parameter("beta", over, Initializer::zeros(),
                                  in.dtype());
    return layerNorm(in, dims, epsilon) * gamma + beta;
  });
}

BatchNorm::BatchNorm(std::string name, std::string channels,
                     std::vector<std::string> over, double momentum,
                     double epsilon)
    : name(std::move(name)), channels(std::move(channels)),
      over(std::move(over)), momentum(momentum), epsilon(epsilon) {}

Tensor BatchNorm::operator()(const Tensor &x) const {
  std::string what = fmt::format("BatchNorm '{}'", name);
  Dims perChannel = pick(x, {channels}, what);
  Dims reduced = pick(x, over, what);
  if (over.empty())
    throw Error(fmt::format("{}: no dimensions to normalise over", what));
  for (const std::string &dim : over)
    if (dim == channels)
      throw Error(fmt::format("{}: the channel dimension '{}' is also one to "
                              "normalise over",
                              what, dim));
  if (x.dims().size() != over.size() + 1)
    throw Error(fmt::format("{}: the input {} has dimensions besides '{}' "
                            "and the ones normalised over",
                            what, x.str(), channels));
  if (momentum < 0 || momentum > 1)
    throw Error(fmt::format("{}: momentum {} is not in [0, 1]", what,
                            momentum));
  double count = 1;
  for (const Dim &dim : reduced)
    count *= static_cast<double>(dim.size);
  bool training = Model::of(x).training();
  return callUnary("BatchNorm", name, x, [&](Model &model, const Tensor &in) {
    Tensor gamma =
        model.parameter("gamma", perChannel, Initializer::ones(), in.dtype());
    Tensor beta =
        model.parameter("beta", perChannel, Initializer::zeros(), in.dtype());
    Tensor runningMean = model.buffer("running_mean", perChannel,
                                      Initializer::zeros(), in.dtype());
    Tensor runningVar = model.buffer("running_var", perChannel,
                                     Initializer::ones(), in.dtype());
    if (!training)
      return (in - runningMean) * rsqrt(runningVar + epsilon) * gamma + beta;
    Tensor mean = reduceMean(in, over);
    Tensor centered = in - mean;
    Tensor variance = reduceMean(centered * centered, over);
    double unbiased = count > 1 ? count / (count - 1) : 1.0;
    model.updateBuffer(runningMean,
                       runningMean * (1 - momentum) + mean * momentum);
    model.updateBuffer(runningVar, runningVar * (1 - momentum) +
                                       variance * (momentum * unbiased));
    return centered * rsqrt(variance + epsilon) * gamma + beta;
  });
}

RMSNorm::RMSNorm(std::string name, std::vector<std::string> dims,
                 double epsilon)
    : name(std::move(name)), dims(std::move(dims)), epsilon(epsilon) {}

Tensor RMSNorm::operator()(const Tensor &x) const {
  Dims over = pick(x, dims, fmt::format("RMSNorm '{}'", name));
  return callUnary("RMSNorm", name, x, [&](Model &model, const Tensor &in) {
    Tensor gamma = model.parameter("gamma", over, Initializer::ones(),
                                   in.dtype());
    Tensor meanSquare = reduceMean(in * in, dims);
    return in * rsqrt(meanSquare + epsilon) * gamma;
  });
}

//===--- Embedding -------------------------------------------------------===//

Embedding::Embedding(std::string name, Dim vocab, Dims features,
                     Initializer init)
    : name(std::move(name)), vocab(std::move(vocab)),
      features(std::move(features)), init(init) {}

Tensor Embedding::operator()(const Tensor &ids) const {
  Dims tableDims{vocab};
  tableDims.insert(tableDims.end(), features.begin(), features.end());
  return callUnary("Embedding", name, ids, [&](Model &model, const Tensor &in) {
    Tensor table = model.parameter("table", tableDims, init);
    return gather(table, in, vocab.name);
  });
}

Tensor Embedding::attend(const Tensor &x) const {
  std::vector<std::string> featureNames;
  for (const Dim &dim : features)
    featureNames.push_back(dim.name);
  pick(x, featureNames, fmt::format("Embedding '{}' attend", name));
  Dims tableDims{vocab};
  tableDims.insert(tableDims.end(), features.begin(), features.end());
  Dims resultDims = withoutDims(x.dims(), featureNames);
  resultDims.push_back(vocab);
  // The same scope and parameter name as the lookup: one shared table.
  return callUnary("Embedding.attend", name, x,
                   [&](Model &model, const Tensor &in) {
                     Tensor table =
                         model.parameter("table", tableDims, init, in.dtype());
                     return einsum({in, table}, resultDims);
                   });
}

//===--- MLP -------------------------------------------------------------===//

Tensor activate(Activation activation, const Tensor &x) {
  switch (activation) {
  case Activation::Relu:
    return relu(x);
  case Activation::Gelu:
    return gelu(x);
  case Activation::Tanh:
    return tanh(x);
  case Activation::Sigmoid:
    return sigmoid(x);
  }
  throw Error("unknown activation");
}

MLP::MLP(std::string name, Dim hidden, std::string in, Activation activation)
    : name(std::move(name)), hidden(std::move(hidden)), in(std::move(in)),
      activation(activation) {}

Tensor MLP::operator()(const Tensor &x) const {
  Dim features = pick(x, {in}, fmt::format("MLP '{}'", name)).front();
  return callUnary("MLP", name, x, [&](Model &, const Tensor &input) {
    Tensor h = Linear("up", {hidden}, {in})(input);
    return Linear("down", {features}, {hidden.name})(activate(activation, h));
  });
}

//===--- Attention -------------------------------------------------------===//

MultiHeadAttention::MultiHeadAttention(std::string name, Dim heads,
                                       Dim headDim, std::string model,
                                       std::string seq, std::string key,
                                       bool causal)
    : name(std::move(name)), heads(std::move(heads)),
      headDim(std::move(headDim)), model(std::move(model)),
      seq(std::move(seq)), key(std::move(key)), causal(causal) {}

Tensor MultiHeadAttention::operator()(const Tensor &x) const {
  std::string what = fmt::format("MultiHeadAttention '{}'", name);
  Dims picked = pick(x, {model, seq}, what);
  Dim features = picked[0];
  Dim positions = picked[1];
  Dim keys = positions.renamed(key);
  if (x.has(key))
    throw Error(fmt::format("{}: the key dimension '{}' is already a "
                            "dimension of the input {}",
                            what, key, x.str()));
  return callUnary(
      "MultiHeadAttention", name, x, [&](Model &, const Tensor &input) {
        auto projected = [&](const char *scope) {
          return Linear(scope, {heads, headDim}, {model}, /*bias=*/false)(
              input);
        };
        Tensor q = projected("q");
        Tensor k = rename(projected("k"), seq, key);
        Tensor v = rename(projected("v"), seq, key);
        Tensor attention =
            dotProductAttention(q, k, v, seq, key, headDim.name, causal);
        return Linear("o", {features}, {heads.name, headDim.name},
                      /*bias=*/false)(attention);
      });
}

namespace {

/// softmax over `key` of q.k / sqrt(|headDim|), with the scores where
/// `visible()` (an i1 tensor over some of their dims) is false hidden,
/// times v; the result has q's dimensions. `visible` is called after the
/// scores are built, so that every caller traces its ops in one order.
Tensor attend(const Tensor &q, const Tensor &k, const Tensor &v,
              const std::string &key, const std::string &headDim,
              const std::function<std::optional<Tensor>()> &visible) {
  const char *what = "dot-product attention";
  Dim scale = pick(q, {headDim}, what).front();
  Dim keys = pick(k, {key}, what).front();
  Dims scoreDims = withoutDims(q.dims(), {headDim});
  scoreDims.push_back(keys);
  Tensor scores = einsum({q, k}, scoreDims) *
                  (1.0 / std::sqrt(static_cast<double>(scale.size)));
  if (std::optional<Tensor> mask = visible()) {
    Tensor hidden = constant(Model::of(q), -1e9, {}, scores.dtype());
    scores = where(*mask, scores, hidden);
  }
  return einsum({softmax(scores, key), v}, q.dims());
}

} // namespace

Tensor dotProductAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                           const std::string &seq, const std::string &key,
                           const std::string &headDim, bool causal) {
  const char *what = "dot-product attention";
  Dim positions = pick(q, {seq}, what).front();
  Dim keys = pick(k, {key}, what).front();
  return attend(q, k, v, key, headDim, [&]() -> std::optional<Tensor> {
    if (!causal)
      return std::nullopt;
    Model &model = Model::of(q);
    Tensor queryIndex = iota(model, {positions, keys}, seq);
    Tensor keyIndex = iota(model, {positions, keys}, key);
    // Ops in a fixed order (not C++'s unspecified argument order), so that
    // every build traces the same function.
    return compare(Comparison::Ge, queryIndex, keyIndex);
  });
}

std::pair<Tensor, KVCache>
cachedAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                const KVCache &cache, const Tensor &position,
                const std::string &key, const std::string &headDim) {
  const char *what = "cached attention";
  // The position indexes the cache's key dimension (an integer iota).
  if (!position.dims().empty() ||
      (position.dtype() != DType::I32 && position.dtype() != DType::I64))
    throw Error(fmt::format("{}: the position {} is not an i32 or i64 scalar",
                            what, position.str()));
  Dim keys = pick(cache.k, {key}, what).front();
  Dims perPosition = withoutDims(cache.k.dims(), {key});
  auto fits = [&](const Tensor &fresh) {
    if (fresh.dims().size() != perPosition.size())
      return false;
    for (const Dim &dim : perPosition)
      if (!fresh.has(dim.name) || fresh.dim(dim.name) != dim)
        return false;
    return true;
  };
  for (const Tensor *fresh : {&k, &v})
    if (!fits(*fresh))
      throw Error(fmt::format("{}: the new key or value {} is not the cache "
                              "{} without '{}'",
                              what, fresh->str(), cache.k.str(), key));
  if (cache.v.dims() != cache.k.dims())
    throw Error(fmt::format("{}: the value cache {} is not like the key "
                            "cache {}",
                            what, cache.v.str(), cache.k.str()));
  // The cache keeps every position but this one, where the new key and
  // value go (a select, so the kept ones are bit for bit the same); the
  // result is stored like the cache.
  Tensor index = iota(Model::of(q), {keys}, key, position.dtype());
  Tensor elsewhere = compare(Comparison::Ne, index, position);
  Tensor keysSoFar = where(elsewhere, cache.k, k);
  Tensor valuesSoFar = where(elsewhere, cache.v, v);
  Tensor attention = attend(q, keysSoFar, valuesSoFar, key, headDim, [&] {
    return std::optional<Tensor>(compare(Comparison::Le, index, position));
  });
  return {attention, KVCache{keysSoFar, valuesSoFar}};
}

Dims MultiHeadAttention::cacheDims(const Dims &batch, int64_t positions) const {
  Dims dims = batch;
  dims.push_back(Dim(key, positions));
  dims.push_back(heads);
  dims.push_back(headDim);
  return dims;
}

std::pair<Tensor, KVCache>
MultiHeadAttention::step(const Tensor &x, const Tensor &position,
                         const KVCache &cache) const {
  std::string what = fmt::format("MultiHeadAttention '{}' step", name);
  if (!causal)
    throw Error(fmt::format("{}: decoding one position at a time needs a "
                            "causal attention",
                            what));
  Dim features = pick(x, {model}, what).front();
  if (x.has(seq))
    throw Error(fmt::format("{}: the input {} has the sequence dimension "
                            "'{}'; a step takes one position",
                            what, x.str(), seq));
  if (!position.dims().empty() ||
      (position.dtype() != DType::I32 && position.dtype() != DType::I64))
    throw Error(fmt::format("{}: the position {} is not an i32 or i64 scalar",
                            what, position.str()));
  if (!cache.k.valid() || !cache.v.valid())
    throw Error(fmt::format("{}: the cache has no keys or no values", what));
  if (!cache.k.has(key))
    throw Error(fmt::format("{}: the cache {} has no key dimension '{}'", what,
                            cache.k.str(), key));
  Dims expected =
      cacheDims(withoutDims(x.dims(), {model}), cache.k.dim(key).size);
  for (const Tensor *part : {&cache.k, &cache.v})
    if (part->dims() != expected)
      throw Error(fmt::format("{}: the cache {} is not {} (the input's "
                              "dimensions but '{}', then '{}', '{}', '{}')",
                              what, part->str(), formatDims(expected), model,
                              key, heads.name, headDim.name));
  std::vector<Tensor> results = Model::of(x).callLayer(
      "MultiHeadAttention.step", name, {x, position, cache.k, cache.v},
      [&](const std::vector<Tensor> &in) {
        const Tensor &input = in[0], &at = in[1];
        auto projected = [&](const char *scope) {
          return Linear(scope, {heads, headDim}, {model},
                        /*bias=*/false)(input);
        };
        Tensor q = projected("q");
        Tensor k = projected("k");
        Tensor v = projected("v");
        auto [attention, updated] =
            cachedAttention(q, k, v, {in[2], in[3]}, at, key, headDim.name);
        Tensor y = Linear("o", {features}, {heads.name, headDim.name},
                          /*bias=*/false)(attention);
        return std::vector<Tensor>{y, updated.k, updated.v};
      });
  return {results[0], KVCache{results[1], results[2]}};
}

//===--- Convolution -----------------------------------------------------===//

Conv2d::Conv2d(std::string name, Dim out, std::string in,
               std::array<std::string, 2> spatial, int64_t kernelSize,
               int64_t stride, int64_t padding, int64_t groups)
    : name(std::move(name)), out(std::move(out)), in(std::move(in)),
      spatial(std::move(spatial)), kernelSize(kernelSize), stride(stride),
      padding(padding), groups(groups) {}

Tensor Conv2d::operator()(const Tensor &x) const {
  std::string what = fmt::format("Conv2d '{}'", name);
  Dim channels = pick(x, {in}, what).front();
  pick(x, {spatial[0], spatial[1]}, what);
  std::array<std::string, 2> kernel{spatial[0] + "_k", spatial[1] + "_k"};
  if (groups < 1 || channels.size % groups != 0 || out.size % groups != 0)
    throw Error(fmt::format("{}: groups {} must be positive and divide the "
                            "{} input and {} output channels",
                            what, groups, channels.size, out.size));
  // Each output group sees channels / groups inputs.
  channels.size /= groups;
  Dims filterDims{channels, out, Dim(kernel[0], kernelSize),
                  Dim(kernel[1], kernelSize)};
  // PyTorch's default: uniform in +-1/sqrt(fan_in).
  double bound =
      1.0 / std::sqrt(static_cast<double>(channels.size * kernelSize *
                                          kernelSize));
  return callUnary("Conv2d", name, x, [&](Model &model, const Tensor &input) {
    Tensor filter = model.parameter("w", filterDims,
                                    Initializer::uniform(bound), input.dtype());
    Conv2dOptions options;
    options.strides = {stride, stride};
    options.padding = {padding, padding, padding, padding};
    options.groups = groups;
    Tensor y = conv2d(input, filter, in, out.name, spatial, kernel, options);
    return y + model.parameter("b", {out}, Initializer::zeros(), input.dtype());
  });
}

} // namespace tessel
