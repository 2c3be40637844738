//===- FusedElementwiseTest.cpp - tessel.fused against its ops one by one -===//
//
// Each case writes the tessel.fused descriptor the compiler's fusion would
// write, runs it through the executor (tryExecute, in a context without a
// communicator) and compares every element with the body evaluated one entry
// at a time by the reference kernels (ref::unary, binary, compare, select),
// which define each op: what running the ops unfused computes. The fused
// kernel computes in f32 where the reference computes each op in double and
// rounds it to f32, so results may differ by an ulp or two per
// transcendental op: the cases allow 1e-6 relative and 1e-7 absolute. The
// shapes cover operands broadcast along some dims and held in another dim
// order, intermediates in another order than the result, tiles that cross
// rows, and a result large enough to be split across threads.
//
//===----------------------------------------------------------------------===//

#include "base/HalfFloatBlocks.h"
#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Descriptor.h"
#include "executor/Execute.h"
#include "reference/Kernels.h"

#include "base/Float16.h"
#include "runtime/tests/FusedBodyJson.h"
#include "runtime/tests/OneRankContext.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <variant>

using namespace tessel;
using namespace tessel::runtime;
using nlohmann::json;
using namespace tessel::runtime::test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Fused {
  std::vector<json> operands;
  json result;
  std::vector<json> body;

  std::string descriptor() const {
    return fusedDescriptorJson(operands, result, body);
  }
};

/// Operand buffers, in each operand's type.
struct Buffers {
  std::vector<TensorType> types;
  std::vector<std::vector<unsigned char>> bytes;

  std::vector<void *> pointers() {
    std::vector<void *> result;
    for (auto &buffer : bytes)
      result.push_back(buffer.data());
    return result;
  }
  ref::Tensor load(size_t i) const {
    return loadTensor(types[i], bytes[i].data());
  }
};

/// Fills each operand with pseudo-random values in [low, high] (i1
/// operands with 0 and 1), every seventh element of an f32 operand
/// replaced by the next of `specials` when there are any.
Buffers makeOperands(const Fused &fused, double low, double high,
                     std::vector<double> specials = {}, unsigned seed = 1) {
  Buffers buffers;
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  size_t special = 0;
  for (size_t i = 0; i < fused.operands.size(); ++i) {
    TensorType type =
        parseTensorType(fused.operands[i], "operand " + std::to_string(i));
    std::vector<unsigned char> bytes(type.numBytes() + 1);
    for (int64_t k = 0; k < type.numElements(); ++k) {
      double value = uniform(generator);
      if (type.type == ref::ElementType::I1)
        value = value > (low + high) / 2;
      else if (!specials.empty() && k % 7 == 3)
        value = specials[special++ % specials.size()];
      storeElement(type.type, bytes.data(), k, value);
    }
    buffers.types.push_back(type);
    buffers.bytes.push_back(std::move(bytes));
  }
  return buffers;
}

/// Runs the fused op through the executor; its result's elements.
std::vector<double> runFused(const Fused &fused, Buffers &operands) {
  TensorType resultType = parseTensorType(fused.result, "the result");
  std::vector<unsigned char> result(resultType.numBytes() + 1);
  std::vector<void *> pointers = operands.pointers();
  void *site = nullptr;
  std::string descriptor = fused.descriptor();
  std::optional<std::string> error =
      tryExecute(oneRankContext(), &site, descriptor.c_str(), pointers.data(),
                 static_cast<int32_t>(pointers.size()), result.data());
  EXPECT_FALSE(error) << *error;
  std::vector<double> values;
  for (int64_t k = 0; k < resultType.numElements(); ++k)
    values.push_back(loadElement(resultType.type, result.data(), k));
  return values;
}

const std::map<std::string, ref::UnaryKind> kUnaryKinds = {
    {"tessel.neg", ref::UnaryKind::Neg},
    {"tessel.abs", ref::UnaryKind::Abs},
    {"tessel.exp", ref::UnaryKind::Exp},
    {"tessel.log", ref::UnaryKind::Log},
    {"tessel.sqrt", ref::UnaryKind::Sqrt},
    {"tessel.rsqrt", ref::UnaryKind::Rsqrt},
    {"tessel.tanh", ref::UnaryKind::Tanh},
    {"tessel.sigmoid", ref::UnaryKind::Sigmoid},
    {"tessel.relu", ref::UnaryKind::Relu},
    {"tessel.gelu", ref::UnaryKind::Gelu},
    {"tessel.erf", ref::UnaryKind::Erf},
    {"tessel.sin", ref::UnaryKind::Sin},
    {"tessel.cos", ref::UnaryKind::Cos},
};

const std::map<std::string, ref::BinaryKind> kBinaryKinds = {
    {"tessel.add", ref::BinaryKind::Add}, {"tessel.sub", ref::BinaryKind::Sub},
    {"tessel.mul", ref::BinaryKind::Mul}, {"tessel.div", ref::BinaryKind::Div},
    {"tessel.max", ref::BinaryKind::Max}, {"tessel.min", ref::BinaryKind::Min},
    {"tessel.pow", ref::BinaryKind::Pow},
};

const std::map<std::string, ref::CompareKind> kCompareKinds = {
    {"eq", ref::CompareKind::Eq}, {"ne", ref::CompareKind::Ne},
    {"lt", ref::CompareKind::Lt}, {"le", ref::CompareKind::Le},
    {"gt", ref::CompareKind::Gt}, {"ge", ref::CompareKind::Ge},
};

/// The body run one entry at a time by the reference kernels, each entry
/// a separate op as it was before fusion; the last value (or value number
/// `value`) in the fused result's dim order.
std::vector<double> reference(const Fused &fused, const Buffers &operands,
                              int value = -1) {
  std::vector<ref::Tensor> values;
  values.reserve(operands.types.size() + fused.body.size());
  for (size_t i = 0; i < operands.types.size(); ++i)
    values.push_back(operands.load(i));
  for (const json &entry : fused.body) {
    std::string op = entry["op"];
    ref::TensorSpec spec = parseTensorType(entry["result"], op).spec();
    std::vector<const ref::Tensor *> args;
    for (int arg : entry["args"])
      args.push_back(&values.at(arg));
    if (op == "tessel.constant") {
      values.emplace_back(spec, *jsonNumber(entry["attrs"]["value"]));
    } else if (auto unary = kUnaryKinds.find(op); unary != kUnaryKinds.end()) {
      // A unary op reads its argument at the result's index, as the
      // binary ops do.
      values.push_back(
          ref::unary(unary->second, ref::broadcast(*args[0], spec)));
    } else if (auto binary = kBinaryKinds.find(op);
               binary != kBinaryKinds.end()) {
      values.push_back(ref::binary(binary->second, *args[0], *args[1], spec));
    } else if (op == "tessel.compare") {
      std::string kind = entry["attrs"]["kind"];
      values.push_back(
          ref::compare(kCompareKinds.at(kind), *args[0], *args[1], spec));
    } else if (op == "tessel.select") {
      values.push_back(ref::select(*args[0], *args[1], *args[2], spec));
    } else if (op == "tessel.cast") {
      values.push_back(ref::cast(ref::broadcast(*args[0], spec), spec.type));
    } else {
      ADD_FAILURE() << "the test's reference has no op " << op;
      return {};
    }
  }
  ref::TensorSpec resultSpec =
      parseTensorType(fused.result, "the result").spec();
  return ref::broadcast(value < 0 ? values.back() : values.at(value),
                        resultSpec)
      .data;
}

