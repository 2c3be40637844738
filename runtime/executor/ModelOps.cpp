//===- ModelOps.cpp - Model-level ops on the reference kernels ------------===//
//
// Every model-level op of the dialect, run by the reference kernels of
// reference/, so that a compiled program computes what tessel-eval
// computes. The dispatch and the mapping of attributes to kernel parameters
// mirror evaluator/Interpreter.cpp; the operands are converted to doubles
// and the result is rounded once to its type.
//
// Where oneDNN has the op for the types and shapes at hand, it runs there
// instead (the Fast*.cpp files, one per family: einsum, convolution,
// pooling, softmax, layer norm, reduction, element-wise, data movement),
// and element-wise ops of element types other than f32 and bf16 on loops
// in their own types (TypedElementwise.cpp); each builder tries its fast
// path first and keeps the reference kernel for what it leaves out and for
// contexts without oneDNN. Each call of a reference kernel is counted
// (ReferenceKernel.h): `--profile` lists the sites on such slow paths.
// tessel.fused, a chain of element-wise ops that the compiler fused into
// one, has only its own kernel (FusedElementwise.cpp).
//
//===----------------------------------------------------------------------===//

#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/FastConvolution.h"
#include "executor/FastCopy.h"
#include "executor/FastCrossEntropy.h"
#include "executor/FastEinsum.h"
#include "executor/FastElementwise.h"
#include "executor/FastGather.h"
#include "executor/FastNormalization.h"
#include "executor/FastOneHot.h"
#include "executor/FastPooling.h"
#include "executor/FastReduction.h"
#include "executor/FastReorder.h"
#include "executor/FastSoftmax.h"
#include "executor/FusedElementwise.h"
#include "executor/Op.h"
#include "executor/ReferenceKernel.h"
#include "executor/TypedElementwise.h"

#include "reference/Dropout.h"
#include "reference/Kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessel::runtime {

