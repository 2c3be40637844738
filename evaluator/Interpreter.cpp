//===- Interpreter.cpp - run a tessel function with the reference kernels -===//

#include "evaluator/Interpreter.h"

#include "dialect/MeshConversion.h"
#include "evaluator/Blocks.h"
#include "reference/Dropout.h"
#include "reference/Kernels.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tessel;
namespace ref = ::tessel::ref;
namespace layout = ::tessel::layout;
using namespace ::tessel::eval;

namespace tessel::eval {
ref::TensorSpec specOf(NamedTensorType type) {
  ref::TensorSpec spec;
  for (StringAttr name : type.getDimNames())
    spec.dims.push_back(name.str());
  spec.shape.assign(type.getShape().begin(), type.getShape().end());
  Type element = type.getElementType();
  if (element.isF32())
    spec.type = ref::ElementType::F32;
  else if (element.isF16())
    spec.type = ref::ElementType::F16;
  else if (element.isBF16())
    spec.type = ref::ElementType::BF16;
  else if (element.isF64())
    spec.type = ref::ElementType::F64;
  else if (element.isSignlessInteger(1))
    spec.type = ref::ElementType::I1;
  else if (element.isSignlessInteger(32))
    spec.type = ref::ElementType::I32;
  else
    spec.type = ref::ElementType::I64;
  return spec;
}
} // namespace tessel::eval

namespace tessel::eval {
layout::Mesh meshOf(func::FuncOp func) {
  return toLayoutMesh(getEnclosingMesh(func));
}
} // namespace tessel::eval

namespace {

std::vector<std::string> strings(ArrayAttr names) {
  std::vector<std::string> result;
  for (Attribute name : names)
    result.push_back(cast<StringAttr>(name).str());
  return result;
}

template <size_t N> std::array<std::string, N> stringArray(ArrayAttr names) {
  std::array<std::string, N> result;
  for (size_t i = 0; i < N; ++i)
    result[i] = cast<StringAttr>(names[i]).str();
  return result;
}

template <size_t N> std::array<int64_t, N> intArray(ArrayRef<int64_t> values) {
  std::array<int64_t, N> result;
  std::copy_n(values.begin(), N, result.begin());
  return result;
}

ref::ReductionKind toRef(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return ref::ReductionKind::Sum;
  case ReduceKind::Mean:
    return ref::ReductionKind::Mean;
  case ReduceKind::Max:
    return ref::ReductionKind::Max;
  case ReduceKind::Min:
    return ref::ReductionKind::Min;
  case ReduceKind::Prod:
    return ref::ReductionKind::Prod;
  }
  llvm_unreachable("unknown reduce kind");
}

ref::ReductionKind toRef(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::Sum:
    return ref::ReductionKind::Sum;
  case CollectiveKind::Max:
    return ref::ReductionKind::Max;
  case CollectiveKind::Min:
    return ref::ReductionKind::Min;
  }
  llvm_unreachable("unknown collective kind");
}

ref::InitKind toRef(InitKind kind) {
  switch (kind) {
  case InitKind::Zeros:
    return ref::InitKind::Zeros;
  case InitKind::Ones:
    return ref::InitKind::Ones;
  case InitKind::Uniform:
    return ref::InitKind::Uniform;
  case InitKind::Normal:
    return ref::InitKind::Normal;
  }
  llvm_unreachable("unknown init kind");
}

ref::PoolKind toRef(PoolKind kind) {
  return kind == PoolKind::Max ? ref::PoolKind::Max : ref::PoolKind::Avg;
}

/// The attributes of a convolution or one of its gradients.
template <typename ConvLike> ref::ConvParams convParams(ConvLike op) {
  ref::ConvParams params;
  params.inputChannel = op.getInputChannel().str();
  params.outputChannel = op.getOutputChannel().str();
  params.spatial = stringArray<2>(op.getSpatial());
  params.kernel = stringArray<2>(op.getKernel());
  params.strides = intArray<2>(op.getStrides());
  params.dilations = intArray<2>(op.getDilations());
  params.padding = intArray<4>(op.getPadding());
  params.groups = op.getGroups();
  return params;
}

