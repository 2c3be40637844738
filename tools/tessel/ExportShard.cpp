//===- ExportShard.cpp - tessel export-shard: a program as upstream MLIR --===//
//
// `export-shard` writes a model's function with its layout as upstream MLIR
// that upstream's own partitioner takes (`mlir-opt --pass-pipeline=
// 'builtin.module(func.func(sharding-propagation,shard-partition))'`):
//
//   - the mesh becomes `shard.grid @grid(shape = ...)`, its axes numbered in
//     the mesh's order;
//   - tensors become `tensor<...>` in their storage order; parameters become
//     trailing function arguments, in program order;
//   - every op becomes a `linalg.generic` whose iteration space is named by
//     the op's dimension names: an einsum multiplies its inputs and sums the
//     dimensions the result drops, element-wise ops broadcast by name, a
//     reduction folds the dimensions its result drops (a mean then scales),
//     softmax cross-entropy is four (the maximum, the sum of exponentials,
//     the label's logit, log(sum) + max - logit), softmax and log-softmax
//     three (the maximum, the sum of exponentials, the normalized value),
//     layer norm four (the sum, the mean, the squared deviations, the
//     normalized value), a lookup one reduction over the table's
//     looked-up dimension that keeps the entry whose index is the id, and
//     a convolution a tensor.pad and a reduction over the input channel
//     and the window (upstream's partitioner takes no such maps yet);
//   - the layout becomes `shard.sharding` annotations: each argument and
//     parameter `annotate_for_users` with its split axes, and every value an
//     op makes with the layout tessel-apply-layout gave it (the producer's
//     and its users' annotation), so that upstream's partitioner works from
//     tessel's layout decisions and only partitions.
//
// The ops above, with float results (integer labels are read), only;
// anything else is an error naming the op and its location.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"

#include "dialect/TesselDialect.h"
#include "passes/Passes.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OptionValues.h"
#include "tools/support/OutputFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

cl::SubCommand mlir::tessel::exportShardCommand(
    "export-shard", "write a model's function with its layout as upstream "
                    "MLIR (linalg on tensors, shard annotations)");

namespace {

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(exportShardCommand));
cl::opt<std::string> layoutPath("layout", cl::desc("YAML layout file"),
                                cl::sub(exportShardCommand));
cl::opt<std::string> meshSpec("mesh",
                              cl::desc("mesh string, e.g. data:2;model:4"),
                              cl::sub(exportShardCommand));
cl::opt<std::string>
    rulesSpec("rules", cl::desc("rules string, e.g. batch:data;hidden:model"),
              cl::sub(exportShardCommand));
cl::opt<std::string> functionName("function",
                                  cl::desc("function to export (default: the "
                                           "first)"),
                                  cl::sub(exportShardCommand));
cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                cl::value_desc("path"), cl::Required,
                                cl::sub(exportShardCommand));

/// A tensor a linalg.generic reads: its SSA name and its type (whose
/// dimension names place it in the iteration space).
struct Operand {
  std::string name;
  NamedTensorType type;
  /// The operand's indexing map when it is not its dimensions' loops (a
  /// convolution's input reads `oh * stride + kh * dilation`).
  std::string map = {};
};

/// Writes the upstream form of one laid-out function.
class Exporter {
public:
  Exporter(MeshAttr mesh, raw_ostream &os) : mesh(mesh), os(os) {}