/// Whether `got` is `want` to `relative` (1e-6 for f32 results) and a
/// tenth of it absolute; infinities and NaN must match exactly.
bool close(double got, double want, double relative = 1e-6) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got))
    return got == want;
  return std::fabs(got - want) <= relative / 10 + relative * std::fabs(want);
}

/// Runs the fused op and compares every element with the reference.
void expectMatchesReference(const Fused &fused, Buffers operands,
                            const std::string &what = "",
                            double relative = 1e-6) {
  std::vector<double> got = runFused(fused, operands);
  std::vector<double> want = reference(fused, operands);
  ASSERT_EQ(got.size(), want.size()) << what;
  int mismatches = 0;
  for (size_t k = 0; k < got.size(); ++k)
    if (!close(got[k], want[k], relative) && ++mismatches <= 5)
      ADD_FAILURE() << what << " element " << k << ": got " << got[k]
                    << ", the ops one by one give " << want[k];
  EXPECT_EQ(mismatches, 0) << what;
}

/// The message tessel_rt_execute would end the job with, or "(no error)".
std::string errorOf(const Fused &fused) {
  Buffers operands;
  try {
    operands = makeOperands(fused, 0, 1);
  } catch (const OpError &) {
    // An operand the test made malformed: its buffer does not matter.
  }
  std::vector<void *> pointers = operands.pointers();
  pointers.resize(fused.operands.size(), nullptr);
  std::vector<unsigned char> result(1 << 12);
  void *site = nullptr;
  std::string descriptor = fused.descriptor();
  return tryExecute(oneRankContext(), &site, descriptor.c_str(),
                    pointers.data(), static_cast<int32_t>(pointers.size()),
                    result.data())
      .value_or("(no error)");
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

/// AdamW's update of a parameter p with gradient g and moments m and v:
/// 16 ops, scalar operands (the learning rate, beta1) and constants.
Fused adamW(std::vector<std::string> dims, std::vector<int64_t> shape) {
  json full = T(dims, shape), scalar = T({}, {});
  return {{full, full, full, full, scalar, scalar}, // p g m v lr beta1
          full,
          {
              E("tessel.mul", {5, 2}, full),   // 6: beta1 m
              C(0.1),                          // 7: 1 - beta1
              E("tessel.mul", {7, 1}, full),   // 8: (1 - beta1) g
              E("tessel.add", {6, 8}, full),   // 9: m'
              C(0.999),                        // 10: beta2
              E("tessel.mul", {10, 3}, full),  // 11: beta2 v
              E("tessel.mul", {1, 1}, full),   // 12: g^2
              C(0.001),                        // 13: 1 - beta2
              E("tessel.mul", {13, 12}, full), // 14: (1 - beta2) g^2
              E("tessel.add", {11, 14}, full), // 15: v'
              C(0.19),                         // 16: 1 - beta1^t
              E("tessel.div", {9, 16}, full),  // 17: m hat
              C(0.001999),                     // 18: 1 - beta2^t
              E("tessel.div", {15, 18}, full), // 19: v hat
              E("tessel.sqrt", {19}, full),    // 20
              C(1e-8),                         // 21: epsilon
              E("tessel.add", {20, 21}, full), // 22
              E("tessel.div", {17, 22}, full), // 23: the Adam step
              C(0.01),                         // 24: weight decay
              E("tessel.mul", {24, 0}, full),  // 25
              E("tessel.add", {23, 25}, full), // 26
              E("tessel.mul", {4, 26}, full),  // 27: times the learning rate
              E("tessel.sub", {0, 27}, full),  // 28: p'
          }};
}

TEST(FusedElementwise, AdamWChainOnAMatrixWithScalarOperands) {
  Fused fused = adamW({"out", "in"}, {24, 40});
  // v is a second moment: positive.
  Buffers operands = makeOperands(fused, 0.01, 1);
  expectMatchesReference(fused, operands);
  // And on a result of a single tile's size or less.
  expectMatchesReference(adamW({"in"}, {5}),
                         makeOperands(adamW({"in"}, {5}), 0.01, 1));
}

// Result [b:3, s:5, d:7]; operands [d:7] (broadcast over b and s), [s:5,
// b:3] (transposed and broadcast over d), a scalar, and the whole result in
// another dim order. A unary op reads a broadcast operand too.
TEST(FusedElementwise, OperandsBroadcastByNameInAnyDimOrder) {
  json full = T({"b", "s", "d"}, {3, 5, 7});
  Fused fused{{T({"d", "b", "s"}, {7, 3, 5}), T({"d"}, {7}),
               T({"s", "b"}, {5, 3}), T({}, {})},
              full,
              {
                  E("tessel.mul", {0, 1}, full),                       // 4
                  E("tessel.add", {4, 2}, full),                       // 5
                  E("tessel.sub", {5, 3}, full),                       // 6
                  E("tessel.exp", {1}, T({"d", "s", "b"}, {7, 5, 3})), // 7
                  E("tessel.mul", {6, 7}, full),                       // 8
                  E("tessel.max", {8, 2}, full),                       // 9
              }};
  expectMatchesReference(fused, makeOperands(fused, -1, 1));
}

// The intermediates, and the last entry itself, hold the result's dims in
// another order; the kernel computes them at the result's index anyway.
TEST(FusedElementwise, IntermediatesInAnotherDimOrderThanTheResult) {
  json result = T({"b", "h"}, {4, 6}), swapped = T({"h", "b"}, {6, 4});
  Fused fused{{T({"b", "h"}, {4, 6}), T({"h"}, {6})},
              result,
              {
                  E("tessel.mul", {0, 1}, swapped), // 2
                  E("tessel.tanh", {2}, swapped),   // 3
                  E("tessel.add", {3, 0}, result),  // 4
                  E("tessel.sub", {4, 3}, swapped), // 5
              }};
  expectMatchesReference(fused, makeOperands(fused, -2, 2));
  // An operand in the intermediates' order is gathered, not read in place.
  fused.operands[0] = T({"h", "b"}, {6, 4});
  expectMatchesReference(fused, makeOperands(fused, -2, 2));
}

// Constants of any shape, their value everywhere; infinities and NaN as
// the descriptor spells them.
TEST(FusedElementwise, ConstantsIncludingInfinitiesAndNaN) {
  json full = T({"q", "k"}, {9, 11});
  // An attention mask: -inf where the score is below a threshold, the
  // score clamped to [-inf, inf] (no change) elsewhere.
  Fused masked{{full, T({"k"}, {11})},
               full,
               {
                   C("-inf"),                           // 2
                   C("inf", T({"k"}, {11})),            // 3
                   E("tessel.max", {0, 2}, full),       // 4
                   E("tessel.min", {4, 3}, full),       // 5
                   C(0.25, T({"q"}, {9})),              // 6
                   compare("gt", {1, 6}, full),         // 7
                   E("tessel.select", {7, 5, 2}, full), // 8
               }};
  expectMatchesReference(masked, makeOperands(masked, -1, 1), "masked");
  Buffers scores = makeOperands(masked, -1, 1);
  std::vector<double> got = runFused(masked, scores);
  EXPECT_GT(std::count(got.begin(), got.end(), -kInf), 0);
  // NaN in max and min spreads, as in the reference.
  Fused withNaN{{full},
                full,
                {C("nan"), E("tessel.max", {0, 1}, full),
                 E("tessel.min", {1, 0}, full), E("tessel.add", {2, 3}, full)}};
  expectMatchesReference(withNaN, makeOperands(withNaN, -1, 1), "nan");
  // A body of constants alone, with no operand (the pass copies splat
  // constants into bodies: 1 / sqrt(64) made of constants is such a body).
  Fused constantsOnly{{},
                      full,
                      {C(64.0), E("tessel.sqrt", {0}, full), C(1.0),
                       E("tessel.div", {2, 1}, full)}};
  Buffers none = makeOperands(constantsOnly, 0, 1);
  std::vector<double> eighths = runFused(constantsOnly, none);
  ASSERT_EQ(eighths.size(), 99u);
  EXPECT_EQ(std::count(eighths.begin(), eighths.end(), 0.125), 99);
  // A body that is only a constant fills the result.
  Fused onlyConstant{{full}, full, {C(-2.5, T({"k"}, {11}))}};
  expectMatchesReference(onlyConstant, makeOperands(onlyConstant, 0, 1),
                         "constant");
}

// select on an i1 operand (broadcast, and in the result's layout) and on
// comparisons made in the body.
TEST(FusedElementwise, CompareAndSelectWithAnI1Operand) {
  json full = T({"b", "s"}, {6, 50});
  Fused fused{{T({"s"}, {50}, "i1"), full, T({"s", "b"}, {50, 6}),
               T({"b", "s"}, {6, 50}, "i1")},
              full,
              {
                  E("tessel.select", {0, 1, 2}, full), // 4
                  compare("lt", {1, 2}, full),         // 5
                  C(0.0),                              // 6
                  E("tessel.select", {5, 4, 6}, full), // 7
                  E("tessel.select", {3, 7, 1}, full), // 8
              }};
  expectMatchesReference(fused, makeOperands(fused, -1, 1));
}

// Each comparison kind on operands with ties, NaN and infinities.
TEST(FusedElementwise, EveryComparisonKindWithNaN) {
  json full = T({"a", "b"}, {5, 40});
  for (const auto &[kind, unused] : kCompareKinds) {
    // 1 where the comparison holds, -1 where it fails.
    Fused fused{{full, T({"b"}, {40})},
                full,
                {compare(kind.c_str(), {0, 1}, full), C(1.0), C(-1.0),
                 E("tessel.select", {2, 3, 4}, full)}};
    // Values from {0, 1, 2}: many ties.
    Buffers operands = makeOperands(fused, 0, 3, {kNaN, 1, kInf, -kInf});
    for (size_t i = 0; i < operands.types.size(); ++i)
      for (int64_t k = 0; k < operands.types[i].numElements(); ++k) {
        double value =
            loadElement(ref::ElementType::F32, operands.bytes[i].data(), k);
        if (std::isfinite(value))
          storeElement(ref::ElementType::F32, operands.bytes[i].data(), k,
                       std::floor(value));
      }
    expectMatchesReference(fused, operands, kind);
  }
}

// Each unary op over a range that covers its interesting part, with
// zeros, infinities and NaN among the values.
TEST(FusedElementwise, EveryUnaryOp) {
  struct Range {
    double low, high;
  };
  const std::map<std::string, Range> ranges = {
      {"tessel.neg", {-10, 10}},  {"tessel.abs", {-10, 10}},
      {"tessel.exp", {-20, 20}},  {"tessel.log", {1e-3, 100}},
      {"tessel.sqrt", {0, 100}},  {"tessel.rsqrt", {1e-3, 100}},
      {"tessel.tanh", {-10, 10}}, {"tessel.sigmoid", {-30, 30}},
      {"tessel.relu", {-10, 10}}, {"tessel.gelu", {-12, 12}},
      {"tessel.erf", {-5, 5}},    {"tessel.sin", {-30, 30}},
      {"tessel.cos", {-30, 30}},
  };
  ASSERT_EQ(ranges.size(), kUnaryKinds.size());
  json full = T({"n"}, {2000});
  for (const auto &[op, range] : ranges) {
    Fused fused{{full}, full, {E(op.c_str(), {0}, full)}};
    expectMatchesReference(
        fused,
        makeOperands(fused, range.low, range.high,
                     {0.0, -0.0, kInf, -kInf, kNaN, -1.0, 1e-30, -1e-30}),
        op);
  }
  // gelu's tail to 1e-5 relative: there 1 + erf(x / sqrt 2) is tiny, and
  // computing it as written in f32 would keep hardly a digit (the
  // reference's double keeps about four at x = -7, so the value to meet is
  // erfc's).
  Fused gelu{{full}, full, {E("tessel.gelu", {0}, full)}};
  Buffers tail = makeOperands(gelu, -8, -3);
  std::vector<double> got = runFused(gelu, tail);
  for (size_t k = 0; k < got.size(); ++k) {
    double x = tail.load(0).data[k];
    double exact = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    ASSERT_NEAR(got[k], exact, 1e-5 * std::fabs(exact)) << "gelu of " << x;
  }
}

// Each binary op with one operand broadcast, NaN and infinities among the
// values; pow on positive bases.
TEST(FusedElementwise, EveryBinaryOp) {
  json full = T({"a", "b"}, {8, 33});
  for (const auto &[op, kind] : kBinaryKinds) {
    Fused fused{{full, T({"b"}, {33})}, full, {E(op.c_str(), {0, 1}, full)}};
    bool pow = kind == ref::BinaryKind::Pow;
    expectMatchesReference(
        fused,
        makeOperands(fused, pow ? 0.5 : -2, 2, {kNaN, kInf, -kInf, 0.0, 1.0}),
        op);
    // The broadcast operand first.
    fused.body[0]["args"] = {1, 0};
    expectMatchesReference(fused,
                           makeOperands(fused, pow ? 0.5 : -2, 2, {kNaN}),
                           op + " reversed");
  }
}

// A result of a million elements: many tiles, which cross rows (1499 is
// no multiple of the tile), split across the OpenMP threads; operands in
// place, transposed, broadcast along either dim, and a scalar.
TEST(FusedElementwise, LargeResultInTilesAcrossThreads) {
  json full = T({"r", "c"}, {701, 1499});
  Fused fused{{full, T({"c", "r"}, {1499, 701}), T({"c"}, {1499}),
               T({"r"}, {701}), T({}, {})},
              full,
              {
                  E("tessel.mul", {0, 1}, full),  // 5
                  E("tessel.add", {5, 2}, full),  // 6
                  E("tessel.mul", {6, 3}, full),  // 7
                  E("tessel.sub", {7, 4}, full),  // 8
                  E("tessel.sigmoid", {8}, full), // 9
              }};
  expectMatchesReference(fused, makeOperands(fused, -1, 1));
}

// Results of one element, of none, and with dims of size 1; repeated
// arguments and entries that nothing reads.
TEST(FusedElementwise, SmallShapesRepeatedArgumentsAndDeadEntries) {
  json scalar = T({}, {});
  Fused one{{scalar, scalar},
            scalar,
            {E("tessel.mul", {0, 0}, scalar), E("tessel.exp", {1}, scalar),
             E("tessel.add", {2, 2}, scalar)}};
  expectMatchesReference(one, makeOperands(one, -1, 1), "scalar");

  json empty = T({"a", "b"}, {0, 3});
  Fused none{{empty, T({"b"}, {3})}, empty, {E("tessel.add", {0, 1}, empty)}};
  expectMatchesReference(none, makeOperands(none, -1, 1), "empty");

  json ones = T({"a", "b", "c"}, {1, 5, 1});
  Fused unit{{T({"b", "a"}, {5, 1}), T({"c"}, {1})},
             ones,
             {E("tessel.neg", {1}, ones), E("tessel.div", {0, 2}, ones),
              E("tessel.mul", {3, 3}, ones)}};
  expectMatchesReference(unit, makeOperands(unit, 0.5, 1), "size 1");
}

// The run conversions (base/HalfFloatBlocks.h: the CPU's conversion
// instructions where it has them, with a portable tail) against
// base/Float16.h's, over every f16 pattern and the values above, in runs
// of odd lengths; a NaN need only stay a NaN.
TEST(FusedElementwise, F16RunConversionsAgreeWithTheRuntimes) {
  std::vector<uint16_t> patterns(0x10000);
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits)
    patterns[bits] = static_cast<uint16_t>(bits);
  std::vector<float> widened(patterns.size());
  widenF16(patterns.data(), widened.data(), 0x10000 - 3);
  for (uint32_t bits = 0; bits < 0x10000 - 3; ++bits) {
    float want = f16ToFloat(patterns[bits]);
    if (std::isnan(want))
      ASSERT_TRUE(std::isnan(widened[bits])) << bits;
    else
      ASSERT_EQ(float32Bits(widened[bits]), float32Bits(want)) << bits;
  }
  std::mt19937 generator(11);
  std::vector<float> values = {0.0f, -0.0f, 65504.0f, 65519.0f, 65520.0f,
                               -65520.0f, 5.9604645e-8f, 2.9802322e-8f,
                               2.9802326e-8f, 6.1035156e-5f, 6.1035152e-5f,
                               std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN()};
  for (int k = 0; k < 100003; ++k)
    values.push_back(float32FromBits(static_cast<uint32_t>(generator())));
  std::vector<uint16_t> narrowed(values.size());
  narrowToF16(values.data(), narrowed.data(), values.size());
  std::vector<float> rounded = values;
  roundToF16InPlace(rounded.data(), rounded.size());
  for (size_t k = 0; k < values.size(); ++k) {
    if (std::isnan(values[k])) {
      ASSERT_TRUE(std::isnan(f16ToFloat(narrowed[k]))) << values[k];
      ASSERT_TRUE(std::isnan(rounded[k])) << values[k];
      continue;
    }
    ASSERT_EQ(narrowed[k], floatToF16(values[k])) << values[k];
    ASSERT_EQ(float32Bits(rounded[k]),
              float32Bits(f16ToFloat(floatToF16(values[k]))))
        << values[k];
  }
}

