//===- Ops.cpp - one function per op, result types from dimension names ---===//
//
// Every function works out its result's dimensions, throws an Error that
// names the dimension at fault when they cannot be worked out, builds the
// op and lets the op's verifier check the rest (ModelState::finish turns a
// verifier message into an Error).
//
//===----------------------------------------------------------------------===//

#include "tessel/frontend/Ops.h"

#include "frontend/ModelState.h"

#include <fmt/format.h>

#include <numeric>

using namespace mlir;
namespace td = mlir::tessel;

namespace tessel {

namespace {

const Dim *findDim(const Dims &dims, const std::string &name) {
  for (const Dim &dim : dims)
    if (dim.name == name)
      return &dim;
  return nullptr;
}

/// The union of the operands' dimensions, in the order they first appear;
/// a name with two sizes is an Error naming `op`.
Dims unionOf(const std::vector<const Tensor *> &operands,
             const std::string &op) {
  Dims dims;
  for (size_t i = 0; i < operands.size(); ++i)
    for (const Dim &dim : operands[i]->dims()) {
      const Dim *seen = findDim(dims, dim.name);
      if (!seen) {
        dims.push_back(dim);
        continue;
      }
      if (seen->size != dim.size)
        throw Error(fmt::format(
            "{}: dimension '{}' has size {} in one operand but {} in operand "
            "#{} ({})",
            op, dim.name, seen->size, dim.size, i, operands[i]->str()));
    }
  return dims;
}

/// Throws unless `x` has a dimension `name`.
void requireDim(const Tensor &x, const std::string &name,
                const std::string &op) {
  if (!x.has(name))
    throw Error(fmt::format("{}: the input {} has no dimension '{}'", op,
                            x.str(), name));
}

ArrayAttr stringArray(ModelState &state, const std::vector<std::string> &names) {
  SmallVector<StringRef> refs(names.begin(), names.end());
  return state.builder.getStrArrayAttr(refs);
}

template <typename OpT>
Tensor unary(const Tensor &x, const char *name) {
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  return state.finish(
      OpT::create(state.builder, state.location, input.getType(), input),
      name);
}

template <typename OpT>
Tensor binary(const Tensor &lhs, const Tensor &rhs, const char *name) {
  ModelState &state = stateOf(lhs, name);
  Value a = state.operand(lhs, name);
  Value b = state.operand(rhs, name);
  if (lhs.dtype() != rhs.dtype())
    throw Error(fmt::format("{}: operands {} and {} have different element "
                            "types (cast one)",
                            name, lhs.str(), rhs.str()));
  Dims dims = unionOf({&lhs, &rhs}, name);
  return state.finish(
      OpT::create(state.builder, state.location,
                  state.tensorType(dims, lhs.dtype(), name), a, b),
      name);
}

} // namespace

//===--- Sources ---------------------------------------------------------===//

Tensor constant(Model &model, double value, const Dims &dims, DType dtype) {
  ModelState &state = model.state();
  const char *name = "constant";
  state.currentBody(name);
  Type element = state.elementType(dtype);
  TypedAttr attr;
  if (isa<FloatType>(element))
    attr = state.builder.getFloatAttr(element, value);
  else
    attr = state.builder.getIntegerAttr(element, static_cast<int64_t>(value));
  return state.finish(
      td::ConstantOp::create(state.builder, state.location,
                             state.tensorType(dims, dtype, name), attr),
      name);
}

Tensor iota(Model &model, const Dims &dims, const std::string &along,
            DType dtype) {
  ModelState &state = model.state();
  std::string name = fmt::format("iota along '{}'", along);
  state.currentBody(name);
  if (!findDim(dims, along))
    throw Error(fmt::format("{}: '{}' is not one of {}", name, along,
                            formatDims(dims)));
  return state.finish(
      td::IotaOp::create(state.builder, state.location,
                         state.tensorType(dims, dtype, name),
                         state.builder.getStringAttr(along)),
      name);
}

//===--- Contractions ----------------------------------------------------===//

Tensor einsum(const std::vector<Tensor> &inputs, const Dims &out) {
  const char *name = "einsum";
  if (inputs.empty())
    throw Error("einsum: no inputs");
  ModelState &state = stateOf(inputs.front(), name);
  std::vector<const Tensor *> operands;
  SmallVector<Value> values;
  for (const Tensor &input : inputs) {
    values.push_back(state.operand(input, name));
    operands.push_back(&input);
    if (input.dtype() != inputs.front().dtype())
      throw Error(fmt::format("einsum: inputs {} and {} have different "
                              "element types",
                              inputs.front().str(), input.str()));
  }
  Dims all = unionOf(operands, name);
  for (const Dim &dim : out) {
    const Dim *in = findDim(all, dim.name);
    if (!in)
      throw Error(fmt::format("einsum: output dimension '{}' is in no input "
                              "(inputs have {})",
                              dim.name, formatDims(all)));
    if (in->size != dim.size)
      throw Error(fmt::format("einsum: output dimension '{}' has size {} but "
                              "{} in the inputs",
                              dim.name, dim.size, in->size));
  }
  return state.finish(
      td::EinsumOp::create(state.builder, state.location,
                           state.tensorType(out, inputs.front().dtype(), name),
                           values),
      name);
}

//===--- Element-wise ----------------------------------------------------===//

Tensor add(const Tensor &l, const Tensor &r) {
  return binary<td::AddOp>(l, r, "add");
}
Tensor sub(const Tensor &l, const Tensor &r) {
  return binary<td::SubOp>(l, r, "sub");
}
Tensor mul(const Tensor &l, const Tensor &r) {
  return binary<td::MulOp>(l, r, "mul");
}
Tensor div(const Tensor &l, const Tensor &r) {
  return binary<td::DivOp>(l, r, "div");
}
Tensor maximum(const Tensor &l, const Tensor &r) {
  return binary<td::MaxOp>(l, r, "max");
}
Tensor minimum(const Tensor &l, const Tensor &r) {
  return binary<td::MinOp>(l, r, "min");
}
Tensor pow(const Tensor &l, const Tensor &r) {
  return binary<td::PowOp>(l, r, "pow");
}

Tensor neg(const Tensor &x) { return unary<td::NegOp>(x, "neg"); }
Tensor abs(const Tensor &x) { return unary<td::AbsOp>(x, "abs"); }
Tensor exp(const Tensor &x) { return unary<td::ExpOp>(x, "exp"); }
Tensor log(const Tensor &x) { return unary<td::LogOp>(x, "log"); }
Tensor sqrt(const Tensor &x) { return unary<td::SqrtOp>(x, "sqrt"); }
Tensor rsqrt(const Tensor &x) { return unary<td::RsqrtOp>(x, "rsqrt"); }
Tensor tanh(const Tensor &x) { return unary<td::TanhOp>(x, "tanh"); }
Tensor sigmoid(const Tensor &x) { return unary<td::SigmoidOp>(x, "sigmoid"); }
Tensor relu(const Tensor &x) { return unary<td::ReluOp>(x, "relu"); }
Tensor gelu(const Tensor &x) { return unary<td::GeluOp>(x, "gelu"); }
Tensor erf(const Tensor &x) { return unary<td::ErfOp>(x, "erf"); }
Tensor sin(const Tensor &x) { return unary<td::SinOp>(x, "sin"); }
Tensor cos(const Tensor &x) { return unary<td::CosOp>(x, "cos"); }

Tensor compare(Comparison kind, const Tensor &lhs, const Tensor &rhs) {
  const char *name = "compare";
  ModelState &state = stateOf(lhs, name);
  Value a = state.operand(lhs, name);
  Value b = state.operand(rhs, name);
  Dims dims = unionOf({&lhs, &rhs}, name);
  return state.finish(
      td::CompareOp::create(
          state.builder, state.location,
          state.tensorType(dims, DType::I1, name),
          td::CompareKindAttr::get(&state.context,
                                   static_cast<td::CompareKind>(kind)),
          a, b),
      name);
}

Tensor where(const Tensor &condition, const Tensor &onTrue,
             const Tensor &onFalse) {
  const char *name = "where";
  ModelState &state = stateOf(condition, name);
  Value c = state.operand(condition, name);
  Value t = state.operand(onTrue, name);
  Value f = state.operand(onFalse, name);
  if (condition.dtype() != DType::I1)
    throw Error(fmt::format("where: the condition {} is not i1 (compare "
                            "makes one)",
                            condition.str()));
  // The values' dimensions first: the result is stored like them.
  Dims dims = unionOf({&onTrue, &onFalse, &condition}, name);
  return state.finish(
      td::SelectOp::create(state.builder, state.location,
                           state.tensorType(dims, onTrue.dtype(), name), c, t,
                           f),
      name);
}

Tensor cast(const Tensor &x, DType dtype) {
  const char *name = "cast";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  return state.finish(
      td::CastOp::create(state.builder, state.location,
                         state.tensorType(x.dims(), dtype, name), input),
      name);
}

Tensor broadcast(const Tensor &x, const Dims &dims) {
  const char *name = "broadcast";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  Dims result = x.dims();
  for (const Dim &dim : dims) {
    const Dim *have = findDim(result, dim.name);
    if (!have)
      result.push_back(dim);
    else if (have->size != dim.size)
      throw Error(fmt::format("broadcast: dimension '{}' has size {} in the "
                              "input but {} in the target",
                              dim.name, have->size, dim.size));
  }
  if (result.size() == x.dims().size())
    return x;
  return state.finish(
      td::BroadcastOp::create(state.builder, state.location,
                              state.tensorType(result, x.dtype(), name), input),
      name);
}

//===--- Reductions, normalisation, losses -------------------------------===//

Tensor reduce(Reduction kind, const Tensor &x,
              const std::vector<std::string> &dims) {
  const char *name = "reduce";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  for (const std::string &dim : dims)
    requireDim(x, dim, name);
  Dims result = dims.empty() ? Dims{} : withoutDims(x.dims(), dims);
  return state.finish(
      td::ReduceOp::create(state.builder, state.location,
                           state.tensorType(result, x.dtype(), name),
                           static_cast<td::ReduceKind>(kind), input),
      name);
}

Tensor reduceSum(const Tensor &x, const std::vector<std::string> &dims) {
  return reduce(Reduction::Sum, x, dims);
}
Tensor reduceMean(const Tensor &x, const std::vector<std::string> &dims) {
  return reduce(Reduction::Mean, x, dims);
}
Tensor reduceMax(const Tensor &x, const std::vector<std::string> &dims) {
  return reduce(Reduction::Max, x, dims);
}

namespace {
template <typename OpT>
Tensor softmaxLike(const Tensor &x, const std::string &dim, const char *name) {
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  return state.finish(OpT::create(state.builder, state.location,
                                  input.getType(), input,
                                  state.builder.getStringAttr(dim)),
                      name);
}
} // namespace

Tensor softmax(const Tensor &x, const std::string &dim) {
  return softmaxLike<td::SoftmaxOp>(x, dim, "softmax");
}
Tensor logSoftmax(const Tensor &x, const std::string &dim) {
  return softmaxLike<td::LogSoftmaxOp>(x, dim, "log_softmax");
}

Tensor cumsum(const Tensor &x, const std::string &dim, bool reverse) {
  const char *name = "cumsum";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  return state.finish(
      td::CumsumOp::create(state.builder, state.location, input.getType(),
                           input, state.builder.getStringAttr(dim), reverse),
      name);
}

Tensor argmax(const Tensor &x, const std::string &dim) {
  const char *name = "argmax";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  return state.finish(
      td::ArgmaxOp::create(
          state.builder, state.location,
          state.tensorType(withoutDims(x.dims(), {dim}), DType::I32, name),
          input, state.builder.getStringAttr(dim)),
      name);
}

TopK topK(const Tensor &x, const std::string &dim, int64_t k,
          const std::string &outDim) {
  const char *name = "top_k";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  int64_t size = x.dim(dim).size;
  if (k < 1 || k > size)
    throw Error(fmt::format("{}: k must be between 1 and the size of '{}' "
                            "({}) in {}, got {}",
                            name, dim, size, x.str(), k));
  if (x.has(outDim))
    throw Error(fmt::format("{}: the input {} already has dimension '{}' "
                            "(out_dim names a new one)",
                            name, x.str(), outDim));
  Dims result;
  for (const Dim &d : x.dims())
    result.push_back(d.name == dim ? Dim(outDim, k) : d);
  // The values and the indices are two ops that select the same elements.
  auto build = [&](DType dtype, bool indices) {
    return state.finish(
        td::TopKOp::create(state.builder, state.location,
                           state.tensorType(result, dtype, name), input, dim,
                           static_cast<uint64_t>(k), outDim, indices),
        name);
  };
  Tensor values = build(x.dtype(), false);
  return {values, build(DType::I32, true)};
}

Tensor dropout(const Tensor &x, double rate, const Tensor &step, int64_t seed,
               bool training) {
  const char *name = "dropout";
  if (!(rate >= 0.0 && rate < 1.0))
    throw Error(fmt::format("dropout: rate {} is not in [0, 1)", rate));
  if (!step.dims().empty() ||
      (step.dtype() != DType::I32 && step.dtype() != DType::I64))
    throw Error(fmt::format("dropout: the step {} is not an i32 or i64 "
                            "scalar (declare an input \"dropout_step\" of "
                            "no dims)",
                            step.str()));
  if (x.dtype() != DType::F32 && x.dtype() != DType::F16 &&
      x.dtype() != DType::BF16 && x.dtype() != DType::F64)
    throw Error(
        fmt::format("dropout: the input {} is not a float tensor", x.str()));
  if (!training)
    return x;
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  Value counter = state.operand(step, name);
  return state.finish(
      td::DropoutOp::create(state.builder, state.location, input.getType(),
                            input, counter, state.builder.getF64FloatAttr(rate),
                            state.builder.getI64IntegerAttr(seed), TypeAttr()),
      name);
}

Tensor layerNorm(const Tensor &x, const std::vector<std::string> &dims,
                 double epsilon) {
  const char *name = "layer_norm";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  for (const std::string &dim : dims)
    requireDim(x, dim, name);
  return state.finish(
      td::LayerNormOp::create(state.builder, state.location, input.getType(),
                              input, stringArray(state, dims),
                              state.builder.getF64FloatAttr(epsilon)),
      name);
}

Tensor crossEntropy(const Tensor &logits, const Tensor &labels,
                    const std::string &dim) {
  const char *name = "cross_entropy";
  ModelState &state = stateOf(logits, name);
  Value l = state.operand(logits, name);
  Value y = state.operand(labels, name);
  requireDim(logits, dim, name);
  for (const Dim &other : withoutDims(logits.dims(), {dim}))
    if (!labels.has(other.name) ||
        labels.dim(other.name).size != other.size)
      throw Error(fmt::format("cross_entropy: the labels {} lack the logits' "
                              "dimension '{}' of size {}",
                              labels.str(), other.name, other.size));
  return state.finish(
      td::SoftmaxCrossEntropyOp::create(
          state.builder, state.location,
          state.tensorType(labels.dims(), logits.dtype(), name), l, y,
          state.builder.getStringAttr(dim)),
      name);
}

//===--- Convolution and pooling -----------------------------------------===//

namespace {
/// The output extent of a window over `size` elements.
int64_t windowed(int64_t size, int64_t low, int64_t high, int64_t extent,
                 int64_t stride, const std::string &dim, const char *op) {
  int64_t span = size + low + high - extent;
  if (stride <= 0 || span < 0)
    throw Error(fmt::format("{}: a window of {} (stride {}) does not fit "
                            "dimension '{}' of size {} with padding {}+{}",
                            op, extent, stride, dim, size, low, high));
  return span / stride + 1;
}
} // namespace

Tensor conv2d(const Tensor &x, const Tensor &filter,
              const std::string &inChannel, const std::string &outChannel,
              const std::array<std::string, 2> &spatial,
              const std::array<std::string, 2> &kernel,
              const Conv2dOptions &options) {
  const char *name = "conv2d";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  Value weights = state.operand(filter, name);
  requireDim(x, inChannel, name);
  requireDim(filter, outChannel, name);
  requireDim(filter, inChannel, name);
  int64_t channels = x.dim(inChannel).size, groups = options.groups;
  if (groups < 1 || channels % groups != 0 ||
      filter.dim(outChannel).size % groups != 0)
    throw Error(fmt::format("conv2d: groups {} must be positive and divide "
                            "the {} channels '{}' of {} and the {} '{}' of the "
                            "filter {}",
                            groups, channels, inChannel, x.str(),
                            filter.dim(outChannel).size, outChannel,
                            filter.str()));
  if (filter.dim(inChannel).size != channels / groups)
    throw Error(fmt::format("conv2d: the filter {} has '{}' of size {}, but "
                            "{} channels in {} groups need {}",
                            filter.str(), inChannel, filter.dim(inChannel).size,
                            channels, groups, channels / groups));
  Dims result;
  for (const Dim &dim : x.dims()) {
    if (dim.name == inChannel) {
      result.push_back(filter.dim(outChannel));
      continue;
    }
    int index = dim.name == spatial[0] ? 0 : dim.name == spatial[1] ? 1 : -1;
    if (index < 0) {
      result.push_back(dim);
      continue;
    }
    requireDim(filter, kernel[index], name);
    int64_t extent = options.dilations[index] *
                         (filter.dim(kernel[index]).size - 1) +
                     1;
    result.emplace_back(dim.name,
                        windowed(dim.size, options.padding[2 * index],
                                 options.padding[2 * index + 1], extent,
                                 options.strides[index], dim.name, name));
  }
  requireDim(x, spatial[0], name);
  requireDim(x, spatial[1], name);
  auto i64 = [&](auto values) {
    return state.builder.getDenseI64ArrayAttr(
        ArrayRef<int64_t>(values.data(), values.size()));
  };
  return state.finish(
      td::Conv2DOp::create(state.builder, state.location,
                           state.tensorType(result, x.dtype(), name), input,
                           weights, state.builder.getStringAttr(inChannel),
                           state.builder.getStringAttr(outChannel),
                           stringArray(state, {spatial[0], spatial[1]}),
                           stringArray(state, {kernel[0], kernel[1]}),
                           i64(options.strides), i64(options.padding),
                           i64(options.dilations),
                           state.builder.getI64IntegerAttr(options.groups)),
      name);
}

Tensor pool(Pooling kind, const Tensor &x,
            const std::array<std::string, 2> &spatial,
            std::array<int64_t, 2> window, std::array<int64_t, 2> strides,
            std::array<int64_t, 4> padding) {
  const char *name = "pool";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, spatial[0], name);
  requireDim(x, spatial[1], name);
  Dims result;
  for (const Dim &dim : x.dims()) {
    int index = dim.name == spatial[0] ? 0 : dim.name == spatial[1] ? 1 : -1;
    if (index < 0)
      result.push_back(dim);
    else
      result.emplace_back(dim.name,
                          windowed(dim.size, padding[2 * index],
                                   padding[2 * index + 1], window[index],
                                   strides[index], dim.name, name));
  }
  return state.finish(
      td::PoolOp::create(
          state.builder, state.location,
          state.tensorType(result, x.dtype(), name),
          td::PoolKindAttr::get(&state.context,
                                static_cast<td::PoolKind>(kind)),
          input, stringArray(state, {spatial[0], spatial[1]}),
          state.builder.getDenseI64ArrayAttr(window),
          state.builder.getDenseI64ArrayAttr(strides),
          state.builder.getDenseI64ArrayAttr(padding)),
      name);
}