  LogicalResult exportFunction(func::FuncOp func);

private:
  /// `tensor<4x8xf32>`.
  std::string tensorType(NamedTensorType type) const;
  /// The attributes of an argument (or a parameter become one) that
  /// `tessel import-shard` reads back: its name, or the parameter's name and
  /// initializer, and its dimension names.
  static std::string boundaryAttributes(func::FuncOp func, Value value);
  /// `[[0], [], [1]]`: the grid axes that split each dimension.
  std::string splitAxes(NamedTensorType type) const;
  /// A fresh SSA name.
  std::string fresh(StringRef stem) {
    return llvm::formatv("%{0}{1}", stem, counter++).str();
  }
  /// The affine map of a tensor with `dims` in the iteration space `loops`.
  static std::string indexingMap(ArrayRef<StringAttr> loops,
                                 ArrayRef<StringAttr> dims);
  /// Writes a linalg.generic over `loops` (the result's dims first, then
  /// the reduced ones) reading `inputs` into a new tensor of `result`'s
  /// type filled with `fill` (or left empty), whose body is `body` given
  /// the block arguments' names; returns the result's name.
  std::string generic(ArrayRef<Operand> inputs, NamedTensorType result,
                      ArrayRef<StringAttr> loops,
                      std::optional<std::string> fill,
                      llvm::function_ref<std::string(ArrayRef<std::string> args,
                                                     std::string &body)>
                          bodyText);
  /// The operands of a generic that reads `values`.
  SmallVector<Operand> operandsOf(ValueRange values) {
    SmallVector<Operand> result;
    for (Value value : values)
      result.push_back({names[value], cast<NamedTensorType>(value.getType())});
    return result;
  }
  /// Writes the two reductions of `x` over the last of `loops` into `rows`
  /// that softmax and cross-entropy begin with: the maximum, and the sum of
  /// exp(x - max). Returns their names, the maximum first.
  std::pair<std::string, std::string>
  maxAndSumOfExp(const Operand &x, NamedTensorType rows,
                 ArrayRef<StringAttr> loops);
  /// Writes one reduction over the last of `loops` into `result`: the sum
  /// over it of (its position == `index` ? `value` : 0), which picks the
  /// value at each integer index (a label's logit, a looked-up row) in the
  /// one-hot form upstream partitions like any other sum.
  std::string sumWhereIndexMatches(const Operand &value, const Operand &index,
                                   NamedTensorType result,
                                   ArrayRef<StringAttr> loops);
  /// Writes softmax cross-entropy as four generics over the class
  /// dimension: the maximum, the sum of exponentials, the label's logit
  /// and log(sum) + max - logit.
  std::string crossEntropy(SoftmaxCrossEntropyOp op);
  /// Writes softmax (or log-softmax) over `dim` as three generics: the
  /// maximum over it, the sum of exponentials, and exp(x - max) / sum (or
  /// x - max - log(sum)).
  std::string softmax(Value input, StringRef dim, bool logarithm);
  /// Writes layer norm over `dims` as four generics: the sum, the mean, the
  /// sum of squared deviations, and (x - mean) * rsqrt(var + epsilon).
  std::string layerNorm(LayerNormOp op);
  /// Writes a lookup as one reduction over the table's looked-up dimension
  /// (upstream's one-hot form): the sum over v of (ids == v ? table : 0),
  /// so that a table split along it is a partial sum for upstream too.
  std::string gather(GatherOp op);
  /// Writes a convolution (one group) as a tensor.pad of the input, when
  /// it is padded, and a reduction over the input channel and the kernel
  /// window whose input map reads `oh * stride + kh * dilation`.
  std::string conv2d(Conv2DOp op);
  /// Writes `op`; fails with an error at the op when it has no upstream
  /// form here.
  LogicalResult exportOp(Operation *op);

  MeshAttr mesh;
  raw_ostream &os;
  unsigned counter = 0;
  DenseMap<Value, std::string> names;
};

std::string Exporter::tensorType(NamedTensorType type) const {
  std::string text = "tensor<";
  for (int64_t size : type.getShape())
    text += std::to_string(size) + "x";
  std::string element;
  llvm::raw_string_ostream stream(element);
  type.getElementType().print(stream);
  return text + element + ">";
}

std::string Exporter::boundaryAttributes(func::FuncOp func, Value value) {
  auto type = cast<NamedTensorType>(value.getType());
  std::string text = "{";
  if (auto parameter = value.getDefiningOp<ParameterOp>()) {
    text += llvm::formatv(
                "tessel.parameter = {{name = \"{0}\", init = "
                "\"{1}\", scale = {2:e} : f64, seed = {3} : i64{4}}",
                parameter.getName(), stringifyInitKind(parameter.getInit()),
                parameter.getScale().convertToDouble(), parameter.getSeed(),
                parameter.getBuffer() ? ", buffer" : "")
                .str();
  } else {
    auto argument = cast<BlockArgument>(value);
    auto name = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                  TesselDialect::kNameAttrName);
    std::string spelled =
        name ? name.str() : "arg" + std::to_string(argument.getArgNumber());
    text += "tessel.name = \"" + spelled + "\"";
  }
  text += ", tessel.dims = [";
  for (auto [index, dim] : llvm::enumerate(type.getDimNames()))
    text += (index ? ", \"" : "\"") + dim.getValue().str() + "\"";
  return text + "]}";
}

std::string Exporter::splitAxes(NamedTensorType type) const {
  std::vector<std::string> perDim;
  size_t last = 0;
  for (StringAttr dim : type.getDimNames()) {
    std::string axes;
    if (LayoutAttr layout = type.getLayout())
      for (StringAttr axis : layout.getAxesOf(dim.getValue())) {
        ArrayRef<StringAttr> meshAxes = mesh.getAxisNames();
        auto index = llvm::find(meshAxes, axis) - meshAxes.begin();
        axes += (axes.empty() ? "" : ", ") + std::to_string(index);
      }
    perDim.push_back("[" + axes + "]");
    if (!axes.empty())
      last = perDim.size();
  }
  // Upstream leaves the trailing unsplit dimensions out; a replicated
  // tensor is [[]].
  if (last == 0)
    return "[[]]";
  std::string text = "[";
  for (size_t i = 0; i < last; ++i)
    text += (i ? ", " : "") + perDim[i];
  return text + "]";
}

std::string Exporter::indexingMap(ArrayRef<StringAttr> loops,
                                  ArrayRef<StringAttr> dims) {
  std::string text = "affine_map<(";
  for (size_t i = 0; i < loops.size(); ++i)
    text += (i ? ", d" : "d") + std::to_string(i);
  text += ") -> (";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", d" : "d") +
            std::to_string(llvm::find(loops, dims[i]) - loops.begin());
  return text + ")>";
}

