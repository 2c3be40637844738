//===- WidenedOpsTest.cpp - f16 and bf16 ops on their f32 kernels ---------===//
//
// Ops with f16 tensors, and the bf16 ones oneDNN has no kernel for, run
// their f32 kernel between conversions (executor/WidenedOps.h). Each case
// runs such an op through the executor (tryExecute, in a context without a
// communicator) and compares every element with the op's definition, the
// reference kernel's exact value in double rounded once to the result's
// type: the f32 kernel's own rounding may move a result across a rounding
// boundary of the narrow type, so each element may be one ulp of it off
// (2^-10 relative for f16, 2^-7 for bf16). bf16 einsums and convolutions,
// widened where the CPU's bf16 products are slower than f32's, are compared
// bit for bit with their f32 form. That the widened sites take the
// f32 kernels' fast paths is checked end to end, by the mixed-precision
// steps' profiles (tests/e2e/train_mixed_precision.sh).
//
//===----------------------------------------------------------------------===//

#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Descriptor.h"
#include "executor/Execute.h"

#include "reference/Contraction.h"
#include "reference/Reductions.h"
#include "reference/Shape.h"
#include "runtime/tests/OneRankContext.h"
#include "tessel/runtime/kernels.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <random>

using namespace tessel;
using namespace tessel::runtime;
using namespace tessel::runtime::test;
using nlohmann::json;

namespace {

json T(std::vector<std::string> dims, std::vector<int64_t> shape,
       const char *type) {
  return {{"dims", dims}, {"shape", shape}, {"type", type}};
}

struct Case {
  const char *op;
  std::vector<json> operands;
  json result;
  json attrs = json::object();
  /// The op's definition on the operands, exact in double.
  std::function<ref::Tensor(const std::vector<ref::Tensor> &)> define;
  /// Operand values: uniform in [low, high), integers for i32 operands.
  double low = -2, high = 2;
};

/// Runs `op` through the executor on the operands' bytes; the result's.
std::vector<unsigned char>
execute(const char *op, const std::vector<json> &operands, const json &result,
        const json &attrs, std::vector<std::vector<unsigned char>> &buffers) {
  std::vector<void *> pointers;
  for (auto &buffer : buffers)
    pointers.push_back(buffer.data());
  std::vector<unsigned char> bytes(
      parseTensorType(result, "result").numBytes() + 1);
  std::string descriptor = json{{"op", op},
                                {"loc", "test.mlir:1:1"},
                                {"operands", operands},
                                {"result", result},
                                {"attrs", attrs}}
                               .dump();
  void *site = nullptr;
  std::optional<std::string> error =
      tryExecute(oneRankContext(), &site, descriptor.c_str(), pointers.data(),
                 static_cast<int32_t>(pointers.size()), bytes.data());
  EXPECT_FALSE(error) << *error;
  return bytes;
}

void expectMatchesDefinition(const Case &c) {
  std::mt19937 generator(3);
  std::uniform_real_distribution<double> uniform(c.low, c.high);
  std::vector<TensorType> types;
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<ref::Tensor> loaded;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    TensorType type = parseTensorType(c.operands[i], "operand");
    std::vector<unsigned char> bytes(type.numBytes() + 1);
    for (int64_t k = 0; k < type.numElements(); ++k)
      storeElement(type.type, bytes.data(), k,
                   type.type == ref::ElementType::I32
                       ? std::floor(uniform(generator))
                       : uniform(generator));
    loaded.push_back(loadTensor(type, bytes.data()));
    types.push_back(type);
    buffers.push_back(std::move(bytes));
  }
  TensorType resultType = parseTensorType(c.result, "result");
  std::vector<unsigned char> result;
  ASSERT_NO_FATAL_FAILURE(
      result = execute(c.op, c.operands, c.result, c.attrs, buffers));

  ref::Tensor want = c.define(loaded);
  ASSERT_EQ(static_cast<int64_t>(want.data.size()), resultType.numElements());
  double ulp = resultType.type == ref::ElementType::BF16 ? std::ldexp(1, -7)
                                                         : std::ldexp(1, -10);
  int mismatches = 0;
  for (int64_t k = 0; k < resultType.numElements(); ++k) {
    double got = loadElement(resultType.type, result.data(), k);
    double exact = want.data[k];
    double rounded = ref::roundToType(exact, resultType.type);
    if (std::fabs(got - rounded) > ulp * std::fabs(exact) + 1e-7 &&
        ++mismatches <= 5)
      ADD_FAILURE() << c.op << " element " << k << ": got " << got
                    << ", the definition gives " << exact << " ("
                    << rounded << " rounded)";
  }
  EXPECT_EQ(mismatches, 0) << c.op;
}