/// Runs a fused op whose body's last value, of type `summed`, is summed
/// into an f32 scalar (attribute `sum_of`); the sum, or the error.
std::variant<float, std::string> runFusedSum(const Fused &fused,
                                             const json &summed,
                                             Buffers &operands) {
  json descriptor = json::parse(fused.descriptor());
  descriptor["attrs"]["sum_of"] = summed;
  descriptor["attrs"]["sum_kind"] = "sum";
  std::string text = descriptor.dump();
  std::vector<void *> pointers = operands.pointers();
  float result = std::nanf("");
  void *site = nullptr;
  std::optional<std::string> error =
      tryExecute(oneRankContext(), &site, text.c_str(), pointers.data(),
                 static_cast<int32_t>(pointers.size()), &result);
  if (error)
    return *error;
  return result;
}

// A body that ends in a sum over every dimension (a gradient's squared
// norm): the body's f32 values summed exactly enough that the f32 result
// is the exact sum's rounding (checked against long double), the same bit
// for bit on every call (the tiles' sums are added in order, whichever
// thread made them), over a result large enough for the threads, with a
// broadcast operand, small, and empty; a sum into another type is refused.
TEST(FusedElementwise, ABodyEndingInASumSumsEveryElementOnce) {
  json scalar = T({}, {});
  for (auto [dims, shape] :
       {std::pair<std::vector<std::string>, std::vector<int64_t>>{
            {"a", "b"}, {300, 257}},
        {{"a", "b"}, {3, 5}},
        {{"a", "b"}, {0, 5}}}) {
    json x = T(dims, shape), v = T({"b"}, {shape[1]});
    // sum over a, b of (x * v)^2: v broadcast along a.
    Fused fused{{x, v},
                scalar,
                {E("tessel.mul", {0, 1}, x), E("tessel.mul", {2, 2}, x)}};
    Buffers operands = makeOperands(fused, -2, 2);
    auto sum = runFusedSum(fused, x, operands);
    ASSERT_TRUE(std::holds_alternative<float>(sum))
        << std::get<std::string>(sum);
    ref::Tensor xs = operands.load(0), vs = operands.load(1);
    long double exact = 0;
    for (int64_t k = 0; k < shape[0] * shape[1]; ++k) {
      float product = static_cast<float>(xs.data[k]) *
                      static_cast<float>(vs.data[k % shape[1]]);
      exact += static_cast<long double>(product * product);
    }
    EXPECT_EQ(std::get<float>(sum), static_cast<float>(exact)) << shape[0];
    auto again = runFusedSum(fused, x, operands);
    EXPECT_EQ(float32Bits(std::get<float>(again)),
              float32Bits(std::get<float>(sum)));
  }
  json x = T({"a"}, {8}), narrow = T({"a"}, {8}, "bf16");
  Fused bf16{{narrow}, scalar, {E("tessel.mul", {0, 0}, narrow)}};
  Buffers operands = makeOperands(bf16, -1, 1);
  auto refused = runFusedSum(bf16, narrow, operands);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_NE(std::get<std::string>(refused).find(
                "a sum of [a:8] bf16 into [] f32: only a float value summed "
                "into its own type is provided"),
            std::string::npos)
      << std::get<std::string>(refused);
  // A result whose dims are not a run of the value's in its order.
  json grid = T({"a", "b", "c"}, {2, 3, 4}), middle = T({"c", "a"}, {4, 2});
  Fused overMiddle{{grid}, middle, {E("tessel.mul", {0, 0}, grid)}};
  Buffers more = makeOperands(overMiddle, -1, 1);
  json descriptor = json::parse(overMiddle.descriptor());
  descriptor["attrs"]["sum_of"] = grid;
  std::vector<float> out(8);
  std::vector<void *> pointers = more.pointers();
  void *site = nullptr;
  std::string error =
      tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                 pointers.data(), 1, out.data())
          .value_or("");
  EXPECT_NE(error.find("is not [a:2, b:3, c:4] f32 summed over the dims "
                       "around a run of them"),
            std::string::npos)
      << error;
}