std::string Exporter::generic(
    ArrayRef<Operand> inputs, NamedTensorType result,
    ArrayRef<StringAttr> loops, std::optional<std::string> fill,
    llvm::function_ref<std::string(ArrayRef<std::string>, std::string &)>
        bodyText) {
  std::string type = tensorType(result);
  std::string element;
  llvm::raw_string_ostream elementStream(element);
  result.getElementType().print(elementStream);
  std::string init = fresh("empty");
  os << "  " << init << " = tensor.empty() : " << type << "\n";
  if (fill) {
    std::string value = fresh("init"), filled = fresh("filled");
    os << "  " << value << " = arith.constant " << *fill << " : " << element
       << "\n  " << filled << " = linalg.fill ins(" << value << " : " << element
       << ") outs(" << init << " : " << type << ") -> " << type << "\n";
    init = filled;
  }
  std::string maps, iterators, operands, operandTypes;
  for (const Operand &input : inputs) {
    maps += (input.map.empty() ? indexingMap(loops, input.type.getDimNames())
                               : input.map) +
            ", ";
    operands += (operands.empty() ? "" : ", ") + input.name;
    operandTypes += (operandTypes.empty() ? "" : ", ") + tensorType(input.type);
  }
  maps += indexingMap(loops, result.getDimNames());
  for (StringAttr loop : loops)
    iterators +=
        std::string(iterators.empty() ? "" : ", ") +
        (result.hasDim(loop.getValue()) ? "\"parallel\"" : "\"reduction\"");
  std::string name = fresh("v");
  os << "  " << name << " = linalg.generic {indexing_maps = [" << maps
     << "], iterator_types = [" << iterators << "]}";
  if (!inputs.empty())
    os << " ins(" << operands << " : " << operandTypes << ")";
  os << " outs(" << init << " : " << type << ") {\n  ^bb0(";
  std::vector<std::string> args;
  for (size_t i = 0; i <= inputs.size(); ++i) {
    args.push_back(fresh("a"));
    Type argType = i < inputs.size() ? inputs[i].type.getElementType()
                                     : result.getElementType();
    std::string argElement;
    llvm::raw_string_ostream argStream(argElement);
    argType.print(argStream);
    os << (i ? ", " : "") << args.back() << ": " << argElement;
  }
  os << "):\n";
  std::string body;
  std::string yielded = bodyText(args, body);
  os << body << "    linalg.yield " << yielded << " : " << element
     << "\n  } -> " << type << "\n";
  return name;
}

/// A line of a generic's body: `%name = op operands : type`.
std::string bodyOp(std::string &body, std::string name, StringRef op,
                   StringRef operands, StringRef type) {
  body += llvm::formatv("    {0} = {1} {2} : {3}\n", name, op, operands, type)
              .str();
  return name;
}

std::pair<std::string, std::string>
Exporter::maxAndSumOfExp(const Operand &x, NamedTensorType rows,
                         ArrayRef<StringAttr> loops) {
  std::string max = generic({x}, rows, loops, std::string("0xFF800000"),
                            [&](ArrayRef<std::string> args, std::string &body) {
                              return bodyOp(body, fresh("r"), "arith.maximumf",
                                            args[1] + ", " + args[0], "f32");
                            });
  std::string sum =
      generic({x, {max, rows}}, rows, loops, std::string("0.0"),
              [&](ArrayRef<std::string> args, std::string &body) {
                std::string shifted = bodyOp(body, fresh("d"), "arith.subf",
                                             args[0] + ", " + args[1], "f32");
                std::string exp =
                    bodyOp(body, fresh("e"), "math.exp", shifted, "f32");
                return bodyOp(body, fresh("r"), "arith.addf",
                              args[2] + ", " + exp, "f32");
              });
  return {max, sum};
}

std::string Exporter::sumWhereIndexMatches(const Operand &value,
                                           const Operand &index,
                                           NamedTensorType result,
                                           ArrayRef<StringAttr> loops) {
  std::string indexType;
  llvm::raw_string_ostream indexStream(indexType);
  index.type.getElementType().print(indexStream);
  return generic(
      {value, index}, result, loops, std::string("0.0"),
      [&](ArrayRef<std::string> args, std::string &body) {
        std::string position =
            bodyOp(body, fresh("i"), "linalg.index",
                   std::to_string(loops.size() - 1), "index");
        std::string asIndex = bodyOp(body, fresh("l"), "arith.index_cast",
                                     args[1], indexType + " to index");
        std::string same = bodyOp(body, fresh("q"), "arith.cmpi",
                                  "eq, " + position + ", " + asIndex, "index");
        std::string zero =
            bodyOp(body, fresh("z"), "arith.constant", "0.0", "f32");
        std::string chosen = bodyOp(body, fresh("c"), "arith.select",
                                    same + ", " + args[0] + ", " + zero, "f32");
        return bodyOp(body, fresh("r"), "arith.addf", args[2] + ", " + chosen,
                      "f32");
      });
}

