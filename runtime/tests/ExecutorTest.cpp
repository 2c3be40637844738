//===- ExecutorTest.cpp - tessel_rt_execute on hand-written descriptors ---===//
//
// Each test writes the descriptor the compiler would write for one op, runs
// it through the executor and checks the result against values worked out
// by hand or against the reference kernel the op is defined by. Every rank
// of the mpirun job runs every test; the mesh-level ops run over a 1-D mesh
// "x" of all the job's ranks and check each rank's result from its
// position, as the communicator's own tests do.
//
//===----------------------------------------------------------------------===//

#include "reference/Dropout.h"
#include "reference/Kernels.h"
#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Descriptor.h"
#include "executor/Execute.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <map>

using namespace tessel;
using namespace tessel::runtime;
using nlohmann::json;

namespace {

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// The context every test runs in: a 1-D mesh "x" of all ranks. Made on
/// first use, which every rank reaches in the same test, as creating the
/// communicator requires.
tessel_context_t *context() {
  static runtime::ContextPtr shared = [] {
    tessel_comm_t *comm = nullptr;
    const char *axes[] = {"x"};
    int64_t sizes[] = {worldSize()};
    if (tessel_comm_create(1, axes, sizes, &comm) != TESSEL_STATUS_OK)
      ADD_FAILURE() << tessel_last_error_message();
    std::string error;
    runtime::ContextPtr made =
        createContext(comm, layout::Mesh({"x"}, {worldSize()}), error);
    EXPECT_TRUE(made) << error;
    return made;
  }();
  return shared.get();
}

json T(std::vector<std::string> dims, std::vector<int64_t> shape,
       const char *type = "f32") {
  return {{"dims", dims}, {"shape", shape}, {"type", type}};
}

std::string op(const char *name, std::vector<json> operands, json result,
               json attrs = json::object()) {
  return json{{"op", name},
              {"loc", "test.mlir:1:1"},
              {"operands", operands},
              {"result", result},
              {"attrs", attrs}}
      .dump();
}

/// Runs `descriptor` on operands given as doubles (stored in each operand's
/// type) and returns the result's elements as doubles. The call site is
/// fresh each time unless `site` is given.
std::vector<double> execute(const std::string &descriptor,
                            const std::vector<std::vector<double>> &values,
                            void **site = nullptr) {
  OpDescriptor desc;
  parseDescriptor(descriptor.c_str(), desc);
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<void *> operands;
  for (size_t i = 0; i < desc.operands.size(); ++i) {
    const TensorType &type = desc.operands[i];
    buffers.emplace_back(type.numBytes() + 1);
    EXPECT_EQ(values.at(i).size(), static_cast<size_t>(type.numElements()));
    for (size_t j = 0; j < values[i].size(); ++j)
      storeElement(type.type, buffers.back().data(), j, values[i][j]);
    operands.push_back(buffers.back().data());
  }
  std::vector<unsigned char> result(desc.result.numBytes() + 1);
  void *localSite = nullptr;
  std::optional<std::string> error = tryExecute(
      context(), site ? site : &localSite, descriptor.c_str(), operands.data(),
      static_cast<int32_t>(operands.size()), result.data());
  EXPECT_FALSE(error) << *error;
  std::vector<double> out;
  for (int64_t j = 0; j < desc.result.numElements(); ++j)
    out.push_back(loadElement(desc.result.type, result.data(), j));
  return out;
}

/// The message tessel_rt_execute would end the job with.
std::string errorOf(const std::string &descriptor,
                    std::vector<std::vector<double>> values,
                    int32_t numOperands = -1) {
  OpDescriptor desc;
  std::vector<std::vector<unsigned char>> buffers;
  std::vector<void *> operands;
  std::vector<unsigned char> result(1 << 12);
  for (std::vector<double> &operand : values) {
    buffers.emplace_back(operand.size() * 8 + 8);
    // Stored as f32 or i32 as the tests below need; only errors matter.
    for (size_t j = 0; j < operand.size(); ++j)
      reinterpret_cast<float *>(buffers.back().data())[j] =
          static_cast<float>(operand[j]);
    operands.push_back(buffers.back().data());
  }
  void *site = nullptr;
  std::optional<std::string> error = tryExecute(
      context(), &site, descriptor.c_str(), operands.data(),
      numOperands >= 0 ? numOperands : static_cast<int32_t>(operands.size()),
      result.data());
  return error.value_or("(no error)");
}

std::vector<double> ramp(int64_t count, double scale = 1.0,
                         double offset = 0.0) {
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(offset + scale * std::sin(0.7 * i + 0.3));
  return values;
}

ref::Tensor refTensor(std::vector<std::string> dims, std::vector<int64_t> shape,
                      std::vector<double> values,
                      ref::ElementType type = ref::ElementType::F32) {
  return ref::Tensor({dims, shape, type}, std::move(values));
}

void expectNear(const std::vector<double> &actual,
                const std::vector<double> &expected, double tolerance) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    if (std::isinf(expected[i]))
      EXPECT_EQ(actual[i], expected[i]) << "at element " << i;
    else
      EXPECT_NEAR(actual[i], expected[i],
                  tolerance * std::max(1.0, std::abs(expected[i])))
          << "at element " << i;
}

//===----------------------------------------------------------------------===//
// Generators and parameters
//===----------------------------------------------------------------------===//

TEST(Executor, ConstantListSplatAndIota) {
  expectNear(execute(op("tessel.constant", {}, T({"a", "b"}, {2, 2}),
                        {{"value", {1, 2.5, -3, 4}}}),
                     {}),
             {1, 2.5, -3, 4}, 0);
  expectNear(
      execute(op("tessel.constant", {}, T({"a"}, {3}, "i32"), {{"value", 7}}),
              {}),
      {7, 7, 7}, 0);
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {2}, "f32"),
                        {{"value", {"-inf"}}}),
                     {}),
             {-INFINITY, -INFINITY}, 0);
  // Splats fill their result by doubling copies of one element: every
  // element, in widths of 1, 2 and 8 bytes and a count that is no power of
  // two, a zero by memset, and no element at all.
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {1001}, "bf16"),
                        {{"value", 1.5}}),
                     {}),
             std::vector<double>(1001, 1.5), 0);
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {7}, "i1"),
                        {{"value", 1}}),
                     {}),
             std::vector<double>(7, 1), 0);
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {33}, "f64"),
                        {{"value", -0.25}}),
                     {}),
             std::vector<double>(33, -0.25), 0);
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {5}, "f32"),
                        {{"value", 0}}),
                     {}),
             std::vector<double>(5, 0), 0);
  expectNear(execute(op("tessel.constant", {}, T({"a"}, {0}, "f32"),
                        {{"value", 3}}),
                     {}),
             {}, 0);
  expectNear(execute(op("tessel.iota", {}, T({"a", "b"}, {2, 3}, "i64"),
                        {{"dim", "b"}}),
                     {}),
             {0, 1, 2, 0, 1, 2}, 0);
}