/// The attributes of a pooling or its gradient.
template <typename PoolLike> ref::PoolParams poolParams(PoolLike op) {
  ref::PoolParams params;
  params.spatial = stringArray<2>(op.getSpatial());
  params.window = intArray<2>(op.getWindow());
  params.strides = intArray<2>(op.getStrides());
  params.padding = intArray<4>(op.getPadding());
  return params;
}

/// Holds every value's per-rank tensors while a function runs.
class Interpreter {
public:
  Interpreter(layout::Mesh mesh, const ParameterValues &parameters)
      : mesh(std::move(mesh)), parameters(parameters) {}

  LogicalResult run(Operation *op);
  void bind(Value value, PerRank tensors) {
    values[value] = std::move(tensors);
  }
  const PerRank &lookup(Value value) { return values.find(value)->second; }

private:
  int64_t numRanks() const { return mesh.numRanks(); }

  /// Binds a parameter to `value`, its global value: each rank's block of
  /// it, rounded to the parameter's element type.
  LogicalResult parameterValue(ParameterOp p, const ref::Tensor &value) {
    std::optional<NamedTensorType> global = p.getGlobalType();
    ref::TensorSpec globalSpec = specOf(global ? *global : p.getType());
    if (value.spec.dims != globalSpec.dims ||
        value.spec.shape != globalSpec.shape)
      return p.emitError() << "the value given for parameter '" << p.getName()
                           << "' has dims and shape other than its own";
    ref::Tensor rounded(globalSpec, value.data);
    return perRank(p, [&](int64_t r) {
      return global ? blockOf(rounded, *global, mesh, r) : rounded;
    });
  }

  /// Binds `op`'s result to `compute(rank)` on every rank.
  template <typename Compute>
  LogicalResult perRank(Operation *op, Compute &&compute) {
    PerRank result;
    for (int64_t rank = 0; rank < numRanks(); ++rank)
      result.push_back(compute(rank));
    bind(op->getResult(0), std::move(result));
    return success();
  }

  /// Like perRank for kernels that can fail on their data: they return
  /// false with a message, which becomes an error at the op.
  template <typename Compute>
  LogicalResult perRankChecked(Operation *op, Compute &&compute) {
    PerRank result(numRanks());
    for (int64_t rank = 0; rank < numRanks(); ++rank) {
      std::string error;
      if (!compute(rank, result[rank], error))
        return op->emitError()
               << error
               << (numRanks() > 1 ? " (on rank " + std::to_string(rank) + ")"
                                  : "");
    }
    bind(op->getResult(0), std::move(result));
    return success();
  }

  LogicalResult unary(Operation *op, ref::UnaryKind kind) {
    const PerRank &x = lookup(op->getOperand(0));
    return perRank(op, [&](int64_t r) { return ref::unary(kind, x[r]); });
  }

  LogicalResult binary(Operation *op, ref::BinaryKind kind) {
    const PerRank &a = lookup(op->getOperand(0)),
                  &b = lookup(op->getOperand(1));
    ref::TensorSpec spec = resultSpec(op);
    return perRank(
        op, [&](int64_t r) { return ref::binary(kind, a[r], b[r], spec); });
  }

  static ref::TensorSpec resultSpec(Operation *op) {
    return specOf(cast<NamedTensorType>(op->getResult(0).getType()));
  }

  LogicalResult constant(ConstantOp op);

  layout::Mesh mesh;
  const ParameterValues &parameters;
  llvm::DenseMap<Value, PerRank> values;
};

