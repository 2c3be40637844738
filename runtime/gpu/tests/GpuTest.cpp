//===- GpuTest.cpp - The CUDA backend against the host kernels ------------===//
//
// Every op runs twice on the same random operands: through the executor
// with the CUDA backend (device buffers, the GPU kernels or the host
// fallback) and through the host's kernel builders (the reference kernels,
// the meaning of every op, or the CPU communicator for mesh-level ops). The
// results must agree to a tolerance that depends on the element type.
//
// Without a CUDA device (or with fewer devices than ranks, since NCCL wants
// one device per rank) every test is skipped, saying why.
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaBackend.h"

#include "executor/Backend.h"
#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Descriptor.h"
#include "executor/Execute.h"

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

using namespace tessel;
using namespace tessel::runtime;
using nlohmann::json;

namespace {

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/// Why the tests cannot run here, or "" when they can.
const std::string &skipReason() {
  static const std::string reason = [] {
    std::string why;
    if (!gpu::haveCudaDevice(why))
      return why;
    int count = 0;
    cudaGetDeviceCount(&count);
    if (count < worldSize())
      return fmt::format("{} ranks need {} CUDA devices (NCCL runs one rank "
                         "per device), found {}",
                         worldSize(), worldSize(), count);
    return std::string();
  }();
  return reason;
}

/// One context for all tests, over a 1-D mesh "x" of all ranks: the CPU
/// communicator for the host's mesh-level ops and the CUDA backend's
/// device state (stream, handles, NCCL groups) for the GPU's.
tessel_context_t *context() {
  static ContextPtr shared = [] {
    installBackend(&gpu::cudaBackend());
    tessel_comm_t *comm = nullptr;
    const char *axes[] = {"x"};
    int64_t sizes[] = {worldSize()};
    if (tessel_comm_create(1, axes, sizes, &comm) != TESSEL_STATUS_OK)
      ADD_FAILURE() << tessel_last_error_message();
    std::string error;
    ContextPtr made =
        createContext(comm, layout::Mesh({"x"}, {worldSize()}), error);
    EXPECT_TRUE(made) << error;
    return made;
  }();
  return shared.get();
}

const KernelRegistry &hostKernels() {
  static const KernelRegistry registry = [] {
    KernelRegistry result;
    registerModelOps(result);
    registerMeshOps(result);
    return result;
  }();
  return registry;
}

class Gpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (!skipReason().empty())
      GTEST_SKIP() << skipReason();
  }
};

json T(std::vector<std::string> dims, std::vector<int64_t> shape,
       const char *type = "f32") {
  return {{"dims", dims}, {"shape", shape}, {"type", type}};
}

std::string op(const char *name, std::vector<json> operands, json result,
               json attrs = json::object()) {
  return json{{"op", name},
              {"loc", "gpu-test.mlir:1:1"},
              {"operands", operands},
              {"result", result},
              {"attrs", attrs}}
      .dump();
}

/// Operand values: uniform in [low, high), whole numbers when `integral`.
struct Values {
  double low = -2, high = 2;
  bool integral = false;
};
const Values kSigned{};
const Values kPositive{0.1, 3};
Values labels(int64_t classes) {
  return {0, static_cast<double>(classes), true};
}

double tolerance(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F64:
    return 1e-12;
  case ref::ElementType::F32:
    return 2e-5;
  case ref::ElementType::F16:
    return 2e-3;
  case ref::ElementType::BF16:
    return 2e-2;
  default:
    return 0;
  }
}