TEST(Executor, ParameterIsTheReferenceInitialisation) {
  ref::Tensor expected =
      ref::initializeParameter({{"p", "h"}, {4, 3}, ref::ElementType::F32},
                               ref::InitKind::Normal, 0.02, 7);
  expectNear(
      execute(
          op("tessel.parameter", {}, T({"p", "h"}, {4, 3}),
             {{"name", "w"}, {"init", "normal"}, {"scale", 0.02}, {"seed", 7}}),
          {}),
      expected.data, 0);
  expectNear(execute(op("tessel.parameter", {}, T({"h"}, {3}, "bf16"),
                        {{"name", "b"}, {"init", "ones"}}),
                     {}),
             {1, 1, 1}, 0);
}

// A parameter block (`block of` in the IR) holds the rank's block of the
// whole parameter on the mesh x of all ranks: h:(2n + 1) over n ranks gives
// blocks of ceil((2n + 1) / n), and past h the last rank's block is padding,
// zero.
TEST(ExecutorMesh, ParameterBlockIsTheRanksSliceOfTheWhole) {
  int size = worldSize(), rank = worldRank();
  int64_t h = 2 * size + 1, block = (h + size - 1) / size;
  ref::Tensor whole =
      ref::initializeParameter({{"p", "h"}, {3, h}, ref::ElementType::F32},
                               ref::InitKind::Uniform, 0.5, 11);
  std::vector<double> expected;
  for (int64_t p = 0; p < 3; ++p)
    for (int64_t j = block * rank; j < block * (rank + 1); ++j)
      expected.push_back(j < h ? whole.data[p * h + j] : 0.0);
  json global = T({"p", "h"}, {3, h});
  global["layout"] = {{"h", {"x"}}};
  expectNear(execute(op("tessel.parameter", {}, T({"p", "h"}, {3, block}),
                        {{"name", "w"},
                         {"init", "uniform"},
                         {"scale", 0.5},
                         {"seed", 11},
                         {"global_type", global}}),
                     {}),
             expected, 0);
}

// Dropout's block on a rank draws the mask of the whole tensor's elements
// it holds: h:(2n + 1) over the n ranks of x, the padding zero; f32 (the
// loop) and f64 (the reference kernel) alike, a step of i64 or i32.
TEST(ExecutorMesh, DropoutBlockIsTheRanksSliceOfTheWhole) {
  int size = worldSize(), rank = worldRank();
  int64_t h = 2 * size + 1, block = (h + size - 1) / size;
  std::vector<double> x = ramp(3 * h, 1.0, 2.0);
  for (const char *type : {"f32", "f64"}) {
    ref::ElementType element = *ref::parseElementType(type);
    ref::Tensor whole =
        ref::dropout(refTensor({"p", "h"}, {3, h}, x, element), 0.4, 5, 17);
    std::vector<double> mine, expected;
    for (int64_t p = 0; p < 3; ++p)
      for (int64_t j = block * rank; j < block * (rank + 1); ++j) {
        mine.push_back(j < h ? x[p * h + j] : 0.0);
        expected.push_back(j < h ? whole.data[p * h + j] : 0.0);
      }
    json global = T({"p", "h"}, {3, h}, type);
    global["layout"] = {{"h", {"x"}}};
    for (const char *stepType : {"i64", "i32"})
      expectNear(
          execute(op("tessel.dropout",
                     {T({"p", "h"}, {3, block}, type), T({}, {}, stepType)},
                     T({"p", "h"}, {3, block}, type),
                     {{"rate", 0.4}, {"seed", 5}, {"global_type", global}}),
                  {mine, {17}}),
          expected, 0);
  }
}

TEST(ExecutorMesh, ParameterBlockErrorsNameTheMismatch) {
  std::string prefix = "tessel: rank " + std::to_string(worldRank()) +
                       ": error at test.mlir:1:1 in tessel.parameter: ";
  json attrs = {{"name", "w"}, {"init", "ones"}};
  json global = T({"h"}, {4 * worldSize()});
  global["layout"] = {{"h", {"x"}}};
  attrs["global_type"] = global;
  // A block of the wrong size for the mesh.
  EXPECT_EQ(errorOf(op("tessel.parameter", {}, T({"h"}, {4 * worldSize() + 1}),
                       attrs),
                    {}),
            prefix +
                fmt::format("the result [h:{}] f32 is not the block that "
                            "attribute 'global_type' gives on a mesh of {} "
                            "ranks",
                            4 * worldSize() + 1, worldSize()));
  // An axis the mesh lacks.
  attrs["global_type"]["layout"] = {{"h", {"y"}}};
  EXPECT_EQ(errorOf(op("tessel.parameter", {}, T({"h"}, {4}), attrs), {}),
            prefix + "attribute 'global_type': dimension 'h' is split over "
                     "'y', which is not an axis of the mesh");
  // Other dims than the result's.
  attrs["global_type"] = T({"k"}, {4});
  attrs["global_type"]["layout"] = json::object();
  EXPECT_EQ(errorOf(op("tessel.parameter", {}, T({"h"}, {4}), attrs), {}),
            prefix + "attribute 'global_type' [k:4] f32 does not have the "
                     "dims and element type of the result [h:4] f32");
  // No layout.
  attrs["global_type"] = T({"h"}, {4});
  EXPECT_EQ(errorOf(op("tessel.parameter", {}, T({"h"}, {4}), attrs), {}),
            prefix + "attribute 'global_type' has no \"layout\" object");
}

//===----------------------------------------------------------------------===//
// Einsum: the oneDNN path and the reference path
//===----------------------------------------------------------------------===//