std::string Exporter::crossEntropy(SoftmaxCrossEntropyOp op) {
  auto rows = cast<NamedTensorType>(op.getResult().getType());
  auto logits = cast<NamedTensorType>(op.getLogits().getType());
  auto labels = cast<NamedTensorType>(op.getLabels().getType());
  SmallVector<StringAttr> loops(rows.getDimNames());
  loops.push_back(StringAttr::get(op.getContext(), op.getDim()));
  Operand logitsIn{names[op.getLogits()], logits};
  Operand labelsIn{names[op.getLabels()], labels};

  auto [max, sum] = maxAndSumOfExp(logitsIn, rows, loops);
  // The label's logit: the one at the class index equal to the label.
  std::string picked = sumWhereIndexMatches(logitsIn, labelsIn, rows, loops);
  return generic(
      {{sum, rows}, {max, rows}, {picked, rows}}, rows, rows.getDimNames(),
      std::nullopt, [&](ArrayRef<std::string> args, std::string &body) {
        std::string log = bodyOp(body, fresh("g"), "math.log", args[0], "f32");
        std::string plus =
            bodyOp(body, fresh("g"), "arith.addf", log + ", " + args[1], "f32");
        return bodyOp(body, fresh("g"), "arith.subf", plus + ", " + args[2],
                      "f32");
      });
}

/// `type` without the dimensions `dropped`.
static NamedTensorType without(NamedTensorType type,
                               ArrayRef<StringAttr> dropped) {
  SmallVector<StringAttr> dims;
  SmallVector<int64_t> shape;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
    if (!llvm::is_contained(dropped, name)) {
      dims.push_back(name);
      shape.push_back(size);
    }
  return NamedTensorType::get(type.getContext(), dims, shape,
                              type.getElementType(), LayoutAttr());
}

std::string Exporter::softmax(Value input, StringRef dim, bool logarithm) {
  auto type = cast<NamedTensorType>(input.getType());
  StringAttr over = StringAttr::get(input.getContext(), dim);
  NamedTensorType rows = without(type, {over});
  SmallVector<StringAttr> loops(rows.getDimNames());
  loops.push_back(over);
  Operand x{names[input], type};
  auto [max, sum] = maxAndSumOfExp(x, rows, loops);
  return generic(
      {x, {max, rows}, {sum, rows}}, type, type.getDimNames(), std::nullopt,
      [&](ArrayRef<std::string> args, std::string &body) {
        std::string shifted = bodyOp(body, fresh("d"), "arith.subf",
                                     args[0] + ", " + args[1], "f32");
        if (logarithm) {
          std::string log =
              bodyOp(body, fresh("g"), "math.log", args[2], "f32");
          return bodyOp(body, fresh("g"), "arith.subf", shifted + ", " + log,
                        "f32");
        }
        std::string exp = bodyOp(body, fresh("e"), "math.exp", shifted, "f32");
        return bodyOp(body, fresh("q"), "arith.divf", exp + ", " + args[2],
                      "f32");
      });
}

std::string Exporter::layerNorm(LayerNormOp op) {
  auto type = cast<NamedTensorType>(op.getInput().getType());
  SmallVector<StringAttr> over;
  for (Attribute dim : op.getDims())
    over.push_back(cast<StringAttr>(dim));
  NamedTensorType rows = without(type, over);
  SmallVector<StringAttr> loops(rows.getDimNames());
  loops.append(over.begin(), over.end());
  int64_t count = type.getNumElements() / rows.getNumElements();
  std::string inverse = llvm::formatv("{0:e}", 1.0 / double(count)).str();
  std::string epsilon =
      llvm::formatv("{0:e}", op.getEpsilon().convertToDouble()).str();
  Operand x{names[op.getInput()], type};
  std::string sum = generic({x}, rows, loops, std::string("0.0"),
                            [&](ArrayRef<std::string> args, std::string &body) {
                              return bodyOp(body, fresh("r"), "arith.addf",
                                            args[1] + ", " + args[0], "f32");
                            });
  std::string mean =
      generic({{sum, rows}}, rows, rows.getDimNames(), std::nullopt,
              [&](ArrayRef<std::string> args, std::string &body) {
                std::string factor =
                    bodyOp(body, fresh("c"), "arith.constant", inverse, "f32");
                return bodyOp(body, fresh("m"), "arith.mulf",
                              args[0] + ", " + factor, "f32");
              });
  std::string squares =
      generic({x, {mean, rows}}, rows, loops, std::string("0.0"),
              [&](ArrayRef<std::string> args, std::string &body) {
                std::string deviation = bodyOp(body, fresh("d"), "arith.subf",
                                               args[0] + ", " + args[1], "f32");
                std::string square =
                    bodyOp(body, fresh("s"), "arith.mulf",
                           deviation + ", " + deviation, "f32");
                return bodyOp(body, fresh("r"), "arith.addf",
                              args[2] + ", " + square, "f32");
              });
  return generic(
      {x, {mean, rows}, {squares, rows}}, type, type.getDimNames(),
      std::nullopt, [&](ArrayRef<std::string> args, std::string &body) {
        std::string deviation = bodyOp(body, fresh("d"), "arith.subf",
                                       args[0] + ", " + args[1], "f32");
        std::string factor =
            bodyOp(body, fresh("c"), "arith.constant", inverse, "f32");
        std::string variance = bodyOp(body, fresh("v"), "arith.mulf",
                                      args[2] + ", " + factor, "f32");
        std::string eps =
            bodyOp(body, fresh("c"), "arith.constant", epsilon, "f32");
        std::string shifted = bodyOp(body, fresh("v"), "arith.addf",
                                     variance + ", " + eps, "f32");
        std::string scale =
            bodyOp(body, fresh("r"), "math.rsqrt", shifted, "f32");
        return bodyOp(body, fresh("n"), "arith.mulf", deviation + ", " + scale,
                      "f32");
      });
}