/// Runs `descriptor` on the GPU and on the host with the same operands and
/// expects the same result: the same value with `exact`, else to the
/// type's tolerance plus `extraTolerance`. The operands differ per rank
/// (the seed has the rank in it), as they would in a real program.
void expectSameOnGpu(const std::string &descriptor,
                     const std::vector<Values> &values,
                     double extraTolerance = 0, bool exact = false) {
  OpDescriptor desc;
  parseDescriptor(descriptor.c_str(), desc);
  ASSERT_EQ(values.size(), desc.operands.size());
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::mt19937_64 random(1234 + rank);
  tessel_context_t *ctx = context();
  ASSERT_TRUE(ctx);

  std::vector<std::vector<unsigned char>> hostOperands;
  std::vector<void *> hostPointers, devicePointers;
  for (size_t i = 0; i < desc.operands.size(); ++i) {
    const TensorType &type = desc.operands[i];
    std::uniform_real_distribution<double> draw(values[i].low, values[i].high);
    hostOperands.emplace_back(static_cast<size_t>(type.numBytes()) + 1);
    for (int64_t j = 0; j < type.numElements(); ++j) {
      double value = draw(random);
      storeElement(type.type, hostOperands.back().data(), j,
                   values[i].integral ? std::floor(value) : value);
    }
    hostPointers.push_back(hostOperands.back().data());
    void *device = tessel_rt_alloc(ctx, type.numBytes());
    activeBackend().copyToBuffer(*ctx, device, hostOperands.back().data(),
                                 static_cast<size_t>(type.numBytes()));
    devicePointers.push_back(device);
  }

  std::vector<unsigned char> expected(desc.result.numBytes() + 1);
  Kernel host = hostKernels().at(desc.op)(desc);
  host(*ctx, hostPointers.data(), expected.data());

  void *deviceResult = tessel_rt_alloc(ctx, desc.result.numBytes());
  void *site = nullptr;
  std::optional<std::string> error =
      tryExecute(ctx, &site, descriptor.c_str(), devicePointers.data(),
                 static_cast<int32_t>(devicePointers.size()), deviceResult);
  ASSERT_FALSE(error) << *error;
  std::vector<unsigned char> actual(desc.result.numBytes() + 1);
  activeBackend().copyFromBuffer(*ctx, actual.data(), deviceResult,
                                 static_cast<size_t>(desc.result.numBytes()));
  double allowed = exact ? 0.0 : tolerance(desc.result.type) + extraTolerance;
  int mismatches = 0;
  for (int64_t j = 0; j < desc.result.numElements(); ++j) {
    double want = loadElement(desc.result.type, expected.data(), j);
    double got = loadElement(desc.result.type, actual.data(), j);
    bool same = std::isnan(want) || std::isnan(got)
                    ? std::isnan(want) && std::isnan(got)
                    : std::fabs(got - want) <=
                              allowed * std::max(1.0, std::fabs(want)) ||
                          got == want;
    // At most a few reports, for the results of millions of elements.
    if (!same && ++mismatches <= 5)
      ADD_FAILURE() << desc.op << " element " << j << " of "
                    << desc.result.str() << ": the GPU gives " << got
                    << ", the host " << want;
  }
  EXPECT_EQ(mismatches, 0) << desc.op << " on " << desc.result.str();
  tessel_rt_free(ctx, deviceResult);
  for (void *buffer : devicePointers)
    tessel_rt_free(ctx, buffer);
}

//===----------------------------------------------------------------------===//
// cuBLAS
//===----------------------------------------------------------------------===//

TEST_F(Gpu, EinsumOnCublas) {
  json x = T({"b", "i"}, {6, 5}), w = T({"i", "j"}, {5, 4});
  expectSameOnGpu(op("tessel.einsum", {x, w}, T({"b", "j"}, {6, 4})),
                  {kSigned, kSigned});
  // The result in another order than [batch, M, N], and operands out of it.
  expectSameOnGpu(op("tessel.einsum", {w, x}, T({"j", "b"}, {4, 6})),
                  {kSigned, kSigned});
  expectSameOnGpu(
      op("tessel.einsum",
         {T({"h", "b", "i"}, {2, 3, 5}), T({"i", "h", "j"}, {5, 2, 4})},
         T({"h", "b", "j"}, {2, 3, 4})),
      {kSigned, kSigned});
  // bf16 and f16 on tensor cores with f32 accumulation; f64.
  for (const char *type : {"bf16", "f16", "f64"})
    expectSameOnGpu(
        op("tessel.einsum",
           {T({"b", "i"}, {8, 16}, type), T({"i", "j"}, {16, 8}, type)},
           T({"b", "j"}, {8, 8}, type)),
        {kSigned, kSigned});
  // A sum over one operand is no GEMM: it runs on the host.
  expectSameOnGpu(op("tessel.einsum", {T({"b", "i"}, {3, 4})}, T({"b"}, {3})),
                  {kSigned});
}

