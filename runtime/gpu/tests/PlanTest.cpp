//===- PlanTest.cpp - The GPU's plans and formulas, checked on the host ---===//
//
// The GPU kernels are generic: a walk over an index space and per-dim
// strides into each buffer (Launch.h). What makes an op right is the plan
// its builder works out on the host: the walk, the strides, the fibers, the
// chunks. These tests need no device: they carry out each plan with host
// loops that do what the kernels do (offsetOf is the kernels' own) and
// compare the result with the reference kernel of the op. The kernels'
// element formulas and rounding stores (Formulas.h, Elements.h) compile for
// the host too and are compared with the reference's here.
//
//===----------------------------------------------------------------------===//

#include "gpu/ConvPlan.h"
#include "gpu/Elements.h"
#include "gpu/Formulas.h"
#include "gpu/GemmPlan.h"
#include "gpu/Packing.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"

#include "reference/Kernels.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tessel;
using namespace tessel::runtime;
using namespace tessel::runtime::gpu;

namespace {

TensorType type(std::vector<std::string> dims, std::vector<int64_t> shape) {
  TensorType result;
  result.dims = std::move(dims);
  result.shape = std::move(shape);
  result.type = ref::ElementType::F64;
  return result;
}

/// Distinct values, so that a misplaced element shows.
std::vector<double> values(const TensorType &t, double seed = 0) {
  std::vector<double> result(t.numElements());
  for (size_t i = 0; i < result.size(); ++i)
    result[i] = std::sin(1.0 + seed + 0.7 * static_cast<double>(i)) * 3;
  return result;
}

ref::Tensor tensor(const TensorType &t, std::vector<double> data) {
  return ref::Tensor(t.spec(), std::move(data));
}

/// What launchCopy does.
void copy(const Walk &walk, std::vector<double> &dst, int64_t dstBase,
          const Strides &dstStrides, const std::vector<double> &src,
          int64_t srcBase, const Strides &srcStrides) {
  for (int64_t i = 0; i < walk.count(); ++i)
    dst.at(dstBase + offsetOf(walk, dstStrides, i)) =
        src.at(srcBase + offsetOf(walk, srcStrides, i));
}

void expectSame(const std::vector<double> &actual,
                const std::vector<double> &expected, double tolerance = 0) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "element " << i;
}

TEST(GpuPlans, PermuteIsTranspose) {
  TensorType x = type({"a", "b", "c"}, {2, 3, 4});
  TensorType y = type({"c", "a", "b"}, {4, 2, 3});
  Permute permute;
  ASSERT_TRUE(permute.plan(x, y));
  EXPECT_FALSE(permute.identity());
  std::vector<double> in = values(x), out(y.numElements());
  copy(permute.walk(), out, 0, permute.destination(), in, 0, permute.source());
  expectSame(out, ref::transpose(tensor(x, in), y.spec()).data);
  Permute same;
  ASSERT_TRUE(same.plan(x, x));
  EXPECT_TRUE(same.identity());
}

TEST(GpuPlans, StridesByNameBroadcast) {
  // What buildByName and the binary kernels do: each result element reads
  // the operand element with the same indices on same-named dims.
  TensorType x = type({"b", "a"}, {3, 2});
  TensorType y = type({"a", "c", "b"}, {2, 4, 3});
  std::optional<Walk> walk = walkOver(y.shape);
  std::optional<Strides> src = stridesByName(x, y.dims);
  std::optional<Strides> dst = stridesByName(y, y.dims);
  ASSERT_TRUE(walk && src && dst);
  std::vector<double> in = values(x), out(y.numElements());
  copy(*walk, out, 0, *dst, in, 0, *src);
  expectSame(out, ref::broadcast(tensor(x, in), y.spec()).data);
}

