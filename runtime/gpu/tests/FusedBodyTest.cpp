//===- FusedBodyTest.cpp - The GPU's fused program against the CPU's ------===//
//
// The GPU's kernel for tessel.fused interprets, per element, the program
// planFused makes of the body (FusedPlan.h) with evaluateFused and
// storeFused (FusedBody.h), which compile for the host too. Here they run
// on the host, element by element, against the CPU runtime's fused kernel
// (executor/FusedElementwise.cpp) on the same operands: the program, the
// walk and every operand's strides, the formulas and the roundings are the
// device's own, so only the launch is left untested without a GPU.
//
// Bodies of add, sub, mul, div, sqrt, max, min, neg, abs, relu, compare,
// select, constants and casts give the CPU's bits exactly, in f32, bf16 and
// f16. exp, log, tanh, sigmoid, gelu, erf, sin, cos, pow and rsqrt are
// computed in double and rounded once where the CPU computes them in f32
// (SLEEF, glibc's powf): they agree within kTranscendentalUlps f32 ulps,
// and gelu within kGeluAllowed.
//
//===----------------------------------------------------------------------===//

#include "gpu/FusedBody.h"
#include "gpu/FusedPlan.h"

#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Descriptor.h"
#include "executor/FusedElementwise.h"
#include "runtime/tests/FusedBodyJson.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::runtime;
using namespace tessel::runtime::gpu;
using nlohmann::json;
using namespace tessel::runtime::test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// How far, in f32 ulps, a transcendental op's value may be from the
/// CPU's: its SLEEF functions are within 1 ulp (3.5 for some), and the
/// double value rounded once is within half an ulp of the exact one.
constexpr int64_t kTranscendentalUlps = 4;

struct Fused {
  std::vector<json> operands;
  json result;
  std::vector<json> body;

  OpDescriptor descriptor() const {
    std::string text =
        fusedDescriptorJson(operands, result, body, "fused-test.mlir:1:1");
    OpDescriptor desc;
    parseDescriptor(text.c_str(), desc);
    return desc;
  }
};

/// Pseudo-random operands in [low, high) (i1: 0 and 1), every seventh
/// element of a float operand the next of `specials` when there are any.
std::vector<std::vector<unsigned char>>
makeOperands(const OpDescriptor &desc, double low, double high,
             std::vector<double> specials = {}, unsigned seed = 1) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  std::vector<std::vector<unsigned char>> buffers;
  size_t special = 0;
  for (const TensorType &type : desc.operands) {
    std::vector<unsigned char> bytes(type.numBytes() + 1);
    for (int64_t k = 0; k < type.numElements(); ++k) {
      double value = uniform(generator);
      if (type.type == ref::ElementType::I1)
        value = value > (low + high) / 2;
      else if (!specials.empty() && k % 7 == 3)
        value = specials[special++ % specials.size()];
      storeElement(type.type, bytes.data(), k, value);
    }
    buffers.push_back(std::move(bytes));
  }
  return buffers;
}

tessel_context_t &context() {
  static ContextPtr shared = [] {
    std::string error;
    ContextPtr made = createContext(nullptr, layout::Mesh(), error);
    EXPECT_TRUE(made) << error;
    return made;
  }();
  return *shared;
}

/// The result's bytes from the CPU's fused kernel.
std::vector<unsigned char>
runOnCpu(const OpDescriptor &desc,
         std::vector<std::vector<unsigned char>> &operands) {
  std::vector<void *> pointers;
  for (auto &bytes : operands)
    pointers.push_back(bytes.data());
  std::vector<unsigned char> result(desc.result.numBytes() + 1);
  buildFused(desc)(context(), pointers.data(), result.data());
  return result;
}

/// The result's bytes from the GPU's program, run on the host.
std::vector<unsigned char>
runGpuProgram(const FusedCode &program,
              std::vector<std::vector<unsigned char>> &operands,
              const TensorType &resultType) {
  FusedOperands pointers{};
  for (size_t i = 0; i < operands.size(); ++i)
    pointers.at[i] = operands[i].data();
  std::vector<unsigned char> result(resultType.numBytes() + 1);
  EXPECT_EQ(program.walk.count(), resultType.numElements());
  for (int64_t i = 0; i < resultType.numElements(); ++i)
    storeFused(program.resultType, result.data(), i,
               evaluateFused(program, pointers, i));
  return result;
}