//===----------------------------------------------------------------------===//
// CUDA kernels
//===----------------------------------------------------------------------===//

TEST_F(Gpu, UnaryOps) {
  json x = T({"b", "j"}, {7, 33});
  for (const char *name :
       {"tessel.neg", "tessel.abs", "tessel.exp", "tessel.tanh",
        "tessel.sigmoid", "tessel.relu", "tessel.gelu", "tessel.erf",
        "tessel.sin", "tessel.cos"})
    expectSameOnGpu(op(name, {x}, x), {kSigned});
  for (const char *name : {"tessel.log", "tessel.sqrt", "tessel.rsqrt"})
    expectSameOnGpu(op(name, {x}, x), {kPositive});
  json wide = T({"b"}, {5}, "f64"), narrow = T({"b"}, {300}, "bf16");
  expectSameOnGpu(op("tessel.tanh", {wide}, wide), {kSigned});
  expectSameOnGpu(op("tessel.exp", {narrow}, narrow), {kSigned});
}

TEST_F(Gpu, BinaryOpsBroadcastByName) {
  json a = T({"b", "j"}, {5, 4}), b = T({"j"}, {4}), t = T({"j", "b"}, {4, 5});
  for (const char *name :
       {"tessel.add", "tessel.sub", "tessel.mul", "tessel.max", "tessel.min"})
    expectSameOnGpu(op(name, {a, b}, a), {kSigned, kSigned});
  expectSameOnGpu(op("tessel.div", {a, t}, a), {kSigned, kPositive});
  expectSameOnGpu(op("tessel.pow", {a, b}, a), {kPositive, kSigned});
  json ints = T({"n"}, {9}, "i32");
  expectSameOnGpu(op("tessel.div", {ints, ints}, ints),
                  {{-20, 20, true}, {-3, 4, true}});
  expectSameOnGpu(op("tessel.compare", {a, t}, T({"b", "j"}, {5, 4}, "i1"),
                     {{"kind", "ge"}}),
                  {kSigned, kSigned});
  expectSameOnGpu(op("tessel.select", {T({"b", "j"}, {5, 4}, "i1"), a, b}, a),
                  {{0, 2, true}, kSigned, kSigned});
}

