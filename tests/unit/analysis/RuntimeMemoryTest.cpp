//===- RuntimeMemoryTest.cpp - the liveness peak of a per-rank step -------===//
//
// Small hand-written per-rank functions whose buffers are counted by hand:
// f32 [n:256] is 1024 bytes, a scalar 4 bytes rounded up to the buffer
// cache's 64, f32 [m:512] 2048 bytes.
//
//===----------------------------------------------------------------------===//

#include "analysis/RuntimeMemory.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace mlir::tessel;
using ::tessel::analysis::RuntimeMemory;

namespace {

class RuntimeMemoryTest : public ::testing::Test {
protected:
  RuntimeMemoryTest() {
    context.loadDialect<TesselDialect, func::FuncDialect>();
  }

  RuntimeMemory measure(const char *source,
                        ::tessel::analysis::Bf16Kernels bf16 = {}) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    auto func = *module->getOps<func::FuncOp>().begin();
    return ::tessel::analysis::runtimeMemory(func, nullptr, bf16);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

// A chain of four 1024-byte values: each dies after the next is made, so
// at most two of them are alive at once beside the two arguments.
//   arguments w, x          2048
//   a = relu x              3072
//   b = exp a               4096, then a freed: 3072
//   c = neg b               4096, then b freed: 3072
//   d = add c, w            4096, then c freed: 3072
//   s = reduce sum d        3136, then d freed: 2112
//   return s, w (a copy)    3136
// Never freeing (or freeing everything at the end) would give
// 2048 + 4 x 1024 + 64 + 1024 = 7232.
constexpr const char *kChain = R"mlir(
!v = !tessel.tensor<[n:256], f32>
func.func @train_step(%w: !v {tessel.role = "parameter"}, %x: !v)
    -> (!tessel.tensor<[], f32>, !v) {
  %a = tessel.relu %x : !v
  %b = tessel.exp %a : !v
  %c = tessel.neg %b : !v
  %d = tessel.add %c, %w : !v, !v -> !v
  %s = tessel.reduce sum %d : !v -> !tessel.tensor<[], f32>
  return %s, %w : !tessel.tensor<[], f32>, !v
}
)mlir";

TEST_F(RuntimeMemoryTest, ChainHoldsTwoValuesAtOnce) {
  RuntimeMemory memory = measure(kChain);
  EXPECT_EQ(memory.argumentBytes, 2048);
  // Only x is data: w is a parameter the driver keeps, not stages.
  EXPECT_EQ(memory.stagingBytes, 1024);
  EXPECT_EQ(memory.livePeakBytes, 4096);
  // Four 1024-byte buffers at once at most, one scalar.
  EXPECT_EQ(memory.heldBytes, 4 * 1024 + 64);
  // No kernel here copies its operands.
  EXPECT_EQ(memory.scratchBytes, 0);
  EXPECT_EQ(memory.totalBytes(), 4 * 1024 + 64 + 1024);
}

// Buffers of different sizes are not reused for one another: the cache
// keeps the freed 1024-byte `a` while the 2048-byte `b` is alive.
//   argument x              1024
//   a = relu x              2048
//   s = reduce sum a        2112, then a freed: 1088
//   b = broadcast s         3136, then s freed: 3072
// Held: two 1024-byte buffers (x, a), one of 64, one of 2048 = 4160.
constexpr const char *kSizes = R"mlir(
!v = !tessel.tensor<[n:256], f32>
!s = !tessel.tensor<[], f32>
!w = !tessel.tensor<[m:512], f32>
func.func @train_step(%x: !v) -> !w {
  %a = tessel.relu %x : !v
  %s = tessel.reduce sum %a : !v -> !s
  %b = tessel.broadcast %s : !s -> !w
  return %b : !w
}
)mlir";

TEST_F(RuntimeMemoryTest, CacheHoldsEverySizesMost) {
  RuntimeMemory memory = measure(kSizes);
  EXPECT_EQ(memory.livePeakBytes, 3136);
  EXPECT_EQ(memory.heldBytes, 4160);
}