/// Runs a GEMM plan on the host: the permutes as the copy kernel does them,
/// then what cublasGemmStridedBatchedEx computes with the plan's arguments
/// (column-major, no transposes), then the product's permute.
std::vector<double> runGemm(const GemmPlan &plan, const TensorType &result,
                            std::vector<double> lhs, std::vector<double> rhs) {
  if (plan.swapped)
    std::swap(lhs, rhs);
  auto permuted = [](const Permute &permute, const std::vector<double> &in) {
    std::vector<double> out(in.size());
    copy(permute.walk(), out, 0, permute.destination(), in, 0,
         permute.source());
    return out;
  };
  std::vector<double> first = permuted(plan.first, lhs);
  std::vector<double> second = permuted(plan.second, rhs);
  // cuBLAS's A is the second operand, its B the first.
  const std::vector<double> &a = second, &b = first;
  std::vector<double> c(result.numElements());
  for (int batch = 0; batch < plan.batch; ++batch)
    for (int i = 0; i < plan.m; ++i)
      for (int j = 0; j < plan.n; ++j) {
        double sum = 0;
        for (int l = 0; l < plan.k; ++l)
          sum += a.at(batch * plan.strideA + i + l * plan.lda) *
                 b.at(batch * plan.strideB + l + j * plan.ldb);
        c.at(batch * plan.strideC + i + j * plan.ldc) = sum;
      }
  return permuted(plan.product, c);
}

TEST(GpuPlans, EinsumAsOneCublasGemm) {
  struct Case {
    TensorType lhs, rhs, result;
    bool swapped, productPermuted;
  };
  std::vector<Case> cases = {
      // x w: already [M, K] x [K, N].
      {type({"b", "i"}, {6, 5}), type({"i", "j"}, {5, 4}),
       type({"b", "j"}, {6, 4}), false, false},
      // A gradient written [N, M]: swapped, no permute of the product.
      {type({"batch", "classes"}, {8, 3}), type({"batch", "hidden"}, {8, 5}),
       type({"hidden", "classes"}, {5, 3}), true, false},
      // Batched, the rhs out of order.
      {type({"h", "b", "i"}, {2, 3, 5}), type({"i", "h", "j"}, {5, 2, 4}),
       type({"h", "b", "j"}, {2, 3, 4}), false, false},
      // A result order no operand order gives: the product is permuted.
      {type({"h", "b", "i"}, {2, 3, 5}), type({"i", "j", "h"}, {5, 4, 2}),
       type({"j", "h", "b"}, {4, 2, 3}), false, true},
      // No K dim: an outer product.
      {type({"a"}, {3}), type({"c"}, {4}), type({"a", "c"}, {3, 4}), false,
       false},
  };
  for (const Case &c : cases) {
    std::optional<GemmPlan> plan = planGemm(c.lhs, c.rhs, c.result);
    ASSERT_TRUE(plan) << c.result.str();
    EXPECT_EQ(plan->swapped, c.swapped) << c.result.str();
    EXPECT_EQ(!plan->product.identity(), c.productPermuted) << c.result.str();
    std::vector<double> lhs = values(c.lhs, 1), rhs = values(c.rhs, 2);
    expectSame(
        runGemm(*plan, c.result, lhs, rhs),
        ref::einsum({tensor(c.lhs, lhs), tensor(c.rhs, rhs)}, c.result.spec())
            .data,
        1e-12);
  }
  // Not a GEMM: a sum over one operand, a broadcast result dim.
  EXPECT_FALSE(planGemm(type({"b", "i"}, {3, 4}), type({"j"}, {2}),
                        type({"b", "j"}, {3, 2})));
  EXPECT_FALSE(planGemm(type({"b", "i"}, {3, 4}), type({"i"}, {4}),
                        type({"b", "z"}, {3, 2})));
}

/// Carries out a placement of `in` into `out` as the copy kernel does.
void place(const Placement &plan, const std::vector<double> &in,
           std::vector<double> &out) {
  copy(plan.walk, out, plan.dstBase, plan.dst, in, plan.srcBase, plan.src);
}