TEST_F(Gpu, CastsAndDataMovement) {
  json x = T({"a", "b"}, {3, 5});
  expectSameOnGpu(op("tessel.cast", {x}, T({"a", "b"}, {3, 5}, "bf16")),
                  {kSigned});
  expectSameOnGpu(op("tessel.cast", {x}, T({"a", "b"}, {3, 5}, "i32")),
                  {{-9, 9}});
  expectSameOnGpu(op("tessel.transpose", {x}, T({"b", "a"}, {5, 3})),
                  {kSigned});
  expectSameOnGpu(
      op("tessel.broadcast", {T({"b"}, {5})}, T({"b", "c", "a"}, {5, 2, 3})),
      {kSigned});
  expectSameOnGpu(op("tessel.reshape", {x}, T({"r"}, {15})), {kSigned});
  expectSameOnGpu(op("tessel.rename", {x}, T({"p", "q"}, {3, 5})), {kSigned});
  expectSameOnGpu(op("tessel.slice", {x}, T({"a", "b"}, {2, 3}),
                     {{"dims", {"a", "b"}}, {"starts", {1, 2}}}),
                  {kSigned});
  expectSameOnGpu(
      op("tessel.pad", {x}, T({"a", "b"}, {6, 5}),
         {{"dims", {"a"}}, {"low", {1}}, {"high", {2}}, {"value", -1}}),
      {kSigned});
  expectSameOnGpu(op("tessel.concat", {x, T({"b", "a"}, {5, 2})},
                     T({"a", "b"}, {5, 5}), {{"dim", "a"}}),
                  {kSigned, kSigned});
  expectSameOnGpu(op("tessel.one_hot", {T({"n"}, {6}, "i32")},
                     T({"n", "c"}, {6, 4}), {{"dim", "c"}}),
                  {{-1, 5, true}});
  expectSameOnGpu(op("tessel.gather",
                     {T({"v", "d"}, {5, 3}), T({"n"}, {4}, "i32")},
                     T({"n", "d"}, {4, 3}), {{"dim", "v"}}),
                  {kSigned, labels(5)});
  // Without a GPU kernel: the host's, between copies.
  expectSameOnGpu(op("tessel.parameter", {}, T({"h", "d"}, {4, 3}),
                     {{"init", "normal"}, {"scale", 0.5}, {"seed", 7}}),
                  {});
  expectSameOnGpu(
      op("tessel.constant", {}, T({"a"}, {3}), {{"value", {1.5, -2, 7}}}), {});
  expectSameOnGpu(
      op("tessel.iota", {}, T({"a", "b"}, {2, 3}, "i64"), {{"dim", "b"}}), {});
}

TEST_F(Gpu, ReductionsAndNormalisations) {
  json x = T({"b", "c", "d"}, {4, 300, 3});
  for (const char *kind : {"sum", "mean", "max", "min"})
    expectSameOnGpu(
        op("tessel.reduce", {x}, T({"d", "b"}, {3, 4}), {{"kind", kind}}),
        {kSigned});
  expectSameOnGpu(
      op("tessel.reduce", {T({"a"}, {6})}, T({}, {}), {{"kind", "prod"}}),
      {kPositive});
  expectSameOnGpu(op("tessel.reduce", {x}, T({}, {}), {{"kind", "sum"}}),
                  {kSigned});
  // Few long fibers: the two-pass reduction (Fibers.cu), with fibers
  // contiguous, strided, and one fiber of the whole tensor.
  json rows = T({"r", "c"}, {3, 40000});
  for (const char *kind : {"sum", "mean", "max", "min"})
    expectSameOnGpu(
        op("tessel.reduce", {rows}, T({"r"}, {3}), {{"kind", kind}}),
        {kSigned});
  expectSameOnGpu(op("tessel.reduce", {T({"c", "r"}, {40000, 2})},
                     T({"r"}, {2}), {{"kind", "sum"}}),
                  {kSigned});
  expectSameOnGpu(op("tessel.reduce", {T({"a", "b"}, {1000, 300})}, T({}, {}),
                     {{"kind", "sum"}}),
                  {kSigned});
  expectSameOnGpu(op("tessel.softmax", {x}, x, {{"dim", "c"}}), {kSigned});
  expectSameOnGpu(op("tessel.log_softmax", {x}, x, {{"dim", "b"}}), {kSigned});
  expectSameOnGpu(op("tessel.layer_norm", {x}, x,
                     {{"dims", {"c", "d"}}, {"epsilon", 1e-5}}),
                  {kSigned});
  expectSameOnGpu(op("tessel.softmax_cross_entropy",
                     {T({"c", "b"}, {10, 8}), T({"b"}, {8}, "i32")},
                     T({"b"}, {8}), {{"dim", "c"}}),
                  {kSigned, labels(10)});
}