// An unused result is freed right after its op, as the lowering frees it.
constexpr const char *kUnused = R"mlir(
!v = !tessel.tensor<[n:256], f32>
func.func @train_step(%x: !v) -> !v {
  %unused = tessel.exp %x : !v
  %a = tessel.relu %x : !v
  return %a : !v
}
)mlir";

TEST_F(RuntimeMemoryTest, UnusedResultFreedAtOnce) {
  RuntimeMemory memory = measure(kUnused);
  EXPECT_EQ(memory.livePeakBytes, 2048);
  EXPECT_EQ(memory.heldBytes, 2048);
}

// A started all_reduce is waited for before its first user, and its
// operand lives until then (the lowering frees it after that user), as
// the gradients of a data-parallel step wait for their buckets; MPI keeps
// a temporary of the operand's size while the reduction is in flight,
// heap memory beside the buffer cache's:
//   argument x                    1024
//   g = exp x                     2048
//   s = all_reduce g (started)    3072, and MPI's temporary of 1024
//   a = relu x                    4096
//   b = neg a                     5120, then a freed: 4096
//   u = add s, b (waits for s)    the temporary released; u 5120,
//                                 then g, s and b freed: 2048
// Blocking, g would be freed after the all_reduce, with no temporary
// left, and the peak be 4096.
constexpr const char *kStartedCollective = R"mlir(
!v = !tessel.tensor<[n:256], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%x: !v) -> !v {
    %g = tessel.exp %x : !v
    %s = tessel.all_reduce sum %g over ["data"] : !v
    %a = tessel.relu %x : !v
    %b = tessel.neg %a : !v
    %u = tessel.add %s, %b : !v, !v -> !v
    return %u : !v
  }
}
)mlir";

TEST_F(RuntimeMemoryTest, AStartedCollectivesOperandLivesUntilItsWait) {
  RuntimeMemory memory = measure(kStartedCollective);
  EXPECT_EQ(memory.livePeakBytes, 5120);
  EXPECT_EQ(memory.heldBytes, 5120);
  EXPECT_EQ(memory.inFlightBytes, 1024);
  EXPECT_EQ(memory.totalBytes(),
            memory.heldBytes + memory.stagingBytes + memory.inFlightBytes);
}

// A started all_reduce that only the return uses is waited for there, and
// its operand freed there, before the results are handed out:
//   argument x                    1024
//   c = exp x                     2048
//   r = all_reduce c (started)    3072, and MPI's temporary of 1024
//   d = relu x                    4096 (c is still read by the all_reduce)
//   return r, d                   the temporary and c freed: 3072
constexpr const char *kWaitedAtReturn = R"mlir(
!v = !tessel.tensor<[n:256], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%x: !v) -> (!v, !v) {
    %c = tessel.exp %x : !v
    %r = tessel.all_reduce sum %c over ["data"] : !v
    %d = tessel.relu %x : !v
    return %r, %d : !v, !v
  }
}
)mlir";

TEST_F(RuntimeMemoryTest, ACollectiveWaitedAtTheReturnHoldsItsOperandUntilThen) {
  RuntimeMemory memory = measure(kWaitedAtReturn);
  EXPECT_EQ(memory.livePeakBytes, 4096);
  EXPECT_EQ(memory.heldBytes, 4096);
  EXPECT_EQ(memory.inFlightBytes, 1024);
  // Over an axis of one rank the runtime calls no MPI: no temporary.
  std::string oneRank = kWaitedAtReturn;
  oneRank.replace(oneRank.find("[data:2]"), 8, "[data:1]");
  EXPECT_EQ(measure(oneRank.c_str()).inFlightBytes, 0);
}

// A rename of a value that dies with it keeps the value's buffer:
//   argument x [n:256]            1024
//   e = exp x                     2048
//   r = rename e (e dies)         2048, r in e's buffer (a copy: 3072)
//   s = sum r                     2112, then r freed
// A rename of a value used again copies it (e is read by the add):
//   e = exp x                     2048
//   r = rename e (e lives on)     3072, a copy
//   b = rename r (r dies)         3072, b in r's buffer
//   s = add b, e                  4096
constexpr const char *kRenames = R"mlir(
func.func @train_step(%x: !tessel.tensor<[n:256], f32>)
    -> !tessel.tensor<[], f32> {
  %e = tessel.exp %x : !tessel.tensor<[n:256], f32>
  %r = tessel.rename %e : !tessel.tensor<[n:256], f32> -> !tessel.tensor<[m:256], f32>
  %s = tessel.reduce sum %r : !tessel.tensor<[m:256], f32> -> !tessel.tensor<[], f32>
  return %s : !tessel.tensor<[], f32>
}
)mlir";