TEST(Executor, EinsumOnOneDnnMatchesTheReference) {
  // Batch b, M i, K k, N j, with the result in an order that is not
  // [batch, M, N].
  std::vector<double> lhs = ramp(2 * 3 * 5), rhs = ramp(5 * 2 * 4, 0.5, 0.1);
  ref::Tensor expected =
      ref::einsum({refTensor({"i", "b", "k"}, {3, 2, 5}, lhs),
                   refTensor({"k", "b", "j"}, {5, 2, 4}, rhs)},
                  {{"j", "b", "i"}, {4, 2, 3}, ref::ElementType::F32});
  expectNear(
      execute(op("tessel.einsum",
                 {T({"i", "b", "k"}, {3, 2, 5}), T({"k", "b", "j"}, {5, 2, 4})},
                 T({"j", "b", "i"}, {4, 2, 3})),
              {lhs, rhs}),
      expected.data, 1e-5);
}

TEST(Executor, EinsumOutsideMatmulUsesTheReference) {
  // A sum over a dim of one operand only and three operands are no matmul
  // and run on the reference; bf16 runs on oneDNN's bf16 matmul, which
  // accumulates in f32 and here rounds to the reference's bf16 result.
  std::vector<double> a = ramp(6), b = ramp(3, 2.0), c = ramp(2, 1.0, 1.0);
  ref::Tensor sumOne =
      ref::einsum({refTensor({"x", "y"}, {2, 3}, a), refTensor({"y"}, {3}, b)},
                  {{}, {}, ref::ElementType::F32});
  expectNear(execute(op("tessel.einsum", {T({"x", "y"}, {2, 3}), T({"y"}, {3})},
                        T({}, {})),
                     {a, b}),
             sumOne.data, 1e-6);
  ref::Tensor three =
      ref::einsum({refTensor({"x", "y"}, {2, 3}, a), refTensor({"y"}, {3}, b),
                   refTensor({"x"}, {2}, c)},
                  {{"x"}, {2}, ref::ElementType::F32});
  expectNear(execute(op("tessel.einsum",
                        {T({"x", "y"}, {2, 3}), T({"y"}, {3}), T({"x"}, {2})},
                        T({"x"}, {2})),
                     {a, b, c}),
             three.data, 1e-6);
  std::vector<double> aRounded, bRounded;
  for (double v : a)
    aRounded.push_back(ref::roundToType(v, ref::ElementType::BF16));
  for (double v : b)
    bRounded.push_back(ref::roundToType(v, ref::ElementType::BF16));
  ref::Tensor half = ref::einsum(
      {refTensor({"x", "y"}, {2, 3}, aRounded, ref::ElementType::BF16),
       refTensor({"y"}, {3}, bRounded, ref::ElementType::BF16)},
      {{"x"}, {2}, ref::ElementType::BF16});
  expectNear(execute(op("tessel.einsum",
                        {T({"x", "y"}, {2, 3}, "bf16"), T({"y"}, {3}, "bf16")},
                        T({"x"}, {2}, "bf16")),
                     {a, b}),
             half.data, 0);
}