//===--- Lookups ---------------------------------------------------------===//

Tensor gather(const Tensor &table, const Tensor &ids, const std::string &dim) {
  const char *name = "gather";
  ModelState &state = stateOf(table, name);
  Value t = state.operand(table, name);
  Value i = state.operand(ids, name);
  requireDim(table, dim, name);
  Dims result = ids.dims();
  for (const Dim &other : withoutDims(table.dims(), {dim})) {
    if (ids.has(other.name))
      throw Error(fmt::format("gather: the ids {} and the table {} share "
                              "dimension '{}'",
                              ids.str(), table.str(), other.name));
    result.push_back(other);
  }
  return state.finish(td::GatherOp::create(
                          state.builder, state.location,
                          state.tensorType(result, table.dtype(), name), t, i,
                          state.builder.getStringAttr(dim)),
                      name);
}

Tensor oneHot(const Tensor &ids, const Dim &dim, DType dtype) {
  const char *name = "one_hot";
  ModelState &state = stateOf(ids, name);
  Value i = state.operand(ids, name);
  Dims result = ids.dims();
  result.push_back(dim);
  return state.finish(td::OneHotOp::create(
                          state.builder, state.location,
                          state.tensorType(result, dtype, name), i,
                          state.builder.getStringAttr(dim.name)),
                      name);
}

