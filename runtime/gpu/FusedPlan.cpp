//===- FusedPlan.cpp - A fused op's body as a GPU program -----------------===//
//
// The walk: the result's dims in row-major order, those of size 1 left
// out, and neighbours merged wherever every operand's strides merge (the
// outer stride is the inner one's times the inner size; a broadcast
// operand's 0 and 0 always do). So a body whose operands are in the
// result's layout or scalars walks one dim, and an element's offsets cost
// a multiply each.
//
// The instructions: the live body entries in order, each operand loaded
// and each constant set where first read, in registers reused once their
// value is dead (an instruction reads its arguments before it writes, so
// it may write one of them), as the CPU's fused kernel allocates its tiles.
//
//===----------------------------------------------------------------------===//

#include "gpu/FusedPlan.h"

#include "gpu/Views.h"

#include "executor/FusedElementwise.h"
#include "executor/RegisterPool.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tessel::runtime::gpu {

namespace {

/// The interpreter's step and op kind of a body entry's opcode.
struct StepAndOp {
  FusedStep step;
  uint8_t op = 0;
};

template <typename Kind> StepAndOp as(FusedStep step, Kind kind) {
  return {step, static_cast<uint8_t>(kind)};
}

StepAndOp stepOf(FusedOpcode opcode) {
  using S = FusedStep;
  switch (opcode) {
  case FusedOpcode::Neg:
    return as(S::Unary, UnaryOp::Neg);
  case FusedOpcode::Abs:
    return as(S::Unary, UnaryOp::Abs);
  case FusedOpcode::Exp:
    return as(S::Unary, UnaryOp::Exp);
  case FusedOpcode::Log:
    return as(S::Unary, UnaryOp::Log);
  case FusedOpcode::Sqrt:
    return as(S::Unary, UnaryOp::Sqrt);
  case FusedOpcode::Rsqrt:
    return as(S::Unary, UnaryOp::Rsqrt);
  case FusedOpcode::Tanh:
    return as(S::Unary, UnaryOp::Tanh);
  case FusedOpcode::Sigmoid:
    return as(S::Unary, UnaryOp::Sigmoid);
  case FusedOpcode::Relu:
    return as(S::Unary, UnaryOp::Relu);
  case FusedOpcode::Gelu:
    return as(S::Unary, UnaryOp::Gelu);
  case FusedOpcode::Erf:
    return as(S::Unary, UnaryOp::Erf);
  case FusedOpcode::Sin:
    return as(S::Unary, UnaryOp::Sin);
  case FusedOpcode::Cos:
    return as(S::Unary, UnaryOp::Cos);
  case FusedOpcode::Add:
    return as(S::Binary, BinaryOp::Add);
  case FusedOpcode::Sub:
    return as(S::Binary, BinaryOp::Sub);
  case FusedOpcode::Mul:
    return as(S::Binary, BinaryOp::Mul);
  case FusedOpcode::Div:
    return as(S::Binary, BinaryOp::Div);
  case FusedOpcode::Max:
    return as(S::Binary, BinaryOp::Max);
  case FusedOpcode::Min:
    return as(S::Binary, BinaryOp::Min);
  case FusedOpcode::Pow:
    return as(S::Binary, BinaryOp::Pow);
  case FusedOpcode::Eq:
    return as(S::Compare, CompareOp::Eq);
  case FusedOpcode::Ne:
    return as(S::Compare, CompareOp::Ne);
  case FusedOpcode::Lt:
    return as(S::Compare, CompareOp::Lt);
  case FusedOpcode::Le:
    return as(S::Compare, CompareOp::Le);
  case FusedOpcode::Gt:
    return as(S::Compare, CompareOp::Gt);
  case FusedOpcode::Ge:
    return as(S::Compare, CompareOp::Ge);
  case FusedOpcode::Select:
    return {S::Select};
  case FusedOpcode::Copy:
    break;
  }
  return {S::Copy};
}

/// The stride of the dim `name` of `type`, 0 when it lacks the dim.
int64_t strideByName(const TensorType &type, const std::string &name) {
  std::vector<int64_t> strides = rowMajorStrides(type.shape);
  for (int d = 0; d < type.rank(); ++d)
    if (type.dims[d] == name)
      return strides[d];
  return 0;
}

/// Sets the program's walk and each operand's strides along it; false when
/// more than kMaxDims dims are left or the strides do not fit.
bool planWalk(const OpDescriptor &desc, FusedCode &code) {
  const TensorType &result = desc.result;
  size_t numOperands = desc.operands.size();
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides(numOperands);
  for (int d = 0; d < result.rank(); ++d) {
    int64_t size = result.shape[d];
    if (size == 1)
      continue;
    std::vector<int64_t> inner(numOperands);
    bool merges = !sizes.empty();
    for (size_t i = 0; i < numOperands; ++i) {
      inner[i] = strideByName(desc.operands[i], result.dims[d]);
      merges = merges && strides[i].back() == inner[i] * size;
    }
    if (merges) {
      sizes.back() *= size;
      for (size_t i = 0; i < numOperands; ++i)
        strides[i].back() = inner[i];
      continue;
    }
    sizes.push_back(size);
    for (size_t i = 0; i < numOperands; ++i)
      strides[i].push_back(inner[i]);
  }
  if (sizes.size() > static_cast<size_t>(kMaxDims) ||
      sizes.size() * numOperands > static_cast<size_t>(kFusedMaxStrides))
    return false;
  code.walk.rank = static_cast<int32_t>(sizes.size());
  std::copy(sizes.begin(), sizes.end(), code.walk.shape);
  for (size_t i = 0; i < numOperands; ++i) {
    size_t first = i * sizes.size();
    code.operands[i].type =
        static_cast<uint8_t>(dtypeOf(desc.operands[i].type));
    code.operands[i].firstStride = static_cast<uint8_t>(first);
    std::copy(strides[i].begin(), strides[i].end(), code.strides + first);
  }
  return true;
}

} // namespace