TEST(Executor, ReferenceKernelCallsAreCountedPerSite) {
  // While profiling, each call site counts the reference kernels its calls
  // ran (--profile lists those sites as slow paths): a three-operand
  // einsum's every call, a matmul's none where oneDNN is built in.
  auto at = [](const char *loc, std::string descriptor) {
    json parsed = json::parse(descriptor);
    parsed["loc"] = loc;
    return parsed.dump();
  };
  std::string three = at(
      "three.mlir:2:3",
      op("tessel.einsum", {T({"x", "y"}, {2, 3}), T({"y"}, {3}), T({"x"}, {2})},
         T({"x"}, {2})));
  std::string matmul =
      at("matmul.mlir:4:5",
         op("tessel.einsum", {T({"x", "y"}, {2, 3}), T({"y", "z"}, {3, 4})},
            T({"x", "z"}, {2, 4})));
  void *threeSite = nullptr, *matmulSite = nullptr;
  enableOpProfiling();
  for (int call = 0; call < 2; ++call) {
    execute(three, {ramp(6), ramp(3), ramp(2)}, &threeSite);
    execute(matmul, {ramp(6), ramp(12)}, &matmulSite);
  }
  disableOpProfiling();
  std::map<std::string, OpTime> byLoc;
  for (const OpTime &time : opTimes())
    byLoc[time.loc] = time;
  ASSERT_EQ(byLoc.count("three.mlir:2:3"), 1u);
  EXPECT_EQ(byLoc["three.mlir:2:3"].calls, 2);
  EXPECT_EQ(byLoc["three.mlir:2:3"].referenceCalls, 2);
  ASSERT_EQ(byLoc.count("matmul.mlir:4:5"), 1u);
  EXPECT_EQ(byLoc["matmul.mlir:4:5"].calls, 2);
  if (context()->kernels) {
    EXPECT_EQ(byLoc["matmul.mlir:4:5"].referenceCalls, 0);
  }
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

TEST(Executor, UnaryOps) {
  std::vector<double> x = {-1.5, -0.25, 0.0, 0.5, 2.0};
  std::vector<double> positive = {0.25, 1.0, 2.0, 4.0, 9.0};
  auto run = [&](const char *name, const std::vector<double> &input) {
    return execute(op(name, {T({"a"}, {5})}, T({"a"}, {5})), {input});
  };
  auto apply = [](const std::vector<double> &input, double (*f)(double)) {
    std::vector<double> out;
    for (double v : input)
      out.push_back(ref::roundToType(f(v), ref::ElementType::F32));
    return out;
  };
  expectNear(run("tessel.neg", x), apply(x, [](double v) { return -v; }), 0);
  expectNear(run("tessel.abs", x),
             apply(x, [](double v) { return std::abs(v); }), 0);
  // exp, rsqrt, tanh and sigmoid run on oneDNN, a few ulp from the
  // correctly rounded value.
  expectNear(run("tessel.exp", x),
             apply(x, [](double v) { return std::exp(v); }), 5e-7);
  expectNear(run("tessel.log", positive),
             apply(positive, [](double v) { return std::log(v); }), 1e-7);
  expectNear(run("tessel.sqrt", positive),
             apply(positive, [](double v) { return std::sqrt(v); }), 1e-7);
  expectNear(run("tessel.rsqrt", positive),
             apply(positive, [](double v) { return 1 / std::sqrt(v); }), 5e-7);
  expectNear(run("tessel.tanh", x),
             apply(x, [](double v) { return std::tanh(v); }), 5e-7);
  expectNear(run("tessel.sigmoid", x),
             apply(x, [](double v) { return 1 / (1 + std::exp(-v)); }), 5e-7);
  expectNear(run("tessel.relu", x),
             apply(x, [](double v) { return v > 0 ? v : 0.0; }), 0);
  expectNear(run("tessel.gelu", x),
             apply(x,
                   [](double v) {
                     return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
                   }),
             1e-7);
  expectNear(run("tessel.erf", x),
             apply(x, [](double v) { return std::erf(v); }), 1e-7);
  // sin and cos run on VectorMath (oneDNN has neither).
  std::vector<double> angles = {-7.0, -1.5, 0.0, 0.5, 100.0};
  expectNear(run("tessel.sin", angles),
             apply(angles, [](double v) { return std::sin(v); }), 2e-7);
  expectNear(run("tessel.cos", angles),
             apply(angles, [](double v) { return std::cos(v); }), 2e-7);
}

TEST(Executor, BinaryOpsBroadcastByName) {
  // [a:2, b:3] op [b:3]: the rhs is broadcast along a.
  std::vector<double> lhs = {1, 2, 3, 4, 5, 6}, rhs = {10, 20, 30};
  auto run = [&](const char *name) {
    return execute(
        op(name, {T({"a", "b"}, {2, 3}), T({"b"}, {3})}, T({"a", "b"}, {2, 3})),
        {lhs, rhs});
  };
  expectNear(run("tessel.add"), {11, 22, 33, 14, 25, 36}, 0);
  expectNear(run("tessel.sub"), {-9, -18, -27, -6, -15, -24}, 0);
  expectNear(run("tessel.mul"), {10, 40, 90, 40, 100, 180}, 0);
  expectNear(run("tessel.div"), {0.1, 0.1, 0.1, 0.4, 0.25, 0.2}, 1e-7);
  expectNear(run("tessel.max"), {10, 20, 30, 10, 20, 30}, 0);
  expectNear(run("tessel.min"), {1, 2, 3, 4, 5, 6}, 0);
  expectNear(
      execute(op("tessel.pow", {T({"a"}, {3}), T({}, {})}, T({"a"}, {3})),
              {{2, 3, 4}, {2}}),
      {4, 9, 16}, 0);
  // An outer "sum" of [a] and [b] into [b, a], and f16 rounding once.
  expectNear(execute(op("tessel.add", {T({"a"}, {2}), T({"b"}, {2})},
                        T({"b", "a"}, {2, 2})),
                     {{1, 2}, {10, 20}}),
             {11, 12, 21, 22}, 0);
  expectNear(
      execute(op("tessel.add", {T({"a"}, {1}, "f16"), T({"a"}, {1}, "f16")},
                 T({"a"}, {1}, "f16")),
              {{1000}, {0.25}}),
      {1000}, 0);
}

TEST(Executor, CompareSelectCast) {
  expectNear(execute(op("tessel.compare", {T({"a"}, {3}), T({"a"}, {3})},
                        T({"a"}, {3}, "i1"), {{"kind", "ge"}}),
                     {{1, 2, 3}, {2, 2, 2}}),
             {0, 1, 1}, 0);
  expectNear(execute(op("tessel.select",
                        {T({"a"}, {3}, "i1"), T({"a"}, {3}), T({}, {})},
                        T({"a"}, {3})),
                     {{1, 0, 1}, {5, 6, 7}, {-1}}),
             {5, -1, 7}, 0);
  expectNear(execute(op("tessel.cast", {T({"a"}, {3})}, T({"a"}, {3}, "i32")),
                     {{-1.7, 0.2, 3.9}}),
             {-1, 0, 3}, 0);
  expectNear(execute(op("tessel.cast", {T({"a"}, {2})}, T({"a"}, {2}, "bf16")),
                     {{1.00390625, 3.0}}),
             {1.0, 3.0}, 0);
}

//===----------------------------------------------------------------------===//
// Reductions and normalisation
//===----------------------------------------------------------------------===//

TEST(Executor, Reduce) {
  std::vector<double> x = {1, 2, 3, 4, 5, 6};
  auto run = [&](const char *kind, json result) {
    return execute(
        op("tessel.reduce", {T({"a", "b"}, {2, 3})}, result, {{"kind", kind}}),
        {x});
  };
  expectNear(run("sum", T({"a"}, {2})), {6, 15}, 0);
  expectNear(run("mean", T({"b"}, {3})), {2.5, 3.5, 4.5}, 0);
  expectNear(run("max", T({}, {})), {6}, 0);
  expectNear(run("min", T({"b"}, {3})), {1, 2, 3}, 0);
  expectNear(run("prod", T({"a"}, {2})), {6, 120}, 0);
}

TEST(Executor, SoftmaxAndCrossEntropy) {
  std::vector<double> logits = {1, 2, 3, 0, 0, 0};
  double z = std::exp(1) + std::exp(2) + std::exp(3);
  expectNear(execute(op("tessel.softmax", {T({"n", "c"}, {2, 3})},
                        T({"n", "c"}, {2, 3}), {{"dim", "c"}}),
                     {logits}),
             {std::exp(1) / z, std::exp(2) / z, std::exp(3) / z, 1. / 3, 1. / 3,
              1. / 3},
             1e-7);
  expectNear(execute(op("tessel.log_softmax", {T({"n", "c"}, {2, 3})},
                        T({"n", "c"}, {2, 3}), {{"dim", "c"}}),
                     {logits}),
             {1 - std::log(z), 2 - std::log(z), 3 - std::log(z), -std::log(3.0),
              -std::log(3.0), -std::log(3.0)},
             1e-6);
  expectNear(execute(op("tessel.softmax_cross_entropy",
                        {T({"n", "c"}, {2, 3}), T({"n"}, {2}, "i32")},
                        T({"n"}, {2}), {{"dim", "c"}}),
                     {logits, {2, 0}}),
             {std::log(z) - 3, std::log(3.0)}, 1e-6);
}

TEST(Executor, CumsumAndArgmax) {
  // [n:2, c:3] = [[1, 3, 2], [2, 2, -1]]
  std::vector<double> x = {1, 3, 2, 2, 2, -1};
  auto cumsum = [&](const char *type, const char *dim, bool reverse) {
    json attrs = {{"dim", dim}};
    if (reverse)
      attrs["reverse"] = true;
    return execute(op("tessel.cumsum", {T({"n", "c"}, {2, 3}, type)},
                      T({"n", "c"}, {2, 3}, type), attrs),
                   {x});
  };
  // The f32 loop and the reference kernel (i32) agree.
  for (const char *type : {"f32", "i32"}) {
    expectNear(cumsum(type, "c", false), {1, 4, 6, 2, 4, 3}, 0);
    expectNear(cumsum(type, "c", true), {6, 5, 2, 3, 1, -1}, 0);
    expectNear(cumsum(type, "n", false), {1, 3, 2, 3, 5, 1}, 0);
    expectNear(cumsum(type, "n", true), {3, 5, 1, 2, 2, -1}, 0);
  }
  auto argmax = [&](const std::vector<double> &input, const char *dim,
                    json result) {
    return execute(
        op("tessel.argmax", {T({"n", "c"}, {2, 3})}, result, {{"dim", dim}}),
        {input});
  };
  // Ties go to the first; i32 on the loop, i64 on the reference kernel.
  expectNear(argmax(x, "c", T({"n"}, {2}, "i32")), {1, 0}, 0);
  expectNear(argmax(x, "c", T({"n"}, {2}, "i64")), {1, 0}, 0);
  expectNear(argmax(x, "n", T({"c"}, {3}, "i32")), {1, 0, 0}, 0);
  // NaN is the maximum, the first one wins.
  double nan = std::numeric_limits<double>::quiet_NaN();
  expectNear(argmax({1, nan, nan, 5, 4, nan}, "c", T({"n"}, {2}, "i32")),
             {1, 2}, 0);
  expectNear(argmax({1, nan, nan, 5, 4, nan}, "c", T({"n"}, {2}, "i64")),
             {1, 2}, 0);
}

TEST(Executor, TopK) {
  // [n:2, c:4] = [[1, 3, 2, 3], [2, 5, -1, 5]]
  std::vector<double> x = {1, 3, 2, 3, 2, 5, -1, 5};
  auto topK = [&](const std::vector<double> &input, json result, bool indices) {
    json attrs = {{"dim", "c"}, {"k", 3}, {"out_dim", "k"}};
    if (indices)
      attrs["indices"] = true;
    return execute(op("tessel.top_k", {T({"n", "c"}, {2, 4})}, result, attrs),
                   {input});
  };
  // The loop (f32 values, i32 indices in the input's dim order) and the
  // reference kernel (i64 indices, another dim order) agree; equal elements
  // go by index.
  expectNear(topK(x, T({"n", "k"}, {2, 3}), false), {3, 3, 2, 5, 5, 2}, 0);
  expectNear(topK(x, T({"k", "n"}, {3, 2}), false), {3, 5, 3, 5, 2, 2}, 0);
  expectNear(topK(x, T({"n", "k"}, {2, 3}, "i32"), true), {1, 3, 2, 1, 3, 0},
             0);
  expectNear(topK(x, T({"n", "k"}, {2, 3}, "i64"), true), {1, 3, 2, 1, 3, 0},
             0);
  // NaN ranks first on both.
  double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> withNaN = {1, nan, 4, nan, 0, 0, 0, 0};
  expectNear(topK(withNaN, T({"n", "k"}, {2, 3}, "i32"), true),
             {1, 3, 2, 0, 1, 2}, 0);
  expectNear(topK(withNaN, T({"k", "n"}, {3, 2}, "i64"), true),
             {1, 0, 3, 1, 2, 2}, 0);
  // Along the first dim (a strided fiber), k = 2 of 2.
  auto overN = [&](json result) {
    return execute(
        op("tessel.top_k", {T({"n", "c"}, {2, 4})}, result,
           {{"dim", "n"}, {"k", 2}, {"out_dim", "r"}, {"indices", true}}),
        {x});
  };
  expectNear(overN(T({"r", "c"}, {2, 4}, "i32")), {1, 1, 0, 1, 0, 0, 1, 0}, 0);
  expectNear(overN(T({"c", "r"}, {4, 2}, "i64")), {1, 0, 1, 0, 0, 1, 1, 0}, 0);
}

// The f32 loop against the reference kernel on a tensor full of ties and
// NaNs, along each dim, for the smallest and the largest k.
TEST(Executor, TopKLoopIsTheReference) {
  const std::vector<std::string> dims = {"a", "n", "b"};
  const std::vector<int64_t> shape = {3, 7, 2};
  const double pool[] = {-1, 0, 1, 2, std::numeric_limits<double>::quiet_NaN()};
  std::vector<double> x(3 * 7 * 2);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = pool[(i * 7 + i / 3) % 5];
  ref::Tensor input({dims, shape, ref::ElementType::F32}, x);
  for (int d = 0; d < 3; ++d)
    for (int64_t k : {int64_t(1), shape[d]})
      for (bool indices : {false, true}) {
        std::vector<std::string> outDims = dims;
        std::vector<int64_t> outShape = shape;
        outDims[d] = "top";
        outShape[d] = k;
        const char *type = indices ? "i32" : "f32";
        json attrs = {{"dim", dims[d]}, {"k", k}, {"out_dim", "top"}};
        if (indices)
          attrs["indices"] = true;
        std::vector<double> loop =
            execute(op("tessel.top_k", {T(dims, shape)},
                       T(outDims, outShape, type), attrs),
                    {x});
        ref::Tensor expected = ref::topK(
            input, dims[d], k, "top", indices,
            {outDims, outShape,
             indices ? ref::ElementType::I32 : ref::ElementType::F32});
        ASSERT_EQ(loop.size(), expected.data.size());
        for (size_t i = 0; i < loop.size(); ++i)
          if (std::isnan(expected.data[i]))
            EXPECT_TRUE(std::isnan(loop[i]))
                << dims[d] << " k " << k << " at " << i;
          else
            EXPECT_EQ(loop[i], expected.data[i])
                << dims[d] << " k " << k << (indices ? " indices" : " values")
                << " at " << i;
      }
}

TEST(Executor, LayerNorm) {
  std::vector<double> x = {1, 2, 3, 4, 10, 10, 10, 14};
  double r1 = 1 / std::sqrt(1.25 + 1e-5), r2 = 1 / std::sqrt(3.0 + 1e-5);
  expectNear(execute(op("tessel.layer_norm", {T({"n", "h"}, {2, 4})},
                        T({"n", "h"}, {2, 4}), {{"dims", {"h"}}}),
                     {x}),
             {-1.5 * r1, -0.5 * r1, 0.5 * r1, 1.5 * r1, -1 * r2, -1 * r2,
              -1 * r2, 3 * r2},
             1e-6);
}

//===----------------------------------------------------------------------===//
// Convolution and pooling, against the reference kernels
//===----------------------------------------------------------------------===//

json convAttrs() {
  return {{"input_channel", "c"},  {"output_channel", "f"},
          {"spatial", {"h", "w"}}, {"kernel", {"kh", "kw"}},
          {"strides", {2, 1}},     {"padding", {1, 1, 0, 1}},
          {"dilations", {1, 2}}};
}

ref::ConvParams convParams() {
  ref::ConvParams params;
  params.inputChannel = "c";
  params.outputChannel = "f";
  params.spatial = {"h", "w"};
  params.kernel = {"kh", "kw"};
  params.strides = {2, 1};
  params.padding = {1, 1, 0, 1};
  params.dilations = {1, 2};
  return params;
}

TEST(Executor, Conv2DAndItsGradients) {
  // x [n:2, c:2, h:5, w:5], k [c:2, f:3, kh:3, kw:2]: output h = (5+2-3)/2+1
  // = 3, w = (5+1-2-1)/1+1 = 4.
  std::vector<double> x = ramp(2 * 2 * 5 * 5), k = ramp(2 * 3 * 3 * 2, 0.3),
                      dy = ramp(2 * 3 * 3 * 4, 0.7, 0.1);
  ref::Tensor xT = refTensor({"n", "c", "h", "w"}, {2, 2, 5, 5}, x);
  ref::Tensor kT = refTensor({"c", "f", "kh", "kw"}, {2, 3, 3, 2}, k);
  ref::Tensor dyT = refTensor({"n", "f", "h", "w"}, {2, 3, 3, 4}, dy);
  ref::TensorSpec ySpec{
      {"n", "f", "h", "w"}, {2, 3, 3, 4}, ref::ElementType::F32};
  json xJ = T({"n", "c", "h", "w"}, {2, 2, 5, 5}),
       kJ = T({"c", "f", "kh", "kw"}, {2, 3, 3, 2}),
       yJ = T({"n", "f", "h", "w"}, {2, 3, 3, 4});
  expectNear(execute(op("tessel.conv2d", {xJ, kJ}, yJ, convAttrs()), {x, k}),
             ref::conv2d(xT, kT, convParams(), ySpec).data, 1e-6);
  expectNear(
      execute(op("tessel.conv2d_backward_input", {yJ, kJ}, xJ, convAttrs()),
              {dy, k}),
      ref::conv2dBackwardInput(dyT, kT, convParams(), xT.spec).data, 1e-6);
  expectNear(
      execute(op("tessel.conv2d_backward_filter", {xJ, yJ}, kJ, convAttrs()),
              {x, dy}),
      ref::conv2dBackwardFilter(xT, dyT, convParams(), kT.spec).data, 1e-6);
}

// Dropout keeps each element with probability 1 - rate, scaled by
// 1 / (1 - rate); the mask changes with the step and the seed.
TEST(Executor, Dropout) {
  std::vector<double> x(4000, 1.0);
  json t = T({"n", "h"}, {40, 100});
  auto run = [&](int64_t step, int64_t seed) {
    return execute(op("tessel.dropout", {t, T({}, {}, "i64")}, t,
                      {{"rate", 0.25}, {"seed", seed}}),
                   {x, {static_cast<double>(step)}});
  };
  std::vector<double> y = run(3, 9);
  int64_t kept = 0;
  for (double v : y) {
    EXPECT_TRUE(v == 0.0 || std::abs(v - 1 / 0.75) < 1e-6) << v;
    kept += v != 0.0;
  }
  EXPECT_NEAR(kept / 4000.0, 0.75, 0.03);
  expectNear(
      y, ref::dropout(refTensor({"n", "h"}, {40, 100}, x), 0.25, 9, 3).data, 0);
  EXPECT_NE(y, run(4, 9));
  EXPECT_NE(y, run(3, 10));
  EXPECT_EQ(y, run(3, 9));
}

// Grouped (2 groups of 2 channels, 6 outputs) and depthwise (3 channels,
// 6 outputs) convolutions and their gradients on oneDNN, against the
// reference kernels; and the reference's grouped convolution is each
// group's own convolution.
TEST(Executor, GroupedConv2DAndItsGradients) {
  struct Case {
    int64_t channels, outputs, groups;
  };
  for (Case c : {Case{4, 6, 2}, Case{3, 6, 3}}) {
    int64_t perGroup = c.channels / c.groups;
    std::vector<double> x = ramp(2 * c.channels * 5 * 5),
                        k = ramp(perGroup * c.outputs * 3 * 2, 0.3),
                        dy = ramp(2 * c.outputs * 3 * 4, 0.7, 0.1);
    ref::Tensor xT = refTensor({"n", "c", "h", "w"}, {2, c.channels, 5, 5}, x);
    ref::Tensor kT =
        refTensor({"c", "f", "kh", "kw"}, {perGroup, c.outputs, 3, 2}, k);
    ref::Tensor dyT = refTensor({"n", "f", "h", "w"}, {2, c.outputs, 3, 4}, dy);
    ref::TensorSpec ySpec{
        {"n", "f", "h", "w"}, {2, c.outputs, 3, 4}, ref::ElementType::F32};
    json attrs = convAttrs();
    attrs["groups"] = c.groups;
    ref::ConvParams params = convParams();
    params.groups = c.groups;
    json xJ = T({"n", "c", "h", "w"}, {2, c.channels, 5, 5}),
         kJ = T({"c", "f", "kh", "kw"}, {perGroup, c.outputs, 3, 2}),
         yJ = T({"n", "f", "h", "w"}, {2, c.outputs, 3, 4});
    ref::Tensor y = ref::conv2d(xT, kT, params, ySpec);
    expectNear(execute(op("tessel.conv2d", {xJ, kJ}, yJ, attrs), {x, k}),
               y.data, 1e-5);
    expectNear(execute(op("tessel.conv2d_backward_input", {yJ, kJ}, xJ, attrs),
                       {dy, k}),
               ref::conv2dBackwardInput(dyT, kT, params, xT.spec).data, 1e-5);
    expectNear(execute(op("tessel.conv2d_backward_filter", {xJ, yJ}, kJ, attrs),
                       {x, dy}),
               ref::conv2dBackwardFilter(xT, dyT, params, kT.spec).data, 1e-5);
    // Group q alone: x's channels [q * perGroup, ...), the filter's outputs
    // [q * outputs / groups, ...).
    int64_t outPerGroup = c.outputs / c.groups;
    for (int64_t q = 0; q < c.groups; ++q) {
      std::vector<double> xq, kq;
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t ch = 0; ch < perGroup; ++ch)
          for (int64_t i = 0; i < 25; ++i)
            xq.push_back(
                xT.data[(n * c.channels + q * perGroup + ch) * 25 + i]);
      for (int64_t ch = 0; ch < perGroup; ++ch)
        for (int64_t f = 0; f < outPerGroup; ++f)
          for (int64_t i = 0; i < 6; ++i)
            kq.push_back(
                kT.data[(ch * c.outputs + q * outPerGroup + f) * 6 + i]);
      ref::Tensor yq = ref::conv2d(
          refTensor({"n", "c", "h", "w"}, {2, perGroup, 5, 5}, xq),
          refTensor({"c", "f", "kh", "kw"}, {perGroup, outPerGroup, 3, 2}, kq),
          convParams(),
          {{"n", "f", "h", "w"},
           {2, outPerGroup, 3, 4},
           ref::ElementType::F32});
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t f = 0; f < outPerGroup; ++f)
          for (int64_t i = 0; i < 12; ++i)
            EXPECT_NEAR(y.data[(n * c.outputs + q * outPerGroup + f) * 12 + i],
                        yq.data[(n * outPerGroup + f) * 12 + i], 1e-9);
    }
  }
}