ref::TensorSpec f64(const json &type) {
  ref::TensorSpec spec = parseTensorType(type, "result").spec();
  spec.type = ref::ElementType::F64;
  return spec;
}

TEST(WidenedOps, F16EinsumOnTheF32Kernel) {
  json result = T({"b", "m", "n"}, {2, 24, 40}, "f16");
  expectMatchesDefinition(
      {"tessel.einsum",
       {T({"b", "m", "k"}, {2, 24, 64}, "f16"),
        T({"k", "n"}, {64, 40}, "f16")},
       result,
       json::object(),
       [&](const std::vector<ref::Tensor> &x) {
         return ref::einsum(x, f64(result));
       }});
}

TEST(WidenedOps, F16SoftmaxAndSumOnTheF32Kernels) {
  json scores = T({"q", "key"}, {16, 48}, "f16");
  expectMatchesDefinition({"tessel.softmax",
                           {scores},
                           scores,
                           {{"dim", "key"}},
                           [](const std::vector<ref::Tensor> &x) {
                             return ref::softmax(x[0], "key");
                           }});
  json sums = T({"q"}, {16}, "f16");
  expectMatchesDefinition({"tessel.reduce",
                           {scores},
                           sums,
                           {{"kind", "sum"}},
                           [&](const std::vector<ref::Tensor> &x) {
                             return ref::reduce(ref::ReductionKind::Sum, x[0],
                                                f64(sums));
                           }});
}

// oneDNN has no bf16 one_hot: its f32 kernel, the bf16 result narrowed.
TEST(WidenedOps, Bf16OneHotOnTheF32Kernel) {
  json result = T({"batch", "class"}, {12, 10}, "bf16");
  expectMatchesDefinition({"tessel.one_hot",
                           {T({"batch"}, {12}, "i32")},
                           result,
                           {{"dim", "class"}},
                           [&](const std::vector<ref::Tensor> &x) {
                             return ref::oneHot(x[0], "class", f64(result));
                           },
                           0,
                           10});
}

/// `op` on bf16 operands against the same op on their values in f32, the
/// f32 result rounded to the result's type (bf16, or f32, where a
/// difference in the order of the sums shows): bit for bit where `widened`
/// says the bf16 op runs on the f32 kernel between conversions; within an
/// ulp of bf16 elsewhere, where oneDNN's bf16 kernel sums in another order.
void expectBf16OpOnTheF32Kernel(const char *op, std::vector<json> operands,
                                json result, json attrs, bool widened) {
  std::mt19937 generator(5);
  std::uniform_real_distribution<double> uniform(-2, 2);
  std::vector<std::vector<unsigned char>> narrow, wide;
  std::vector<json> wideOperands = operands;
  for (json &operand : wideOperands)
    operand["type"] = "f32";
  for (const json &operand : operands) {
    TensorType type = parseTensorType(operand, "operand");
    narrow.emplace_back(type.numBytes() + 1);
    wide.emplace_back(type.numElements() * 4 + 1);
    for (int64_t k = 0; k < type.numElements(); ++k) {
      storeElement(ref::ElementType::BF16, narrow.back().data(), k,
                   uniform(generator));
      storeElement(ref::ElementType::F32, wide.back().data(), k,
                   loadElement(ref::ElementType::BF16, narrow.back().data(), k));
    }
  }
  json wideResult = result;
  wideResult["type"] = "f32";
  std::vector<unsigned char> got, want;
  ASSERT_NO_FATAL_FAILURE(got = execute(op, operands, result, attrs, narrow));
  ASSERT_NO_FATAL_FAILURE(want =
                              execute(op, wideOperands, wideResult, attrs, wide));
  TensorType resultType = parseTensorType(result, "result");
  int mismatches = 0;
  for (int64_t k = 0; k < resultType.numElements(); ++k) {
    double f32 = loadElement(ref::ElementType::F32, want.data(), k);
    double rounded = ref::roundToType(f32, resultType.type);
    double value = loadElement(resultType.type, got.data(), k);
    double allowed = widened ? 0 : std::ldexp(1, -7) * std::fabs(f32) + 1e-6;
    if (std::fabs(value - rounded) > allowed && ++mismatches <= 5)
      ADD_FAILURE() << op << " element " << k << ": the bf16 op gives "
                    << value << ", the f32 op " << rounded;
  }
  EXPECT_EQ(mismatches, 0) << op;
}

