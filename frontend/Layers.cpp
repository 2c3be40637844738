//===- Layers.cpp - layers traced into functions of the model -------------===//

#include "tessel/frontend/Layers.h"

#include <fmt/format.h>

#include <cmath>

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

Tensor dotProductAttention(const Tensor &q, const Tensor &k, const Tensor &v,
                           const std::string &seq, const std::string &key,
                           const std::string &headDim, bool causal) {
  const char *what = "dot-product attention";
  Dim positions = pick(q, {seq}, what).front();
  Dim scale = pick(q, {headDim}, what).front();
  Dim keys = pick(k, {key}, what).front();
  Dims scoreDims = withoutDims(q.dims(), {headDim});
  scoreDims.push_back(keys);
  Tensor scores = einsum({q, k}, scoreDims) *
                  (1.0 / std::sqrt(static_cast<double>(scale.size)));
  if (causal) {
    Model &model = Model::of(q);
    Tensor queryIndex = iota(model, {positions, keys}, seq);
    Tensor keyIndex = iota(model, {positions, keys}, key);
    // Ops in a fixed order (not C++'s unspecified argument order), so that
    // every build traces the same function.
    Tensor visible = compare(Comparison::Ge, queryIndex, keyIndex);
    Tensor hidden = constant(model, -1e9, {}, scores.dtype());
    scores = where(visible, scores, hidden);
  }
  return einsum({softmax(scores, key), v}, q.dims());
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