namespace {

using Inputs = ReferenceInputs;

/// A kernel for reference kernels that can fail on their data (a label or
/// an id out of range): `compute` fills the result or returns false with a
/// message, which becomes an OpError.
template <typename Compute>
Kernel viaCheckedReference(const OpDescriptor &desc, Compute compute) {
  return viaReference(desc, [compute](const Inputs &inputs) {
    ref::Tensor out;
    std::string error;
    if (!compute(inputs, out, error))
      throw OpError(error);
    return out;
  });
}

/// Looks an attribute's string value up in a table of (spelling, value).
template <typename Enum, size_t N>
Enum enumAttr(const OpDescriptor &desc, const char *name,
              const std::pair<const char *, Enum> (&table)[N]) {
  std::string value = desc.stringAttr(name);
  for (const auto &[spelling, kind] : table)
    if (value == spelling)
      return kind;
  std::string known;
  for (const auto &[spelling, kind] : table)
    known += fmt::format("{}'{}'", known.empty() ? "" : ", ", spelling);
  throw OpError(
      fmt::format("attribute '{}' is '{}', not one of {}", name, value, known));
}

constexpr std::pair<const char *, ref::ReductionKind> kReduceKinds[] = {
    {"sum", ref::ReductionKind::Sum},   {"mean", ref::ReductionKind::Mean},
    {"max", ref::ReductionKind::Max},   {"min", ref::ReductionKind::Min},
    {"prod", ref::ReductionKind::Prod},
};
constexpr std::pair<const char *, ref::CompareKind> kCompareKinds[] = {
    {"eq", ref::CompareKind::Eq}, {"ne", ref::CompareKind::Ne},
    {"lt", ref::CompareKind::Lt}, {"le", ref::CompareKind::Le},
    {"gt", ref::CompareKind::Gt}, {"ge", ref::CompareKind::Ge},
};
constexpr std::pair<const char *, ref::PoolKind> kPoolKinds[] = {
    {"max", ref::PoolKind::Max},
    {"avg", ref::PoolKind::Avg},
};
constexpr std::pair<const char *, ref::InitKind> kInitKinds[] = {
    {"zeros", ref::InitKind::Zeros},
    {"ones", ref::InitKind::Ones},
    {"uniform", ref::InitKind::Uniform},
    {"normal", ref::InitKind::Normal},
};

template <size_t N>
std::array<int64_t, N> fixedInts(const OpDescriptor &desc, const char *name,
                                 std::optional<std::vector<int64_t>> fallback) {
  std::vector<int64_t> values = desc.intListAttr(name, std::move(fallback));
  if (values.size() != N)
    throw OpError(fmt::format("attribute '{}' has {} values, not {}", name,
                              values.size(), N));
  std::array<int64_t, N> result{};
  std::copy(values.begin(), values.end(), result.begin());
  return result;
}

std::array<std::string, 2> twoNames(const OpDescriptor &desc,
                                    const char *name) {
  std::vector<std::string> values = desc.stringListAttr(name);
  if (values.size() != 2)
    throw OpError(
        fmt::format("attribute '{}' has {} names, not 2", name, values.size()));
  return {values[0], values[1]};
}

/// The attributes of conv2d and its two gradients, with ODS's defaults.
ref::ConvParams convParams(const OpDescriptor &desc) {
  ref::ConvParams params;
  params.inputChannel = desc.stringAttr("input_channel");
  params.outputChannel = desc.stringAttr("output_channel");
  params.spatial = twoNames(desc, "spatial");
  params.kernel = twoNames(desc, "kernel");
  params.strides = fixedInts<2>(desc, "strides", std::vector<int64_t>{1, 1});
  params.dilations =
      fixedInts<2>(desc, "dilations", std::vector<int64_t>{1, 1});
  params.padding =
      fixedInts<4>(desc, "padding", std::vector<int64_t>{0, 0, 0, 0});
  params.groups = desc.intAttr("groups", 1);
  if (params.groups < 1)
    throw OpError(fmt::format("attribute 'groups' is {}; it must be positive",
                              params.groups));
  return params;
}

/// The attributes of pool and its gradient.
ref::PoolParams poolParams(const OpDescriptor &desc) {
  ref::PoolParams params;
  params.spatial = twoNames(desc, "spatial");
  params.window = fixedInts<2>(desc, "window", std::nullopt);
  params.strides = fixedInts<2>(desc, "strides", std::vector<int64_t>{1, 1});
  params.padding =
      fixedInts<4>(desc, "padding", std::vector<int64_t>{0, 0, 0, 0});
  return params;
}

/// Checks that a dim-naming attribute names a dim of operand `operand`, so
/// that a mistake is an error here rather than an assertion in a kernel.
std::string operandDim(const OpDescriptor &desc, const char *name,
                       size_t operand) {
  std::string dim = desc.stringAttr(name);
  desc.operands[operand].dimIndex(dim,
                                  fmt::format("operand {}", operand).c_str());
  return dim;
}

//===----------------------------------------------------------------------===//
// Builders, one per op
//===----------------------------------------------------------------------===//

/// Reads a parameter block's "global_type": the parameter's global type and
/// the mesh axes splitting each of its dimensions, which must be the
/// result's dimensions and element type.
layout::TensorLayout parameterLayout(const OpDescriptor &desc,
                                     const nlohmann::json &global) {
  TensorType type = parseTensorType(global, "attribute 'global_type'");
  if (type.dims != desc.result.dims || type.type != desc.result.type)
    throw OpError(fmt::format("attribute 'global_type' {} does not have the "
                              "dims and element type of the result {}",
                              type.str(), desc.result.str()));
  layout::TensorLayout result{type.dims, type.shape, {}};
  result.axes.assign(type.dims.size(), {});
  auto layoutIt = global.find("layout");
  if (layoutIt == global.end() || !layoutIt->is_object())
    throw OpError("attribute 'global_type' has no \"layout\" object");
  for (const auto &[dim, axes] : layoutIt->items()) {
    int index = type.dimIndex(dim, "attribute 'global_type'");
    if (!axes.is_array())
      throw OpError(fmt::format(
          "attribute 'global_type': the layout of '{}' is not a list", dim));
    for (const nlohmann::json &axis : axes) {
      if (!axis.is_string())
        throw OpError(fmt::format("attribute 'global_type': the layout of "
                                  "'{}' holds something other than axis "
                                  "names",
                                  dim));
      result.axes[index].push_back(axis.get<std::string>());
    }
  }
  return result;
}

Kernel buildParameter(const OpDescriptor &desc) {
  desc.expectOperands(0);
  ref::InitKind kind = enumAttr(desc, "init", kInitKinds);
  double scale = desc.doubleAttr("scale", 1.0);
  auto seed = static_cast<uint64_t>(desc.intAttr("seed", 0));
  if (!ref::isFloatType(desc.result.type))
    throw OpError("a parameter must have a float element type");
  ref::TensorSpec spec = desc.result.spec();
  auto global = desc.attrs.find("global_type");
  if (global == desc.attrs.end()) {
    // The whole tensor of the result's type: a parameter that the layout
    // does not split. Initializers have only reference/'s implementation,
    // run once per parameter at init, as the split blocks' below: not
    // counted as a slow path.
    return [=, resultType = desc.result](tessel_context_t &, void *const *,
                                         void *result) {
      storeTensor(ref::initializeParameter(spec, kind, scale, seed), resultType,
                  result);
    };
  }
  // A block of a split parameter: this rank's elements only, each the value
  // of its global index, so that the ranks' blocks make up the parameter.
  layout::TensorLayout layout = parameterLayout(desc, *global);
  return [=, resultType = desc.result](tessel_context_t &context, void *const *,
                                       void *result) {
    std::string error;
    if (!layout::checkLayout(context.mesh, layout, error, /*padUneven=*/true))
      throw OpError("attribute 'global_type': " + error);
    if (layout::localShape(context.mesh, layout) != resultType.shape)
      throw OpError(fmt::format("the result {} is not the block that "
                                "attribute 'global_type' gives on a mesh of "
                                "{} ranks",
                                resultType.str(), context.mesh.numRanks()));
    storeTensor(ref::initializeParameterShard(context.mesh, layout,
                                              context.rank, spec.type, kind,
                                              scale, seed),
                resultType, result);
  };
}

Kernel buildConstant(const OpDescriptor &desc) {
  desc.expectOperands(0);
  auto value = desc.attrs.find("value");
  if (value == desc.attrs.end())
    throw OpError("attribute 'value' is missing");
  int64_t count = desc.result.numElements();
  std::vector<double> values;
  if (value->is_array()) {
    for (const nlohmann::json &element : *value) {
      std::optional<double> number = jsonNumber(element);
      if (!number)
        throw OpError("attribute 'value' holds something other than numbers");
      values.push_back(*number);
    }
  } else if (std::optional<double> number = jsonNumber(*value)) {
    values.push_back(*number);
  } else {
    throw OpError("attribute 'value' is neither a number nor a list of them");
  }
  // A single value is a splat, as a splat dense attribute is in MLIR: each
  // call fills the result with it. Keeping its bytes would hold memory for
  // the process's life, which for @init's zero optimizer moments is as much
  // as the moments themselves.
  if (values.size() == 1) {
    std::vector<unsigned char> element(elementBytes(desc.result.type));
    storeElement(desc.result.type, element.data(), 0, values.front());
    return [element, count](tessel_context_t &, void *const *, void *result) {
      fillWithElement(element.data(), element.size(),
                      static_cast<unsigned char *>(result), count);
    };
  }
  if (static_cast<int64_t>(values.size()) != count)
    throw OpError(fmt::format("attribute 'value' has {} values for a result "
                              "of {} elements",
                              values.size(), count));
  // The bytes are made once; each call copies them.
  auto bytes = std::make_shared<std::vector<unsigned char>>(
      static_cast<size_t>(desc.result.numBytes()));
  for (int64_t i = 0; i < count; ++i)
    storeElement(desc.result.type, bytes->data(), i, values[i]);
  return [bytes](tessel_context_t &, void *const *, void *result) {
    if (!bytes->empty())
      std::memcpy(result, bytes->data(), bytes->size());
  };
}

Kernel buildIota(const OpDescriptor &desc) {
  desc.expectOperands(0);
  std::string dim = desc.stringAttr("dim");
  desc.result.dimIndex(dim, "the result");
  if (std::optional<Kernel> typed = buildTypedIota(desc, dim))
    return *typed;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc,
                      [=](const Inputs &) { return ref::iota(spec, dim); });
}