/// A float's bits as a number that orders like the value (so that the
/// difference of two is their distance in ulps; -0 is one below +0).
int64_t orderedBits(ref::ElementType type, const unsigned char *data,
                    int64_t i) {
  int64_t bits, signBit;
  if (type == ref::ElementType::F32) {
    uint32_t raw;
    std::memcpy(&raw, data + 4 * i, 4);
    bits = raw;
    signBit = int64_t(1) << 31;
  } else {
    uint16_t raw;
    std::memcpy(&raw, data + 2 * i, 2);
    bits = raw;
    signBit = int64_t(1) << 15;
  }
  return bits & signBit ? -(bits & (signBit - 1)) - 1 : bits;
}

struct Allowed {
  int64_t ulps = 0;      // of the result's type
  double absolute = 0.0; // besides
};
const Allowed kExact{};

/// gelu: the CPU rounds x / sqrt 2 to f32 before its erfc, whose steep
/// tail magnifies that half ulp (about 2 z^2 ulps at z = -x / sqrt 2), so
/// for x below -2 the two differ by up to some 30 ulps, the GPU's double
/// being the nearer to the exact value; far out, where 1 + erf(x / sqrt 2)
/// in double keeps few digits, they differ by less than 1e-12.
const Allowed kGeluAllowed{32, 1e-12};

/// Runs the body both ways on the same operands and compares every
/// element: the same bits (any NaN for a NaN), or within `allowed`.
void expectSameAsCpu(const Fused &fused, double low, double high,
                     std::vector<double> specials = {},
                     Allowed allowed = kExact, const std::string &what = "") {
  OpDescriptor desc = fused.descriptor();
  std::optional<FusedCode> program = planFused(desc);
  ASSERT_TRUE(program) << what << ": no GPU program";
  auto operands = makeOperands(desc, low, high, specials);
  std::vector<unsigned char> want = runOnCpu(desc, operands);
  std::vector<unsigned char> got =
      runGpuProgram(*program, operands, desc.result);
  ref::ElementType type = desc.result.type;
  int mismatches = 0;
  for (int64_t i = 0; i < desc.result.numElements(); ++i) {
    double wantValue = loadElement(type, want.data(), i);
    double gotValue = loadElement(type, got.data(), i);
    bool same;
    if (std::isnan(wantValue) || std::isnan(gotValue))
      same = std::isnan(wantValue) && std::isnan(gotValue);
    else if (std::isinf(wantValue) || std::isinf(gotValue))
      same = wantValue == gotValue;
    else
      same = std::llabs(orderedBits(type, got.data(), i) -
                        orderedBits(type, want.data(), i)) <= allowed.ulps ||
             std::fabs(gotValue - wantValue) <= allowed.absolute;
    if (!same && ++mismatches <= 5)
      ADD_FAILURE() << what << " element " << i << " of " << desc.result.str()
                    << ": the GPU's program gives " << gotValue
                    << ", the CPU's fused kernel " << wantValue;
  }
  EXPECT_EQ(mismatches, 0) << what;
}

//===----------------------------------------------------------------------===//
// Against the CPU's kernel
//===----------------------------------------------------------------------===//

/// AdamW's update (runtime/tests/FusedElementwiseTest.cpp's): 16 ops on
/// four tensors and two scalars, with constants.
Fused adamW(std::vector<std::string> dims, std::vector<int64_t> shape) {
  json full = T(dims, shape), scalar = T({}, {});
  return {{full, full, full, full, scalar, scalar},
          full,
          {
              E("tessel.mul", {5, 2}, full),
              C(0.1),
              E("tessel.mul", {7, 1}, full),
              E("tessel.add", {6, 8}, full),
              C(0.999),
              E("tessel.mul", {10, 3}, full),
              E("tessel.mul", {1, 1}, full),
              C(0.001),
              E("tessel.mul", {13, 12}, full),
              E("tessel.add", {11, 14}, full),
              C(0.19),
              E("tessel.div", {9, 16}, full),
              C(0.001999),
              E("tessel.div", {15, 18}, full),
              E("tessel.sqrt", {19}, full),
              C(1e-8),
              E("tessel.add", {20, 21}, full),
              E("tessel.div", {17, 22}, full),
              C(0.01),
              E("tessel.mul", {24, 0}, full),
              E("tessel.add", {23, 25}, full),
              E("tessel.mul", {4, 26}, full),
              E("tessel.sub", {0, 27}, full),
          }};
}

