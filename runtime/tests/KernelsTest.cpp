//===- KernelsTest.cpp - Einsum against plain loops -----------------------===//
//
// Each case runs the oneDNN einsum and a naive one that loops over every
// assignment of every label, on the same pseudo-random inputs, with the
// layouts chosen so that each of the three reorders is needed or not.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/kernels.h"
#include "kernels/Einsum.h"
#include "kernels/EinsumPlan.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using tessel::runtime::EinsumPlan;

namespace {

struct Operand {
  std::vector<int32_t> labels;
  std::vector<int64_t> shape;
  std::vector<float> data;

  tessel_tensor_t descriptor() {
    return {data.data(), TESSEL_ELEMENT_TYPE_F32,
            static_cast<int32_t>(shape.size()), shape.data()};
  }
};

/// The sizes of labels, e.g. {{'b', 2}, {'m', 3}}.
using Sizes = std::map<int32_t, int64_t>;

Operand operand(const std::string &labels, const Sizes &sizes, int seed) {
  Operand result;
  for (char label : labels) {
    result.labels.push_back(label);
    result.shape.push_back(sizes.at(label));
  }
  int64_t count = 1;
  for (int64_t size : result.shape)
    count *= size;
  // Small values of both signs, different for every element and seed.
  for (int64_t i = 0; i < count; ++i)
    result.data.push_back(static_cast<float>(((i * 7 + seed * 13) % 17) - 8) /
                          4.0f);
  return result;
}

int64_t offsetOf(const Operand &tensor, const Sizes &index) {
  int64_t offset = 0;
  for (size_t d = 0; d < tensor.shape.size(); ++d)
    offset = offset * tensor.shape[d] + index.at(tensor.labels[d]);
  return offset;
}

/// result[...] = sum over every label assignment of lhs[...] * rhs[...].
std::vector<double> naiveEinsum(const Operand &lhs, const Operand &rhs,
                                const Operand &result, const Sizes &sizes) {
  std::vector<double> out(result.data.size(), 0.0);
  std::vector<int32_t> labels;
  for (const auto &entry : sizes)
    labels.push_back(entry.first);
  Sizes index;
  for (int32_t label : labels)
    index[label] = 0;
  while (true) {
    out[offsetOf(result, index)] +=
        double(lhs.data[offsetOf(lhs, index)]) * rhs.data[offsetOf(rhs, index)];
    // Next assignment, last label fastest.
    size_t i = labels.size();
    while (i > 0) {
      --i;
      if (++index[labels[i]] < sizes.at(labels[i]))
        break;
      index[labels[i]] = 0;
      if (i == 0)
        return out;
    }
    if (labels.empty())
      return out;
  }
}

class Einsum : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(tessel_kernels_create(&kernels), TESSEL_STATUS_OK)
        << tessel_last_error_message();
  }
  void TearDown() override { tessel_kernels_destroy(kernels); }

  /// Runs "lhs,rhs->result" on the given label sizes and compares.
  void check(const std::string &lhsLabels, const std::string &rhsLabels,
             const std::string &resultLabels, const Sizes &sizes) {
    SCOPED_TRACE(lhsLabels + "," + rhsLabels + "->" + resultLabels);
    Operand lhs = operand(lhsLabels, sizes, 1);
    Operand rhs = operand(rhsLabels, sizes, 2);
    Operand result = operand(resultLabels, sizes, 3); // Overwritten.
    tessel_tensor_t a = lhs.descriptor(), b = rhs.descriptor(),
                    c = result.descriptor();
    tessel_status_t status =
        tessel_kernels_einsum(kernels, &a, lhs.labels.data(), &b,
                              rhs.labels.data(), &c, result.labels.data());
    ASSERT_EQ(status, TESSEL_STATUS_OK) << tessel_last_error_message();
    expectNaiveResult(lhs, rhs, result, resultLabels, sizes);
  }

  /// The same through prepareEinsum, which must make one matmul that reads
  /// the operands and writes the result where they lie.
  void checkPreparedInPlace(const std::string &lhsLabels,
                            const std::string &rhsLabels,
                            const std::string &resultLabels,
                            const Sizes &sizes) {
    SCOPED_TRACE(lhsLabels + "," + rhsLabels + "->" + resultLabels +
                 " prepared");
    Operand lhs = operand(lhsLabels, sizes, 1);
    Operand rhs = operand(rhsLabels, sizes, 2);
    Operand result = operand(resultLabels, sizes, 3); // Overwritten.
    std::unique_ptr<tessel::runtime::PreparedKernel> prepared =
        tessel::runtime::prepareEinsum(lhs.shape, lhs.labels, rhs.shape,
                                       rhs.labels, result.shape, result.labels,
                                       TESSEL_ELEMENT_TYPE_F32);
    ASSERT_TRUE(prepared) << "no matmul in place";
    const void *inputs[] = {lhs.data.data(), rhs.data.data()};
    ASSERT_EQ(prepared->run(*kernels, inputs, result.data.data()),
              TESSEL_STATUS_OK)
        << tessel_last_error_message();
    expectNaiveResult(lhs, rhs, result, resultLabels, sizes);
  }

  void expectNaiveResult(const Operand &lhs, const Operand &rhs,
                         const Operand &result, const std::string &resultLabels,
                         const Sizes &sizes) {
    std::vector<double> expected = naiveEinsum(lhs, rhs, result, sizes);
    int64_t k = 1;
    for (const auto &entry : sizes)
      if (resultLabels.find(char(entry.first)) == std::string::npos)
        k *= entry.second;
    for (size_t i = 0; i < expected.size(); ++i)
      ASSERT_NEAR(result.data[i], expected[i],
                  1e-5 * (1 + std::abs(expected[i])) * k)
          << "element " << i;
  }

  tessel_kernels_t *kernels = nullptr;
};