Kernel buildEinsum(const OpDescriptor &desc) {
  if (desc.operands.empty())
    throw OpError("einsum needs at least one operand");
  if (std::optional<Kernel> fast = buildFastEinsum(desc))
    return *fast;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(
      desc, [=](const Inputs &inputs) { return ref::einsum(inputs, spec); });
}

template <ref::UnaryKind Kind> Kernel buildUnary(const OpDescriptor &desc) {
  desc.expectOperands(1);
  if (std::optional<Kernel> fast = buildFastUnary(Kind, desc))
    return *fast;
  if (std::optional<Kernel> typed = buildTypedUnary(Kind, desc))
    return *typed;
  // bf16 on oneDNN too; f16 on the reference kernel.
  Kernel reference = viaReference(
      desc, [](const Inputs &inputs) { return ref::unary(Kind, inputs[0]); });
  return buildOneDnnUnary(Kind, desc, reference).value_or(reference);
}

template <ref::BinaryKind Kind> Kernel buildBinary(const OpDescriptor &desc) {
  desc.expectOperands(2);
  if (std::optional<Kernel> fast = buildFastBinary(Kind, desc))
    return *fast;
  if (std::optional<Kernel> typed = buildTypedBinary(Kind, desc))
    return *typed;
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::binary(Kind, inputs[0], inputs[1], spec);
  });
  return buildOneDnnBinary(Kind, desc, reference).value_or(reference);
}