// A bf16 einsum and convolution (forward and both gradients): the f32
// kernels between conversions, bit for bit, where the CPU's bf16 products
// are slower than f32's (no AMX, and not AMD's) or
// TESSEL_NATIVE_BF16_PRODUCTS=0 says so; oneDNN's bf16 kernels, to an ulp
// of bf16, elsewhere. The filter gradient runs widened on every CPU
// without AMX, unless TESSEL_NATIVE_BF16_PRODUCTS=1.
TEST(WidenedOps, Bf16ProductsOnTheKernelsChosen) {
  // As WidenedOps.cpp chooses: TESSEL_NATIVE_BF16_PRODUCTS=1 or 0 (ctest
  // runs this test under both), else the CPU's rule.
  const char *native = std::getenv("TESSEL_NATIVE_BF16_PRODUCTS");
  bool said = native && *native;
  bool widened = said ? std::strcmp(native, "0") == 0
                      : tessel_kernels_bf16_products_outrun_f32() == 0;
  bool filterWidened =
      said ? widened : tessel_kernels_bf16_filter_gradients_outrun_f32() == 0;
  expectBf16OpOnTheF32Kernel(
      "tessel.einsum",
      {T({"b", "m", "k"}, {2, 24, 96}, "bf16"), T({"k", "n"}, {96, 40}, "bf16")},
      T({"b", "m", "n"}, {2, 24, 40}, "bf16"), json::object(), widened);
  expectBf16OpOnTheF32Kernel(
      "tessel.einsum",
      {T({"m", "k"}, {64, 512}, "bf16"), T({"k", "n"}, {512, 48}, "bf16")},
      T({"m", "n"}, {64, 48}, "f32"), json::object(), widened);
  json conv = {{"input_channel", "c"},  {"output_channel", "f"},
               {"spatial", {"h", "w"}}, {"kernel", {"kh", "kw"}},
               {"strides", {1, 1}},     {"padding", {1, 1, 1, 1}},
               {"dilations", {1, 1}}};
  json x = T({"n", "c", "h", "w"}, {2, 16, 8, 8}, "bf16"),
       k = T({"c", "f", "kh", "kw"}, {16, 8, 3, 3}, "bf16"),
       y = T({"n", "f", "h", "w"}, {2, 8, 8, 8}, "bf16");
  expectBf16OpOnTheF32Kernel("tessel.conv2d", {x, k}, y, conv, widened);
  json wideY = y;
  wideY["type"] = "f32";
  expectBf16OpOnTheF32Kernel("tessel.conv2d", {x, k}, wideY, conv, widened);
  expectBf16OpOnTheF32Kernel("tessel.conv2d_backward_input", {y, k}, x, conv, widened);
  expectBf16OpOnTheF32Kernel("tessel.conv2d_backward_filter", {x, y}, k, conv,
                             filterWidened);
}

// A bf16 sum and maximum, which run on the f32 kernel everywhere (oneDNN
// 2.6's bf16 reduction is the slower, see WidenedOps.cpp): the f32
// kernel's result rounded once, bit for bit, into an f32 and a bf16 result.
TEST(WidenedOps, Bf16ReductionsOnTheF32Kernel) {
  json scores = T({"q", "key"}, {24, 300}, "bf16");
  for (const char *kind : {"sum", "max"}) {
    expectBf16OpOnTheF32Kernel("tessel.reduce", {scores},
                               T({"q"}, {24}, "f32"), {{"kind", kind}}, true);
    expectBf16OpOnTheF32Kernel("tessel.reduce", {scores},
                               T({"key"}, {300}, "bf16"), {{"kind", kind}},
                               true);
  }
}

// bf16 max and average pooling and max pooling's gradient (overlapping
// windows, so that gradients add up), which run on the f32 kernels
// everywhere (oneDNN 2.6's bf16 gradient took three times as long with
// the conversions, WidenedOps.cpp): the f32 kernel's result rounded once,
// bit for bit, as oneDNN's bf16 kernels also give it here.
TEST(WidenedOps, Bf16PoolingIsTheF32PoolingRoundedOnce) {
  json image = T({"n", "c", "h", "w"}, {2, 3, 9, 9}, "bf16");
  json pooled = T({"n", "c", "h", "w"}, {2, 3, 4, 4}, "bf16");
  for (const char *kind : {"max", "avg"}) {
    json attrs = {{"kind", kind},
                  {"spatial", {"h", "w"}},
                  {"window", {3, 3}},
                  {"strides", {2, 2}}};
    expectBf16OpOnTheF32Kernel("tessel.pool", {image}, pooled, attrs, true);
  }
  json attrs = {{"kind", "max"},
                {"spatial", {"h", "w"}},
                {"window", {3, 3}},
                {"strides", {2, 2}}};
  expectBf16OpOnTheF32Kernel("tessel.pool_backward", {image, pooled}, image,
                             attrs, true);
}

} // namespace