// A mixed-precision step's sums: x * x of a bf16 or f16 x, each product
// rounded to the type as the op computes it, summed over every dim and over
// the leading one (a bias's gradient over the batch) into that type: the
// exact sum of the rounded products (against long double), rounded to f32
// and then to the type, on results large enough for the threads and small.
TEST(FusedElementwise, NarrowSumsAreTheRoundedValuesSummedAndRoundedOnce) {
  for (const char *type : {"bf16", "f16"}) {
    bool bf16 = std::string(type) == "bf16";
    auto toType = [&](float value) {
      return bf16 ? roundToBf16(value) : roundToF16(value);
    };
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{300, 257}, std::vector<int64_t>{3, 5}}) {
      json x = T({"a", "b"}, shape, type);
      for (bool whole : {true, false}) {
        json result = whole ? T({}, {}, type) : T({"b"}, {shape[1]}, type);
        Fused fused{{x}, result, {E("tessel.mul", {0, 0}, x)}};
        Buffers operands = makeOperands(fused, -2, 2);
        json descriptor = json::parse(fused.descriptor());
        descriptor["attrs"]["sum_of"] = x;
        descriptor["attrs"]["sum_kind"] = "sum";
        int64_t sums = whole ? 1 : shape[1];
        std::vector<uint16_t> out(static_cast<size_t>(sums), 0xffff);
        std::vector<void *> pointers = operands.pointers();
        void *site = nullptr;
        std::optional<std::string> error =
            tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       pointers.data(), 1, out.data());
        ASSERT_FALSE(error) << *error;
        ref::Tensor xs = operands.load(0);
        std::vector<long double> exact(static_cast<size_t>(sums), 0);
        for (int64_t k = 0; k < shape[0] * shape[1]; ++k) {
          float value = static_cast<float>(xs.data[k]);
          exact[whole ? 0 : k % shape[1]] +=
              static_cast<long double>(toType(value * value));
        }
        for (int64_t r = 0; r < sums; ++r) {
          float want = toType(static_cast<float>(exact[r]));
          float got = bf16 ? bf16ToFloat(out[r]) : f16ToFloat(out[r]);
          EXPECT_EQ(got, want) << type << " " << shape[0] << " sum " << r
                               << (whole ? " of all" : " of a column");
        }
      }
    }
  }
}