Kernel buildCompare(const OpDescriptor &desc) {
  desc.expectOperands(2);
  ref::CompareKind kind = enumAttr(desc, "kind", kCompareKinds);
  ref::TensorSpec spec = desc.result.spec();
  if (std::optional<Kernel> fast = buildFastCompare(kind, desc))
    return *fast;
  if (std::optional<Kernel> typed = buildTypedCompare(kind, desc))
    return *typed;
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::compare(kind, inputs[0], inputs[1], spec);
  });
}

Kernel buildSelect(const OpDescriptor &desc) {
  desc.expectOperands(3);
  if (std::optional<Kernel> fast = buildFastSelect(desc))
    return *fast;
  if (std::optional<Kernel> typed = buildTypedSelect(desc))
    return *typed;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::select(inputs[0], inputs[1], inputs[2], spec);
  });
}

Kernel buildCast(const OpDescriptor &desc) {
  desc.expectOperands(1);
  ref::ElementType type = desc.result.type;
  Kernel reference = viaReference(
      desc, [=](const Inputs &inputs) { return ref::cast(inputs[0], type); });
  // f32 and bf16 on oneDNN's reorder; f32, f64, i1, i32 and i64 on a loop.
  if (std::optional<Kernel> fast = buildFastCast(desc, reference))
    return *fast;
  return buildTypedCast(desc).value_or(reference);
}

/// Broadcast, rename, reshape and transpose: the result's type says it all.
template <ref::Tensor (*Move)(const ref::Tensor &, const ref::TensorSpec &)>
Kernel buildDataMove(const OpDescriptor &desc) {
  desc.expectOperands(1);
  if (desc.operands[0].numElements() != desc.result.numElements() &&
      Move != &ref::broadcast)
    throw OpError(fmt::format("operand {} and result {} differ in size",
                              desc.operands[0].str(), desc.result.str()));
  // rename and reshape keep every element where it is: a copy of bytes.
  if ((Move == &ref::rename || Move == &ref::reshape) &&
      desc.operands[0].type == desc.result.type) {
    int64_t bytes = desc.result.numBytes();
    return [bytes](tessel_context_t &, void *const *operands, void *result) {
      if (bytes > 0)
        std::memcpy(result, operands[0], bytes);
    };
  }
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(
      desc, [=](const Inputs &inputs) { return Move(inputs[0], spec); });
  if (Move != &ref::broadcast && Move != &ref::transpose)
    return reference;
  // Copies of memory runs, for any element type; a transpose of f32 or
  // bf16 on oneDNN's reorder first.
  Kernel copy = buildFastRearrange(desc).value_or(reference);
  if (Move == &ref::transpose)
    return buildFastTranspose(desc, copy).value_or(copy);
  return copy;
}

Kernel buildReduce(const OpDescriptor &desc) {
  desc.expectOperands(1);
  ref::ReductionKind kind = enumAttr(desc, "kind", kReduceKinds);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::reduce(kind, inputs[0], spec);
  });
  if (std::optional<Kernel> fast = buildFastReduce(kind, desc, reference))
    return *fast;
  return buildTypedReduce(kind, desc).value_or(reference);
}