TEST_F(Gpu, CrossEntropyReportsABadLabel) {
  std::string descriptor = op("tessel.softmax_cross_entropy",
                              {T({"b", "c"}, {2, 3}), T({"b"}, {2}, "i32")},
                              T({"b"}, {2}), {{"dim", "c"}});
  tessel_context_t *ctx = context();
  void *logits = tessel_rt_alloc(ctx, 6 * 4);
  void *labelBuffer = tessel_rt_alloc(ctx, 2 * 4);
  void *result = tessel_rt_alloc(ctx, 2 * 4);
  int32_t badLabels[] = {1, 3};
  float zeros[6] = {};
  activeBackend().copyToBuffer(*ctx, logits, zeros, sizeof(zeros));
  activeBackend().copyToBuffer(*ctx, labelBuffer, badLabels, sizeof(badLabels));
  void *operands[] = {logits, labelBuffer};
  void *site = nullptr;
  std::optional<std::string> error =
      tryExecute(ctx, &site, descriptor.c_str(), operands, 2, result);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("outside the class range [0, 3)"), std::string::npos)
      << *error;
  for (void *buffer : {logits, labelBuffer, result})
    tessel_rt_free(ctx, buffer);
}

//===----------------------------------------------------------------------===//
// tessel.fused
//===----------------------------------------------------------------------===//

json entry(const char *name, std::vector<int> args, json result,
           json attrs = json::object()) {
  return {{"op", name}, {"args", args}, {"result", result}, {"attrs", attrs}};
}

json constant(double value, json result = T({}, {})) {
  return entry("tessel.constant", {}, std::move(result), {{"value", value}});
}

std::string fused(std::vector<json> operands, json result,
                  std::vector<json> body) {
  return op("tessel.fused", std::move(operands), std::move(result),
            {{"body", body}});
}

// The fused kernel (FusedElementwise.cu) against the CPU's fused kernel:
// the same bits for bodies of exact ops (tests/FusedBodyTest.cpp says
// which), in f32, bf16 and f16, with operands in the result's layout,
// transposed, broadcast and scalar, i1 conditions and constants.
TEST_F(Gpu, FusedExactChains) {
  json full = T({"b", "s", "d"}, {3, 50, 70}), scalar = T({}, {});
  // AdamW's update, without its bias corrections.
  expectSameOnGpu(fused({full, full, full, full, scalar}, full,
                        {entry("tessel.mul", {1, 1}, full), constant(0.001),
                         entry("tessel.mul", {6, 5}, full), constant(0.999),
                         entry("tessel.mul", {8, 3}, full),
                         entry("tessel.add", {9, 7}, full),
                         entry("tessel.sqrt", {10}, full), constant(1e-8),
                         entry("tessel.add", {11, 12}, full),
                         entry("tessel.div", {2, 13}, full),
                         entry("tessel.mul", {4, 14}, full),
                         entry("tessel.sub", {0, 15}, full)}),
                  {kSigned, kSigned, kSigned, kPositive, kPositive}, 0, true);
  // Broadcast, transposed and i1 operands; compare, select, max, min.
  json i1 = T({"b", "s", "d"}, {3, 50, 70}, "i1");
  expectSameOnGpu(fused({T({"d", "s", "b"}, {70, 50, 3}), T({"d"}, {70}),
                         T({"s"}, {50}, "i1"), full},
                        full,
                        {entry("tessel.mul", {0, 1}, full),
                         entry("tessel.compare", {4, 3}, i1, {{"kind", "lt"}}),
                         entry("tessel.max", {4, 3}, full),
                         entry("tessel.min", {4, 1}, full),
                         entry("tessel.select", {5, 6, 7}, full),
                         entry("tessel.neg", {8}, full),
                         entry("tessel.select", {2, 9, 0}, full)}),
                  {kSigned, kSigned, {0, 2, true}, kSigned}, 0, true);
  // Mixed precision: casts and arithmetic in bf16 and f16, into each type.
  for (const char *narrow : {"bf16", "f16"})
    for (const char *resultType : {"f32", "bf16", "f16"}) {
      json low = T({"b", "s", "d"}, {3, 50, 70}, narrow);
      json result = T({"b", "s", "d"}, {3, 50, 70}, resultType);
      expectSameOnGpu(fused({full, T({"d"}, {70}, narrow), low}, result,
                            {entry("tessel.cast", {0}, low),
                             entry("tessel.mul", {3, 1}, low),
                             entry("tessel.sub", {4, 2}, low),
                             constant(300.0, T({}, {}, narrow)),
                             entry("tessel.mul", {5, 6}, low),
                             entry("tessel.cast", {7}, result)}),
                      {{-300, 300}, kSigned, kSigned}, 0, true);
    }
}