TEST(GpuFusedBody, AdamWIsExact) {
  expectSameAsCpu(adamW({"out", "in"}, {24, 40}), 0.01, 1);
  expectSameAsCpu(adamW({"in"}, {5}), 0.01, 1);
  // The program keeps few registers: values die as the chain goes on.
  std::optional<FusedCode> program =
      planFused(adamW({"out", "in"}, {24, 40}).descriptor());
  ASSERT_TRUE(program);
  int registers = 0;
  for (int p = 0; p < program->numInstructions; ++p)
    registers = std::max(registers, program->code[p].dest + 1);
  EXPECT_LE(registers, 8);
}

// Result [b:3, s:5, d:7]; operands in another dim order, broadcast along
// some dims (and transposed), a scalar; an intermediate in another order.
TEST(GpuFusedBody, OperandsBroadcastByNameInAnyDimOrder) {
  json full = T({"b", "s", "d"}, {3, 5, 7});
  Fused fused{{T({"d", "b", "s"}, {7, 3, 5}), T({"d"}, {7}),
               T({"s", "b"}, {5, 3}), T({}, {})},
              full,
              {
                  E("tessel.mul", {0, 1}, full),                       // 4
                  E("tessel.add", {4, 2}, full),                       // 5
                  E("tessel.sub", {5, 3}, full),                       // 6
                  E("tessel.neg", {1}, T({"d", "s", "b"}, {7, 5, 3})), // 7
                  E("tessel.mul", {6, 7}, full),                       // 8
                  E("tessel.max", {8, 2}, full),                       // 9
              }};
  expectSameAsCpu(fused, -1, 1);
  // With a transcendental op in the chain.
  fused.body[3]["op"] = "tessel.exp";
  expectSameAsCpu(fused, -1, 1, {}, {kTranscendentalUlps * 4, 0}, "exp");
}

TEST(GpuFusedBody, ExactUnaryOps) {
  json full = T({"n"}, {2000});
  for (const char *op :
       {"tessel.neg", "tessel.abs", "tessel.sqrt", "tessel.relu"})
    expectSameAsCpu(Fused{{full}, full, {E(op, {0}, full)}}, -10, 100,
                    {0.0, -0.0, kInf, -kInf, kNaN, -1.0, 1e-30, -1e-30}, kExact,
                    op);
}

TEST(GpuFusedBody, TranscendentalUnaryOpsWithinUlps) {
  struct Range {
    const char *op;
    double low, high;
  };
  const Range ranges[] = {
      {"tessel.exp", -20, 20},     {"tessel.log", 1e-3, 100},
      {"tessel.rsqrt", 1e-3, 100}, {"tessel.tanh", -10, 10},
      {"tessel.sigmoid", -30, 30}, {"tessel.gelu", -12, 12},
      {"tessel.erf", -5, 5},       {"tessel.sin", -30, 30},
      {"tessel.cos", -30, 30},
  };
  json full = T({"n"}, {4000});
  for (const Range &range : ranges) {
    bool gelu = std::string(range.op) == "tessel.gelu";
    expectSameAsCpu(
        Fused{{full}, full, {E(range.op, {0}, full)}}, range.low, range.high,
        {0.0, -0.0, kInf, -kInf, kNaN, -1.0, 1e-30, -1e-30},
        gelu ? kGeluAllowed : Allowed{kTranscendentalUlps, 0}, range.op);
  }
}

TEST(GpuFusedBody, BinaryOpsWithABroadcastOperand) {
  json full = T({"a", "b"}, {8, 33});
  for (const char *op : {"tessel.add", "tessel.sub", "tessel.mul", "tessel.div",
                         "tessel.max", "tessel.min"}) {
    Fused fused{{full, T({"b"}, {33})}, full, {E(op, {0, 1}, full)}};
    expectSameAsCpu(fused, -2, 2, {kNaN, kInf, -kInf, 0.0, -0.0, 1.0}, kExact,
                    op);
    fused.body[0]["args"] = {1, 0};
    expectSameAsCpu(fused, -2, 2, {kNaN}, kExact,
                    std::string(op) + " reversed");
  }
  Fused pow{{full, T({"b"}, {33})}, full, {E("tessel.pow", {0, 1}, full)}};
  expectSameAsCpu(pow, 0.5, 2, {kNaN, kInf, 0.0, 1.0}, {kTranscendentalUlps, 0},
                  "pow");
}