Kernel buildSoftmax(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = operandDim(desc, "dim", 0);
  Kernel reference = viaReference(
      desc, [=](const Inputs &inputs) { return ref::softmax(inputs[0], dim); });
  return buildFastSoftmax(desc, dim, reference).value_or(reference);
}

Kernel buildLogSoftmax(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = operandDim(desc, "dim", 0);
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::logSoftmax(inputs[0], dim);
  });
}

Kernel buildSoftmaxCrossEntropy(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::string dim = operandDim(desc, "dim", 0);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaCheckedReference(
      desc, [=](const Inputs &inputs, ref::Tensor &out, std::string &error) {
        return ref::softmaxCrossEntropy(inputs[0], inputs[1], dim, spec, out,
                                        error);
      });
  return buildFastSoftmaxCrossEntropy(desc, dim, reference)
      .value_or(reference);
}

Kernel buildLayerNorm(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> dims = desc.stringListAttr("dims");
  for (const std::string &dim : dims)
    desc.operands[0].dimIndex(dim, "operand 0");
  double epsilon = desc.doubleAttr("epsilon", 1e-5);
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::layerNorm(inputs[0], dims, epsilon);
  });
  return buildFastLayerNorm(desc, dims, epsilon, reference).value_or(reference);
}

/// Whether a unit attribute is present (the descriptor holds `true`).
bool flagAttr(const OpDescriptor &desc, const char *name) {
  auto it = desc.attrs.find(name);
  return it != desc.attrs.end() && it->is_boolean() && it->get<bool>();
}

/// The fibers along `dim` of a tensor: `outer` of them, `inner` apart in
/// blocks of `size * inner` elements, each `size` elements `inner` apart.
struct Fibers {
  int64_t outer = 1, size = 1, inner = 1;
};

Fibers fibersAlong(const TensorType &type, const std::string &dim) {
  int index = type.dimIndex(dim, "operand 0");
  Fibers fibers;
  for (int d = 0; d < static_cast<int>(type.shape.size()); ++d) {
    if (d < index)
      fibers.outer *= type.shape[d];
    else if (d > index)
      fibers.inner *= type.shape[d];
  }
  fibers.size = type.shape[index];
  return fibers;
}

/// cumsum on f32: a plain loop per fiber, summed in double so that the
/// result is the reference's, rounded once per element.
Kernel buildCumsum(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = operandDim(desc, "dim", 0);
  bool reverse = flagAttr(desc, "reverse");
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::cumsum(inputs[0], dim, reverse);
  });
  if (desc.operands[0].type != ref::ElementType::F32 ||
      desc.result.type != ref::ElementType::F32 ||
      desc.operands[0].dims != desc.result.dims)
    return reference;
  Fibers f = fibersAlong(desc.operands[0], dim);
  return [f, reverse](tessel_context_t &, void *const *operands, void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    float *y = static_cast<float *>(result);
    std::vector<double> sums(static_cast<size_t>(f.inner));
    for (int64_t o = 0; o < f.outer; ++o) {
      std::fill(sums.begin(), sums.end(), 0.0);
      int64_t base = o * f.size * f.inner;
      for (int64_t step = 0; step < f.size; ++step) {
        int64_t i = reverse ? f.size - 1 - step : step;
        const float *row = x + base + i * f.inner;
        float *out = y + base + i * f.inner;
        for (int64_t k = 0; k < f.inner; ++k) {
          sums[k] += row[k];
          out[k] = static_cast<float>(sums[k]);
        }
      }
    }
  };
}

/// argmax of f32 into i32: a plain loop per fiber, the first maximum (the
/// first NaN) winning as in the reference, when the result lists the
/// input's other dims in their order.
Kernel buildArgmax(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = operandDim(desc, "dim", 0);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::argmax(inputs[0], dim, spec);
  });
  std::vector<std::string> others;
  for (const std::string &name : desc.operands[0].dims)
    if (name != dim)
      others.push_back(name);
  if (desc.operands[0].type != ref::ElementType::F32 ||
      desc.result.type != ref::ElementType::I32 || desc.result.dims != others)
    return reference;
  Fibers f = fibersAlong(desc.operands[0], dim);
  return [f](tessel_context_t &, void *const *operands, void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    auto *y = static_cast<int32_t *>(result);
    for (int64_t o = 0; o < f.outer; ++o)
      for (int64_t k = 0; k < f.inner; ++k) {
        const float *fiber = x + o * f.size * f.inner + k;
        int64_t best = 0;
        for (int64_t i = 1; i < f.size && !std::isnan(fiber[best * f.inner]);
             ++i) {
          float value = fiber[i * f.inner];
          if (std::isnan(value) || value > fiber[best * f.inner])
            best = i;
        }
        y[o * f.inner + k] = static_cast<int32_t>(best);
      }
  };
}