TEST(GpuPlans, SlicePadConcatPlacements) {
  TensorType x = type({"a", "b", "c"}, {3, 5, 2});
  std::vector<double> xs = values(x);
  // slice: a window along two dims, into a result whose dims are reordered.
  TensorType window = type({"c", "a", "b"}, {2, 2, 3});
  std::optional<Placement> slice = sliceOf(x, window, {"b", "a"}, {2, 1});
  ASSERT_TRUE(slice);
  std::vector<double> sliced(window.numElements());
  place(*slice, xs, sliced);
  expectSame(sliced,
             ref::slice(tensor(x, xs), {"b", "a"}, {2, 1}, window.spec()).data);
  // pad: fill, then the operand at the low widths.
  TensorType padded = type({"a", "b", "c"}, {6, 5, 3});
  std::optional<Placement> pad = placeInto(x, padded, {"a", "c"}, {1, 0});
  ASSERT_TRUE(pad);
  std::vector<double> out(padded.numElements(), -1.5);
  place(*pad, xs, out);
  expectSame(out, ref::pad(tensor(x, xs), {"a", "c"}, {1, 0}, {2, 1}, -1.5,
                           padded.spec())
                      .data);
  EXPECT_FALSE(placeInto(x, padded, {"a"}, {-1}));
  // concat: each operand at the running offset, one operand transposed.
  TensorType y = type({"b", "c", "a"}, {5, 2, 4});
  TensorType joined = type({"a", "b", "c"}, {7, 5, 2});
  std::vector<double> ys = values(y, 9), all(joined.numElements());
  std::optional<Placement> first = placeInto(x, joined, {"a"}, {0});
  std::optional<Placement> second = placeInto(y, joined, {"a"}, {3});
  ASSERT_TRUE(first && second);
  place(*first, xs, all);
  place(*second, ys, all);
  expectSame(
      all,
      ref::concat({tensor(x, xs), tensor(y, ys)}, "a", joined.spec()).data);
}

/// What the fiber kernels do, one fiber after another: `body` gets the
/// fiber's input offsets and output offsets.
template <typename Body> void forEachFiber(const Fibers &fibers, Body body) {
  for (int64_t f = 0; f < fibers.outer.count(); ++f) {
    std::vector<int64_t> in, out;
    int64_t inBase = offsetOf(fibers.outer, fibers.outerIn, f);
    int64_t outBase = offsetOf(fibers.outer, fibers.outerOut, f);
    for (int64_t j = 0; j < fibers.inner.count(); ++j) {
      in.push_back(inBase + offsetOf(fibers.inner, fibers.innerIn, j));
      out.push_back(outBase + offsetOf(fibers.inner, fibers.innerOut, j));
    }
    body(f, in, out, outBase);
  }
}

TEST(GpuPlans, ReductionFibers) {
  TensorType x = type({"b", "c", "d"}, {4, 5, 3});
  for (TensorType result :
       {type({"d", "b"}, {3, 4}), type({"c"}, {5}), type({}, {})}) {
    std::optional<Fibers> fibers = reductionFibers(x, result);
    ASSERT_TRUE(fibers);
    std::vector<double> in = values(x), out(result.numElements());
    forEachFiber(*fibers, [&](int64_t, const std::vector<int64_t> &offsets,
                              const std::vector<int64_t> &, int64_t at) {
      double sum = 0;
      for (int64_t offset : offsets)
        sum += in.at(offset);
      out.at(at) = sum;
    });
    expectSame(
        out,
        ref::reduce(ref::ReductionKind::Sum, tensor(x, in), result.spec()).data,
        1e-12);
  }
}

// One block per fiber while there are enough fibers to fill the GPU;
// chunks of about 4096 elements (at most 1024 per fiber) for few long ones.
TEST(GpuPlans, ReductionChunks) {
  auto chunksOf = [](TensorType in, TensorType result) {
    std::optional<Fibers> fibers = reductionFibers(in, result);
    EXPECT_TRUE(fibers);
    return fibers ? reduceChunks(*fibers) : -1;
  };
  EXPECT_EQ(chunksOf(type({"b", "d"}, {256, 1024}), type({"d"}, {1024})), 1);
  EXPECT_EQ(chunksOf(type({"b", "d"}, {8192, 4}), type({"d"}, {4})), 1);
  EXPECT_EQ(chunksOf(type({"b", "d"}, {40000, 3}), type({"d"}, {3})), 10);
  EXPECT_EQ(chunksOf(type({"a", "b"}, {784, 1024}), type({}, {})), 196);
  EXPECT_EQ(chunksOf(type({"a", "b"}, {16384, 4096}), type({}, {})), 1024);
}