//===--- Shapes ----------------------------------------------------------===//

Tensor rename(const Tensor &x, const std::string &from, const std::string &to) {
  std::string name = fmt::format("rename '{}' to '{}'", from, to);
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, from, name);
  Dims result;
  for (const Dim &dim : x.dims())
    result.push_back(dim.name == from ? dim.renamed(to) : dim);
  return state.finish(
      td::RenameOp::create(state.builder, state.location,
                           state.tensorType(result, x.dtype(), name), input),
      name);
}

Tensor reshape(const Tensor &x, const Dims &dims) {
  const char *name = "reshape";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  auto count = [](const Dims &of) {
    int64_t n = 1;
    for (const Dim &dim : of)
      n *= dim.size;
    return n;
  };
  if (count(dims) != count(x.dims()))
    throw Error(fmt::format("reshape: {} has {} elements but {} has {}",
                            x.str(), count(x.dims()), formatDims(dims),
                            count(dims)));
  return state.finish(
      td::ReshapeOp::create(state.builder, state.location,
                            state.tensorType(dims, x.dtype(), name), input),
      name);
}

Tensor transpose(const Tensor &x, const std::vector<std::string> &order) {
  const char *name = "transpose";
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  if (order.size() != x.dims().size())
    throw Error(fmt::format("transpose: the order names {} dimensions but {} "
                            "has {}",
                            order.size(), x.str(), x.dims().size()));
  Dims result;
  for (const std::string &dimName : order) {
    requireDim(x, dimName, name);
    result.push_back(x.dim(dimName));
  }
  return state.finish(
      td::TransposeOp::create(state.builder, state.location,
                              state.tensorType(result, x.dtype(), name), input),
      name);
}

