//===- FusedBody.h - A fused op's program, on device and host ---*- C++ -*-===//
//
// The GPU's kernel for `tessel.fused` (FusedElementwise.cu) runs the whole
// body of a fused op per element of its result, in one launch: each thread
// interprets a short program over a few float registers of its own. The
// program (FusedCode) is worked out once per call site on the host
// (FusedPlan.h) and passed to the kernel by value, so it is read from the
// launch's constant bank, the same instruction by every thread of a warp.
//
// One instruction per live body entry, plus a load per operand and one per
// constant where first read: an operand's element is read through its
// strides along the (merged) walk of the result, 0 where it is broadcast,
// as the CPU's fused kernel reads it. Values are f32 in registers, as on
// the CPU (runtime/executor/FusedElementwise.cpp): each op is computed by
// the GPU's element-wise formulas (Formulas.h, in double) from its f32
// arguments and rounded to f32, then to the value's bf16 or f16 type (CUDA's
// conversions, to nearest, ties to even). add, sub, mul, div, sqrt, the
// comparisons, select, max, min, neg, abs, relu and the casts give the CPU
// fused kernel's bits exactly (a double result of f32 arguments rounds to
// the f32 IEEE operation's); the transcendental ones, pow and rsqrt are
// within a few f32 ulps of it (docs/gpu.md).
//
// evaluateFused and storeFused compile for the host too, so that the
// tests check them against the CPU's fused kernel without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_FUSEDBODY_H
#define TESSEL_RUNTIME_GPU_FUSEDBODY_H

#include "gpu/Elements.h"
#include "gpu/Formulas.h"

#include <stdint.h>

namespace tessel::runtime::gpu {

/// The most operands, strides (all operands' together: one per operand
/// and walk dim), instructions, registers and constants a program may
/// have; a fused op beyond them runs on the host. They keep FusedCode
/// within the 4 KiB of parameters every CUDA version passes to a kernel,
/// and let a sum of many scalars (the Transformer's 53) have a program.
constexpr int kFusedMaxOperands = 64;
constexpr int kFusedMaxStrides = 64;
constexpr int kFusedMaxInstructions = 128;
constexpr int kFusedMaxRegisters = 32;
constexpr int kFusedMaxConstants = 32;

/// What an instruction does.
enum class FusedStep : uint8_t {
  Load,     // operand args[0] at the element's offset
  Constant, // constants[args[0]]
  Unary,    // UnaryOp `op` of register args[0]
  Binary,   // BinaryOp `op` of registers args[0] and args[1]
  Compare,  // CompareOp `op`: 1 where it holds, 0 elsewhere
  Select,   // args[0] != 0 ? args[1] : args[2]
  Copy,     // register args[0]: tessel.cast, rounded to its type
};

struct FusedInstruction {
  FusedStep step;
  uint8_t op;    // A UnaryOp, BinaryOp or CompareOp for those steps.
  uint8_t round; // The value's DType: BF16 and F16 round, others do not.
  uint8_t dest;  // The register it writes.
  uint8_t args[3];
};

struct FusedOperand {
  uint8_t type;        // Its DType: F32, BF16, F16 or I1 (read as 0 or 1).
  uint8_t firstStride; // Its stride along walk dim d: strides[first + d].
};

/// A fused op's program over a walk of its result (row-major, dims that
/// every buffer walks alike merged).
struct FusedCode {
  Walk walk;
  DType resultType = DType::F32;
  int32_t numInstructions = 0;
  int64_t strides[kFusedMaxStrides];
  FusedOperand operands[kFusedMaxOperands];
  FusedInstruction code[kFusedMaxInstructions];
  float constants[kFusedMaxConstants];
};
static_assert(sizeof(FusedCode) + sizeof(void *) * (kFusedMaxOperands + 1) +
                      sizeof(int64_t) <=
                  4096,
              "a fused kernel's parameters fit in 4 KiB");

/// The operands' device pointers, in the descriptor's order.
struct FusedOperands {
  const void *at[kFusedMaxOperands];
};

/// The offset of walk index `flat` in a buffer with `strides` along the
/// walk's dims (Launch.h's offsetOf over a run of the program's strides).
TESSEL_HOST_DEVICE inline int64_t
offsetAlong(const Walk &walk, const int64_t *strides, int64_t flat) {
  int64_t offset = 0;
  for (int32_t d = walk.rank - 1; d >= 0; --d) {
    int64_t size = walk.shape[d];
    offset += (flat % size) * strides[d];
    flat /= size;
  }
  return offset;
}

/// `value` rounded to a value of `type` (f32, bf16 or f16), as an f32.
TESSEL_HOST_DEVICE inline float roundToValueType(DType type, float value) {
  if (isnan(value))
    return value;
  if (type == DType::BF16)
    return __bfloat162float(__float2bfloat16_rn(value));
  if (type == DType::F16)
    return __half2float(__float2half_rn(value));
  return value;
}

/// The fused result's element at walk index `flat`, rounded to its type.
TESSEL_HOST_DEVICE inline float evaluateFused(const FusedCode &program,
                                              const FusedOperands &operands,
                                              int64_t flat) {
  float registers[kFusedMaxRegisters];
  float value = 0.0f;
  for (int32_t p = 0; p < program.numInstructions; ++p) {
    const FusedInstruction &in = program.code[p];
    double exact = 0.0;
    switch (in.step) {
    case FusedStep::Load: {
      const FusedOperand &operand = program.operands[in.args[0]];
      exact = load(static_cast<DType>(operand.type), operands.at[in.args[0]],
                   offsetAlong(program.walk,
                               program.strides + operand.firstStride, flat));
      break;
    }
    case FusedStep::Constant:
      exact = program.constants[in.args[0]];
      break;
    case FusedStep::Unary:
      exact = applyUnary(static_cast<UnaryOp>(in.op), registers[in.args[0]]);
      break;
    case FusedStep::Binary:
      exact = applyBinary(static_cast<BinaryOp>(in.op), registers[in.args[0]],
                          registers[in.args[1]], false);
      break;
    case FusedStep::Compare:
      exact = applyCompare(static_cast<CompareOp>(in.op), registers[in.args[0]],
                           registers[in.args[1]])
                  ? 1.0
                  : 0.0;
      break;
    case FusedStep::Select:
      exact = registers[in.args[0]] != 0.0f ? registers[in.args[1]]
                                            : registers[in.args[2]];
      break;
    case FusedStep::Copy:
      exact = registers[in.args[0]];
      break;
    }
    value = roundToValueType(static_cast<DType>(in.round),
                             static_cast<float>(exact));
    registers[in.dest] = value;
  }
  return value;
}

/// Writes an element of the result (f32, bf16 or f16); `value` is already
/// of that type. A NaN is written as Elements.h's store writes it.
TESSEL_HOST_DEVICE inline void storeFused(DType type, void *result, int64_t i,
                                          float value) {
  if (type == DType::F32)
    static_cast<float *>(result)[i] = value;
  else
    store(type, result, i, value);
}

/// Runs `program` over its walk on `stream`: one launch, every element of
/// the result written (FusedElementwise.cu).
void launchFused(cudaStream_t stream, const FusedCode &program,
                 const FusedOperands &operands, void *result);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_FUSEDBODY_H