json withKind(json attrs, const char *kind) {
  attrs["kind"] = kind;
  return attrs;
}

TEST(Executor, PoolAndItsGradient) {
  std::vector<double> x = {1, 5, 2, 0, 3, 4, 8, 1, 0, 2, 9, 9, 7, 1, 6, 3};
  json attrs = {
      {"spatial", {"h", "w"}}, {"window", {2, 2}}, {"strides", {2, 2}}};
  json xJ = T({"h", "w"}, {4, 4}), yJ = T({"h", "w"}, {2, 2});
  expectNear(execute(op("tessel.pool", {xJ}, yJ, withKind(attrs, "max")), {x}),
             {5, 8, 7, 9}, 0);
  expectNear(execute(op("tessel.pool", {xJ}, yJ, withKind(attrs, "avg")), {x}),
             {13 / 4.0, 11 / 4.0, 10 / 4.0, 27 / 4.0}, 1e-7);
  // Max passes each window's gradient to the window's first maximum.
  expectNear(
      execute(op("tessel.pool_backward", {xJ, yJ}, xJ, withKind(attrs, "max")),
              {x, {1, 2, 3, 4}}),
      {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 3, 0, 0, 0}, 0);
}

//===----------------------------------------------------------------------===//
// Lookups and data movement
//===----------------------------------------------------------------------===//