constexpr const char *kRenameOfALiveValue = R"mlir(
func.func @train_step(%x: !tessel.tensor<[n:256], f32>)
    -> !tessel.tensor<[n:256], f32> {
  %e = tessel.exp %x : !tessel.tensor<[n:256], f32>
  %r = tessel.rename %e : !tessel.tensor<[n:256], f32> -> !tessel.tensor<[m:256], f32>
  %b = tessel.rename %r : !tessel.tensor<[m:256], f32> -> !tessel.tensor<[n:256], f32>
  %s = tessel.add %b, %e : !tessel.tensor<[n:256], f32>, !tessel.tensor<[n:256], f32>
      -> !tessel.tensor<[n:256], f32>
  return %s : !tessel.tensor<[n:256], f32>
}
)mlir";

TEST_F(RuntimeMemoryTest, ARenameOfADyingValueKeepsItsBuffer) {
  EXPECT_EQ(measure(kRenames).livePeakBytes, 1024 + 1024 + 64);
  // r is a copy (e lives on); b keeps r's buffer.
  EXPECT_EQ(measure(kRenameOfALiveValue).livePeakBytes, 4 * 1024);
}

// Every op calls the runtime but a rename that keeps its dying operand's
// buffer: exp and sum in kRenames; exp, the copying rename and add in
// kRenameOfALiveValue.
TEST_F(RuntimeMemoryTest, ARenameThatKeepsItsBufferIsNoCallSite) {
  EXPECT_EQ(measure(kRenames).callSites, 2);
  EXPECT_EQ(measure(kRenameOfALiveValue).callSites, 3);
}

// The runtime's einsum reads its operands and writes its product in place
// where each class of dims (M, N, K) lies in the tensor as one run in the
// order the matmul reads it, transposed or not; any other tensor is
// permuted into a copy. With x [a:4, p:2, q:4] contracted over p and q (K):
//   - t [c:16, p:2, q:4] is a transposed matrix: nothing is copied;
//   - s [p:2, c:16, q:4] splits K with c: s is copied, 512 bytes;
//   - the product [a:4, c:16, r:8] of y [a:4, r:8, p:2, q:4] splits M
//     (a, r) with c: the product is copied, 2048 bytes.
// The largest op's copies count once, beside the buffers.
constexpr const char *kX = "!tessel.tensor<[a:4, p:2, q:4], f32>";
constexpr const char *kY = "!tessel.tensor<[a:4, r:8, p:2, q:4], f32>";
constexpr const char *kT = "!tessel.tensor<[c:16, p:2, q:4], f32>";
constexpr const char *kS = "!tessel.tensor<[p:2, c:16, q:4], f32>";
constexpr const char *kAC = "!tessel.tensor<[a:4, c:16], f32>";
constexpr const char *kACR = "!tessel.tensor<[a:4, c:16, r:8], f32>";

/// A step that is one einsum of `lhs` and `rhs` into `result`.
std::string oneEinsum(const std::string &lhs, const std::string &rhs,
                      const std::string &result) {
  return "func.func @train_step(%a: " + lhs + ", %b: " + rhs + ") -> " +
         result + " {\n  %r = tessel.einsum %a, %b : (" + lhs + ", " + rhs +
         ") -> " + result + "\n  return %r : " + result + "\n}\n";
}