std::optional<FusedCode> planFused(const OpDescriptor &desc) {
  std::vector<FusedEntry> body = checkFusedBody(desc);
  // A body that ends in a sum (attribute `sum_of`) runs on the host.
  if (desc.attrs.contains("sum_of"))
    return std::nullopt;
  size_t numOperands = desc.operands.size();
  if (numOperands > static_cast<size_t>(kFusedMaxOperands))
    return std::nullopt;
  FusedCode code{};
  code.resultType = dtypeOf(desc.result.type);
  if (!planWalk(desc, code))
    return std::nullopt;

  size_t numValues = numOperands + body.size();
  FusedLiveness liveness = fusedLiveness(numOperands, body);
  const std::vector<bool> &live = liveness.live;
  const std::vector<int> &lastUse = liveness.lastUse;

  std::vector<int> home(numValues, -1); // Each value's register.
  RegisterPool registers;
  int numConstants = 0;
  bool fits = true;
  auto emit = [&](const FusedInstruction &instruction) {
    if (code.numInstructions == kFusedMaxInstructions) {
      fits = false;
      return;
    }
    code.code[code.numInstructions++] = instruction;
  };
  // An operand's load or a constant's value, where first read.
  auto materialize = [&](int value) {
    if (home[value] >= 0)
      return;
    FusedInstruction instruction{};
    instruction.round = static_cast<uint8_t>(DType::F32); // Already exact.
    if (value < static_cast<int>(numOperands)) {
      instruction.step = FusedStep::Load;
      instruction.args[0] = static_cast<uint8_t>(value);
    } else {
      if (numConstants == kFusedMaxConstants) {
        fits = false;
        return;
      }
      instruction.step = FusedStep::Constant;
      code.constants[numConstants] = body[value - numOperands].value;
      instruction.args[0] = static_cast<uint8_t>(numConstants++);
    }
    home[value] = registers.take();
    instruction.dest = static_cast<uint8_t>(home[value] % kFusedMaxRegisters);
    emit(instruction);
  };

  for (size_t i = 0; i < body.size() && fits; ++i) {
    int value = static_cast<int>(numOperands + i);
    const FusedEntry &entry = body[i];
    if (!live[value])
      continue;
    if (entry.isConstant) {
      // Set where first read; the last entry is read by the store.
      if (i + 1 == body.size())
        materialize(value);
      continue;
    }
    for (int arg : entry.args)
      materialize(arg);
    StepAndOp kind = stepOf(entry.opcode);
    FusedInstruction instruction{};
    instruction.step = kind.step;
    instruction.op = kind.op;
    instruction.round = static_cast<uint8_t>(dtypeOf(entry.result.type));
    for (size_t k = 0; k < 3; ++k) {
      int arg = entry.args[std::min(k, entry.args.size() - 1)];
      instruction.args[k] =
          static_cast<uint8_t>(home[arg] % kFusedMaxRegisters);
    }
    for (size_t k = 0; k < entry.args.size(); ++k) {
      int arg = entry.args[k];
      bool seen = std::find(entry.args.begin(), entry.args.begin() + k, arg) !=
                  entry.args.begin() + k;
      if (!seen && lastUse[arg] == static_cast<int>(i))
        registers.give(home[arg]);
    }
    home[value] = registers.take();
    instruction.dest = static_cast<uint8_t>(home[value] % kFusedMaxRegisters);
    emit(instruction);
  }
  if (!fits || registers.count() > kFusedMaxRegisters)
    return std::nullopt;
  return code;
}

} // namespace tessel::runtime::gpu