/// The f32 type of the dims `kept` of [a, b, c] of sizes `shape`, in the
/// order given: what a sum of such a value that keeps them yields.
json keptOf(const std::vector<int64_t> &shape,
            const std::vector<std::string> &kept) {
  std::vector<int64_t> keptShape;
  for (const std::string &dim : kept)
    keptShape.push_back(shape[dim[0] - 'a']);
  return T(kept, keptShape);
}

// A body that ends in a sum or mean over a trailing run of dims (rows: a
// layer norm's means), a leading one (columns: a bias's gradient over the
// batch) or the dims on both sides of the kept ones (a batch norm's sums
// keep the channels between batch and space): each result element the
// exact sum of its elements rounded once (against long double), the same
// bits on every call, on results large enough for the threads and small.
TEST(FusedElementwise, ABodyEndingInAPartialSumSumsEachRowOrColumn) {
  struct Case {
    std::vector<int64_t> shape; // [a, b, c]
    std::vector<std::string> kept;
    const char *kind;
  };
  for (const Case &c : std::vector<Case>{{{40, 30, 70}, {"a", "b"}, "mean"},
                                         {{40, 30, 70}, {"c"}, "sum"},
                                         {{40, 30, 70}, {"b", "c"}, "sum"},
                                         {{40, 30, 70}, {"b"}, "sum"},
                                         {{3, 2, 5}, {"a"}, "sum"},
                                         {{3, 2, 5}, {"c"}, "mean"},
                                         {{3, 2, 5}, {"b"}, "mean"}}) {
    json x = T({"a", "b", "c"}, c.shape);
    json result = keptOf(c.shape, c.kept);
    std::vector<int64_t> keptShape = result["shape"];
    // exp(x) * x, summed.
    Fused fused{
        {x}, result, {E("tessel.exp", {0}, x), E("tessel.mul", {1, 0}, x)}};
    Buffers operands = makeOperands(fused, -1, 1);
    json descriptor = json::parse(fused.descriptor());
    descriptor["attrs"]["sum_of"] = x;
    descriptor["attrs"]["sum_kind"] = c.kind;
    std::string text = descriptor.dump();
    int64_t kept = 1;
    for (int64_t size : keptShape)
      kept *= size;
    int64_t all = c.shape[0] * c.shape[1] * c.shape[2];
    auto run = [&] {
      std::vector<float> out(kept + 1, -1.0f);
      std::vector<void *> pointers = operands.pointers();
      void *site = nullptr;
      std::optional<std::string> error =
          tryExecute(oneRankContext(), &site, text.c_str(), pointers.data(), 1,
                     out.data());
      EXPECT_FALSE(error) << *error;
      return out;
    };
    std::vector<float> got = run();
    // The body in f32 as the kernel computes it (exp within a few ulp of
    // the exact: the reference's value, rounded), summed exactly.
    ref::Tensor xs = operands.load(0);
    std::vector<long double> exact(kept, 0);
    for (int64_t e = 0; e < all; ++e) {
      float v = static_cast<float>(xs.data[e]);
      float body = static_cast<float>(std::exp(static_cast<double>(v))) * v;
      // Element e's index over the kept dims, in their order.
      int64_t index[3] = {e / (c.shape[1] * c.shape[2]),
                          e / c.shape[2] % c.shape[1], e % c.shape[2]};
      int64_t at = 0;
      for (const std::string &dim : c.kept)
        at = at * c.shape[dim[0] - 'a'] + index[dim[0] - 'a'];
      exact[at] += body;
    }
    double scale =
        std::string(c.kind) == "mean" ? double(kept) / double(all) : 1;
    for (int64_t r = 0; r < kept; ++r)
      ASSERT_TRUE(close(got[r], static_cast<double>(exact[r] * scale), 2e-6))
          << c.kind << " " << r << ": " << got[r] << " against "
          << static_cast<double>(exact[r] * scale);
    EXPECT_EQ(got[kept], -1.0f) << "wrote past the result";
    std::vector<float> again = run();
    for (int64_t r = 0; r < kept; ++r)
      ASSERT_EQ(float32Bits(again[r]), float32Bits(got[r])) << r;
  }
}

// The bf16 run conversions (base/HalfFloatBlocks.h: sixteen lanes of
// integer rounding on AVX-512, with a portable tail) against base/Float16.h's
// bit for bit, NaNs included (both quiet them the same way): every bf16
// pattern widened, and random f32 patterns with the rounding's edges (ties
// either way, the carry into the exponent and up to infinity, signalling
// NaNs) narrowed and rounded, in runs of odd lengths.
TEST(FusedElementwise, Bf16RunConversionsAgreeWithTheRuntimes) {
  std::vector<uint16_t> patterns(0x10000);
  for (uint32_t bits = 0; bits <= 0xffffu; ++bits)
    patterns[bits] = static_cast<uint16_t>(bits);
  std::vector<float> widened(patterns.size());
  widenBf16(patterns.data(), widened.data(), 0x10000 - 5);
  for (uint32_t bits = 0; bits < 0x10000 - 5; ++bits)
    ASSERT_EQ(float32Bits(widened[bits]), float32Bits(bf16ToFloat(patterns[bits])))
        << bits;
  std::vector<float> values = {
      float32FromBits(0x3f808000u), // a tie, rounds down to even
      float32FromBits(0x3f818000u), // a tie, rounds up to even
      float32FromBits(0x3f80ffffu), float32FromBits(0x7f7fffffu),
      float32FromBits(0xff7f8000u), float32FromBits(0x7f800001u),
      float32FromBits(0xffbfffffu), float32FromBits(0x00008000u),
      std::numeric_limits<float>::infinity(), 0.0f, -0.0f};
  std::mt19937 generator(13);
  for (int k = 0; k < 100003; ++k)
    values.push_back(float32FromBits(static_cast<uint32_t>(generator())));
  std::vector<uint16_t> narrowed(values.size());
  narrowToBf16(values.data(), narrowed.data(), values.size());
  std::vector<float> rounded = values;
  roundToBf16InPlace(rounded.data(), rounded.size());
  for (size_t k = 0; k < values.size(); ++k) {
    ASSERT_EQ(narrowed[k], floatToBf16(values[k])) << float32Bits(values[k]);
    ASSERT_EQ(float32Bits(rounded[k]), float32Bits(roundToBf16(values[k])))
        << float32Bits(values[k]);
  }
}