TEST_F(Einsum, MatmulInPlace) {
  check("mk", "kn", "mn", {{'m', 5}, {'k', 7}, {'n', 3}});
}

TEST_F(Einsum, TheMlpLayer) {
  check("bp", "ph", "bh", {{'b', 64}, {'p', 784}, {'h', 256}});
}

// The weight gradient: the batch is contracted, and the lhs is read
// transposed through strides.
TEST_F(Einsum, TheMlpWeightGradient) {
  check("bp", "bh", "ph", {{'b', 64}, {'p', 784}, {'h', 256}});
}

// Dims of size 1 anywhere do not keep an operand from being read in place.
TEST_F(Einsum, TransposedWithUnitDims) {
  check("kxm", "nyk", "xnym", {{'m', 5}, {'k', 7}, {'n', 3}, {'x', 1}, {'y', 1}});
}

TEST_F(Einsum, EveryOperandTransposed) {
  check("km", "nk", "nm", {{'m', 5}, {'k', 7}, {'n', 3}});
}

// Long products with a transposed operand, whose dense copy would cost
// little beside the product (1024 FLOPs or more per copied element).
TEST_F(Einsum, TransposedOperandsOfLongProducts) {
  check("mk", "nk", "mn", {{'m', 512}, {'k', 48}, {'n', 40}});
  check("km", "kn", "mn", {{'m', 24}, {'k', 40}, {'n', 600}});
  check("bmk", "bnk", "bmn", {{'b', 2}, {'m', 520}, {'k', 16}, {'n', 24}});
}

/// The implementation the einsum of these labels and sizes takes.
tessel::runtime::EinsumImplementation implementation(const std::string &lhs,
                                                     const std::string &rhs,
                                                     const std::string &result,
                                                     const Sizes &sizes) {
  Operand a = operand(lhs, sizes, 1), b = operand(rhs, sizes, 2),
          c = operand(result, sizes, 3);
  return tessel::runtime::einsumImplementation(a.shape, a.labels, b.shape,
                                               b.labels, c.shape, c.labels,
                                               TESSEL_ELEMENT_TYPE_F32);
}

// A Transformer's weight gradients read their transposed operand in place
// on the kernel oneDNN takes for the same product of dense operands (brgemm
// on AVX-512), not its slower jit GEMM. The batch of one they collapse into
// once gave oneDNN a stride that hid the transposed layout from it.
TEST_F(Einsum, TransposedOperandsReadInPlaceOnTheDenseKernel) {
  Sizes sizes = {{'b', 8}, {'s', 128}, {'p', 256}, {'h', 256}};
  std::string dense =
      implementation("ps", "sh", "ph", {{'s', 1024}, {'p', 256}, {'h', 256}})
          .matmul;
  ASSERT_FALSE(dense.empty());
  // The weight gradient, x^T dy, and the input gradient, dy w^T.
  for (auto [lhs, rhs, result] :
       {std::tuple{"bsp", "bsh", "ph"}, std::tuple{"bsh", "ph", "bsp"}}) {
    tessel::runtime::EinsumImplementation chosen =
        implementation(lhs, rhs, result, sizes);
    EXPECT_TRUE(chosen.inPlace) << lhs << "," << rhs << "->" << result;
    EXPECT_EQ(chosen.matmul, dense) << lhs << "," << rhs << "->" << result;
  }
  check("bsp", "bsh", "ph", {{'b', 2}, {'s', 16}, {'p', 24}, {'h', 8}});
}

TEST_F(Einsum, BatchInTheMiddle) {
  check("mbk", "kbn", "bnm", {{'b', 3}, {'m', 4}, {'k', 5}, {'n', 2}});
}

TEST_F(Einsum, SeveralDimsInEveryClass) {
  check("bxkyl", "lnkb", "ybnx",
        {{'b', 2}, {'x', 3}, {'y', 2}, {'k', 4}, {'l', 3}, {'n', 5}});
}

TEST_F(Einsum, AttentionScores) {
  // [batch, heads, query, dim] x [batch, heads, key, dim] -> [b, h, q, key].
  check("bhqd", "bhkd", "bhqk",
        {{'b', 2}, {'h', 3}, {'q', 4}, {'k', 5}, {'d', 8}});
}