/// top_k of f32 into f32 values or i32 indices: a partial sort of each
/// fiber's indices in the reference's order (ref::ranksBefore), when the
/// result lists the input's dims with `out_dim` in the place of `dim`.
Kernel buildTopK(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = operandDim(desc, "dim", 0);
  std::string outDim = desc.stringAttr("out_dim");
  int64_t k = desc.intAttr("k");
  bool indices = flagAttr(desc, "indices");
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::topK(inputs[0], dim, k, outDim, indices, spec);
  });
  std::vector<std::string> inPlace = desc.operands[0].dims;
  std::replace(inPlace.begin(), inPlace.end(), dim, outDim);
  ref::ElementType wanted =
      indices ? ref::ElementType::I32 : ref::ElementType::F32;
  if (desc.operands[0].type != ref::ElementType::F32 ||
      desc.result.type != wanted || desc.result.dims != inPlace)
    return reference;
  Fibers f = fibersAlong(desc.operands[0], dim);
  return
      [f, k, indices](tessel_context_t &, void *const *operands, void *result) {
        const float *x = static_cast<const float *>(operands[0]);
        std::vector<int64_t> order(f.size);
        for (int64_t o = 0; o < f.outer; ++o)
          for (int64_t i = 0; i < f.inner; ++i) {
            const float *fiber = x + o * f.size * f.inner + i;
            for (int64_t j = 0; j < f.size; ++j)
              order[j] = j;
            std::partial_sort(order.begin(), order.begin() + k, order.end(),
                              [&](int64_t a, int64_t b) {
                                return ref::ranksBefore(fiber[a * f.inner], a,
                                                        fiber[b * f.inner], b);
                              });
            int64_t base = o * k * f.inner + i;
            for (int64_t j = 0; j < k; ++j) {
              if (indices)
                static_cast<int32_t *>(result)[base + j * f.inner] =
                    static_cast<int32_t>(order[j]);
              else
                static_cast<float *>(result)[base + j * f.inner] =
                    fiber[order[j] * f.inner];
            }
          }
      };
}

/// Dropout: a plain loop drawing each element's mask from its global index
/// (reference/Dropout.h), in double and rounded once as in the
/// reference; a block of a split tensor ("global_type") finds its offsets
/// from the rank's place on the mesh.
Kernel buildDropout(const OpDescriptor &desc) {
  desc.expectOperands(2);
  double rate = desc.doubleAttr("rate", 0.0);
  if (!(rate >= 0.0 && rate < 1.0))
    throw OpError(
        fmt::format("attribute 'rate' is {}; it must be in [0, 1)", rate));
  auto seed = static_cast<uint64_t>(desc.intAttr("seed", 0));
  const TensorType &step = desc.operands[1];
  if (step.numElements() != 1 || (step.type != ref::ElementType::I32 &&
                                  step.type != ref::ElementType::I64))
    throw OpError(fmt::format("operand 1 (step) is {}; it must be an i32 or "
                              "i64 scalar",
                              step.str()));
  if (!ref::isFloatType(desc.result.type) ||
      desc.operands[0].dims != desc.result.dims ||
      desc.operands[0].shape != desc.result.shape ||
      desc.operands[0].type != desc.result.type)
    throw OpError("dropout's input and result must be the same float type");
  std::optional<layout::TensorLayout> layout;
  auto global = desc.attrs.find("global_type");
  if (global != desc.attrs.end())
    layout = parameterLayout(desc, *global);
  bool i64 = step.type == ref::ElementType::I64;
  return [=, inputType = desc.operands[0], resultType = desc.result](
             tessel_context_t &context, void *const *operands, void *result) {
    int64_t count = i64 ? *static_cast<const int64_t *>(operands[1])
                        : *static_cast<const int32_t *>(operands[1]);
    std::vector<int64_t> globalShape = resultType.shape;
    std::vector<int64_t> offsets(globalShape.size(), 0);
    if (layout) {
      if (layout::localShape(context.mesh, *layout) != resultType.shape)
        throw OpError(fmt::format("the result {} is not the block that "
                                  "attribute 'global_type' gives on a mesh of "
                                  "{} ranks",
                                  resultType.str(), context.mesh.numRanks()));
      globalShape = layout->shape;
      offsets = layout::shardOffset(context.mesh, *layout, context.rank);
    }
    uint64_t stream = ref::dropoutStream(seed, count);
    double scale = 1.0 / (1.0 - rate);
    if (resultType.type == ref::ElementType::F32) {
      const float *x = static_cast<const float *>(operands[0]);
      float *y = static_cast<float *>(result);
      ref::forEachGlobalIndex(
          globalShape, offsets, resultType.shape, [&](int64_t i, int64_t flat) {
            y[i] = flat >= 0 && ref::dropoutKeeps(stream, rate,
                                                  static_cast<uint64_t>(flat))
                       ? static_cast<float>(static_cast<double>(x[i]) * scale)
                       : 0.0f;
          });
      return;
    }
    countReferenceKernelCall();
    ref::Tensor x = loadTensor(inputType, operands[0]);
    storeTensor(ref::dropoutBlock(x, rate, seed, count, globalShape, offsets),
                resultType, result);
  };
}