std::string Exporter::gather(GatherOp op) {
  auto result = cast<NamedTensorType>(op.getResult().getType());
  auto table = cast<NamedTensorType>(op.getTable().getType());
  auto ids = cast<NamedTensorType>(op.getIds().getType());
  SmallVector<StringAttr> loops(result.getDimNames());
  loops.push_back(StringAttr::get(op.getContext(), op.getDim()));
  return sumWhereIndexMatches({names[op.getTable()], table},
                              {names[op.getIds()], ids}, result, loops);
}

std::string Exporter::conv2d(Conv2DOp op) {
  auto input = cast<NamedTensorType>(op.getInput().getType());
  auto filter = cast<NamedTensorType>(op.getFilter().getType());
  auto result = cast<NamedTensorType>(op.getResult().getType());
  MLIRContext *ctx = op.getContext();
  StringAttr channel = StringAttr::get(ctx, op.getInputChannel());
  SmallVector<StringAttr> spatial, kernel;
  for (Attribute name : op.getSpatial())
    spatial.push_back(cast<StringAttr>(name));
  for (Attribute name : op.getKernel())
    kernel.push_back(cast<StringAttr>(name));
  ArrayRef<int64_t> padding = op.getPadding();
  std::string source = names[op.getInput()];
  NamedTensorType padded = input;
  if (llvm::any_of(padding, [](int64_t pad) { return pad != 0; })) {
    // Zeros around the spatial dimensions: [low_h, high_h, low_w, high_w].
    SmallVector<int64_t> shape(input.getShape());
    std::string low, high, arguments;
    for (auto [index, dim] : llvm::enumerate(input.getDimNames())) {
      int64_t before = 0, after = 0;
      for (int axis = 0; axis < 2; ++axis)
        if (dim == spatial[axis]) {
          before = padding[2 * axis];
          after = padding[2 * axis + 1];
        }
      shape[index] += before + after;
      low += (index ? ", " : "") + std::to_string(before);
      high += (index ? ", " : "") + std::to_string(after);
      arguments += (index ? ", " : "") + fresh("p") + ": index";
    }
    padded = NamedTensorType::get(ctx, input.getDimNames(), shape,
                                  input.getElementType(), LayoutAttr());
    std::string zero = fresh("zero"), name = fresh("padded");
    os << "  " << zero << " = arith.constant 0.0 : f32\n  " << name
       << " = tensor.pad " << source << " low[" << low << "] high[" << high
       << "] {\n  ^bb0(" << arguments << "):\n    tensor.yield " << zero
       << " : f32\n  } : " << tensorType(input) << " to " << tensorType(padded)
       << "\n";
    source = name;
  }
  // Loops: the result's dimensions, then the input channel and the window.
  SmallVector<StringAttr> loops(result.getDimNames());
  loops.push_back(channel);
  loops.append(kernel.begin(), kernel.end());
  auto loopOf = [&](StringAttr name) {
    return "d" + std::to_string(llvm::find(loops, name) - loops.begin());
  };
  std::string map = "affine_map<(";
  for (size_t i = 0; i < loops.size(); ++i)
    map += (i ? ", d" : "d") + std::to_string(i);
  map += ") -> (";
  for (auto [index, dim] : llvm::enumerate(input.getDimNames())) {
    std::string expr = loopOf(dim);
    for (int axis = 0; axis < 2; ++axis)
      if (dim == spatial[axis])
        expr = llvm::formatv("{0} * {1} + {2} * {3}", loopOf(dim),
                             op.getStrides()[axis], loopOf(kernel[axis]),
                             op.getDilations()[axis])
                   .str();
    map += (index ? ", " : "") + expr;
  }
  map += ")>";
  return generic(
      {{source, padded, map}, {names[op.getFilter()], filter}}, result, loops,
      std::string("0.0"), [&](ArrayRef<std::string> args, std::string &body) {
        std::string product = bodyOp(body, fresh("p"), "arith.mulf",
                                     args[0] + ", " + args[1], "f32");
        return bodyOp(body, fresh("s"), "arith.addf", args[2] + ", " + product,
                      "f32");
      });
}