TEST(GpuFusedBody, EveryComparisonWithSelect) {
  json full = T({"a", "b"}, {5, 40});
  for (const char *kind : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    Fused fused{{full, T({"b"}, {40})},
                full,
                {compare(kind, {0, 1}, full), C(1.0), C(-1.0),
                 E("tessel.select", {2, 3, 4}, full)}};
    // Whole numbers from {0, 1, 2} give ties.
    expectSameAsCpu(fused, 0, 3, {kNaN, 1.0, kInf, -kInf, 2.0, 0.0}, kExact,
                    kind);
  }
  // An i1 operand, broadcast and in the result's layout.
  Fused select{{T({"s"}, {50}, "i1"), T({"b", "s"}, {6, 50}),
                T({"s", "b"}, {50, 6}), T({"b", "s"}, {6, 50}, "i1")},
               T({"b", "s"}, {6, 50}),
               {
                   E("tessel.select", {0, 1, 2}, T({"b", "s"}, {6, 50})),
                   compare("lt", {1, 2}, T({"b", "s"}, {6, 50})),
                   C(0.0),
                   E("tessel.select", {5, 4, 6}, T({"b", "s"}, {6, 50})),
                   E("tessel.select", {3, 7, 1}, T({"b", "s"}, {6, 50})),
               }};
  expectSameAsCpu(select, -1, 1);
}

TEST(GpuFusedBody, ConstantsInfinitiesAndNaN) {
  json full = T({"q", "k"}, {9, 11});
  Fused masked{{full, T({"k"}, {11})},
               full,
               {
                   C("-inf"),
                   C("inf", T({"k"}, {11})),
                   E("tessel.max", {0, 2}, full),
                   E("tessel.min", {4, 3}, full),
                   C(0.25, T({"q"}, {9})),
                   compare("gt", {1, 6}, full),
                   E("tessel.select", {7, 5, 2}, full),
               }};
  expectSameAsCpu(masked, -1, 1, {}, kExact, "masked");
  Fused withNaN{{full},
                full,
                {C("nan"), E("tessel.max", {0, 1}, full),
                 E("tessel.min", {1, 0}, full), E("tessel.add", {2, 3}, full)}};
  expectSameAsCpu(withNaN, -1, 1, {}, kExact, "nan");
  Fused constantsOnly{{},
                      full,
                      {C(64.0), E("tessel.sqrt", {0}, full), C(1.0),
                       E("tessel.div", {2, 1}, full)}};
  expectSameAsCpu(constantsOnly, 0, 1, {}, kExact, "constants only");
  Fused onlyConstant{{full}, full, {C(-2.5, T({"k"}, {11}))}};
  expectSameAsCpu(onlyConstant, 0, 1, {}, kExact, "only a constant");
}

// A mixed-precision step's chains: casts and arithmetic of bf16 and f16
// values into each result type, with f16 overflow, subnormals and NaN.
TEST(GpuFusedBody, CastsAndArithmeticInBf16AndF16AreExact) {
  for (const char *narrow : {"bf16", "f16"}) {
    json wide = T({"b", "d"}, {9, 70}), low = T({"b", "d"}, {9, 70}, narrow);
    json row = T({"d"}, {70}, narrow), scalar = T({}, {}, narrow);
    for (const char *resultType : {"f32", "bf16", "f16"}) {
      json result = T({"b", "d"}, {9, 70}, resultType);
      Fused fused{{wide, row, scalar, low},
                  result,
                  {
                      E("tessel.cast", {0}, low),
                      E("tessel.mul", {4, 1}, low),
                      E("tessel.add", {5, 2}, low),
                      E("tessel.sub", {6, 3}, low),
                      C(4096.0, T({}, {}, narrow)),
                      E("tessel.mul", {7, 8}, low),
                      E("tessel.div", {9, 1}, low),
                      E("tessel.sqrt", {10}, low),
                      E("tessel.cast", {11}, result),
                  }};
      expectSameAsCpu(fused, -3, 3, {7e4, -1e-6, 3e-8, kNaN, 65519.0}, kExact,
                      std::string(narrow) + " into " + resultType);
    }
  }
}