TEST_F(RuntimeMemoryTest, EinsumsCopyOnlyWhatTheyCannotReadInPlace) {
  auto copied = [&](const std::string &text) {
    return measure(text.c_str()).scratchBytes;
  };
  EXPECT_EQ(copied(oneEinsum(kX, kT, kAC)), 0);
  EXPECT_EQ(copied(oneEinsum(kX, kS, kAC)), 512);
  EXPECT_EQ(copied(oneEinsum(kY, kT, kACR)), 2048);

  std::string all =
      std::string("func.func @train_step(%x: ") + kX + ", %y: " + kY +
      ", %t: " + kT + ", %s: " + kS + ") -> (" + kAC + ", " + kACR +
      ") {\n  %split = tessel.einsum %x, %s : (" + kX + ", " + kS + ") -> " +
      kAC + "\n  %scattered = tessel.einsum %y, %t : (" + kY + ", " + kT +
      ") -> " + kACR + "\n  return %split, %scattered : " + kAC + ", " + kACR +
      "\n}\n";
  RuntimeMemory memory = measure(all.c_str());
  EXPECT_EQ(memory.scratchBytes, 2048);
  EXPECT_EQ(memory.totalBytes(),
            memory.heldBytes + memory.stagingBytes + memory.scratchBytes);
}

// The executor keeps a dense constant's bytes for the process's life and
// copies them at every call; a splat (a number, or a splat dense attribute)
// fills its result instead and keeps nothing, as @init's zero optimizer
// moments do. Both results are buffers all the same.
constexpr const char *kConstants = R"mlir(
func.func @init() -> (!tessel.tensor<[n:1024], f32>,
                      !tessel.tensor<[n:1024], f32>,
                      !tessel.tensor<[k:4], f32>) {
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[n:1024], f32>
  %ones = tessel.constant dense<1.0> : tensor<1024xf32>
      -> !tessel.tensor<[n:1024], f32>
  %v = tessel.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
      -> !tessel.tensor<[k:4], f32>
  return %zero, %ones, %v : !tessel.tensor<[n:1024], f32>,
      !tessel.tensor<[n:1024], f32>, !tessel.tensor<[k:4], f32>
}
)mlir";

TEST_F(RuntimeMemoryTest, OnlyDenseConstantsKeepTheirBytes) {
  RuntimeMemory memory = measure(kConstants);
  EXPECT_EQ(memory.constantBytes, 16);
  EXPECT_EQ(memory.livePeakBytes, 4096 + 4096 + 64);
}

// A started reduce_scatter holds a packed copy of its input where the
// scattered dim is not outermost, from its start until its wait, and
// Open MPI's temporaries of its whole input while it moves its data
// (libnbc's binomial reduce: one buffer written in a group of 2, two in
// larger ones); a started all_gather along a dim that is not outermost
// receives into a buffer of its result's size:
//   argument x [b:4, n:64]            1024
//   g = exp x                          2048
//   s = reduce_scatter g along DIM     2560, in flight 1024 (+ 1024
//                                      packed)
//   u = neg s (waits for s)            the temporaries released; 3072
// so the buffers peak at 3072 and the temporaries at 1024 along b
// (outermost) and 2048 along n; over 4 ranks, 2048 along b.
constexpr const char *kStartedReduceScatter = R"mlir(
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%x: !tessel.tensor<[b:4, n:64], f32>) -> RESULT {
    %g = tessel.exp %x : !tessel.tensor<[b:4, n:64], f32>
    %s = tessel.reduce_scatter sum %g along "DIM" over ["data"]
        : !tessel.tensor<[b:4, n:64], f32> -> RESULT
    %u = tessel.neg %s : RESULT
    return %u : RESULT
  }
}
)mlir";

// all_gather of x [b:4, n:32] (512 bytes) into 1024 bytes along DIM:
//   argument x                         512
//   g = all_gather x along DIM         1536 (in flight: 1024 received,
//                                      unpacked at the wait, where DIM
//                                      is n)
//   t = sum of g (waits for g)         the received buffer released; 1600
// so the buffers peak at 1600, and in flight it holds 0 along b
// (outermost) and 1024 along n.
constexpr const char *kStartedAllGather = R"mlir(
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%x: !tessel.tensor<[b:4, n:32], f32>)
      -> !tessel.tensor<[], f32> {
    %g = tessel.all_gather %x along "DIM" over ["data"]
        : !tessel.tensor<[b:4, n:32], f32> -> RESULT
    %t = tessel.reduce sum %g : RESULT -> !tessel.tensor<[], f32>
    return %t : !tessel.tensor<[], f32>
  }
}
)mlir";