TEST(GpuPlans, SoftmaxAndLayerNormFibers) {
  TensorType x = type({"b", "c", "d"}, {3, 5, 2});
  std::vector<double> in = values(x);
  for (const char *dim : {"b", "c", "d"}) {
    std::optional<Fibers> fibers = sameLayoutFibers(x, {dim});
    ASSERT_TRUE(fibers);
    std::vector<double> out(x.numElements());
    forEachFiber(*fibers, [&](int64_t, const std::vector<int64_t> &inOffsets,
                              const std::vector<int64_t> &outOffsets, int64_t) {
      double maximum = -std::numeric_limits<double>::infinity(), sum = 0;
      for (int64_t offset : inOffsets)
        maximum = std::max(maximum, in.at(offset));
      for (int64_t offset : inOffsets)
        sum += std::exp(in.at(offset) - maximum);
      for (size_t j = 0; j < inOffsets.size(); ++j)
        out.at(outOffsets[j]) = std::exp(in.at(inOffsets[j]) - maximum) / sum;
    });
    expectSame(out, ref::softmax(tensor(x, in), dim).data, 1e-12);
  }
  // Layer norm over two dims, listed in another order than x has them.
  std::vector<std::string> dims = {"d", "b"};
  std::optional<Fibers> fibers = sameLayoutFibers(x, dims);
  ASSERT_TRUE(fibers);
  std::vector<double> out(x.numElements());
  forEachFiber(*fibers, [&](int64_t, const std::vector<int64_t> &inOffsets,
                            const std::vector<int64_t> &outOffsets, int64_t) {
    double mean = 0, variance = 0;
    for (int64_t offset : inOffsets)
      mean += in.at(offset) / inOffsets.size();
    for (int64_t offset : inOffsets)
      variance += std::pow(in.at(offset) - mean, 2) / inOffsets.size();
    for (size_t j = 0; j < inOffsets.size(); ++j)
      out.at(outOffsets[j]) =
          (in.at(inOffsets[j]) - mean) / std::sqrt(variance + 1e-5);
  });
  expectSame(out, ref::layerNorm(tensor(x, in), dims, 1e-5).data, 1e-12);
}

TEST(GpuPlans, CrossEntropyFibers) {
  TensorType logits = type({"c", "b", "t"}, {6, 4, 2});
  TensorType labels = type({"t", "b"}, {2, 4});
  TensorType result = type({"b", "t"}, {4, 2});
  std::optional<Fibers> fibers =
      crossEntropyFibers(logits, labels, result, "c");
  ASSERT_TRUE(fibers);
  std::vector<double> in = values(logits), ids(labels.numElements());
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = static_cast<double>((i * 5) % 6);
  std::vector<double> out(result.numElements());
  forEachFiber(*fibers, [&](int64_t f, const std::vector<int64_t> &offsets,
                            const std::vector<int64_t> &, int64_t at) {
    double maximum = -std::numeric_limits<double>::infinity(), sum = 0;
    for (int64_t offset : offsets)
      maximum = std::max(maximum, in.at(offset));
    for (int64_t offset : offsets)
      sum += std::exp(in.at(offset) - maximum);
    auto label = static_cast<size_t>(
        ids.at(offsetOf(fibers->outer, fibers->outerAux, f)));
    out.at(at) = maximum + std::log(sum) - in.at(offsets.at(label));
  });
  ref::Tensor expected;
  std::string error;
  ASSERT_TRUE(ref::softmaxCrossEntropy(tensor(logits, in), tensor(labels, ids),
                                       "c", result.spec(), expected, error))
      << error;
  expectSame(out, expected.data, 1e-12);
}

/// Member p's input of a collective over `members` ranks.
std::vector<double> memberInput(const TensorType &t, int64_t p) {
  return values(t, 10.0 * p);
}

TEST(GpuPlans, AllGatherJoinsTheMembersBlocks) {
  // NCCL's all_gather leaves the members' inputs one after another; the
  // chunks of the result along `b` are unpacked from there.
  constexpr int64_t members = 3;
  TensorType in = type({"a", "b"}, {2, 3});
  TensorType out = type({"a", "b"}, {2, 3 * members});
  Chunks chunks;
  ASSERT_TRUE(chunks.plan(in.type, out.shape, 1, members));
  std::vector<double> gathered;
  std::vector<ref::Tensor> inputs;
  for (int64_t p = 0; p < members; ++p) {
    std::vector<double> block = memberInput(in, p);
    gathered.insert(gathered.end(), block.begin(), block.end());
    inputs.push_back(tensor(in, block));
  }
  std::vector<double> result(out.numElements());
  copy(chunks.walk, result, 0, chunks.whole, gathered, 0, chunks.dense);
  expectSame(result, ref::concat(inputs, "b", out.spec()).data);
}