// A mixed-precision step's chains: bf16 and f16 values computed in f32
// registers, each op's value rounded to its type as the op alone rounds it.
// Casts, add, sub and mul of narrow values are exact in f32 before that
// rounding, so those agree bit for bit with the ops one by one: bf16 and
// f16 results, operands read in place, broadcast (gathered) and as scalars,
// f16 overflow to infinity and f16 subnormals, NaN.
TEST(FusedElementwise, CastsAndArithmeticInBf16AndF16AreExact) {
  for (const char *narrow : {"bf16", "f16"}) {
    json wide = T({"b", "d"}, {9, 70}), low = T({"b", "d"}, {9, 70}, narrow);
    json row = T({"d"}, {70}, narrow), scalar = T({}, {}, narrow);
    for (const char *resultType : {"f32", "bf16", "f16"}) {
      json result = T({"b", "d"}, {9, 70}, resultType);
      Fused fused{{wide, row, scalar, low},
                  result,
                  {
                      E("tessel.cast", {0}, low),  // 4: f32 -> narrow
                      E("tessel.mul", {4, 1}, low), // 5: broadcast row
                      E("tessel.add", {5, 2}, low), // 6: scalar
                      E("tessel.sub", {6, 3}, low), // 7: narrow operand
                      C(4096.0, T({}, {}, narrow)), // 8
                      E("tessel.mul", {7, 8}, low), // 9: f16 overflows
                      E("tessel.cast", {9}, result),
                  }};
      // Large and tiny f32 inputs: f16 infinities and subnormals.
      expectMatchesReference(
          fused, makeOperands(fused, -3, 3, {7e4, -1e-6, 3e-8, kNaN, 65519.0}),
          std::string(narrow) + " into " + resultType, 0);
    }
  }
}

// A lone cast between f32 and bf16 or f16 (a parameter's narrow copy, a
// gradient back in f32), which runs as one conversion pass rather than
// tile by tile: the reference's rounding, infinities, subnormals and NaN
// included, on a result large enough for the threads and on a small one;
// a cast of a transposed operand, which is not in the result's order,
// alike.
TEST(FusedElementwise, LoneCastsConvertAsTheReferenceRounds) {
  for (const char *narrow : {"bf16", "f16"})
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{300, 257}, std::vector<int64_t>{3, 5}}) {
      json wide = T({"a", "b"}, shape), low = T({"a", "b"}, shape, narrow);
      Fused narrowing{{wide}, low, {E("tessel.cast", {0}, low)}};
      expectMatchesReference(
          narrowing,
          makeOperands(narrowing, -3, 3, {7e4, -1e-6, 3e-8, kNaN, 65519.0}),
          std::string("f32 into ") + narrow, 0);
      Fused widening{{low}, wide, {E("tessel.cast", {0}, wide)}};
      expectMatchesReference(widening, makeOperands(widening, -3, 3),
                             std::string(narrow) + " into f32", 0);
      json transposed = T({"b", "a"}, {shape[1], shape[0]});
      Fused across{{transposed}, low, {E("tessel.cast", {0}, low)}};
      expectMatchesReference(across, makeOperands(across, -3, 3),
                             std::string("transposed f32 into ") + narrow, 0);
    }
}

// The GELU MLP's forward and backward chains in bf16 and f16, with the
// transcendental ops (gelu, erf, exp, tanh) and compare and select: each
// op's f32 value is within an f32 ulp or two of the exact one, so its
// rounding to the narrow type agrees with the reference's but at the odd
// tie; the result is within a few of the narrow type's ulps.
TEST(FusedElementwise, TranscendentalChainsInBf16AndF16) {
  for (const char *narrow : {"bf16", "f16"}) {
    json low = T({"s", "f"}, {33, 40}, narrow);
    json bias = T({"f"}, {40}, narrow);
    json condition = T({"s", "f"}, {33, 40}, "i1");
    Fused fused{{low, bias, low},
                T({"s", "f"}, {33, 40}),
                {
                    E("tessel.add", {0, 1}, low),        // 3: x + b
                    E("tessel.gelu", {3}, low),          // 4
                    E("tessel.erf", {3}, low),           // 5
                    E("tessel.mul", {4, 5}, low),        // 6
                    E("tessel.tanh", {6}, low),          // 7
                    E("tessel.exp", {7}, low),           // 8
                    C(0.0, T({}, {}, narrow)),           // 9
                    compare("gt", {3, 9}, condition),    // 10
                    E("tessel.select", {10, 8, 2}, low), // 11
                    E("tessel.cast", {11}, T({"s", "f"}, {33, 40})),
                }};
    expectMatchesReference(fused, makeOperands(fused, -4, 4), narrow, 2e-2);
  }
}

// A bf16 result large enough to be split across threads, narrowed tile by
// tile.
TEST(FusedElementwise, LargeBf16ResultAcrossThreads) {
  json low = T({"r", "c"}, {300, 400}, "bf16");
  Fused fused{{T({"r", "c"}, {300, 400}), T({"c"}, {400}, "bf16")},
              low,
              {
                  E("tessel.cast", {0}, low),   // 2
                  E("tessel.add", {2, 1}, low), // 3
                  E("tessel.mul", {3, 3}, low), // 4
              }};
  expectMatchesReference(fused, makeOperands(fused, -2, 2), "bf16", 0);
}

/// `fused`'s descriptor with results after the first: `types`, the body
/// values `outputs`.
std::string withMoreResults(const Fused &fused, const std::vector<json> &types,
                            const json &outputs) {
  json descriptor = json::parse(fused.descriptor());
  descriptor["more_results"] = types;
  descriptor["attrs"]["outputs"] = outputs;
  return descriptor.dump();
}

/// Runs `descriptor` on `operands` with buffers for its result and the
/// results `more` after it; each result's elements, or the error.
std::variant<std::vector<std::vector<double>>, std::string>
runWithMoreResults(const std::string &descriptor, const json &result,
                   const std::vector<json> &more, Buffers &operands) {
  std::vector<TensorType> types = {parseTensorType(result, "the result")};
  for (const json &type : more)
    types.push_back(parseTensorType(type, "a result"));
  std::vector<std::vector<unsigned char>> buffers;
  for (const TensorType &type : types)
    buffers.emplace_back(type.numBytes() + 1);
  std::vector<void *> pointers = operands.pointers();
  for (size_t k = 1; k < buffers.size(); ++k)
    pointers.push_back(buffers[k].data());
  void *site = nullptr;
  if (std::optional<std::string> error = tryExecute(
          oneRankContext(), &site, descriptor.c_str(), pointers.data(),
          static_cast<int32_t>(pointers.size()), buffers[0].data()))
    return *error;
  std::vector<std::vector<double>> values(types.size());
  for (size_t k = 0; k < types.size(); ++k)
    for (int64_t e = 0; e < types[k].numElements(); ++e)
      values[k].push_back(loadElement(types[k].type, buffers[k].data(), e));
  return values;
}