LogicalResult Interpreter::constant(ConstantOp op) {
  ref::TensorSpec spec = resultSpec(op);
  ref::Tensor tensor(spec);
  Attribute value = op.getValue();
  if (auto floatValue = dyn_cast<FloatAttr>(value)) {
    tensor = ref::Tensor(spec, floatValue.getValueAsDouble());
  } else if (auto intValue = dyn_cast<IntegerAttr>(value)) {
    tensor = ref::Tensor(spec, static_cast<double>(intValue.getInt()));
  } else {
    auto dense = cast<DenseElementsAttr>(value);
    std::vector<double> data;
    if (isa<FloatType>(dense.getElementType())) {
      for (APFloat element : dense.getValues<APFloat>())
        data.push_back(element.convertToDouble());
    } else {
      for (APInt element : dense.getValues<APInt>())
        data.push_back(static_cast<double>(element.getSExtValue()));
    }
    if (dense.isSplat())
      data.assign(spec.numElements(), data.front());
    tensor = ref::Tensor(spec, std::move(data));
  }
  return perRank(op, [&](int64_t) { return tensor; });
}

LogicalResult Interpreter::run(Operation *op) {
  auto operand = [&](unsigned i) -> const PerRank & {
    return lookup(op->getOperand(i));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ParameterOp p) {
        auto given = parameters.find(p.getName().str());
        if (given != parameters.end())
          return parameterValue(p, given->second);
        ref::InitKind kind = toRef(p.getInit());
        double scale = p.getScale().convertToDouble();
        auto seed = static_cast<uint64_t>(p.getSeed());
        // A block of a partitioned parameter: each rank's own elements.
        if (std::optional<NamedTensorType> global = p.getGlobalType()) {
          layout::TensorLayout layout = toTensorLayout(*global);
          ref::ElementType type = resultSpec(p).type;
          return perRank(p, [&](int64_t r) {
            return ref::initializeParameterShard(mesh, layout, r, type, kind,
                                                 scale, seed);
          });
        }
        ref::Tensor tensor =
            ref::initializeParameter(resultSpec(p), kind, scale, seed);
        return perRank(p, [&](int64_t) { return tensor; });
      })
      .Case([&](ConstantOp c) { return constant(c); })
      .Case([&](IotaOp i) {
        return perRank(i, [&](int64_t) {
          return ref::iota(resultSpec(i), i.getDim().str());
        });
      })
      .Case([&](EinsumOp e) {
        ref::TensorSpec spec = resultSpec(e);
        return perRank(e, [&](int64_t r) {
          std::vector<ref::Tensor> inputs;
          for (Value input : e.getInputs())
            inputs.push_back(lookup(input)[r]);
          return ref::einsum(inputs, spec);
        });
      })
      .Case([&](NegOp) { return unary(op, ref::UnaryKind::Neg); })
      .Case([&](AbsOp) { return unary(op, ref::UnaryKind::Abs); })
      .Case([&](ExpOp) { return unary(op, ref::UnaryKind::Exp); })
      .Case([&](LogOp) { return unary(op, ref::UnaryKind::Log); })
      .Case([&](SqrtOp) { return unary(op, ref::UnaryKind::Sqrt); })
      .Case([&](RsqrtOp) { return unary(op, ref::UnaryKind::Rsqrt); })
      .Case([&](TanhOp) { return unary(op, ref::UnaryKind::Tanh); })
      .Case([&](SigmoidOp) { return unary(op, ref::UnaryKind::Sigmoid); })
      .Case([&](ReluOp) { return unary(op, ref::UnaryKind::Relu); })
      .Case([&](GeluOp) { return unary(op, ref::UnaryKind::Gelu); })
      .Case([&](ErfOp) { return unary(op, ref::UnaryKind::Erf); })
      .Case([&](SinOp) { return unary(op, ref::UnaryKind::Sin); })
      .Case([&](CosOp) { return unary(op, ref::UnaryKind::Cos); })
      .Case([&](AddOp) { return binary(op, ref::BinaryKind::Add); })
      .Case([&](SubOp) { return binary(op, ref::BinaryKind::Sub); })
      .Case([&](MulOp) { return binary(op, ref::BinaryKind::Mul); })
      .Case([&](DivOp) { return binary(op, ref::BinaryKind::Div); })
      .Case([&](MaxOp) { return binary(op, ref::BinaryKind::Max); })
      .Case([&](MinOp) { return binary(op, ref::BinaryKind::Min); })
      .Case([&](PowOp) { return binary(op, ref::BinaryKind::Pow); })
      .Case([&](CompareOp c) {
        auto kind = static_cast<ref::CompareKind>(c.getKind());
        ref::TensorSpec spec = resultSpec(c);
        return perRank(c, [&](int64_t r) {
          return ref::compare(kind, operand(0)[r], operand(1)[r], spec);
        });
      })
      .Case([&](SelectOp s) {
        ref::TensorSpec spec = resultSpec(s);
        return perRank(s, [&](int64_t r) {
          return ref::select(operand(0)[r], operand(1)[r], operand(2)[r], spec);
        });
      })
      .Case([&](CastOp c) {
        ref::ElementType type = resultSpec(c).type;
        return perRank(
            c, [&](int64_t r) { return ref::cast(operand(0)[r], type); });
      })
      .Case([&](ReduceOp red) {
        ref::TensorSpec spec = resultSpec(red);
        return perRank(red, [&](int64_t r) {
          return ref::reduce(toRef(red.getKind()), operand(0)[r], spec);
        });
      })
      .Case([&](SoftmaxOp s) {
        return perRank(s, [&](int64_t r) {
          return ref::softmax(operand(0)[r], s.getDim());
        });
      })
      .Case([&](LogSoftmaxOp s) {
        return perRank(s, [&](int64_t r) {
          return ref::logSoftmax(operand(0)[r], s.getDim());
        });
      })
      .Case([&](DropoutOp d) {
        const PerRank &x = operand(0), &step = operand(1);
        double rate = d.getRate().convertToDouble();
        auto seed = static_cast<uint64_t>(d.getSeed());
        std::optional<NamedTensorType> global = d.getGlobalType();
        return perRank(d, [&](int64_t r) {
          auto count = static_cast<int64_t>(step[r].data.at(0));
          if (!global)
            return ref::dropout(x[r], rate, seed, count);
          // A block: each element draws with its global index.
          layout::TensorLayout layout = toTensorLayout(*global);
          return ref::dropoutBlock(x[r], rate, seed, count, layout.shape,
                                   layout::shardOffset(mesh, layout, r));
        });
      })
      .Case([&](CumsumOp c) {
        bool reverse = c.getReverse();
        return perRank(c, [&](int64_t r) {
          return ref::cumsum(operand(0)[r], c.getDim(), reverse);
        });
      })
      .Case([&](ArgmaxOp a) {
        ref::TensorSpec spec = resultSpec(a);
        return perRank(a, [&](int64_t r) {
          return ref::argmax(operand(0)[r], a.getDim(), spec);
        });
      })
      .Case([&](TopKOp t) {
        ref::TensorSpec spec = resultSpec(t);
        int64_t k = t.getKAttr().getInt();
        bool indices = t.getIndices();
        return perRank(t, [&](int64_t r) {
          return ref::topK(operand(0)[r], t.getDim(), k, t.getOutDim(), indices,
                           spec);
        });
      })
      .Case([&](SoftmaxCrossEntropyOp s) {
        ref::TensorSpec spec = resultSpec(s);
        return perRankChecked(
            s, [&](int64_t r, ref::Tensor &out, std::string &error) {
              return ref::softmaxCrossEntropy(operand(0)[r], operand(1)[r],
                                              s.getDim(), spec, out, error);
            });
      })
      .Case([&](LayerNormOp l) {
        std::vector<std::string> dims = strings(l.getDims());
        double epsilon = l.getEpsilon().convertToDouble();
        return perRank(l, [&](int64_t r) {
          return ref::layerNorm(operand(0)[r], dims, epsilon);
        });
      })
      .Case([&](Conv2DOp c) {
        ref::ConvParams params = convParams(c);
        ref::TensorSpec spec = resultSpec(c);
        return perRank(c, [&](int64_t r) {
          return ref::conv2d(operand(0)[r], operand(1)[r], params, spec);
        });
      })
      .Case([&](Conv2DBackwardInputOp c) {
        ref::ConvParams params = convParams(c);
        ref::TensorSpec spec = resultSpec(c);
        return perRank(c, [&](int64_t r) {
          return ref::conv2dBackwardInput(operand(0)[r], operand(1)[r], params,
                                          spec);
        });
      })
      .Case([&](Conv2DBackwardFilterOp c) {
        ref::ConvParams params = convParams(c);
        ref::TensorSpec spec = resultSpec(c);
        return perRank(c, [&](int64_t r) {
          return ref::conv2dBackwardFilter(operand(0)[r], operand(1)[r], params,
                                           spec);
        });
      })
      .Case([&](PoolOp p) {
        ref::PoolParams params = poolParams(p);
        ref::TensorSpec spec = resultSpec(p);
        return perRank(p, [&](int64_t r) {
          return ref::pool(toRef(p.getKind()), operand(0)[r], params, spec);
        });
      })
      .Case([&](PoolBackwardOp p) {
        ref::PoolParams params = poolParams(p);
        return perRank(p, [&](int64_t r) {
          return ref::poolBackward(toRef(p.getKind()), operand(0)[r],
                                   operand(1)[r], params);
        });
      })
      .Case([&](GatherOp g) {
        ref::TensorSpec spec = resultSpec(g);
        return perRankChecked(
            g, [&](int64_t r, ref::Tensor &out, std::string &error) {
              return ref::gather(operand(0)[r], operand(1)[r], g.getDim(), spec,
                                 out, error);
            });
      })
      .Case([&](OneHotOp o) {
        ref::TensorSpec spec = resultSpec(o);
        return perRank(o, [&](int64_t r) {
          return ref::oneHot(operand(0)[r], o.getDim(), spec);
        });
      })
      // Outside a training step a buffer's update only yields the value.
      .Case([&](UpdateBufferOp) {
        return perRank(op, [&](int64_t r) { return operand(1)[r]; });
      })
      .Case([&](RenameOp) {
        ref::TensorSpec spec = resultSpec(op);
        return perRank(
            op, [&](int64_t r) { return ref::rename(operand(0)[r], spec); });
      })
      .Case([&](ReshapeOp) {
        ref::TensorSpec spec = resultSpec(op);
        return perRank(
            op, [&](int64_t r) { return ref::reshape(operand(0)[r], spec); });
      })
      .Case([&](BroadcastOp) {
        ref::TensorSpec spec = resultSpec(op);
        return perRank(
            op, [&](int64_t r) { return ref::broadcast(operand(0)[r], spec); });
      })
      .Case([&](TransposeOp) {
        ref::TensorSpec spec = resultSpec(op);
        return perRank(
            op, [&](int64_t r) { return ref::transpose(operand(0)[r], spec); });
      })
      .Case([&](SliceOp s) {
        ref::TensorSpec spec = resultSpec(s);
        std::vector<std::string> dims = strings(s.getDims());
        std::vector<int64_t> starts(s.getStarts().begin(), s.getStarts().end());
        return perRank(s, [&](int64_t r) {
          return ref::slice(operand(0)[r], dims, starts, spec);
        });
      })
      .Case([&](ConcatOp c) {
        ref::TensorSpec spec = resultSpec(c);
        return perRank(c, [&](int64_t r) {
          std::vector<ref::Tensor> inputs;
          for (Value input : c.getInputs())
            inputs.push_back(lookup(input)[r]);
          return ref::concat(inputs, c.getDim(), spec);
        });
      })
      .Case([&](PadOp p) {
        ref::TensorSpec spec = resultSpec(p);
        std::vector<std::string> dims = strings(p.getDims());
        std::vector<int64_t> low(p.getLow().begin(), p.getLow().end());
        std::vector<int64_t> high(p.getHigh().begin(), p.getHigh().end());
        double value = p.getValue().convertToDouble();
        return perRank(p, [&](int64_t r) {
          return ref::pad(operand(0)[r], dims, low, high, value, spec);
        });
      })
      // A fused op means its body, op by op.
      .Case([&](FusedOp f) {
        Block &body = f.getBody().front();
        for (auto [argument, input] :
             llvm::zip(body.getArguments(), f.getInputs()))
          bind(argument, lookup(input));
        for (Operation &inner : body.without_terminator())
          if (failed(run(&inner)))
            return failure();
        for (auto [result, value] :
             llvm::zip(f.getResults(),
                       cast<YieldOp>(body.getTerminator()).getValues()))
          bind(result, lookup(value));
        return success();
      })
      // Mesh-level ops combine the ranks' tensors.
      .Case([&](AllReduceOp a) {
        bind(a, ref::allReduce(operand(0), mesh, toRef(a.getKind()),
                               strings(a.getAxes())));
        return success();
      })
      .Case([&](AllGatherOp a) {
        bind(a, ref::allGather(operand(0), mesh, a.getDim(),
                               strings(a.getAxes())));
        return success();
      })
      .Case([&](ReduceScatterOp a) {
        bind(a, ref::reduceScatter(operand(0), mesh, toRef(a.getKind()),
                                   a.getDim(), strings(a.getAxes())));
        return success();
      })
      .Case([&](AllToAllOp a) {
        bind(a, ref::allToAll(operand(0), mesh, a.getSplitDim(),
                              a.getConcatDim(), strings(a.getAxes())));
        return success();
      })
      .Case([&](HaloExchangeOp h) {
        bind(h, ref::haloExchange(operand(0), mesh, h.getDim(), h.getAxis(),
                                  h.getHalo()[0], h.getHalo()[1],
                                  h.getPadValue().convertToDouble()));
        return success();
      })
      .Case([&](CollectivePermuteOp c) {
        std::vector<std::pair<int64_t, int64_t>> pairs;
        for (size_t i = 0; i + 1 < c.getPairs().size(); i += 2)
          pairs.push_back({c.getPairs()[i], c.getPairs()[i + 1]});
        bind(c, ref::collectivePermute(operand(0), mesh, strings(c.getAxes()),
                                       pairs));
        return success();
      })
      .Case([&](ShardSliceOp s) {
        bind(s, ref::shardSlice(operand(0), mesh, s.getDim(),
                                strings(s.getAxes())));
        return success();
      })
      .Default([&](Operation *other) {
        return other->emitError() << "the reference evaluator cannot run '"
                                  << other->getName() << "'";
      });
}

} // namespace

namespace tessel::eval {
FailureOr<std::vector<PerRank>> interpret(func::FuncOp func,
                                          const std::vector<PerRank> &inputs,
                                          const ParameterValues &parameters) {
  Interpreter interpreter(meshOf(func), parameters);
  if (func.isExternal())
    return func.emitError()
           << "function '" << func.getSymName() << "' has no body to evaluate";
  Block &body = func.getBody().front();
  for (auto [argument, tensors] : llvm::zip(body.getArguments(), inputs))
    interpreter.bind(argument, tensors);
  for (Operation &op : body.without_terminator())
    if (failed(interpreter.run(&op)))
      return failure();
  std::vector<PerRank> results;
  for (Value result : body.getTerminator()->getOperands())
    results.push_back(interpreter.lookup(result));
  return results;
}
} // namespace tessel::eval