TEST(GpuPlans, ReduceScatterAndAllToAllChunks) {
  constexpr int64_t members = 3;
  TensorType in = type({"a", "b"}, {2, 6});
  TensorType chunk = type({"a", "b"}, {2, 2});
  Chunks chunks;
  ASSERT_TRUE(chunks.plan(in.type, in.shape, 1, members));
  EXPECT_EQ(chunks.chunkElements, 4);
  // Packed, chunk p of the dense buffer is the p-th slice along b.
  std::vector<double> x = values(in), packed(in.numElements());
  copy(chunks.walk, packed, 0, chunks.dense, x, 0, chunks.whole);
  for (int64_t p = 0; p < members; ++p) {
    std::vector<double> mine(packed.begin() + p * 4,
                             packed.begin() + (p + 1) * 4);
    expectSame(mine,
               ref::slice(tensor(in, x), {"b"}, {2 * p}, chunk.spec()).data);
  }
  // all_to_all(split b, concat a): member j receives chunk j of every
  // member i into slot i, then joins the slots along a.
  TensorType out = type({"a", "b"}, {2 * members, 2});
  Chunks received;
  ASSERT_TRUE(received.plan(in.type, out.shape, 0, members));
  for (int64_t j = 0; j < members; ++j) {
    std::vector<double> slots, result(out.numElements());
    std::vector<ref::Tensor> pieces;
    for (int64_t i = 0; i < members; ++i) {
      std::vector<double> input = memberInput(in, i), iPacked(in.numElements());
      copy(chunks.walk, iPacked, 0, chunks.dense, input, 0, chunks.whole);
      slots.insert(slots.end(), iPacked.begin() + j * 4,
                   iPacked.begin() + (j + 1) * 4);
      pieces.push_back(
          ref::slice(tensor(in, input), {"b"}, {2 * j}, chunk.spec()));
    }
    copy(received.walk, result, 0, received.whole, slots, 0, received.dense);
    expectSame(result, ref::concat(pieces, "a", out.spec()).data);
  }
}

TEST(GpuPlans, HaloSlabs) {
  // halo_exchange along b with low 2, high 1 on 3 members, as MeshOps.cpp
  // plans it: my last `low` go up, my first `high` go down, and the
  // neighbours' arrive at the two ends of the output; pad at the axis' ends.
  constexpr int64_t members = 3, low = 2, high = 1;
  constexpr double pad = -7;
  TensorType in = type({"a", "b", "c"}, {2, 4, 2});
  std::vector<int64_t> outShape = {2, 4 + low + high, 2};
  TensorType out = type({"a", "b", "c"}, outShape);
  int64_t size = 4;
  Slab sendUp, sendDown, recvLow, recvHigh, middle;
  ASSERT_TRUE(sendUp.plan(in.type, in.shape, 1, size - low, low));
  ASSERT_TRUE(sendDown.plan(in.type, in.shape, 1, 0, high));
  ASSERT_TRUE(recvLow.plan(in.type, outShape, 1, 0, low));
  ASSERT_TRUE(recvHigh.plan(in.type, outShape, 1, low + size, high));
  ASSERT_TRUE(middle.plan(in.type, outShape, 1, low, size));
  auto packed = [&](const Slab &slab, int64_t p) {
    std::vector<double> buffer(slab.walk.count());
    copy(slab.walk, buffer, 0, slab.dense, memberInput(in, p), slab.base,
         slab.tensor);
    return buffer;
  };
  for (int64_t p = 0; p < members; ++p) {
    std::vector<double> result(out.numElements(), 0);
    copy(middle.walk, result, middle.base, middle.tensor, memberInput(in, p), 0,
         middle.dense);
    std::vector<double> fromBelow =
        p > 0 ? packed(sendUp, p - 1)
              : std::vector<double>(recvLow.walk.count(), pad);
    std::vector<double> fromAbove =
        p + 1 < members ? packed(sendDown, p + 1)
                        : std::vector<double>(recvHigh.walk.count(), pad);
    copy(recvLow.walk, result, recvLow.base, recvLow.tensor, fromBelow, 0,
         recvLow.dense);
    copy(recvHigh.walk, result, recvHigh.base, recvHigh.tensor, fromAbove, 0,
         recvHigh.dense);
    // The definition: predecessor's last `low` ++ mine ++ successor's first
    // `high` along b.
    std::vector<ref::Tensor> parts;
    TensorType lowPart = type({"a", "b", "c"}, {2, low, 2});
    TensorType highPart = type({"a", "b", "c"}, {2, high, 2});
    parts.push_back(p > 0 ? ref::slice(tensor(in, memberInput(in, p - 1)),
                                       {"b"}, {size - low}, lowPart.spec())
                          : ref::Tensor(lowPart.spec(), pad));
    parts.push_back(tensor(in, memberInput(in, p)));
    parts.push_back(p + 1 < members
                        ? ref::slice(tensor(in, memberInput(in, p + 1)), {"b"},
                                     {0}, highPart.spec())
                        : ref::Tensor(highPart.spec(), pad));
    expectSame(result, ref::concat(parts, "b", out.spec()).data);
  }
}