LogicalResult Exporter::exportOp(Operation *op) {
  auto typeOf = [](Value value) {
    return cast<NamedTensorType>(value.getType());
  };
  if (op->getNumResults() == 1 &&
      !isa<FloatType>(typeOf(op->getResult(0)).getElementType()))
    return op->emitError("tessel export-shard: only float tensors have an "
                         "upstream form here");
  auto elementOf = [&](Value value) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    typeOf(value).getElementType().print(stream);
    return text;
  };

  if (auto einsum = dyn_cast<EinsumOp>(op)) {
    NamedTensorType result = typeOf(einsum.getResult());
    SmallVector<StringAttr> loops(result.getDimNames());
    for (Value input : einsum.getInputs())
      for (StringAttr dim : typeOf(input).getDimNames())
        if (!llvm::is_contained(loops, dim))
          loops.push_back(dim);
    std::string element = elementOf(einsum.getResult());
    names[einsum.getResult()] = generic(
        operandsOf(einsum.getInputs()), result, loops, std::string("0.0"),
        [&](ArrayRef<std::string> args, std::string &body) {
          std::string product = args[0];
          for (size_t i = 1; i + 1 < args.size(); ++i)
            product = bodyOp(body, fresh("p"), "arith.mulf",
                             product + ", " + args[i], element);
          return bodyOp(body, fresh("s"), "arith.addf",
                        args.back() + ", " + product, element);
        });
    return success();
  }

  // Softmax, layer norm and lookups: generics over f32 (the bodies spell
  // their constants and the maximum's identity as f32).
  if (auto conv = dyn_cast<Conv2DOp>(op)) {
    if (!typeOf(conv.getResult()).getElementType().isF32() ||
        conv.getGroups() != 1)
      return op->emitError("tessel export-shard: 'tessel.conv2d' is exported "
                           "for f32 and one group only");
    names[conv.getResult()] = conv2d(conv);
    return success();
  }
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, GatherOp>(op)) {
    if (!typeOf(op->getResult(0)).getElementType().isF32())
      return op->emitError("tessel export-shard: '")
             << op->getName() << "' is exported for f32 only";
    Value result = op->getResult(0);
    if (auto normalize = dyn_cast<SoftmaxOp>(op))
      names[result] = softmax(normalize.getInput(), normalize.getDim(), false);
    else if (auto normalize = dyn_cast<LogSoftmaxOp>(op))
      names[result] = softmax(normalize.getInput(), normalize.getDim(), true);
    else if (auto norm = dyn_cast<LayerNormOp>(op))
      names[result] = layerNorm(norm);
    else
      names[result] = gather(cast<GatherOp>(op));
    return success();
  }

  if (auto entropy = dyn_cast<SoftmaxCrossEntropyOp>(op)) {
    if (!typeOf(entropy.getLogits()).getElementType().isF32())
      return op->emitError("tessel export-shard: softmax_cross_entropy is "
                           "exported for f32 logits only");
    names[entropy.getResult()] = crossEntropy(entropy);
    return success();
  }

  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    NamedTensorType result = typeOf(reduce.getResult());
    NamedTensorType input = typeOf(reduce.getInput());
    SmallVector<StringAttr> loops(result.getDimNames());
    for (StringAttr dim : input.getDimNames())
      if (!llvm::is_contained(loops, dim))
        loops.push_back(dim);
    std::string element = elementOf(reduce.getResult());
    StringRef combine;
    std::string identity;
    switch (reduce.getKind()) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      combine = "arith.addf", identity = "0.0";
      break;
    case ReduceKind::Prod:
      combine = "arith.mulf", identity = "1.0";
      break;
    case ReduceKind::Max:
      combine = "arith.maximumf", identity = "0xFF800000";
      break;
    case ReduceKind::Min:
      combine = "arith.minimumf", identity = "0x7F800000";
      break;
    }
    if (StringRef(identity).starts_with("0x") && element != "f32")
      return op->emitError("tessel export-shard: max and min reductions are "
                           "exported for f32 only");
    std::string folded =
        generic(operandsOf(reduce.getInput()), result, loops, identity,
                [&](ArrayRef<std::string> args, std::string &body) {
                  return bodyOp(body, fresh("r"), combine,
                                args[1] + ", " + args[0], element);
                });
    if (reduce.getKind() == ReduceKind::Mean) {
      int64_t count = input.getNumElements() / result.getNumElements();
      names[reduce.getResult()] = folded;
      std::string scale = llvm::formatv("{0:e}", 1.0 / double(count)).str();
      names[reduce.getResult()] = generic(
          {{folded, result}}, result, result.getDimNames(), std::nullopt,
          [&](ArrayRef<std::string> args, std::string &body) {
            std::string factor =
                bodyOp(body, fresh("c"), "arith.constant", scale, element);
            return bodyOp(body, fresh("m"), "arith.mulf",
                          args[0] + ", " + factor, element);
          });
    } else {
      names[reduce.getResult()] = folded;
    }
    return success();
  }

  // Element-wise ops: one or two operands broadcast by name into the
  // result, and the scalar formula of each.
  using Formula = std::function<std::string(
      ArrayRef<std::string>, std::string &, const std::string &)>;
  auto unary = [&](StringRef mathOp) -> Formula {
    return [mathOp, this](ArrayRef<std::string> args, std::string &body,
                          const std::string &element) {
      return bodyOp(body, fresh("u"), mathOp, args[0], element);
    };
  };
  auto binary = [&](StringRef arithOp) -> Formula {
    return [arithOp, this](ArrayRef<std::string> args, std::string &body,
                           const std::string &element) {
      return bodyOp(body, fresh("b"), arithOp, args[0] + ", " + args[1],
                    element);
    };
  };
  Formula formula =
      llvm::TypeSwitch<Operation *, Formula>(op)
          .Case<NegOp>([&](auto) { return unary("arith.negf"); })
          .Case<AbsOp>([&](auto) { return unary("math.absf"); })
          .Case<ExpOp>([&](auto) { return unary("math.exp"); })
          .Case<LogOp>([&](auto) { return unary("math.log"); })
          .Case<SqrtOp>([&](auto) { return unary("math.sqrt"); })
          .Case<RsqrtOp>([&](auto) { return unary("math.rsqrt"); })
          .Case<TanhOp>([&](auto) { return unary("math.tanh"); })
          .Case<ErfOp>([&](auto) { return unary("math.erf"); })
          .Case<SinOp>([&](auto) { return unary("math.sin"); })
          .Case<CosOp>([&](auto) { return unary("math.cos"); })
          .Case<ReluOp>([&](auto) -> Formula {
            return [this](ArrayRef<std::string> args, std::string &body,
                          const std::string &element) {
              std::string zero =
                  bodyOp(body, fresh("z"), "arith.constant", "0.0", element);
              return bodyOp(body, fresh("u"), "arith.maximumf",
                            args[0] + ", " + zero, element);
            };
          })
          .Case<SigmoidOp>([&](auto) -> Formula {
            return [this](ArrayRef<std::string> args, std::string &body,
                          const std::string &element) {
              std::string one =
                  bodyOp(body, fresh("o"), "arith.constant", "1.0", element);
              std::string negated =
                  bodyOp(body, fresh("u"), "arith.negf", args[0], element);
              std::string exp =
                  bodyOp(body, fresh("u"), "math.exp", negated, element);
              std::string sum = bodyOp(body, fresh("u"), "arith.addf",
                                       one + ", " + exp, element);
              return bodyOp(body, fresh("u"), "arith.divf", one + ", " + sum,
                            element);
            };
          })
          .Case<GeluOp>([&](auto) -> Formula {
            // x * (1 + erf(x / sqrt(2))) / 2, as tessel.gelu computes it.
            return [this](ArrayRef<std::string> args, std::string &body,
                          const std::string &element) {
              std::string rsqrt2 = bodyOp(body, fresh("k"), "arith.constant",
                                          "0.70710678118654752", element);
              std::string one =
                  bodyOp(body, fresh("o"), "arith.constant", "1.0", element);
              std::string half =
                  bodyOp(body, fresh("h"), "arith.constant", "0.5", element);
              std::string scaled = bodyOp(body, fresh("u"), "arith.mulf",
                                          args[0] + ", " + rsqrt2, element);
              std::string erf =
                  bodyOp(body, fresh("u"), "math.erf", scaled, element);
              std::string sum = bodyOp(body, fresh("u"), "arith.addf",
                                       one + ", " + erf, element);
              std::string product = bodyOp(body, fresh("u"), "arith.mulf",
                                           args[0] + ", " + sum, element);
              return bodyOp(body, fresh("u"), "arith.mulf",
                            product + ", " + half, element);
            };
          })
          .Case<AddOp>([&](auto) { return binary("arith.addf"); })
          .Case<SubOp>([&](auto) { return binary("arith.subf"); })
          .Case<MulOp>([&](auto) { return binary("arith.mulf"); })
          .Case<DivOp>([&](auto) { return binary("arith.divf"); })
          .Case<MaxOp>([&](auto) { return binary("arith.maximumf"); })
          .Case<MinOp>([&](auto) { return binary("arith.minimumf"); })
          .Case<PowOp>([&](auto) { return binary("math.powf"); })
          .Default([](Operation *) { return Formula(); });
  if (!formula)
    return op->emitError("tessel export-shard: '")
           << op->getName()
           << "' has no upstream form here (einsum, reduce, softmax, "
              "log_softmax, layer_norm, gather, softmax_cross_entropy, "
              "parameter and the element-wise ops do)";
  Value result = op->getResult(0);
  std::string element = elementOf(result);
  names[result] = generic(operandsOf(op->getOperands()), typeOf(result),
                          typeOf(result).getDimNames(), std::nullopt,
                          [&](ArrayRef<std::string> args, std::string &body) {
                            return formula(args, body, element);
                          });
  return success();
}

