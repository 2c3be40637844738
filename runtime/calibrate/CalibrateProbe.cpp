//===- CalibrateProbe.cpp - time kernels and collectives on this machine --===//
//
// What `tessel calibrate` starts under mpirun (as `tessel run` starts a
// program) to measure the machine through the runtime itself: every
// measurement is an op descriptor run by tessel_rt_execute, the call a
// compiled program makes, so the kernels, the executor's dispatch and the
// communicator are the ones a training step uses.
//
//   mpirun -n 4 tessel-calibrate-probe --kernels --per-op
//   mpirun -n 4 tessel-calibrate-probe --collectives
//
// --kernels: every rank runs the same kernels at the same time with its
// share of the cores (as the driver gives it), so that the rate is what one
// rank of a job of that many ranks gets. Classes and their work measure,
// as analysis/CostReport counts FLOPs: matmul (an einsum of two square
// matrices, 2 M N K), matmul_thin (t rows against a 512 x 512 matrix, 2 t
// 512 512), matmul_batched (attention's scores: 4 examples of 8 heads,
// each s x 32 by 32 x s, in the layouts a Transformer's projections give
// them, 2 4 8 s s 32), convolution (conv2d, 2 x output x input channels x
// window, the output channels counted in whole blocks of 16 as
// analysis/StepTime's vectorizedConvolutionWork counts them), elementwise (add,
// one per element), reduction (a sum over the last dim, one per input element),
// normalization (softmax, 5 per element), transcendental (gelu, one per
// element: the costliest of them, through erfc, and the one a Transformer's MLP
// computes), pooling and pooling_backward (2 x 2 max pooling and its gradient,
// the input's elements), fused_entry (what each entry of a tessel.fused body
// adds beyond its first: a body of 1 + kFusedEntries adds and multiplies less
// a body of one add, per element and entry). Each class is timed on f32
// tensors and again on
// bf16 and on f16 ones (the "type" of its lines), as a mixed-precision
// step computes them.
//
// --per-op: what a compiled program spends on each op besides its kernel:
// a program of many small ops, each at a call site of its own, run as
// tessel-lower-to-runtime's code runs it (allocate the result, execute,
// free what the op used last), against the same kernels timed alone; the
// difference per op is the profile's `per_op_seconds`.
//
// --collectives: each collective over a one-axis mesh of all ranks and, on
// four or more ranks, over the inner axis of a (ranks/2) x 2 mesh, where
// groups of two run side by side as they do in a hybrid layout.
// `bytes_per_rank` is what analysis/CostReport counts for the call (ring
// algorithms: all_reduce 2 (g-1)/g x input, all_gather (g-1) x input,
// reduce_scatter and all_to_all (g-1)/g x input; halo_exchange the rows it
// sends), so that a time fitted against it applies to its counts. Every
// collective but all_to_all is timed twice: blocking, and started and
// waited for at once ("started": true), the form a compiled program runs.
// Over all ranks it also times how much of a started all_reduce the ops
// after it hide ("overlap": the two alone, and together).
//
// --machine: the machine measured (MachineFacts.h), the backend's devices
// and whether its bf16 products run widened to f32, so that the output
// saved on one machine is a profile elsewhere.
//
// An op the backend has no kernel for at some type is a "skipped" line
// with the backend's reason, not the end of the job.
//
// Rank 0 prints one JSON object per line, and {"kind": "end"} last. A
// measurement is the median over
// --repetitions of the slowest rank's time per call in a batch of
// back-to-back calls lasting at least --min-seconds, until they have run
// on the backend in use: built as tessel-calibrate-probe-cuda
// (runtime/gpu) the CUDA backend's, whose buffers are the device's and
// whose kernels run after their calls return.
//
//===----------------------------------------------------------------------===//

#include "base/Float16.h"
#include "calibrate/MachineFacts.h"
#include "driver/Threads.h"
#include "executor/Backend.h"
#include "executor/Context.h"
#include "executor/Execute.h"
#include "executor/WidenedOps.h"
#include "tessel/runtime/comm.h"
#include "tessel/runtime/program.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using nlohmann::ordered_json;