// The GELU MLP's chains in bf16 and f16: an op's f32 value a few ulps from
// the CPU's may round to the neighbouring narrow value at a tie, and the
// chain carries that on.
TEST(GpuFusedBody, TranscendentalChainsInBf16AndF16) {
  for (const char *narrow : {"bf16", "f16"}) {
    json low = T({"s", "f"}, {33, 40}, narrow);
    Fused fused{{low, T({"f"}, {40}, narrow), low},
                T({"s", "f"}, {33, 40}),
                {
                    E("tessel.add", {0, 1}, low),
                    E("tessel.gelu", {3}, low),
                    E("tessel.erf", {3}, low),
                    E("tessel.mul", {4, 5}, low),
                    E("tessel.tanh", {6}, low),
                    E("tessel.exp", {7}, low),
                    C(0.0, T({}, {}, narrow)),
                    compare("gt", {3, 9}, low),
                    E("tessel.select", {10, 8, 2}, low),
                    E("tessel.cast", {11}, T({"s", "f"}, {33, 40})),
                }};
    // Results are f32 holding narrow values: a narrow ulp is 2^16 (bf16)
    // or 2^13 (f16) f32 ulps; allow two.
    int64_t narrowUlp = std::string(narrow) == "bf16" ? 1 << 16 : 1 << 13;
    expectSameAsCpu(fused, -4, 4, {}, {2 * narrowUlp, 0}, narrow);
  }
}

TEST(GpuFusedBody, SmallShapesRepeatedArgumentsAndDeadEntries) {
  json scalar = T({}, {});
  expectSameAsCpu(
      Fused{{scalar, scalar},
            scalar,
            {E("tessel.mul", {0, 0}, scalar), E("tessel.neg", {1}, scalar),
             E("tessel.add", {2, 2}, scalar)}},
      -1, 1, {}, kExact, "scalar");
  json empty = T({"a", "b"}, {0, 3});
  expectSameAsCpu(
      Fused{{empty, T({"b"}, {3})}, empty, {E("tessel.add", {0, 1}, empty)}},
      -1, 1, {}, kExact, "empty");
  json ones = T({"a", "b", "c"}, {1, 5, 1});
  expectSameAsCpu(
      Fused{{T({"b", "a"}, {5, 1}), T({"c"}, {1})},
            ones,
            {E("tessel.neg", {1}, ones), E("tessel.div", {0, 2}, ones),
             E("tessel.mul", {3, 3}, ones)}},
      0.5, 1, {}, kExact, "size 1");
  json result = T({"b", "h"}, {4, 6}), swapped = T({"h", "b"}, {6, 4});
  expectSameAsCpu(
      Fused{{T({"h", "b"}, {6, 4}), T({"h"}, {6})},
            result,
            {E("tessel.mul", {0, 1}, swapped), E("tessel.abs", {2}, swapped),
             E("tessel.add", {3, 0}, result),
             E("tessel.sub", {4, 3}, swapped)}},
      -2, 2, {}, kExact, "intermediates transposed");
}

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// Operand `i`'s stride along walk dim `d`.
int64_t strideOf(const FusedCode &program, int i, int d) {
  return program.strides[program.operands[i].firstStride + d];
}

TEST(GpuFusedPlan, DimsEveryOperandWalksAlikeAreMerged) {
  json full = T({"a", "b", "c"}, {4, 5, 6});
  // In the result's layout, and a scalar: one dim.
  Fused dense{{full, T({}, {})}, full, {E("tessel.mul", {0, 1}, full)}};
  std::optional<FusedCode> program = planFused(dense.descriptor());
  ASSERT_TRUE(program);
  EXPECT_EQ(program->walk.rank, 1);
  EXPECT_EQ(program->walk.shape[0], 120);
  EXPECT_EQ(strideOf(*program, 0, 0), 1);
  EXPECT_EQ(strideOf(*program, 1, 0), 0);
  // Broadcast along c: [a b] merge, c stays.
  Fused rows{
      {full, T({"a", "b"}, {4, 5})}, full, {E("tessel.add", {0, 1}, full)}};
  program = planFused(rows.descriptor());
  ASSERT_TRUE(program);
  ASSERT_EQ(program->walk.rank, 2);
  EXPECT_EQ(program->walk.shape[0], 20);
  EXPECT_EQ(program->walk.shape[1], 6);
  EXPECT_EQ(strideOf(*program, 1, 0), 1);
  EXPECT_EQ(strideOf(*program, 1, 1), 0);
}