std::string withDim(const char *source, const char *dim, const char *result) {
  std::string text = source;
  for (auto [from, to] : {std::pair<std::string, std::string>{"DIM", dim},
                          {"RESULT", result}})
    for (size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

TEST_F(RuntimeMemoryTest, StartedCollectivesHoldWhatMpiAndPackingAllocate) {
  auto measured = [&](const char *source, const char *dim, const char *result) {
    return measure(withDim(source, dim, result).c_str());
  };
  RuntimeMemory outermost =
      measured(kStartedReduceScatter, "b", "!tessel.tensor<[b:2, n:64], f32>");
  EXPECT_EQ(outermost.livePeakBytes, 3072);
  EXPECT_EQ(outermost.inFlightBytes, 1024);
  EXPECT_EQ(
      measured(kStartedReduceScatter, "n", "!tessel.tensor<[b:4, n:32], f32>")
          .inFlightBytes,
      2 * 1024);
  std::string overFour =
      withDim(kStartedReduceScatter, "b", "!tessel.tensor<[b:1, n:64], f32>");
  overFour.replace(overFour.find("[data:2]"), 8, "[data:4]");
  EXPECT_EQ(measure(overFour.c_str()).inFlightBytes, 2 * 1024);
  RuntimeMemory gathered =
      measured(kStartedAllGather, "b", "!tessel.tensor<[b:8, n:32], f32>");
  EXPECT_EQ(gathered.livePeakBytes, 512 + 1024 + 64);
  EXPECT_EQ(gathered.inFlightBytes, 0);
  EXPECT_EQ(measured(kStartedAllGather, "n", "!tessel.tensor<[b:4, n:64], f32>")
                .inFlightBytes,
            1024);
}

// Three reduce_scatters in flight at once over 2 ranks, each along n: the
// packed copies of the two whose n is not outermost (1024 and 512 bytes;
// z's b is 1) are held together, but libnbc moves their data one
// collective after another over the one link, while the one before still
// sends its chunk back: only the two largest temporaries (1024 and 512)
// count, 3072 where all three would be 3328 (and the two started last,
// z's and y's, 2304).
constexpr const char *kThreeStartedReduceScatters = R"mlir(
!x = !tessel.tensor<[b:4, n:64], f32>
!y = !tessel.tensor<[b:2, n:64], f32>
!z = !tessel.tensor<[b:1, n:64], f32>
!xs = !tessel.tensor<[b:4, n:32], f32>
!ys = !tessel.tensor<[b:2, n:32], f32>
!zs = !tessel.tensor<[b:1, n:32], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%x: !x, %y: !y, %z: !z) -> (!xs, !ys, !zs) {
    %s = tessel.reduce_scatter sum %x along "n" over ["data"] : !x -> !xs
    %r = tessel.reduce_scatter sum %z along "n" over ["data"] : !z -> !zs
    %t = tessel.reduce_scatter sum %y along "n" over ["data"] : !y -> !ys
    %u = tessel.neg %s : !xs
    %v = tessel.neg %t : !ys
    %w = tessel.neg %r : !zs
    return %u, %v, %w : !xs, !ys, !zs
  }
}
)mlir";

TEST_F(RuntimeMemoryTest, LibnbcMovesTwoReduceScattersAtATimeOverALink) {
  EXPECT_EQ(measure(kThreeStartedReduceScatters).inFlightBytes,
            1024 + 512 + 1024 + 512);
}