namespace {

struct Settings {
  int repetitions = 5;
  double minSeconds = 0.01;
  /// Waits until the calls made so far have run: a device backend's
  /// kernels run after their calls return (nothing to wait for on the
  /// host's).
  std::function<void()> finish = [] {};
  /// Pushes the caches out before a cold call: the host's, and a
  /// device's where the backend has one.
  std::function<void()> flushCaches = [] {};
};

/// One operand or result: {"dims": [...], "shape": [...], "type": "f32"}.
ordered_json tensor(const std::vector<std::string> &dims,
                    const std::vector<int64_t> &shape,
                    const std::string &type = "f32") {
  return {{"dims", dims}, {"shape", shape}, {"type", type}};
}

int64_t elementsOf(const ordered_json &tensor) {
  int64_t count = 1;
  for (int64_t size : tensor["shape"])
    count *= size;
  return count;
}

/// An op descriptor as tessel-lower-to-runtime writes it.
std::string descriptorText(const std::string &name,
                           const std::vector<ordered_json> &operands,
                           const ordered_json &result,
                           const ordered_json &attrs) {
  ordered_json desc = {{"attrs", attrs},
                       {"loc", "calibrate"},
                       {"op", name},
                       {"operands", operands},
                       {"result", result}};
  return desc.dump();
}

/// A buffer of `elements` small values of `type` (f32, bf16 or f16), so
/// that no kernel meets NaN or overflow; written through the backend,
/// whose buffers may be a device's.
void *filledBuffer(tessel_context_t *context, int64_t elements,
                   const std::string &type) {
  int64_t count = std::max<int64_t>(1, elements);
  std::vector<float> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    values[i] = 0.25f + 0.001f * static_cast<float>(i % 97);
  tessel::runtime::Backend &backend = tessel::runtime::activeBackend();
  if (type == "f32") {
    void *buffer = tessel_rt_alloc(context, count * 4);
    backend.copyToBuffer(*context, buffer, values.data(), count * 4);
    return buffer;
  }
  std::vector<uint16_t> narrow(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    narrow[i] = type == "bf16" ? tessel::runtime::floatToBf16(values[i])
                               : tessel::runtime::floatToF16(values[i]);
  void *buffer = tessel_rt_alloc(context, count * 2);
  backend.copyToBuffer(*context, buffer, narrow.data(), count * 2);
  return buffer;
}

/// Settings whose finish waits for `context`'s device.
Settings onDevice(const Settings &settings, tessel_context_t *context) {
  Settings timed = settings;
  timed.finish = [context] {
    tessel::runtime::activeBackend().waitForDevice(*context);
  };
  return timed;
}

/// An op descriptor with its operand and result buffers.
class Op {
public:
  Op(tessel_context_t *context, const std::string &name,
     std::vector<ordered_json> operands, ordered_json result,
     ordered_json attrs = ordered_json::object())
      : context(context), text(descriptorText(name, operands, result, attrs)) {
    for (const ordered_json &operand : operands)
      buffers.push_back(
          filledBuffer(context, elementsOf(operand), operand["type"]));
    output = filledBuffer(context, elementsOf(result), result["type"]);
  }
  ~Op() {
    for (void *buffer : buffers)
      tessel_rt_free(context, buffer);
    tessel_rt_free(context, output);
  }
  Op(const Op &) = delete;
  Op &operator=(const Op &) = delete;

  void run() {
    tessel_rt_execute(context, &site, text.c_str(), buffers.data(),
                      static_cast<int32_t>(buffers.size()), output);
  }

  /// Starts the op (a collective) and waits for it, as a compiled program
  /// runs a collective it starts: at once with nothing to compute
  /// meanwhile (startAndWait), or after other ops.
  void start() {
    tessel_rt_start(context, &site, text.c_str(), buffers.data(),
                    static_cast<int32_t>(buffers.size()), output);
  }
  void wait() { tessel_rt_wait(context, &site); }
  void startAndWait() {
    start();
    wait();
  }

  /// Runs the op once, returning the backend's error instead of ending the
  /// job where it has no kernel for the op (a type it does not compute).
  std::optional<std::string> tryRun() {
    return tessel::runtime::tryExecute(
        context, &site, text.c_str(), buffers.data(),
        static_cast<int32_t>(buffers.size()), output);
  }

private:
  tessel_context_t *context;
  std::string text;
  void *site = nullptr;
  std::vector<void *> buffers;
  void *output = nullptr;
};

double slowestRank(double mine) {
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

/// Returns the slowest rank's seconds per call of `calls` back-to-back
/// calls of `call`, until they have run.
double timeBatch(const std::function<void()> &call, int64_t calls,
                 const Settings &settings) {
  settings.finish();
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (int64_t c = 0; c < calls; ++c)
    call();
  settings.finish();
  return slowestRank((MPI_Wtime() - start) / static_cast<double>(calls));
}

/// Returns how many calls of `call` make a batch of at least
/// `settings.minSeconds`, after a first call that prepares the kernel
/// (descriptor, oneDNN). A call is sized by the fastest of three: one
/// preempted call would make every batch too short to average a
/// preemption out (a 10 us convolution's batch of 2 ms shrunk to a tenth
/// by a single slow call).
int64_t batchCalls(const std::function<void()> &call,
                   const Settings &settings) {
  call();
  double once = timeBatch(call, 1, settings);
  for (int sample = 1; sample < 3; ++sample)
    once = std::min(once, timeBatch(call, 1, settings));
  return std::max<int64_t>(
      1, static_cast<int64_t>(settings.minSeconds / std::max(once, 1e-9)));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Returns the median over repetitions of the slowest rank's seconds per
/// call of `call`, in batches that last at least `settings.minSeconds`.
double timeCall(const std::function<void()> &call, const Settings &settings) {
  int64_t calls = batchCalls(call, settings);
  std::vector<double> seconds;
  for (int i = 0; i < settings.repetitions; ++i)
    seconds.push_back(timeBatch(call, calls, settings));
  return median(seconds);
}

void print(int rank, const ordered_json &line) {
  if (rank != 0)
    return;
  std::fputs((line.dump() + "\n").c_str(), stdout);
  std::fflush(stdout);
}

/// Bytes written between two cold calls: twice a large level-3 cache, so
/// that no operand of the call before is left in any cache.
constexpr size_t kFlushBytes = size_t(64) << 20;

/// The thin matmuls' other two sides (analysis/StepTime.h's
/// kThinMatmulSide, which reads their points).
constexpr int64_t kThinMatmulSide = 512;

/// Bytes written to a device between two cold calls: several times a
/// GPU's level-2 cache (50 MiB on an H100).
constexpr size_t kDeviceFlushBytes = size_t(256) << 20;

/// Returns the median over repetitions of the slowest rank's seconds for
/// one call of `call` made right after every rank pushed its caches out
/// (settings.flushCaches):
/// the kernel reading its operands from memory and writing its result
/// there, as one does in a training step whose other ops' data pushed its
/// own out of the caches.
double timeColdCall(const std::function<void()> &call,
                    const Settings &settings) {
  std::vector<double> seconds;
  for (int i = 0; i < settings.repetitions; ++i) {
    settings.flushCaches();
    settings.finish();
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    call();
    settings.finish();
    seconds.push_back(slowestRank(MPI_Wtime() - start));
  }
  return median(seconds);
}

/// The element-wise op `name` of `operands`, as a compiled step runs it:
/// the op itself in f32, and on the CPU a tessel.fused of that one op in
/// bf16 and f16 (tessel-fuse-elementwise fuses every element-wise op of
/// those types; a GPU step is fused only with --gpu-fusion, and its
/// element-wise ops are timed as themselves).
Op elementwiseOp(tessel_context_t *context, const std::string &name,
                 const std::vector<ordered_json> &operands,
                 const ordered_json &result) {
  bool cpu = tessel::runtime::activeBackend().name() == std::string("cpu");
  if (result["type"] == "f32" || !cpu)
    return Op(context, name, operands, result);
  std::vector<int> args;
  for (size_t i = 0; i < operands.size(); ++i)
    args.push_back(static_cast<int>(i));
  ordered_json entry = {{"op", name},
                        {"args", args},
                        {"result", result},
                        {"attrs", ordered_json::object()}};
  return Op(context, "tessel.fused", operands, result,
            {{"body", ordered_json::array({entry})}});
}

/// The entries beyond the first of the probe's longer fused body.
constexpr int64_t kFusedEntries = 8;

/// A tessel.fused of `entries` entries on two `shape` operands: an add of
/// them, then multiplies and adds of the value so far and an operand in
/// turn, as an optimizer's update or a layer's bias, scale and activation
/// chain one value through a body.
Op fusedChainOp(tessel_context_t *context, const ordered_json &shape,
                int64_t entries) {
  ordered_json body = ordered_json::array();
  for (int64_t e = 0; e < entries; ++e) {
    // Values 0 and 1 are the operands, 2 + e the entry e's result. Both
    // bodies read both operands (the first entry adds them), so that their
    // difference holds no operand's traffic.
    std::vector<int> args = {0, 1};
    if (e > 0)
      args = {static_cast<int>(1 + e), static_cast<int>(e % 2)};
    const char *op = e % 2 == 0 ? "tessel.add" : "tessel.mul";
    body.push_back({{"op", op},
                    {"args", args},
                    {"result", shape},
                    {"attrs", ordered_json::object()}});
  }
  return Op(context, "tessel.fused", {shape, shape}, shape, {{"body", body}});
}

/// Times each kernel class at each size on `type` (f32, bf16 or f16)
/// tensors. A mixed-precision step's element-wise ops in bf16 and f16 are
/// always fused (tessel-fuse-elementwise: the fused kernel is their
/// vectorized loop), so those classes time a tessel.fused of one add or
/// one gelu there, and the op itself in f32.
void measureKernelsOf(const std::string &type, tessel_context_t *context,
                      int rank, int ranks, int threads, const Settings &timed) {
  // A kernel the backend lacks for this type (every rank runs the same
  // op, but all must agree to skip) is reported and left out; the
  // profile then times the class from the f32 points.
  auto runs = [&](const char *opClass, int64_t work, Op &op) {
    std::optional<std::string> failure = op.tryRun();
    int failed = failure ? 1 : 0, anyFailed = 0;
    MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anyFailed)
      print(rank, {{"kind", "skipped"},
                   {"class", opClass},
                   {"type", type},
                   {"ranks", ranks},
                   {"work", work},
                   {"reason", failure.value_or("failed on another rank")}});
    return !anyFailed;
  };
  auto printKernel = [&](const char *opClass, int64_t work, double seconds,
                         double cold) {
    print(rank, {{"kind", "kernel"},
                 {"class", opClass},
                 {"type", type},
                 {"ranks", ranks},
                 {"threads", threads},
                 {"work", work},
                 {"seconds", seconds},
                 {"cold_seconds", cold}});
  };
  auto report = [&](const char *opClass, int64_t work, Op &op) {
    if (!runs(opClass, work, op))
      return;
    double seconds = timeCall([&] { op.run(); }, timed);
    double cold = timeColdCall([&] { op.run(); }, timed);
    printKernel(opClass, work, seconds, cold);
  };
  auto typed = [type](const std::vector<std::string> &dims,
                      const std::vector<int64_t> &shape) {
    return tensor(dims, shape, type);
  };
  for (int64_t n : {8, 32, 64, 128, 256, 512}) {
    Op op(context, "tessel.einsum",
          {typed({"m", "k"}, {n, n}), typed({"k", "n"}, {n, n})},
          typed({"m", "n"}, {n, n}));
    report("matmul", 2 * n * n * n, op);
  }
  // Thin products: t rows against a 512 x 512 matrix, as a small batch
  // (or micro-batch) meets a layer's weights; t = 512 is the square's
  // largest point.
  for (int64_t t : {8, 16, 32, 64, 128, 256, 512}) {
    Op op(context, "tessel.einsum",
          {typed({"m", "k"}, {t, kThinMatmulSide}),
           typed({"k", "n"}, {kThinMatmulSide, kThinMatmulSide})},
          typed({"m", "n"}, {t, kThinMatmulSide}));
    report("matmul_thin", 2 * t * kThinMatmulSide * kThinMatmulSide, op);
  }
  // Batched products as attention computes its scores: 4 examples of 8
  // heads, each a sequence of s against another over a head of 32, the
  // heads beside the head's dim in the operands ([b, s, h, d], the
  // projections' result) and before the sequences in the scores.
  for (int64_t s : {8, 16, 32, 64, 128, 256}) {
    Op op(context, "tessel.einsum",
          {typed({"b", "m", "h", "k"}, {4, s, 8, 32}),
           typed({"b", "n", "h", "k"}, {4, s, 8, 32})},
          typed({"b", "h", "m", "n"}, {4, 8, s, s}));
    report("matmul_batched", 2 * 4 * 8 * s * s * 32, op);
  }
  // Batch 4, 16 x 16 images, 3 x 3 filters, channels in = out.
  for (int64_t c : {4, 16, 32, 64}) {
    ordered_json attrs = {{"dilations", {1, 1}},   {"groups", 1},
                          {"input_channel", "c"},  {"kernel", {"kh", "kw"}},
                          {"output_channel", "f"}, {"padding", {1, 1, 1, 1}},
                          {"spatial", {"h", "w"}}, {"strides", {1, 1}}};
    Op op(context, "tessel.conv2d",
          {typed({"batch", "c", "h", "w"}, {4, c, 16, 16}),
           typed({"c", "f", "kh", "kw"}, {c, c, 3, 3})},
          typed({"batch", "f", "h", "w"}, {4, c, 16, 16}), attrs);
    // Work as search times a convolution: oneDNN computes the output
    // channels in blocks of 16 (kConvolutionChannelBlock), 4 as 16.
    int64_t blockedOutputs = (c + 15) / 16 * 16;
    report("convolution", 2 * (4 * blockedOutputs * 16 * 16) * c * 9, op);
  }
  // Max pooling in 2 x 2 windows of stride 2 (the CNN's) and its gradient,
  // batch 4 of 32 x 32 images; work as analysis/CostReport counts both,
  // the input's elements (the result's times the window).
  for (int64_t c : {1, 8, 32, 128}) {
    ordered_json attrs = {{"kind", "max"},
                          {"spatial", {"h", "w"}},
                          {"window", {2, 2}},
                          {"strides", {2, 2}}};
    ordered_json image = typed({"batch", "c", "h", "w"}, {4, c, 32, 32});
    ordered_json pooled = typed({"batch", "c", "h", "w"}, {4, c, 16, 16});
    Op pool(context, "tessel.pool", {image}, pooled, attrs);
    report("pooling", 4 * c * 32 * 32, pool);
    Op gradient(context, "tessel.pool_backward", {image, pooled}, image,
                attrs);
    report("pooling_backward", 4 * c * 32 * 32, gradient);
  }
  for (int64_t rows : {1, 16, 256, 4096}) {
    ordered_json shape = typed({"rows", "cols"}, {rows, 256});
    Op add = elementwiseOp(context, "tessel.add", {shape, shape}, shape);
    report("elementwise", rows * 256, add);
    Op sum(context, "tessel.reduce", {shape}, typed({"rows"}, {rows}),
           {{"kind", "sum"}});
    report("reduction", rows * 256, sum);
    Op softmax(context, "tessel.softmax", {shape}, shape, {{"dim", "cols"}});
    report("normalization", 5 * rows * 256, softmax);
    Op gelu = elementwiseOp(context, "tessel.gelu", {shape}, shape);
    report("transcendental", rows * 256, gelu);
    // A fused body's entries after its first compute on a tile the kernel
    // holds in the caches: the longer body's time less the one-entry
    // body's, warm, is their cost, and the same cold (the operands' and
    // result's traffic is the one-entry body's, which the elementwise
    // class times). Never taken as free (one run of the short body slower
    // than the long one's): a trillion entries a second at the most.
    Op one = fusedChainOp(context, shape, 1);
    Op chain = fusedChainOp(context, shape, 1 + kFusedEntries);
    int64_t entryWork = rows * 256 * kFusedEntries;
    if (runs("fused_entry", entryWork, one) &&
        runs("fused_entry", entryWork, chain)) {
      double entries = std::max(timeCall([&] { chain.run(); }, timed) -
                                    timeCall([&] { one.run(); }, timed),
                                1e-12 * static_cast<double>(entryWork));
      printKernel("fused_entry", entryWork, entries, entries);
    }
  }
}

void measureKernels(tessel_context_t *context, int rank, int ranks, int threads,
                    const Settings &settings) {
  // The host's caches are pushed out by writing host memory, a device's
  // by writing one of its buffers larger than they are.
  Settings timed = onDevice(settings, context);
  std::vector<char> flush(kFlushBytes, 1);
  std::vector<char> deviceFlush;
  void *deviceFlushBuffer = nullptr;
  if (!tessel::runtime::activeBackend().buffersAreHostMemory()) {
    deviceFlush.assign(kDeviceFlushBytes, 1);
    deviceFlushBuffer =
        tessel_rt_alloc(context, static_cast<int64_t>(kDeviceFlushBytes));
  }
  timed.flushCaches = [&] {
    for (size_t b = 0; b < flush.size(); b += 64)
      flush[b] = static_cast<char>(flush[b] + 1);
    if (deviceFlushBuffer)
      tessel::runtime::activeBackend().copyToBuffer(
          *context, deviceFlushBuffer, deviceFlush.data(), deviceFlush.size());
  };
  for (const char *type : {"f32", "bf16", "f16"})
    measureKernelsOf(type, context, rank, ranks, threads, timed);
  if (deviceFlushBuffer)
    tessel_rt_free(context, deviceFlushBuffer);
}

/// Ops in the program that measures the per-op cost: as many as one basic
/// block of a compiled function holds (tessel-lower-to-runtime), so that
/// the call sites and their prepared kernels outnumber what stays in the
/// caches between two calls of one site, as in a training step.
constexpr int64_t kProgramOps = 256;

/// One op of that program: its descriptor and call site, and which of the
/// program's weights it reads beside the previous op's result (-1: none).
struct ProgramOp {
  std::string text;
  void *site = nullptr;
  int weight = -1;
};

/// Times a compiled program's work per op outside its kernels: a chain of
/// kProgramOps small ops (an einsum, an add, a gelu and a softmax of
/// [8, 32], in turn; each op reads the one before, so the values stay
/// bounded) run the way compiled code runs them, each at its own call
/// site, against the four kernels timed alone with buffers of their own.
void measurePerOp(tessel_context_t *context, int rank, int ranks, int threads,
                  const Settings &settings) {
  ordered_json rows = tensor({"m", "n"}, {8, 32});
  ordered_json square = tensor({"n", "k"}, {32, 32});
  ordered_json product = tensor({"m", "k"}, {8, 32});
  struct Kind {
    std::string name;
    std::vector<ordered_json> operands;
    ordered_json result;
    ordered_json attrs;
    int weight;
  };
  const std::vector<Kind> kinds = {
      {"tessel.einsum", {rows, square}, product, ordered_json::object(), 0},
      {"tessel.add", {rows, rows}, rows, ordered_json::object(), 1},
      {"tessel.gelu", {rows}, rows, ordered_json::object(), -1},
      {"tessel.softmax", {rows}, rows, {{"dim", "n"}}, -1}};

  // The kernels alone, as the classes are timed.
  std::vector<std::unique_ptr<Op>> alone;
  for (const Kind &kind : kinds)
    alone.push_back(std::make_unique<Op>(context, kind.name, kind.operands,
                                         kind.result, kind.attrs));

  std::vector<ProgramOp> program;
  for (int64_t i = 0; i < kProgramOps; ++i) {
    const Kind &kind = kinds[i % kinds.size()];
    program.push_back(
        {descriptorText(kind.name, kind.operands, kind.result, kind.attrs),
         nullptr, kind.weight});
  }
  // The program's arguments: its input and the einsum's and the add's
  // second operands.
  int64_t bytes = elementsOf(rows) * 4;
  void *input = filledBuffer(context, elementsOf(rows), "f32");
  std::vector<void *> weights = {
      filledBuffer(context, elementsOf(square), "f32"),
      filledBuffer(context, elementsOf(rows), "f32")};
  auto run = [&] {
    void *previous = input;
    void *operands[2];
    for (ProgramOp &op : program) {
      void *result = tessel_rt_alloc(context, bytes);
      operands[0] = previous;
      operands[1] = op.weight >= 0 ? weights[op.weight] : nullptr;
      tessel_rt_execute(context, &op.site, op.text.c_str(), operands,
                        op.weight >= 0 ? 2 : 1, result);
      if (previous != input)
        tessel_rt_free(context, previous);
      previous = result;
    }
    tessel_rt_free(context, previous);
  };
  // Each repetition times the kernels alone and the program back to back,
  // so that a change in the machine's load between them weighs on both;
  // the median of the repetitions' differences is kept.
  std::vector<int64_t> aloneCalls;
  for (const std::unique_ptr<Op> &op : alone)
    aloneCalls.push_back(batchCalls([&] { op->run(); }, settings));
  int64_t programCalls = batchCalls(run, settings);
  std::vector<double> programs, kernels, differences;
  double share = static_cast<double>(kProgramOps) / kinds.size();
  for (int i = 0; i < settings.repetitions; ++i) {
    double kernelSeconds = 0;
    for (size_t k = 0; k < alone.size(); ++k)
      kernelSeconds +=
          share * timeBatch([&] { alone[k]->run(); }, aloneCalls[k], settings);
    double programSeconds = timeBatch(run, programCalls, settings);
    programs.push_back(programSeconds);
    kernels.push_back(kernelSeconds);
    differences.push_back((programSeconds - kernelSeconds) /
                          static_cast<double>(kProgramOps));
  }
  for (void *buffer : {input, weights[0], weights[1]})
    tessel_rt_free(context, buffer);
  // Noise can make the difference negative on a machine whose per-op cost
  // is below it: nothing measured, so 0.
  double perOp = std::max(0.0, median(differences));
  double programSeconds = median(programs), kernelsAlone = median(kernels);
  print(rank, {{"kind", "per_op"},
               {"ranks", ranks},
               {"threads", threads},
               {"ops", kProgramOps},
               {"program_seconds", programSeconds},
               {"kernel_seconds", kernelsAlone},
               {"seconds", perOp}});
}

/// What analysis/CostReport counts as sent by each rank for a collective
/// whose input holds `inputBytes` on each of `group` ranks.
int64_t ringBytesPerRank(const std::string &collective, int64_t group,
                         int64_t inputBytes) {
  if (collective == "all_reduce")
    return 2 * (group - 1) * inputBytes / group;
  if (collective == "all_gather")
    return (group - 1) * inputBytes;
  return (group - 1) * inputBytes / group;
}

/// How much of a started collective's time the ops after it hide on this
/// machine: a 4 MiB all_reduce over every rank started, then 8 products of
/// 256 x 256 matrices (each first lets the collectives in flight progress,
/// as a compiled program's ops do), then its wait, against the two
/// alone. Over shared memory the ranks' own cores copy the data, so little
/// is hidden (docs/search.md, "Overlap").
void measureOverlap(int rank, int ranks, tessel_context_t *context,
                    const Settings &timed) {
  constexpr int64_t kRows = 1024, kSide = 256, kProducts = 8;
  ordered_json whole = tensor({"rows", "cols"}, {kRows, 1024});
  Op sum(context, "tessel.all_reduce", {whole}, whole,
         {{"axes", {"all"}}, {"kind", "sum"}});
  std::vector<std::unique_ptr<Op>> products;
  for (int64_t i = 0; i < kProducts; ++i)
    products.push_back(std::make_unique<Op>(
        context, "tessel.einsum",
        std::vector<ordered_json>{tensor({"m", "k"}, {kSide, kSide}),
                                  tensor({"k", "n"}, {kSide, kSide})},
        tensor({"m", "n"}, {kSide, kSide})));
  auto compute = [&] {
    for (const std::unique_ptr<Op> &product : products)
      product->run();
  };
  double collective = timeCall([&] { sum.startAndWait(); }, timed);
  double kernels = timeCall(compute, timed);
  double together = timeCall(
      [&] {
        sum.start();
        compute();
        sum.wait();
      },
      timed);
  print(rank, {{"kind", "overlap"},
               {"ranks", ranks},
               {"collective_seconds", collective},
               {"kernel_seconds", kernels},
               {"together_seconds", together}});
}

/// Times the collectives over the last axis of `mesh`, whose other axes
/// hold groups that run at the same time.
void measureCollectives(int rank, int ranks,
                        const std::vector<std::string> &axes,
                        const std::vector<int64_t> &sizes,
                        const Settings &settings, bool timeOverlap) {
  std::vector<const char *> names;
  for (const std::string &axis : axes)
    names.push_back(axis.c_str());
  tessel_comm_t *comm = nullptr;
  if (tessel_comm_create(static_cast<int32_t>(names.size()), names.data(),
                         sizes.data(), &comm) != TESSEL_STATUS_OK) {
    std::fprintf(stderr, "tessel-calibrate-probe: %s\n",
                 tessel_last_error_message());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::string error;
  tessel::runtime::ContextPtr context = tessel::runtime::createContext(
      comm, tessel::layout::Mesh(axes, sizes), error);
  if (!context) {
    std::fprintf(stderr, "tessel-calibrate-probe: %s\n", error.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const std::string &axis = axes.back();
  int64_t group = sizes.back();
  Settings timed = onDevice(settings, context.get());
  // Each collective a compiled program may start (StartedCollectives.h)
  // is also timed started and waited for: MPI's non-blocking calls take
  // algorithms of their own (Open MPI 4.1's started reduce-scatter took
  // 1.8 times the blocking one at 8 KiB on 2 ranks here, and up to 6 times
  // in tessel-bench-collectives' batches of calls). The runtime's blocking
  // halo exchange is its started one waited for at once, and the CUDA
  // runtime runs a started collective to its end, so there the two lines
  // time one call twice.
  auto report = [&](const std::string &collective, int64_t inputBytes,
                    int64_t bytesPerRank, Op &op, bool startable = true) {
    for (bool started : {false, true}) {
      if (started && !startable)
        continue;
      double seconds =
          timeCall([&] { started ? op.startAndWait() : op.run(); }, timed);
      ordered_json line = {{"kind", "collective"}, {"collective", collective}};
      if (started)
        line["started"] = true;
      line.update({{"ranks", ranks},
                   {"group", group},
                   {"input_bytes", inputBytes},
                   {"bytes_per_rank", bytesPerRank},
                   {"seconds", seconds}});
      print(rank, line);
    }
  };
  ordered_json over = {{"axes", {axis}}};
  // f32 rows of 256 elements (1 KiB), a multiple of any group size here.
  for (int64_t rows : {4, 32, 256, 2048}) {
    int64_t whole = rows * group;
    ordered_json local = tensor({"rows", "cols"}, {whole, 256});
    ordered_json block = tensor({"rows", "cols"}, {rows, 256});
    int64_t wholeBytes = whole * 1024, blockBytes = rows * 1024;
    {
      ordered_json attrs = over;
      attrs["kind"] = "sum";
      Op op(context.get(), "tessel.all_reduce", {local}, local, attrs);
      report("all_reduce", wholeBytes,
             ringBytesPerRank("all_reduce", group, wholeBytes), op);
    }
    {
      ordered_json attrs = over;
      attrs["dim"] = "rows";
      Op op(context.get(), "tessel.all_gather", {block}, local, attrs);
      report("all_gather", blockBytes,
             ringBytesPerRank("all_gather", group, blockBytes), op);
    }
    {
      ordered_json attrs = over;
      attrs["dim"] = "rows";
      attrs["kind"] = "sum";
      Op op(context.get(), "tessel.reduce_scatter", {local}, block, attrs);
      report("reduce_scatter", wholeBytes,
             ringBytesPerRank("reduce_scatter", group, wholeBytes), op);
    }
    {
      // Rows split, columns gathered: [whole, 256] -> [rows, 256 * group].
      ordered_json attrs = over;
      attrs["split_dim"] = "rows";
      attrs["concat_dim"] = "cols";
      Op op(context.get(), "tessel.all_to_all", {local},
            tensor({"rows", "cols"}, {rows, 256 * group}), attrs);
      report("all_to_all", wholeBytes,
             ringBytesPerRank("all_to_all", group, wholeBytes), op,
             /*startable=*/false);
    }
    {
      // One row of `rows` KiB to each neighbour.
      ordered_json attrs = {
          {"axis", axis}, {"dim", "rows"}, {"halo", {1, 1}}, {"pad_value", 0}};
      Op op(context.get(), "tessel.halo_exchange",
            {tensor({"rows", "cols"}, {8, 256 * rows})},
            tensor({"rows", "cols"}, {10, 256 * rows}), attrs);
      report("halo_exchange", 8 * blockBytes, 2 * blockBytes, op);
    }
  }
  if (timeOverlap)
    measureOverlap(rank, ranks, context.get(), timed);
  context.reset();
  tessel_comm_destroy(comm);
}

/// How the backend computes bf16 einsums and convolutions: a GPU's on its
/// bf16 kernels, the CPU's widened to f32 unless its bf16 kernels are the
/// faster (executor/WidenedOps.h).
const char *bf16Products(const tessel::runtime::Backend &backend) {
  bool native = backend.name() != std::string("cpu") ||
                !tessel::runtime::bf16ProductsWidened();
  return native ? "native" : "widened";
}

/// How the backend computes bf16 convolutions' filter gradients: as the
/// other products on a GPU, on the CPU widened unless its bf16 kernel is
/// the faster (executor/WidenedOps.h).
const char *bf16FilterGradients(const tessel::runtime::Backend &backend) {
  bool native = backend.name() != std::string("cpu") ||
                !tessel::runtime::bf16FilterGradientsWidened();
  return native ? "native" : "widened";
}

void describeMachine(int rank) {
  tessel::calibrate::MachineFacts facts = tessel::calibrate::machineFacts();
  const tessel::runtime::Backend &backend = tessel::runtime::activeBackend();
  print(rank, {{"kind", "machine"},
               {"host", facts.host},
               {"cpu", facts.cpu},
               {"cores", facts.cores},
               {"cache_bytes", facts.cacheBytes},
               {"backend", backend.name()},
               {"devices", backend.deviceCount()},
               {"bf16_products", bf16Products(backend)},
               {"bf16_filter_gradients", bf16FilterGradients(backend)},
               {"measured_at", facts.measuredAt}});
}

} // namespace

int main(int argc, char **argv) {
  // Timed as compiled programs run (driver/Main.cpp).
  tessel_comm_choose_mpi_algorithms();
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  Settings settings;
  bool machine = false, kernels = false, perOp = false, collectives = false;
  CLI::App app{"Times the runtime's kernels and collectives for tessel "
               "calibrate."};
  app.add_flag("--machine", machine,
               "Describe the machine: CPU, cores, caches, devices");
  app.add_flag("--kernels", kernels, "Time a kernel of each class and size");
  app.add_flag("--per-op", perOp,
               "Time a compiled program's work per op besides its kernels");
  app.add_flag("--collectives", collectives,
               "Time each collective at each size");
  app.add_option("--repetitions", settings.repetitions,
                 "Timed batches per measurement (the median is kept)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--min-seconds", settings.minSeconds,
                 "Shortest timed batch of back-to-back calls")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    int status = rank == 0 ? app.exit(error) : 1;
    MPI_Finalize();
    return status;
  }

  if (machine)
    describeMachine(rank);
  int threads = tessel::driver::shareCoresAmongLocalRanks();
  if (kernels || perOp) {
    std::string error;
    tessel::runtime::ContextPtr context =
        tessel::runtime::createContext(nullptr, tessel::layout::Mesh(), error);
    if (!context) {
      std::fprintf(stderr, "tessel-calibrate-probe: %s\n", error.c_str());
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (kernels)
      measureKernels(context.get(), rank, ranks, threads, settings);
    if (perOp)
      measurePerOp(context.get(), rank, ranks, threads,
                   onDevice(settings, context.get()));
  }
  if (collectives && ranks > 1) {
    measureCollectives(rank, ranks, {"all"}, {ranks}, settings,
                       /*timeOverlap=*/true);
    if (ranks >= 4 && ranks % 2 == 0)
      measureCollectives(rank, ranks, {"outer", "pairs"}, {ranks / 2, 2},
                         settings, /*timeOverlap=*/false);
  }
  // The job's output is whole: saved output without this line was cut
  // short by a job that stopped.
  print(rank, {{"kind", "end"}, {"ranks", ranks}});
  MPI_Finalize();
  return 0;
}
