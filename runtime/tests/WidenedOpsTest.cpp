//===- WidenedOpsTest.cpp - f16 and bf16 ops on their f32 kernels ---------===//
//
// Ops with f16 tensors, and the bf16 ones oneDNN has no kernel for, run
// their f32 kernel between conversions (executor/WidenedOps.h). Each case
// runs such an op through the executor (tryExecute, in a context without a
// communicator) and compares every element with the op's definition, the
// reference kernel's exact value in double rounded once to the result's
// type: the f32 kernel's own rounding may move a result across a rounding
// boundary of the narrow type, so each element may be one ulp of it off
// (2^-10 relative for f16, 2^-7 for bf16). That the widened sites take the
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

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
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

void expectMatchesDefinition(const Case &c) {
  std::mt19937 generator(3);
  std::uniform_real_distribution<double> uniform(c.low, c.high);
  std::vector<TensorType> types;
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<ref::Tensor> loaded;
  std::vector<void *> pointers;
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
  for (auto &buffer : buffers)
    pointers.push_back(buffer.data());
  TensorType resultType = parseTensorType(c.result, "result");
  std::vector<unsigned char> result(resultType.numBytes() + 1);
  std::string descriptor = json{{"op", c.op},
                                {"loc", "test.mlir:1:1"},
                                {"operands", c.operands},
                                {"result", c.result},
                                {"attrs", c.attrs}}
                               .dump();
  void *site = nullptr;
  std::optional<std::string> error =
      tryExecute(oneRankContext(), &site, descriptor.c_str(), pointers.data(),
                 static_cast<int32_t>(pointers.size()), result.data());
  ASSERT_FALSE(error) << *error;

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

} // namespace