TEST_F(Einsum, AttentionWithHeadsBetweenTheSequenceDims) {
  // The Transformer's layout, [batch, seq, heads, dim]: the batch dims b
  // and h are not one run of memory, so the matmul keeps them apart.
  Sizes sizes = {{'b', 2}, {'h', 3}, {'q', 4}, {'k', 5}, {'d', 8}};
  check("bqhd", "bkhd", "bhqk", sizes);
  check("bhqk", "bkhd", "bqhd", sizes);
  check("bhqk", "bqhd", "bkhd", sizes);
}

// A transposed source or result has only oneDNN's reference matmul; the
// prepared einsum computes the transposed product C^T = B^T A^T instead,
// which reads the same memory as a transposed weights matrix.
TEST_F(Einsum, PreparedTransposedProducts) {
  Sizes sizes = {{'m', 5}, {'k', 7}, {'n', 3}};
  checkPreparedInPlace("mk", "kn", "mn", sizes); // As it is.
  checkPreparedInPlace("km", "kn", "mn", sizes); // The lhs transposed.
  checkPreparedInPlace("mk", "kn", "nm", sizes); // The result transposed.
  checkPreparedInPlace("km", "nk", "nm", sizes); // Everything transposed.
  // Attention's backward products in the Transformer's [b, s, h, d] layout.
  Sizes attention = {{'b', 2}, {'h', 3}, {'q', 4}, {'k', 5}, {'d', 8}};
  checkPreparedInPlace("bhqk", "bqhd", "bkhd", attention);
  checkPreparedInPlace("bqhd", "bkhd", "bhqk", attention);
}

TEST_F(Einsum, OuterProductWithoutContraction) {
  check("m", "n", "mn", {{'m', 4}, {'n', 3}});
}

TEST_F(Einsum, DotProductToAScalar) { check("k", "k", "", {{'k', 9}}); }

TEST_F(Einsum, BatchOnlyElementwise) {
  check("ab", "ba", "ab", {{'a', 3}, {'b', 4}});
}

TEST(EinsumPlan, ClassifiesDims) {
  // lhs [m, b, k], rhs [k, b, n], result [b, n, m].
  EinsumPlan plan;
  ASSERT_EQ(tessel::runtime::planEinsum({4, 3, 5}, {'m', 'b', 'k'}, {5, 3, 2},
                                        {'k', 'b', 'n'}, {3, 2, 4},
                                        {'b', 'n', 'm'}, plan),
            TESSEL_STATUS_OK);
  EXPECT_EQ(plan.lhsOrder, (std::vector<unsigned>{1, 0, 2}));
  EXPECT_EQ(plan.rhsOrder, (std::vector<unsigned>{1, 0, 2}));
  EXPECT_EQ(plan.resultOrder, (std::vector<unsigned>{0, 2, 1}));
  EXPECT_EQ(plan.batch, 3);
  EXPECT_EQ(plan.m, 4);
  EXPECT_EQ(plan.n, 2);
  EXPECT_EQ(plan.k, 5);
}

TEST_F(Einsum, MalformedCallsAreErrors) {
  Sizes sizes = {{'m', 2}, {'k', 3}, {'n', 4}, {'x', 5}};
  Operand lhs = operand("mk", sizes, 1), rhs = operand("kn", sizes, 2),
          result = operand("mn", sizes, 3);
  tessel_tensor_t a = lhs.descriptor(), b = rhs.descriptor(),
                  c = result.descriptor();

  // A label summed over one operand only.
  Operand lonely = operand("mkx", sizes, 1);
  tessel_tensor_t l = lonely.descriptor();
  EXPECT_EQ(tessel_kernels_einsum(kernels, &l, lonely.labels.data(), &b,
                                  rhs.labels.data(), &c, result.labels.data()),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tessel_last_error_message()).find("label 120"),
            std::string::npos)
      << tessel_last_error_message();

  // The same label with two sizes.
  Operand other = operand("kn", {{'k', 4}, {'n', 4}}, 2);
  tessel_tensor_t o = other.descriptor();
  EXPECT_EQ(tessel_kernels_einsum(kernels, &a, lhs.labels.data(), &o,
                                  other.labels.data(), &c,
                                  result.labels.data()),
            TESSEL_STATUS_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tessel_last_error_message()),
            "tessel_kernels_einsum: label 107 has size 3 on the lhs but 4 on "
            "the rhs");

  // A result label on neither operand.
  Operand broadcast = operand("mnx", sizes, 3);
  tessel_tensor_t x = broadcast.descriptor();
  EXPECT_EQ(tessel_kernels_einsum(kernels, &a, lhs.labels.data(), &b,
                                  rhs.labels.data(), &x,
                                  broadcast.labels.data()),
            TESSEL_STATUS_INVALID_ARGUMENT);

  // f64 is not provided yet.
  std::vector<double> wide(6);
  tessel_tensor_t d = a;
  d.element_type = TESSEL_ELEMENT_TYPE_F64;
  d.data = wide.data();
  EXPECT_EQ(tessel_kernels_einsum(kernels, &d, lhs.labels.data(), &b,
                                  rhs.labels.data(), &c, result.labels.data()),
            TESSEL_STATUS_UNIMPLEMENTED);
}

} // namespace