// Transcendental ops (double on the GPU, f32 SLEEF on the CPU) to the
// type's tolerance; a result past the grid's 65535 blocks of 256, so the
// grid-stride loop runs; and sums of many operands, on the GPU and, past
// the kernel's 64, on the host.
TEST_F(Gpu, FusedTranscendentalLargeAndOnHost) {
  json full = T({"r", "c"}, {64, 300});
  expectSameOnGpu(
      fused({full, T({"c"}, {300})}, full,
            {entry("tessel.add", {0, 1}, full), entry("tessel.gelu", {2}, full),
             entry("tessel.tanh", {3}, full), entry("tessel.exp", {4}, full),
             entry("tessel.log", {5}, full), entry("tessel.sigmoid", {6}, full),
             entry("tessel.rsqrt", {7}, full), entry("tessel.erf", {8}, full),
             entry("tessel.sin", {9}, full), entry("tessel.cos", {10}, full),
             entry("tessel.pow", {11, 1}, full)}),
      {kSigned, kPositive});
  json huge = T({"r", "c"}, {4097, 4099});
  expectSameOnGpu(fused({huge, T({"r"}, {4097})}, huge,
                        {entry("tessel.mul", {0, 1}, huge),
                         entry("tessel.add", {2, 0}, huge)}),
                  {kSigned, kSigned}, 0, true);
  // Sums of many operands: 53 scalars (the Transformer's largest fused op)
  // on the GPU, 65 on the host.
  for (int count : {53, 65}) {
    json x = T({}, {});
    std::vector<json> body = {entry("tessel.add", {0, 1}, x)};
    for (int i = 2; i < count; ++i)
      body.push_back(entry("tessel.add", {count + i - 2, i}, x));
    expectSameOnGpu(fused(std::vector<json>(count, x), x, body),
                    std::vector<Values>(count, kSigned), 0, true);
  }
}

//===----------------------------------------------------------------------===//
// cuDNN
//===----------------------------------------------------------------------===//

json convAttrs(std::vector<int64_t> padding) {
  return {{"input_channel", "c"},  {"output_channel", "f"},
          {"spatial", {"h", "w"}}, {"kernel", {"kh", "kw"}},
          {"strides", {2, 1}},     {"padding", padding},
          {"dilations", {1, 2}}};
}

TEST_F(Gpu, ConvolutionsOnCudnn) {
  // x [n:2, c:3, h:7, w:6], k [c:3, f:4, kh:3, kw:2], padding 1 on h and w:
  // output h = (7+2-3)/2+1 = 4, w = (6+2-2-1)/1+1 = 6.
  json x = T({"n", "c", "h", "w"}, {2, 3, 7, 6});
  json k = T({"c", "f", "kh", "kw"}, {3, 4, 3, 2});
  json y = T({"n", "f", "h", "w"}, {2, 4, 4, 6});
  json attrs = convAttrs({1, 1, 1, 1});
  // cuDNN and the host both sum dozens of f32 products, in other orders.
  constexpr double kConvTolerance = 2e-4;
  expectSameOnGpu(op("tessel.conv2d", {x, k}, y, attrs), {kSigned, kSigned},
                  kConvTolerance);
  expectSameOnGpu(op("tessel.conv2d_backward_input", {y, k}, x, attrs),
                  {kSigned, kSigned}, kConvTolerance);
  expectSameOnGpu(op("tessel.conv2d_backward_filter", {x, y}, k, attrs),
                  {kSigned, kSigned}, kConvTolerance);
  // Channels last and the batch in the middle: permuted around cuDNN.
  json xLast = T({"h", "n", "w", "c"}, {7, 2, 6, 3});
  json yLast = T({"h", "w", "n", "f"}, {4, 6, 2, 4});
  expectSameOnGpu(op("tessel.conv2d", {xLast, k}, yLast, attrs),
                  {kSigned, kSigned}, kConvTolerance);
  // Asymmetric padding is the host's: h = (7+1-3)/2+1 = 3, w = (6+1-2-1)+1 = 5.
  json yAsym = T({"n", "f", "h", "w"}, {2, 4, 3, 5});
  expectSameOnGpu(op("tessel.conv2d", {x, k}, yAsym, convAttrs({1, 0, 0, 1})),
                  {kSigned, kSigned}, kConvTolerance);
}