// The runtime computes a bf16 einsum and reduction on their f32 kernels
// (without AMX, as most CPUs are), keeping an f32 copy per operand position
// and one for the result, each as large as the largest it held:
//   slot 0: x, 1024 elements (the einsum), then y, 512 (the sum): 4096
//   slot 1: w, 8 elements; then the sum's result, 2: 32
//   slot 2: the einsum's result, 512 elements: 2048
// and the einsum's kernel scratch, the copy of w (its K dims k and j lie
// apart), counts in f32. An f32 program keeps no copies.
constexpr const char *kWidened = R"mlir(
func.func @train_step(%x: !tessel.tensor<[n:256, k:2, j:2], bf16>,
                      %w: !tessel.tensor<[k:2, m:2, j:2], bf16>)
    -> !tessel.tensor<[m:2], bf16> {
  %y = tessel.einsum %x, %w : (!tessel.tensor<[n:256, k:2, j:2], bf16>,
      !tessel.tensor<[k:2, m:2, j:2], bf16>) -> !tessel.tensor<[n:256, m:2], bf16>
  %s = tessel.reduce sum %y : !tessel.tensor<[n:256, m:2], bf16>
      -> !tessel.tensor<[m:2], bf16>
  return %s : !tessel.tensor<[m:2], bf16>
}
)mlir";

TEST_F(RuntimeMemoryTest, NarrowOpsOnF32KernelsKeepF32Copies) {
  RuntimeMemory memory = measure(kWidened);
  EXPECT_EQ(memory.widenedCopyBytes, 4096 + 32 + 2048);
  EXPECT_EQ(memory.scratchBytes, 8 * 4);
  EXPECT_EQ(memory.totalBytes(), memory.heldBytes + memory.stagingBytes +
                                     memory.scratchBytes +
                                     memory.widenedCopyBytes);
  std::string f32 = kWidened;
  for (size_t at = f32.find("bf16"); at != std::string::npos;
       at = f32.find("bf16", at))
    f32.replace(at, 4, "f32");
  EXPECT_EQ(measure(f32.c_str()).widenedCopyBytes, 0);
}

// On a machine whose bf16 products run on oneDNN's bf16 kernels (AMX, or
// AMD's AVX512-BF16), the einsum keeps no f32 copies and packs its
// operands in bf16; the sum is widened all the same.
TEST_F(RuntimeMemoryTest, NativeBf16ProductsKeepNoF32Copies) {
  RuntimeMemory memory =
      measure(kWidened, {::tessel::analysis::Bf16Products::Native,
                         ::tessel::analysis::Bf16Products::Native});
  EXPECT_EQ(memory.widenedCopyBytes, 2048 + 8);
  EXPECT_EQ(memory.scratchBytes, 8 * 2);
}

// A bf16 convolution and its filter gradient where the products run on
// bf16 kernels but the filter gradient on the f32 one (AMD's
// AVX512-BF16): only the gradient keeps f32 copies, of x (slot 0: 2 x 4 x
// 8 x 8 = 512 elements), dy (slot 1: 2 x 8 x 8 x 8 = 1024) and its
// result (slot 2: 4 x 8 x 3 x 3 = 288), 4 bytes each.
constexpr const char *kFilterGradient = R"mlir(
!x = !tessel.tensor<[n:2, c:4, h:8, w:8], bf16>
!k = !tessel.tensor<[c:4, f:8, kh:3, kw:3], bf16>
!y = !tessel.tensor<[n:2, f:8, h:8, w:8], bf16>
func.func @train_step(%x: !x, %k: !k, %dy: !y) -> (!y, !k) {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
      spatial = ["h", "w"], kernel = ["kh", "kw"],
      padding = array<i64: 1, 1, 1, 1>} : !x, !k -> !y
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c",
      output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"],
      padding = array<i64: 1, 1, 1, 1>} : !x, !y -> !k
  return %y, %dk : !y, !k
}
)mlir";

TEST_F(RuntimeMemoryTest, AWidenedFilterGradientKeepsF32CopiesOfItsOwn) {
  using ::tessel::analysis::Bf16Products;
  EXPECT_EQ(
      measure(kFilterGradient, {Bf16Products::Native, Bf16Products::Widened})
          .widenedCopyBytes,
      (512 + 1024 + 288) * 4);
  EXPECT_EQ(
      measure(kFilterGradient, {Bf16Products::Native, Bf16Products::Native})
          .widenedCopyBytes,
      0);
  // Every product widened: the forward convolution's copies too, of x, k
  // (288) and its result y (1024), in the same three slots.
  EXPECT_EQ(measure(kFilterGradient).widenedCopyBytes, (512 + 1024 + 1024) * 4);
}

} // namespace