//===----------------------------------------------------------------------===//
// Convolutions and pooling in cuDNN's layout
//===----------------------------------------------------------------------===//

nlohmann::json json(const TensorType &t) {
  return {{"dims", t.dims}, {"shape", t.shape}, {"type", "f64"}};
}

OpDescriptor descriptor(const char *name, std::vector<TensorType> operands,
                        const TensorType &result, nlohmann::json attrs) {
  nlohmann::json operandList = nlohmann::json::array();
  for (const TensorType &operand : operands)
    operandList.push_back(json(operand));
  std::string text = nlohmann::json{
      {"op", name},
      {"loc", "plan-test.mlir:1:1"},
      {"operands", operandList},
      {"result", json(result)},
      {"attrs", attrs}}.dump();
  OpDescriptor desc;
  parseDescriptor(text.c_str(), desc);
  return desc;
}

std::vector<double> permuted(const Permute &permute,
                             const std::vector<double> &in) {
  std::vector<double> out(in.size());
  copy(permute.walk(), out, 0, permute.destination(), in, 0, permute.source());
  return out;
}

/// What cuDNN computes on NCHW tensors and a KCRS filter (cross-correlation
/// with zero padding), for the plan's sizes: `visit` gets the flat indices
/// of each (x, w, y) triple that meet in one tap.
template <typename Visit> void forEachTap(const ConvPlan &plan, Visit visit) {
  for (int64_t n = 0; n < plan.n; ++n)
    for (int64_t f = 0; f < plan.f; ++f)
      for (int64_t p = 0; p < plan.p; ++p)
        for (int64_t q = 0; q < plan.q; ++q)
          for (int64_t c = 0; c < plan.c; ++c)
            for (int64_t i = 0; i < plan.kh; ++i)
              for (int64_t j = 0; j < plan.kw; ++j) {
                int64_t h = p * plan.strides[0] - plan.padding[0] +
                            i * plan.dilations[0];
                int64_t w = q * plan.strides[1] - plan.padding[1] +
                            j * plan.dilations[1];
                if (h < 0 || h >= plan.h || w < 0 || w >= plan.width)
                  continue;
                visit(((n * plan.c + c) * plan.h + h) * plan.width + w,
                      ((f * plan.c + c) * plan.kh + i) * plan.kw + j,
                      ((n * plan.f + f) * plan.p + p) * plan.q + q);
              }
}