TEST(Executor, GatherAndOneHot) {
  expectNear(
      execute(op("tessel.gather", {T({"v", "d"}, {3, 2}), T({"n"}, {2}, "i32")},
                 T({"n", "d"}, {2, 2}), {{"dim", "v"}}),
              {{1, 2, 3, 4, 5, 6}, {2, 0}}),
      {5, 6, 1, 2}, 0);
  expectNear(execute(op("tessel.one_hot", {T({"n"}, {3}, "i64")},
                        T({"n", "c"}, {3, 3}), {{"dim", "c"}}),
                     {{2, 0, 7}}),
             {0, 0, 1, 1, 0, 0, 0, 0, 0}, 0);
}

TEST(Executor, DataMovement) {
  std::vector<double> x = {1, 2, 3, 4, 5, 6};
  json x23 = T({"a", "b"}, {2, 3});
  expectNear(execute(op("tessel.rename", {x23}, T({"p", "q"}, {2, 3})), {x}), x,
             0);
  expectNear(execute(op("tessel.reshape", {x23}, T({"r"}, {6})), {x}), x, 0);
  expectNear(execute(op("tessel.transpose", {x23}, T({"b", "a"}, {3, 2})), {x}),
             {1, 4, 2, 5, 3, 6}, 0);
  expectNear(execute(op("tessel.broadcast", {T({"b"}, {3})}, x23), {{7, 8, 9}}),
             {7, 8, 9, 7, 8, 9}, 0);
  expectNear(execute(op("tessel.slice", {x23}, T({"a", "b"}, {2, 2}),
                        {{"dims", {"b"}}, {"starts", {1}}}),
                     {x}),
             {2, 3, 5, 6}, 0);
  expectNear(execute(op("tessel.concat", {x23, T({"a", "b"}, {1, 3})},
                        T({"a", "b"}, {3, 3}), {{"dim", "a"}}),
                     {x, {7, 8, 9}}),
             {1, 2, 3, 4, 5, 6, 7, 8, 9}, 0);
  expectNear(
      execute(op("tessel.pad", {T({"h"}, {2})}, T({"h"}, {5}),
                 {{"dims", {"h"}}, {"low", {1}}, {"high", {2}}, {"value", -1}}),
              {{4, 5}}),
      {-1, 4, 5, -1, -1}, 0);
}