/// The sum of `count` operands of type `x`, one add at a time.
Fused sumOf(int count, json x) {
  Fused sum{std::vector<json>(count, x), x, {E("tessel.add", {0, 1}, x)}};
  for (int i = 2; i < count; ++i)
    sum.body.push_back(E("tessel.add", {count + i - 2, i}, x));
  return sum;
}

// The realistic Transformer's largest fused op: a sum of 53 scalars.
TEST(GpuFusedBody, ASumOfManyScalars) {
  expectSameAsCpu(sumOf(53, T({}, {})), -1, 1);
  // A load and an add per operand, in two registers.
  std::optional<FusedCode> program =
      planFused(sumOf(53, T({}, {})).descriptor());
  ASSERT_TRUE(program);
  EXPECT_EQ(program->numInstructions, 53 + 52);
  int registers = 0;
  for (int p = 0; p < program->numInstructions; ++p)
    registers = std::max(registers, program->code[p].dest + 1);
  EXPECT_EQ(registers, 2);
  expectSameAsCpu(sumOf(20, T({"a", "b"}, {3, 4})), -1, 1);
}

TEST(GpuFusedPlan, BodiesBeyondTheLimitsHaveNoProgram) {
  json x = T({}, {});
  EXPECT_TRUE(planFused(sumOf(kFusedMaxOperands, x).descriptor()));
  // More operands than the kernel's parameters hold.
  EXPECT_FALSE(planFused(sumOf(kFusedMaxOperands + 1, x).descriptor()));
  // More strides: each operand has one per walk dim.
  json matrix = T({"a", "b"}, {3, 4}), transposed = T({"b", "a"}, {4, 3});
  Fused strided = sumOf(kFusedMaxStrides / 2, matrix);
  strided.operands[0] = transposed; // Two walk dims, 64 strides: fits.
  EXPECT_TRUE(planFused(strided.descriptor()));
  strided = sumOf(kFusedMaxStrides / 2 + 1, matrix);
  strided.operands[0] = transposed;
  EXPECT_FALSE(planFused(strided.descriptor()));
  // More instructions than the program holds.
  Fused longChain{{x}, x, {}};
  for (int i = 0; i <= kFusedMaxInstructions; ++i)
    longChain.body.push_back(E("tessel.neg", {i}, x));
  EXPECT_FALSE(planFused(longChain.descriptor()));
  // More dims than a walk has, none of them mergeable (the operand is
  // the result transposed).
  std::vector<std::string> dims, reversed;
  std::vector<int64_t> shape;
  for (int d = 0; d < kMaxDims + 1; ++d) {
    dims.push_back("d" + std::to_string(d));
    shape.push_back(2);
  }
  reversed.assign(dims.rbegin(), dims.rend());
  json big = T(dims, shape);
  EXPECT_FALSE(
      planFused(Fused{{T(reversed, shape)}, big, {E("tessel.neg", {0}, big)}}
                    .descriptor()));
  // In the result's layout they merge into one.
  EXPECT_TRUE(
      planFused(Fused{{big}, big, {E("tessel.neg", {0}, big)}}.descriptor()));
}

TEST(GpuFusedPlan, MalformedBodiesGiveTheCpuKernelsErrors) {
  json x = T({"n"}, {4});
  Fused unknown{{x}, x, {E("tessel.softmax", {0}, x)}};
  try {
    planFused(unknown.descriptor());
    ADD_FAILURE() << "no error for a body with tessel.softmax";
  } catch (const OpError &error) {
    EXPECT_NE(std::string(error.what())
                  .find("'tessel.softmax' is not an op a fused body can hold"),
              std::string::npos)
        << error.what();
  }
}

} // namespace