// An optimizer's update with its new moments as results of their own, as
// tessel-merge-fused-outputs makes it: each result's buffer gets its body
// value, rounded to its type (v' in bf16 here), in one tile or many and
// across threads.
TEST(FusedElementwise, ResultsAfterTheFirstAreWrittenFromTheirValues) {
  using Shape = std::pair<std::vector<std::string>, std::vector<int64_t>>;
  for (const Shape &shape : {Shape{{"in"}, {5}}, Shape{{"out", "in"}, {24, 40}},
                             Shape{{"n"}, {70001}}}) {
    Fused fused = adamW(shape.first, shape.second);
    json full = T(shape.first, shape.second);
    json narrow = T(shape.first, shape.second, "bf16");
    fused.body.push_back(E("tessel.cast", {15}, narrow));  // 29: v' in bf16
    fused.body.push_back(E("tessel.max", {28, 28}, full)); // 30: p' again
    Buffers operands = makeOperands(fused, 0.01, 1);
    auto run = runWithMoreResults(
        withMoreResults(fused, {full, narrow}, json::array({9, 29})), full,
        {full, narrow}, operands);
    ASSERT_TRUE(std::holds_alternative<std::vector<std::vector<double>>>(run))
        << std::get<std::string>(run);
    const auto &got = std::get<std::vector<std::vector<double>>>(run);
    // p', m' to f32's precision, v' to bf16's (an f32 value a hair from a
    // rounding boundary may round the other way).
    std::vector<std::pair<int, double>> wanted = {
        {30, 1e-6}, {9, 1e-6}, {29, 1.0 / 128}};
    for (size_t k = 0; k < wanted.size(); ++k) {
      std::vector<double> want = reference(fused, operands, wanted[k].first);
      ASSERT_EQ(got[k].size(), want.size());
      int mismatches = 0;
      for (size_t e = 0; e < want.size(); ++e)
        if (!close(got[k][e], want[e], wanted[k].second) && ++mismatches <= 3)
          ADD_FAILURE() << "result " << k << " element " << e << ": got "
                        << got[k][e] << ", the ops one by one give " << want[e];
      EXPECT_EQ(mismatches, 0) << "result " << k << " of " << got[0].size();
    }
  }
}

// A body that sums, with results after the first, as
// tessel-merge-fused-outputs makes a bias's gradient and the gradient it
// sums: each such result gets its value at every element of the value
// summed, and the sum is what the body alone sums, over every dim, the
// trailing ones and the dims around the channels kept, on one thread's
// worth of elements and on many.
TEST(FusedElementwise, ASumWithResultsAfterTheFirstWritesThemAsItSums) {
  struct Case {
    std::vector<int64_t> shape; // [a, b, c]
    std::vector<std::string> kept;
  };
  for (const Case &c : std::vector<Case>{{{40, 30, 70}, {}},
                                         {{40, 30, 70}, {"a"}},
                                         {{40, 30, 70}, {"b"}},
                                         {{3, 2, 5}, {"c"}}}) {
    json x = T({"a", "b", "c"}, c.shape);
    json sumType = keptOf(c.shape, c.kept);
    // 2: exp(x); 3: exp(x) * y, summed; 2 is also a result.
    Fused fused{
        {x, x}, sumType, {E("tessel.exp", {0}, x), E("tessel.mul", {2, 1}, x)}};
    json descriptor =
        json::parse(withMoreResults(fused, {x}, json::array({2})));
    descriptor["attrs"]["sum_of"] = x;
    Buffers operands = makeOperands(fused, -1, 1);
    auto run = runWithMoreResults(descriptor.dump(), sumType, {x}, operands);
    ASSERT_TRUE(std::holds_alternative<std::vector<std::vector<double>>>(run))
        << std::get<std::string>(run);
    const auto &got = std::get<std::vector<std::vector<double>>>(run);
    // The kernel's sum of the same body without the second result.
    json alone = json::parse(fused.descriptor());
    alone["attrs"]["sum_of"] = x;
    auto sumAlone = runWithMoreResults(alone.dump(), sumType, {}, operands);
    ASSERT_TRUE(
        std::holds_alternative<std::vector<std::vector<double>>>(sumAlone));
    const auto &want =
        std::get<std::vector<std::vector<double>>>(sumAlone).front();
    ASSERT_EQ(got[0].size(), want.size());
    for (size_t r = 0; r < want.size(); ++r)
      ASSERT_EQ(got[0][r], want[r]) << "sum " << r;
    Fused unsummed = fused;
    unsummed.result = x;
    std::vector<double> exps = reference(unsummed, operands, 2);
    ASSERT_EQ(got[1].size(), exps.size());
    for (size_t e = 0; e < exps.size(); ++e)
      ASSERT_TRUE(close(got[1][e], exps[e]))
          << "element " << e << ": got " << got[1][e] << ", want " << exps[e];
  }
  // A result after the first with the sum's dims, not the value summed's.
  json x = T({"a", "b"}, {4, 3}), rows = T({"a"}, {4});
  Fused fused{{x}, rows, {E("tessel.exp", {0}, x), E("tessel.neg", {1}, x)}};
  json descriptor =
      json::parse(withMoreResults(fused, {rows}, json::array({1})));
  descriptor["attrs"]["sum_of"] = x;
  Buffers operands = makeOperands(fused, -1, 1);
  auto refused = runWithMoreResults(descriptor.dump(), rows, {rows}, operands);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_EQ(std::get<std::string>(refused),
            "tessel: rank 0: error at test.mlir:1:1 in tessel.fused: result 1 "
            "[a:4] f32 is not of value 1's type [a:4, b:3] f32 with the value "
            "summed [a:4, b:3] f32's dims in its order");
}

TEST(FusedElementwise, MalformedResultsAfterTheFirstAreErrors) {
  std::string prefix = "tessel: rank 0: error at test.mlir:1:1 in "
                       "tessel.fused: ";
  json full = T({"a", "b"}, {4, 3});
  Fused fused{
      {full},
      full,
      {E("tessel.neg", {0}, full), C(2.0), E("tessel.mul", {1, 2}, full)}};
  auto errorWith = [&](const std::vector<json> &types, const json &outputs) {
    Buffers operands = makeOperands(fused, 0, 1);
    auto run = runWithMoreResults(withMoreResults(fused, types, outputs), full,
                                  types, operands);
    return std::holds_alternative<std::string>(run) ? std::get<std::string>(run)
                                                    : std::string("(no error)");
  };
  EXPECT_EQ(errorWith({full}, json::array({1})), "(no error)");
  EXPECT_EQ(errorWith({full}, json::array({2})),
            prefix + "result 1 is value 2, a constant");
  EXPECT_EQ(errorWith({full}, json::array({3})),
            prefix + "result 1 is value 3, not the number of a body entry "
                     "before the last (1 to 2)");
  EXPECT_EQ(errorWith({full}, json::array({0})),
            prefix + "result 1 is value 0, not the number of a body entry "
                     "before the last (1 to 2)");
  EXPECT_EQ(errorWith({full, full}, json::array({1})),
            prefix + "attribute 'outputs' is not a list of 2 value numbers, "
                     "one per result after the first");
  EXPECT_EQ(errorWith({T({"b", "a"}, {3, 4})}, json::array({1})),
            prefix + "result 1 [b:3, a:4] f32 is not of value 1's type [a:4, "
                     "b:3] f32 with the first result [a:4, b:3] f32's dims "
                     "in its order");
  EXPECT_EQ(errorWith({T({"a", "b"}, {4, 3}, "bf16")}, json::array({1})),
            prefix + "result 1 [a:4, b:3] bf16 is not of value 1's type "
                     "[a:4, b:3] f32 with the first result [a:4, b:3] f32's "
                     "dims in its order");

  // Results without the values that make them, and an op that has one.
  json descriptor = json::parse(fused.descriptor());
  descriptor["more_results"] = {full};
  Buffers operands = makeOperands(fused, 0, 1);
  std::vector<unsigned char> second(64), first(64);
  std::vector<void *> pointers = {operands.pointers()[0], second.data()};
  void *site = nullptr;
  EXPECT_EQ(tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       pointers.data(), 2, first.data())
                .value_or("(no error)"),
            prefix + "2 results but no attribute 'outputs'");
  descriptor["op"] = "tessel.neg";
  descriptor["attrs"] = json::object();
  site = nullptr;
  EXPECT_EQ(tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       pointers.data(), 2, first.data())
                .value_or("(no error)"),
            "tessel: rank 0: error at test.mlir:1:1 in tessel.neg: op "
            "'tessel.neg' has 2 results; only a fused op may have more than "
            "one");
  // The buffers of the results after the first count among the operands.
  descriptor = json::parse(withMoreResults(fused, {full}, json::array({1})));
  site = nullptr;
  EXPECT_EQ(tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       pointers.data(), 1, first.data())
                .value_or("(no error)"),
            prefix + "called with 1 operands, the descriptor has 2");
  pointers[1] = nullptr;
  EXPECT_EQ(tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       pointers.data(), 2, first.data())
                .value_or("(no error)"),
            prefix + "the buffer of result 1 is NULL");
}