//===----------------------------------------------------------------------===//
// Caching and errors
//===----------------------------------------------------------------------===//

TEST(Executor, DescriptorIsParsedOncePerSite) {
  std::string descriptor =
      op("tessel.add", {T({"a"}, {2}), T({"a"}, {2})}, T({"a"}, {2}));
  void *site = nullptr;
  expectNear(execute(descriptor, {{1, 2}, {3, 4}}, &site), {4, 6}, 0);
  void *cached = site;
  ASSERT_NE(cached, nullptr);
  // The second call does not read the descriptor: the cached op runs.
  float a[] = {5, 6}, b[] = {7, 8}, out[2];
  void *operands[] = {a, b};
  EXPECT_FALSE(tryExecute(context(), &site, "not json", operands, 2, out));
  EXPECT_EQ(site, cached);
  EXPECT_EQ(out[0], 12);
  EXPECT_EQ(out[1], 14);
}

TEST(Executor, ErrorsNameTheRankLocationAndOp) {
  std::string prefix = "tessel: rank " + std::to_string(worldRank()) +
                       ": error at test.mlir:1:1 in ";
  std::string badLabel =
      errorOf(op("tessel.softmax_cross_entropy",
                 {T({"n", "c"}, {1, 3}), T({"n"}, {1}, "f32")}, T({"n"}, {1}),
                 {{"dim", "c"}}),
              {{0, 0, 0}, {5}});
  EXPECT_EQ(badLabel.rfind(prefix + "tessel.softmax_cross_entropy: ", 0), 0u)
      << badLabel;
  EXPECT_NE(badLabel.find("5"), std::string::npos) << badLabel;
  EXPECT_EQ(errorOf(op("tessel.frobnicate", {}, T({}, {})), {}),
            prefix + "tessel.frobnicate: the runtime has no kernel for op "
                     "'tessel.frobnicate'");
  EXPECT_EQ(
      errorOf(op("tessel.softmax", {T({"a"}, {2})}, T({"a"}, {2})), {{1, 2}}),
      prefix + "tessel.softmax: attribute 'dim' is missing");
  EXPECT_EQ(errorOf(op("tessel.softmax", {T({"a"}, {2})}, T({"a"}, {2}),
                       {{"dim", "z"}}),
                    {{1, 2}}),
            prefix + "tessel.softmax: operand 0 has no dim 'z' (it is [a:2] "
                     "f32)");
  EXPECT_EQ(
      errorOf(op("tessel.neg", {T({"a"}, {2})}, T({"a"}, {2})), {{1, 2}}, 0),
      prefix + "tessel.neg: called with 0 operands, the descriptor has 1");
  std::string unreadable = errorOf("{\"op\": ", {});
  EXPECT_NE(unreadable.find("not valid JSON"), std::string::npos) << unreadable;
}