TEST(GpuPlans, ConvolutionsInCudnnLayout) {
  // Two pass-through dims (t, n) around the channel and spatial dims, the
  // filter and the output in orders of their own.
  TensorType x = type({"t", "h", "c", "n", "w"}, {2, 7, 3, 2, 6});
  TensorType k = type({"kw", "c", "f", "kh"}, {2, 3, 4, 3});
  TensorType y = type({"n", "w", "f", "t", "h"}, {2, 6, 4, 2, 4});
  nlohmann::json attrs = {{"input_channel", "c"},  {"output_channel", "f"},
                          {"spatial", {"h", "w"}}, {"kernel", {"kh", "kw"}},
                          {"strides", {2, 1}},     {"padding", {1, 1, 1, 1}},
                          {"dilations", {1, 2}}};
  ref::ConvParams params;
  params.inputChannel = "c";
  params.outputChannel = "f";
  params.spatial = {"h", "w"};
  params.kernel = {"kh", "kw"};
  params.strides = {2, 1};
  params.padding = {1, 1, 1, 1};
  params.dilations = {1, 2};
  std::vector<double> xs = values(x, 1), ks = values(k, 2), ys = values(y, 3);

  std::optional<ConvPlan> forward =
      planConvolution(descriptor("tessel.conv2d", {x, k}, y, attrs));
  ASSERT_TRUE(forward);
  EXPECT_EQ(forward->n, 4);
  {
    std::vector<double> xp = permuted(forward->x.permute, xs),
                        kp = permuted(forward->w.permute, ks),
                        out(y.numElements(), 0);
    forEachTap(*forward, [&](int64_t xi, int64_t wi, int64_t yi) {
      out[yi] += xp[xi] * kp[wi];
    });
    expectSame(permuted(forward->result().permute, out),
               ref::conv2d(tensor(x, xs), tensor(k, ks), params, y.spec()).data,
               1e-12);
  }
  std::optional<ConvPlan> data = planConvolution(
      descriptor("tessel.conv2d_backward_input", {y, k}, x, attrs));
  ASSERT_TRUE(data);
  {
    std::vector<double> dyp = permuted(data->y.permute, ys),
                        kp = permuted(data->w.permute, ks),
                        dx(x.numElements(), 0);
    forEachTap(*data, [&](int64_t xi, int64_t wi, int64_t yi) {
      dx[xi] += dyp[yi] * kp[wi];
    });
    expectSame(
        permuted(data->result().permute, dx),
        ref::conv2dBackwardInput(tensor(y, ys), tensor(k, ks), params, x.spec())
            .data,
        1e-12);
  }
  std::optional<ConvPlan> filter = planConvolution(
      descriptor("tessel.conv2d_backward_filter", {x, y}, k, attrs));
  ASSERT_TRUE(filter);
  {
    std::vector<double> xp = permuted(filter->x.permute, xs),
                        dyp = permuted(filter->y.permute, ys),
                        dk(k.numElements(), 0);
    forEachTap(*filter, [&](int64_t xi, int64_t wi, int64_t yi) {
      dk[wi] += xp[xi] * dyp[yi];
    });
    expectSame(permuted(filter->result().permute, dk),
               ref::conv2dBackwardFilter(tensor(x, xs), tensor(y, ys), params,
                                         k.spec())
                   .data,
               1e-12);
  }
  // cuDNN pads both sides alike: asymmetric padding has no plan.
  attrs["padding"] = {1, 0, 1, 1};
  EXPECT_FALSE(planConvolution(
      descriptor("tessel.conv2d", {x, k},
                 type({"n", "w", "f", "t", "h"}, {2, 6, 4, 2, 4}), attrs)));
}

TEST(GpuPlans, PoolingInCudnnLayout) {
  // Channels last: every dim but h and w is in N.
  TensorType x = type({"h", "n", "w", "c"}, {6, 2, 5, 3});
  TensorType y = type({"h", "n", "w", "c"}, {3, 2, 3, 3});
  ref::PoolParams params;
  params.spatial = {"h", "w"};
  params.window = {2, 3};
  params.strides = {2, 2};
  params.padding = {0, 0, 1, 1};
  std::vector<double> xs = values(x, 4), dys = values(y, 5);
  for (const char *kind : {"max", "avg"}) {
    nlohmann::json attrs = {{"kind", kind},
                            {"spatial", {"h", "w"}},
                            {"window", {2, 3}},
                            {"strides", {2, 2}},
                            {"padding", {0, 0, 1, 1}}};
    ref::PoolKind refKind =
        std::string(kind) == "max" ? ref::PoolKind::Max : ref::PoolKind::Avg;
    std::optional<PoolPlan> forward =
        planPool(descriptor("tessel.pool", {x}, y, attrs));
    std::optional<PoolPlan> backward =
        planPool(descriptor("tessel.pool_backward", {x, y}, x, attrs));
    ASSERT_TRUE(forward && backward);
    EXPECT_EQ(forward->n, 6);
    // cuDNN's pooling on (N, 1, H, W), padded positions left out.
    auto windows = [&](const PoolPlan &plan, auto visit) {
      for (int64_t n = 0; n < plan.n; ++n)
        for (int64_t p = 0; p < plan.p; ++p)
          for (int64_t q = 0; q < plan.q; ++q) {
            std::vector<int64_t> taps;
            for (int64_t i = 0; i < plan.window[0]; ++i)
              for (int64_t j = 0; j < plan.window[1]; ++j) {
                int64_t h = p * plan.strides[0] - plan.padding[0] + i;
                int64_t w = q * plan.strides[1] - plan.padding[1] + j;
                if (h >= 0 && h < plan.h && w >= 0 && w < plan.width)
                  taps.push_back((n * plan.h + h) * plan.width + w);
              }
            visit((n * plan.p + p) * plan.q + q, taps);
          }
    };
    std::vector<double> xp = permuted(forward->x.permute, xs),
                        out(y.numElements());
    windows(*forward, [&](int64_t at, const std::vector<int64_t> &taps) {
      double value = refKind == ref::PoolKind::Max
                         ? -std::numeric_limits<double>::infinity()
                         : 0.0;
      for (int64_t tap : taps)
        value = refKind == ref::PoolKind::Max ? std::max(value, xp[tap])
                                              : value + xp[tap] / taps.size();
      out[at] = value;
    });
    expectSame(permuted(forward->y.permute, out),
               ref::pool(refKind, tensor(x, xs), params, y.spec()).data, 1e-12);
    std::vector<double> dyp = permuted(backward->dy.permute, dys),
                        dx(x.numElements(), 0);
    windows(*backward, [&](int64_t at, const std::vector<int64_t> &taps) {
      if (refKind == ref::PoolKind::Avg) {
        for (int64_t tap : taps)
          dx[tap] += dyp[at] / taps.size();
        return;
      }
      int64_t best = taps.front();
      for (int64_t tap : taps)
        if (xp[tap] > xp[best])
          best = tap;
      dx[best] += dyp[at];
    });
    expectSame(
        permuted(backward->unpack, dx),
        ref::poolBackward(refKind, tensor(x, xs), tensor(y, dys), params).data,
        1e-12);
  }
}