TEST(FusedElementwise, MalformedBodiesAreErrorsNamingTheProblem) {
  std::string prefix = "tessel: rank 0: error at test.mlir:1:1 in "
                       "tessel.fused: ";
  json full = T({"a", "b"}, {4, 3});
  auto withBody = [&](std::vector<json> body, std::vector<json> operands = {}) {
    if (operands.empty())
      operands = {T({"a", "b"}, {4, 3}), T({"b"}, {3})};
    return errorOf(Fused{operands, full, std::move(body)});
  };
  auto expectError = [](const std::string &message, const std::string &part) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "'" << message << "' does not say '" << part << "'";
  };

  // The body itself.
  Fused noBody{{full}, full, {}};
  json descriptor = json::parse(noBody.descriptor());
  descriptor["attrs"].erase("body");
  std::vector<unsigned char> out(64);
  void *site = nullptr;
  EXPECT_EQ(tryExecute(oneRankContext(), &site, descriptor.dump().c_str(),
                       nullptr, 0, out.data())
                .value_or(""),
            prefix + "attribute 'body' is missing");
  EXPECT_EQ(withBody({}),
            prefix + "attribute 'body' is not a non-empty list of ops");
  expectError(withBody({json(3)}), "body entry 0 is not an object");
  expectError(withBody({{{"args", {0}}}}), "body entry 0 has no \"op\"");

  // Ops, arguments and their count.
  EXPECT_EQ(withBody({E("tessel.softmax", {0}, full)}),
            prefix + "body entry 0 (tessel.softmax): 'tessel.softmax' is not "
                     "an op a fused body can hold");
  EXPECT_EQ(withBody({E("tessel.add", {0, 2}, full)}),
            prefix + "body entry 0 (tessel.add): argument 1 is 2, not the "
                     "number of an earlier value (0 to 1)");
  expectError(withBody({E("tessel.neg", {-1}, full)}), "argument 0 is -1");
  expectError(
      withBody({E("tessel.add", {0, 1}, full), E("tessel.neg", {3}, full)}),
      "body entry 1 (tessel.neg): argument 0 is 3");
  expectError(
      withBody({{{"op", "tessel.neg"}, {"args", {"x"}}, {"result", full}}}),
      "argument 0 is \"x\"");
  EXPECT_EQ(withBody({E("tessel.add", {0}, full)}),
            prefix + "body entry 0 (tessel.add): takes 2 argument(s), has 1");
  expectError(withBody({E("tessel.select", {0, 1}, full)}),
              "takes 3 argument(s), has 2");
  expectError(withBody({{{"op", "tessel.neg"}, {"args", {0}}}}),
              "body entry 0 (tessel.neg) has no \"result\"");

  // Types and dims of the entries.
  EXPECT_EQ(withBody({E("tessel.add", {0, 1}, T({"a", "b"}, {4, 3}, "i32"))}),
            prefix + "body entry 0 (tessel.add): the result [a:4, b:3] i32 "
                     "is not a float (f32, bf16, f16)");
  EXPECT_EQ(withBody({E("tessel.add", {0, 1}, T({"a"}, {4}))}),
            prefix + "body entry 0 (tessel.add): the result [a:4] f32 does "
                     "not have the dims of the fused result [a:4, b:3] f32");
  expectError(withBody({E("tessel.add", {0, 1}, T({"b", "a"}, {3, 5}))}),
              "body entry 0 (tessel.add): the result [b:3, a:5] f32 has 'a' "
              "of size 5, the result [a:4, b:3] f32 of size 4");
  expectError(withBody({E("tessel.add", {0, 1}, T({"a", "c"}, {4, 3}))}),
              "has dim 'c', which the result [a:4, b:3] f32 lacks");
  expectError(
      withBody({E("tessel.compare", {0, 1}, T({"a", "b"}, {4, 3}, "i1"))}),
      "body entry 0 (tessel.compare): attribute 'kind' is missing");
  expectError(withBody({compare("approx", {0, 1}, full)}),
              "attribute 'kind' is \"approx\", not one of eq, ne");
  expectError(withBody({E("tessel.compare", {0, 1}, full, {{"kind", "lt"}})}),
              "body entry 0 (tessel.compare): the result [a:4, b:3] f32 is "
              "not i1");
  EXPECT_EQ(withBody({E("tessel.select", {0, 0, 1}, full)}),
            prefix + "body entry 0 (tessel.select): argument 0 is value 0 of "
                     "type [a:4, b:3] f32, where an i1 condition is needed");
  expectError(
      withBody({compare("lt", {0, 1}, full), E("tessel.add", {2, 0}, full)}),
      "body entry 1 (tessel.add): argument 0 is value 2 of type "
      "[a:4, b:3] i1, where a float (f32, bf16, f16) is needed");
  EXPECT_EQ(withBody({compare("lt", {0, 1}, full)}),
            prefix + "the last body entry's result [a:4, b:3] i1 is not f32, "
                     "as the fused result is");
  expectError(withBody({E("tessel.constant", {}, T({}, {}))}),
              "body entry 0 (tessel.constant): attribute 'value' is not a "
              "number");
  expectError(withBody({C("many")}), "attribute 'value' is not a number");
  expectError(withBody({E("tessel.neg", {0}, full, json::array())}),
              "\"attrs\" is not an object");

  // The operands and the result.
  expectError(withBody({E("tessel.neg", {0}, full)}, {T({"a", "c"}, {4, 3})}),
              "operand 0 [a:4, c:3] f32 has dim 'c', which the result [a:4, "
              "b:3] f32 lacks");
  expectError(withBody({E("tessel.neg", {0}, full)}, {T({"b"}, {4})}),
              "operand 0 [b:4] f32 has 'b' of size 4, the result [a:4, b:3] "
              "f32 of size 3");
  expectError(
      withBody({E("tessel.neg", {0}, full)}, {T({"a", "b"}, {4, 3}, "i32")}),
      "operand 0 [a:4, b:3] i32 is neither a float (f32, bf16, f16) nor an "
      "i1 condition");
  EXPECT_EQ(errorOf(Fused{{full},
                          T({"a", "b"}, {4, 3}, "i1"),
                          {E("tessel.neg", {0}, full)}}),
            prefix + "the result [a:4, b:3] i1 is not a float (f32, bf16, "
                     "f16)");
  EXPECT_EQ(errorOf(Fused{{full},
                          T({"a", "b"}, {4, 3}, "bf16"),
                          {E("tessel.neg", {0}, full)}}),
            prefix + "the last body entry's result [a:4, b:3] f32 is not "
                     "bf16, as the fused result is");
}

} // namespace