//===----------------------------------------------------------------------===//
// Mesh-level ops over x: all ranks
//===----------------------------------------------------------------------===//

TEST(ExecutorMesh, AllReduceAllGatherReduceScatter) {
  int size = worldSize(), rank = worldRank();
  // Rank r holds r + 1 + i at element i.
  std::vector<double> mine = {rank + 1.0, rank + 2.0};
  double sumOfRanks = size * (size + 1) / 2.0;
  expectNear(execute(op("tessel.all_reduce", {T({"a"}, {2})}, T({"a"}, {2}),
                        {{"kind", "sum"}, {"axes", {"x"}}}),
                     {mine}),
             {sumOfRanks, sumOfRanks + size}, 0);
  expectNear(
      execute(op("tessel.all_reduce", {T({"a"}, {2}, "i64")},
                 T({"a"}, {2}, "i64"), {{"kind", "max"}, {"axes", {"x"}}}),
              {mine}),
      {double(size), size + 1.0}, 0);
  std::vector<double> gathered;
  for (int r = 0; r < size; ++r)
    gathered.insert(gathered.end(), {r + 1.0, r + 2.0});
  expectNear(execute(op("tessel.all_gather", {T({"a"}, {2})},
                        T({"a"}, {2 * size}), {{"dim", "a"}, {"axes", {"x"}}}),
                     {mine}),
             gathered, 0);
  // i1 travels as i32: rank r contributes [r is even, true].
  std::vector<double> flags;
  for (int r = 0; r < size; ++r)
    flags.insert(flags.end(), {r % 2 == 0 ? 1.0 : 0.0, 1.0});
  expectNear(
      execute(op("tessel.all_gather", {T({"a"}, {2}, "i1")},
                 T({"a"}, {2 * size}, "i1"), {{"dim", "a"}, {"axes", {"x"}}}),
              {{rank % 2 == 0 ? 1.0 : 0.0, 1.0}}),
      flags, 0);
  // reduce_scatter of [a: size] holding i + rank: chunk `rank` of the sum.
  std::vector<double> row;
  for (int i = 0; i < size; ++i)
    row.push_back(i + rank);
  expectNear(
      execute(op("tessel.reduce_scatter", {T({"a"}, {size})}, T({"a"}, {1}),
                 {{"kind", "sum"}, {"dim", "a"}, {"axes", {"x"}}}),
              {row}),
      {size * rank + sumOfRanks - size}, 0);
}

TEST(ExecutorMesh, AllToAllPermuteHaloAndShardSlice) {
  int size = worldSize(), rank = worldRank();
  // all_to_all over the same dim: member j gets chunk j of every member.
  std::vector<double> chunks, expected;
  for (int j = 0; j < size; ++j)
    chunks.push_back(100 * rank + j);
  for (int i = 0; i < size; ++i)
    expected.push_back(100 * i + rank);
  expectNear(
      execute(op("tessel.all_to_all", {T({"a"}, {size})}, T({"a"}, {size}),
                 {{"split_dim", "a"}, {"concat_dim", "a"}, {"axes", {"x"}}}),
              {chunks}),
      expected, 0);
  // A ring shift: position p receives from p - 1.
  std::vector<int64_t> pairs;
  for (int p = 0; p < size; ++p)
    pairs.insert(pairs.end(), {p, (p + 1) % size});
  expectNear(execute(op("tessel.collective_permute", {T({"a"}, {1})},
                        T({"a"}, {1}), {{"axes", {"x"}}, {"pairs", pairs}}),
                     {{double(rank)}}),
             {double((rank + size - 1) % size)}, 0);
  // One element of halo on each side, -1 past the ends of the axis.
  double before = rank > 0 ? 10 * (rank - 1) + 1 : -1;
  double after = rank + 1 < size ? 10 * (rank + 1) : -1;
  expectNear(execute(op("tessel.halo_exchange", {T({"h"}, {2})}, T({"h"}, {4}),
                        {{"dim", "h"},
                         {"axis", "x"},
                         {"halo", {1, 1}},
                         {"pad_value", -1}}),
                     {{10.0 * rank, 10.0 * rank + 1}}),
             {before, 10.0 * rank, 10.0 * rank + 1, after}, 0);
  // shard_slice: this rank's block, no communication.
  std::vector<double> whole;
  for (int i = 0; i < 2 * size; ++i)
    whole.push_back(i);
  expectNear(execute(op("tessel.shard_slice", {T({"b", "a"}, {1, 2 * size})},
                        T({"b", "a"}, {1, 2}), {{"dim", "a"}, {"axes", {"x"}}}),
                     {whole}),
             {2.0 * rank, 2.0 * rank + 1}, 0);
}

} // namespace