Tensor slice(const Tensor &x, const std::string &dim, int64_t start,
             int64_t size) {
  std::string name = fmt::format("slice of '{}'", dim);
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  int64_t extent = x.dim(dim).size;
  if (start < 0 || size <= 0 || start + size > extent)
    throw Error(fmt::format("{}: [{}, {}) is not inside size {}", name, start,
                            start + size, extent));
  Dims result;
  for (const Dim &d : x.dims())
    result.push_back(d.name == dim ? Dim(dim, size) : d);
  return state.finish(
      td::SliceOp::create(state.builder, state.location,
                          state.tensorType(result, x.dtype(), name), input,
                          stringArray(state, {dim}),
                          state.builder.getDenseI64ArrayAttr({start})),
      name);
}

Tensor concat(const std::vector<Tensor> &inputs, const std::string &dim) {
  std::string name = fmt::format("concat over '{}'", dim);
  if (inputs.empty())
    throw Error(name + ": no inputs");
  ModelState &state = stateOf(inputs.front(), name);
  SmallVector<Value> values;
  int64_t total = 0;
  for (const Tensor &input : inputs) {
    values.push_back(state.operand(input, name));
    requireDim(input, dim, name);
    total += input.dim(dim).size;
  }
  Dims result;
  for (const Dim &d : inputs.front().dims())
    result.push_back(d.name == dim ? Dim(dim, total) : d);
  return state.finish(
      td::ConcatOp::create(state.builder, state.location,
                           state.tensorType(result, inputs.front().dtype(),
                                            name),
                           values, state.builder.getStringAttr(dim)),
      name);
}

Tensor pad(const Tensor &x, const std::string &dim, int64_t low, int64_t high,
           double value) {
  std::string name = fmt::format("pad of '{}'", dim);
  ModelState &state = stateOf(x, name);
  Value input = state.operand(x, name);
  requireDim(x, dim, name);
  int64_t extent = x.dim(dim).size;
  if (low < 0 || high < 0)
    throw Error(fmt::format("{}: padding {}+{} is negative", name, low, high));
  Dims result;
  for (const Dim &d : x.dims())
    result.push_back(d.name == dim ? Dim(dim, extent + low + high) : d);
  return state.finish(
      td::PadOp::create(state.builder, state.location,
                        state.tensorType(result, x.dtype(), name), input,
                        stringArray(state, {dim}),
                        state.builder.getDenseI64ArrayAttr({low}),
                        state.builder.getDenseI64ArrayAttr({high}),
                        state.builder.getF64FloatAttr(value)),
      name);
}

} // namespace tessel