LogicalResult Exporter::exportFunction(func::FuncOp func) {
  // The boundary: arguments, then the parameters in program order.
  SmallVector<Value> boundary(func.getArguments());
  func.walk([&](ParameterOp parameter) {
    boundary.push_back(parameter.getResult());
  });
  for (Value value : boundary)
    if (!isa<NamedTensorType>(value.getType()))
      return func.emitError("tessel export-shard: every argument must be a "
                            "tessel tensor");

  os << "shard.grid @grid(shape = ";
  for (size_t i = 0; i < mesh.getAxisSizes().size(); ++i)
    os << (i ? "x" : "") << mesh.getAxisSizes()[i];
  // The axes' names ride along for `tessel import-shard`; upstream keeps
  // attributes of dialects it does not know.
  os << ") {tessel.axes = [";
  for (auto [index, name] : llvm::enumerate(mesh.getAxisNames()))
    os << (index ? ", " : "") << "\"" << name.getValue() << "\"";
  os << "]}\n";
  // The grid's axes are numbered; their names, in the mesh's order:
  os << "// grid axes:";
  for (auto [index, name] : llvm::enumerate(mesh.getAxisNames()))
    os << " " << index << " = " << name.getValue();
  os << "\nfunc.func @" << func.getSymName() << "(";
  for (auto [index, value] : llvm::enumerate(boundary)) {
    std::string name = llvm::formatv("%arg{0}", index).str();
    os << (index ? ", " : "") << name << ": "
       << tensorType(cast<NamedTensorType>(value.getType())) << " "
       << boundaryAttributes(func, value);
    names[value] = name;
  }
  os << ") -> (";
  auto results = func.getFunctionType().getResults();
  for (auto [index, type] : llvm::enumerate(results)) {
    auto tensor = dyn_cast<NamedTensorType>(type);
    if (!tensor)
      return func.emitError("tessel export-shard: every result must be a "
                            "tessel tensor");
    os << (index ? ", " : "") << tensorType(tensor);
  }
  os << ") {\n";
  for (Value value : boundary) {
    auto type = cast<NamedTensorType>(value.getType());
    std::string sharding = fresh("sharding"), sharded = fresh("in");
    os << "  " << sharding
       << " = shard.sharding @grid split_axes = " << splitAxes(type)
       << " : !shard.sharding\n  " << sharded << " = shard.shard "
       << names[value] << " to " << sharding
       << " annotate_for_users : " << tensorType(type) << "\n";
    names[value] = sharded;
  }
  for (Operation &op : func.getBody().front()) {
    if (isa<ParameterOp>(op))
      continue;
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      std::string values, types;
      for (Value value : ret.getOperands()) {
        auto type = cast<NamedTensorType>(value.getType());
        std::string sharding = fresh("sharding"), sharded = fresh("out");
        os << "  " << sharding
           << " = shard.sharding @grid split_axes = " << splitAxes(type)
           << " : !shard.sharding\n  " << sharded << " = shard.shard "
           << names[value] << " to " << sharding << " : " << tensorType(type)
           << "\n";
        values += (values.empty() ? "" : ", ") + sharded;
        types += (types.empty() ? "" : ", ") + tensorType(type);
      }
      os << "  return " << values << (values.empty() ? "" : " : ") << types
         << "\n";
      continue;
    }
    if (failed(exportOp(&op)))
      return failure();
    // Every value keeps the layout tessel gave it: the producer's sharding
    // and its users' (upstream's pair of annotations), so that upstream's
    // propagation has nothing left to choose.
    for (Value result : op.getResults()) {
      auto type = cast<NamedTensorType>(result.getType());
      std::string sharding = fresh("sharding"), produced = fresh("sharded"),
                  used = fresh("used");
      os << "  " << sharding
         << " = shard.sharding @grid split_axes = " << splitAxes(type)
         << " : !shard.sharding\n  " << produced << " = shard.shard "
         << names[result] << " to " << sharding << " : " << tensorType(type)
         << "\n  " << used << " = shard.shard " << produced << " to "
         << sharding << " annotate_for_users : " << tensorType(type) << "\n";
      names[result] = used;
    }
  }
  os << "}\n";
  return success();
}

} // namespace