TEST_F(Gpu, PoolingOnCudnn) {
  json x = T({"n", "c", "h", "w"}, {2, 3, 6, 6});
  json y = T({"n", "c", "h", "w"}, {2, 3, 3, 3});
  for (const char *kind : {"max", "avg"}) {
    json attrs = {{"kind", kind},
                  {"spatial", {"h", "w"}},
                  {"window", {2, 2}},
                  {"strides", {2, 2}}};
    expectSameOnGpu(op("tessel.pool", {x}, y, attrs), {kSigned});
    expectSameOnGpu(op("tessel.pool_backward", {x, y}, x, attrs),
                    {kSigned, kSigned});
  }
  json padded = {{"kind", "avg"},
                 {"spatial", {"h", "w"}},
                 {"window", {3, 3}},
                 {"strides", {1, 1}},
                 {"padding", {1, 1, 1, 1}}};
  expectSameOnGpu(op("tessel.pool", {x}, x, padded), {kSigned});
}

//===----------------------------------------------------------------------===//
// NCCL
//===----------------------------------------------------------------------===//

TEST_F(Gpu, MeshOpsOnNccl) {
  int64_t ranks = worldSize();
  json x = T({"a", "b"}, {4, 6});
  for (const char *kind : {"sum", "max", "min"})
    expectSameOnGpu(
        op("tessel.all_reduce", {x}, x, {{"axes", {"x"}}, {"kind", kind}}),
        {kSigned});
  json half = T({"a", "b"}, {4, 6}, "bf16");
  expectSameOnGpu(
      op("tessel.all_reduce", {half}, half, {{"axes", {"x"}}, {"kind", "sum"}}),
      {kSigned});
  expectSameOnGpu(op("tessel.all_gather", {x}, T({"a", "b"}, {4, 6 * ranks}),
                     {{"axes", {"x"}}, {"dim", "b"}}),
                  {kSigned});
  json wide = T({"a", "b"}, {4, 6 * ranks});
  expectSameOnGpu(op("tessel.reduce_scatter", {wide}, x,
                     {{"axes", {"x"}}, {"dim", "b"}, {"kind", "sum"}}),
                  {kSigned});
  expectSameOnGpu(
      op("tessel.all_to_all", {wide}, T({"a", "b"}, {4 * ranks, 6}),
         {{"axes", {"x"}}, {"split_dim", "b"}, {"concat_dim", "a"}}),
      {kSigned});
  expectSameOnGpu(
      op("tessel.halo_exchange", {x}, T({"a", "b"}, {4, 9}),
         {{"axis", "x"}, {"dim", "b"}, {"halo", {2, 1}}, {"pad_value", -3}}),
      {kSigned});
  std::vector<int64_t> shift;
  for (int64_t p = 0; p + 1 < ranks; ++p)
    shift.insert(shift.end(), {p, p + 1});
  expectSameOnGpu(op("tessel.collective_permute", {x}, x,
                     {{"axes", {"x"}}, {"pairs", shift}}),
                  {kSigned});
  expectSameOnGpu(
      op("tessel.shard_slice", {wide}, x, {{"axes", {"x"}}, {"dim", "b"}}),
      {kSigned});
}

} // namespace