using ConvolutionKernel = ref::Tensor (*)(const ref::Tensor &,
                                          const ref::Tensor &,
                                          const ref::ConvParams &,
                                          const ref::TensorSpec &);

/// conv2d and its two gradients: two operands and the convolution's
/// attributes; `Compute` is the reference kernel of the one at hand.
template <ConvolutionOp Op, ConvolutionKernel Compute>
Kernel buildConvolution(const OpDescriptor &desc) {
  desc.expectOperands(2);
  ref::ConvParams params = convParams(desc);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return Compute(inputs[0], inputs[1], params, spec);
  });
  return buildFastConvolution(Op, desc, params, reference).value_or(reference);
}

Kernel buildPool(const OpDescriptor &desc) {
  desc.expectOperands(1);
  ref::PoolKind kind = enumAttr(desc, "kind", kPoolKinds);
  ref::PoolParams params = poolParams(desc);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::pool(kind, inputs[0], params, spec);
  });
  return buildFastPool(kind, desc, params, reference).value_or(reference);
}

Kernel buildPoolBackward(const OpDescriptor &desc) {
  desc.expectOperands(2);
  ref::PoolKind kind = enumAttr(desc, "kind", kPoolKinds);
  ref::PoolParams params = poolParams(desc);
  Kernel reference = viaReference(desc, [=](const Inputs &inputs) {
    return ref::poolBackward(kind, inputs[0], inputs[1], params);
  });
  return buildFastPoolBackward(kind, desc, params, reference)
      .value_or(reference);
}

Kernel buildGather(const OpDescriptor &desc) {
  desc.expectOperands(2);
  std::string dim = operandDim(desc, "dim", 0);
  ref::TensorSpec spec = desc.result.spec();
  Kernel reference = viaCheckedReference(
      desc, [=](const Inputs &inputs, ref::Tensor &out, std::string &error) {
        return ref::gather(inputs[0], inputs[1], dim, spec, out, error);
      });
  return buildFastGather(desc, dim, reference).value_or(reference);
}

Kernel buildOneHot(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::string dim = desc.stringAttr("dim");
  desc.result.dimIndex(dim, "the result");
  if (std::optional<Kernel> fast = buildFastOneHot(desc))
    return *fast;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::oneHot(inputs[0], dim, spec);
  });
}

Kernel buildSlice(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> dims = desc.stringListAttr("dims");
  std::vector<int64_t> starts = desc.intListAttr("starts");
  if (dims.size() != starts.size())
    throw OpError("attributes 'dims' and 'starts' differ in length");
  for (const std::string &dim : dims)
    desc.operands[0].dimIndex(dim, "operand 0");
  if (std::optional<Kernel> fast = buildFastSlice(desc, dims, starts))
    return *fast;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::slice(inputs[0], dims, starts, spec);
  });
}