//===----------------------------------------------------------------------===//
// Element formulas and rounding
//===----------------------------------------------------------------------===//

/// Values that probe the edges: signs, zeros, halfway cases of the 16-bit
/// types, integer wrap-around and saturation, infinities and NaN.
std::vector<double> probes() {
  std::vector<double> result = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                2.5,
                                -3.75,
                                1.0 + 1.0 / 2048, // halfway between halves
                                1.0 + 1.0 / 256,  // halfway between bf16s
                                65504.0,
                                65520.0,
                                1e-8,
                                3e38,
                                4294967296.0 + 5,
                                -2147483649.0,
                                9.3e18,
                                -9.3e18,
                                INFINITY,
                                -INFINITY,
                                NAN};
  for (int i = 0; i < 200; ++i)
    result.push_back(std::sin(0.37 * i) * std::pow(10.0, (i % 13) - 6));
  return result;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

TEST(GpuFormulas, UnaryAndBinaryAreTheReferences) {
  std::vector<double> xs = probes();
  for (int op = 0; op <= static_cast<int>(UnaryOp::Erf); ++op)
    for (double x : xs)
      EXPECT_TRUE(same(applyUnary(static_cast<UnaryOp>(op), x),
                       ref::applyUnary(static_cast<ref::UnaryKind>(op), x)))
          << "unary " << op << " of " << x;
  for (int op = 0; op <= static_cast<int>(BinaryOp::Pow); ++op)
    for (bool integer : {false, true})
      for (size_t i = 0; i < xs.size(); i += 3)
        for (size_t j = 0; j < xs.size(); j += 7) {
          double a = xs[i], b = xs[j];
          if (integer) {
            // Integer operands are whole numbers in range.
            if (!std::isfinite(a) || !std::isfinite(b) || std::fabs(a) > 1e9 ||
                std::fabs(b) > 1e9)
              continue;
            a = std::trunc(a);
            b = std::trunc(b);
          }
          EXPECT_TRUE(
              same(applyBinary(static_cast<BinaryOp>(op), a, b, integer),
                   ref::applyBinary(static_cast<ref::BinaryKind>(op), a, b,
                                    integer)))
              << "binary " << op << " of " << a << ", " << b;
        }
}

TEST(GpuFormulas, StoresRoundLikeTheReference) {
  for (ref::ElementType type :
       {ref::ElementType::F32, ref::ElementType::F16, ref::ElementType::BF16,
        ref::ElementType::F64, ref::ElementType::I1, ref::ElementType::I32,
        ref::ElementType::I64})
    for (double value : probes()) {
      unsigned char gpu[8] = {}, host[8] = {};
      store(dtypeOf(type), gpu, 0, value);
      storeElement(type, host, 0, value);
      EXPECT_EQ(std::memcmp(gpu, host, elementBytes(type)), 0)
          << ref::elementTypeName(type) << " " << value;
      EXPECT_TRUE(
          same(load(dtypeOf(type), gpu, 0), ref::roundToType(value, type)))
          << ref::elementTypeName(type) << " " << value;
    }
}

} // namespace