int mlir::tessel::runExportShard() {
  if (layoutPath.empty() == meshSpec.empty()) {
    llvm::errs() << "tessel export-shard: give either --layout FILE or --mesh "
                    "(with --rules)\n";
    return 1;
  }
  if (!checkRulesHaveAMesh("tessel export-shard", layoutPath, meshSpec,
                           rulesSpec))
    return 1;
  if (outputIsAnInput("tessel export-shard", outputPath,
                      {{modelPath, "the model"}, {layoutPath, "the layout"}}))
    return 1;
  ModelFile model(modelPath);
  if (!model.module())
    return 1;
  PassManager pm(&model.context());
  TesselApplyLayoutOptions options;
  options.layoutFile = layoutPath;
  options.meshSpec = meshSpec;
  options.rulesSpec = rulesSpec;
  pm.addPass(createTesselApplyLayout(options));
  if (failed(pm.run(model.module())))
    return 1;
  func::FuncOp func = model.function(functionName);
  if (!func)
    return 1;
  auto mesh = model.module()->getAttrOfType<MeshAttr>("tessel.mesh");
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(Exporter(mesh, os).exportFunction(func)))
    return 1;
  return writeFileAtomically("tessel export-shard", outputPath,
                             [&](raw_ostream &out) { out << text; })
             ? 0
             : 1;
}