Kernel buildConcat(const OpDescriptor &desc) {
  if (desc.operands.empty())
    throw OpError("concat needs at least one operand");
  std::string dim = operandDim(desc, "dim", 0);
  if (std::optional<Kernel> fast = buildFastConcat(desc, dim))
    return *fast;
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::concat(inputs, dim, spec);
  });
}

Kernel buildPad(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> dims = desc.stringListAttr("dims");
  std::vector<int64_t> low = desc.intListAttr("low");
  std::vector<int64_t> high = desc.intListAttr("high");
  if (dims.size() != low.size() || dims.size() != high.size())
    throw OpError("attributes 'dims', 'low' and 'high' differ in length");
  double value = desc.doubleAttr("value", 0.0);
  ref::TensorSpec spec = desc.result.spec();
  return viaReference(desc, [=](const Inputs &inputs) {
    return ref::pad(inputs[0], dims, low, high, value, spec);
  });
}

} // namespace

void registerModelOps(KernelRegistry &registry) {
  using UK = ref::UnaryKind;
  using BK = ref::BinaryKind;
  registry.insert({
      {"tessel.parameter", buildParameter},
      {"tessel.constant", buildConstant},
      {"tessel.iota", buildIota},
      {"tessel.einsum", buildEinsum},
      {"tessel.neg", buildUnary<UK::Neg>},
      {"tessel.abs", buildUnary<UK::Abs>},
      {"tessel.exp", buildUnary<UK::Exp>},
      {"tessel.log", buildUnary<UK::Log>},
      {"tessel.sqrt", buildUnary<UK::Sqrt>},
      {"tessel.rsqrt", buildUnary<UK::Rsqrt>},
      {"tessel.tanh", buildUnary<UK::Tanh>},
      {"tessel.sigmoid", buildUnary<UK::Sigmoid>},
      {"tessel.relu", buildUnary<UK::Relu>},
      {"tessel.gelu", buildUnary<UK::Gelu>},
      {"tessel.erf", buildUnary<UK::Erf>},
      {"tessel.sin", buildUnary<UK::Sin>},
      {"tessel.cos", buildUnary<UK::Cos>},
      {"tessel.add", buildBinary<BK::Add>},
      {"tessel.sub", buildBinary<BK::Sub>},
      {"tessel.mul", buildBinary<BK::Mul>},
      {"tessel.div", buildBinary<BK::Div>},
      {"tessel.max", buildBinary<BK::Max>},
      {"tessel.min", buildBinary<BK::Min>},
      {"tessel.pow", buildBinary<BK::Pow>},
      {"tessel.compare", buildCompare},
      {"tessel.select", buildSelect},
      {"tessel.fused", buildFused},
      {"tessel.cast", buildCast},
      {"tessel.broadcast", buildDataMove<ref::broadcast>},
      {"tessel.rename", buildDataMove<ref::rename>},
      {"tessel.reshape", buildDataMove<ref::reshape>},
      {"tessel.transpose", buildDataMove<ref::transpose>},
      {"tessel.reduce", buildReduce},
      {"tessel.softmax", buildSoftmax},
      {"tessel.log_softmax", buildLogSoftmax},
      {"tessel.softmax_cross_entropy", buildSoftmaxCrossEntropy},
      {"tessel.layer_norm", buildLayerNorm},
      {"tessel.cumsum", buildCumsum},
      {"tessel.dropout", buildDropout},
      {"tessel.argmax", buildArgmax},
      {"tessel.top_k", buildTopK},
      {"tessel.conv2d", buildConvolution<ConvolutionOp::Forward, ref::conv2d>},
      {"tessel.conv2d_backward_input",
       buildConvolution<ConvolutionOp::BackwardInput,
                        ref::conv2dBackwardInput>},
      {"tessel.conv2d_backward_filter",
       buildConvolution<ConvolutionOp::BackwardFilter,
                        ref::conv2dBackwardFilter>},
      {"tessel.pool", buildPool},
      {"tessel.pool_backward", buildPoolBackward},
      {"tessel.gather", buildGather},
      {"tessel.one_hot", buildOneHot},
      {"tessel.slice", buildSlice},
      {"tessel.concat", buildConcat},
      {"tessel.pad", buildPad},
  });
}

} // namespace tessel::runtime
