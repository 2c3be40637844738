//===- LinearPipeline.cpp - A hand-compiled pipelined program -------------===//
//
// Plays the part of what tessel compile emits for LinearClassifier.cpp's
// model under a layout with a pipeline section (docs/pipeline.md): two
// stages on the mesh axis `stage` (with `data` beside it), each with its
// init, forward, backward and apply, and the metadata's "pipeline" object.
// Built once per mesh, micro-batch count and schedule; the driver tests
// check that each trains with the losses of the unpipelined program.
//
//   stage 0: stage1.input0 = images . w                  [batch, classes]
//   stage 1: logits = stage1.input0 + b (kept as stage1.residual0)
//            loss   = mean over the micro-batch of softmax_cross_entropy
//   backward: the gradients of the micro-batch's loss; apply: SGD on
//   their sum over the micro-batches, divided by their number.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/program.h"

#include <initializer_list>

#define TESSEL_STRINGIFY(x) #x
#define TESSEL_STRING(x) TESSEL_STRINGIFY(x)

#define DATA TESSEL_STRING(TESSEL_TEST_DATA)
#define MICROBATCHES TESSEL_STRING(TESSEL_TEST_MICROBATCHES)
// The examples of a micro-batch, in all and on this rank.
#define MICRO TESSEL_STRING(TESSEL_TEST_MICRO)
#define LOCAL_MICRO TESSEL_STRING(TESSEL_TEST_LOCAL_MICRO)

#define TENSOR(dims, shape, type)                                              \
  "{\"dims\": [" dims "], \"shape\": [" shape "], \"type\": \"" type "\"}"
#define W TENSOR("\"pixels\", \"classes\"", "784, 10", "f32")
#define B TENSOR("\"classes\"", "10", "f32")
#define SCALAR TENSOR("", "", "f32")
#define GLOBAL_IMAGES TENSOR("\"batch\", \"pixels\"", MICRO ", 784", "f32")
#define IMAGES TENSOR("\"batch\", \"pixels\"", LOCAL_MICRO ", 784", "f32")
#define GLOBAL_LABELS TENSOR("\"batch\"", MICRO, "i32")
#define LABELS TENSOR("\"batch\"", LOCAL_MICRO, "i32")
#define GLOBAL_LOGITS TENSOR("\"batch\", \"classes\"", MICRO ", 10", "f32")
#define LOGITS TENSOR("\"batch\", \"classes\"", LOCAL_MICRO ", 10", "f32")
#define PER_EXAMPLE TENSOR("\"batch\"", LOCAL_MICRO, "f32")

#define OP(name, operands, result, attrs)                                      \
  "{\"op\": \"tessel." name "\", \"loc\": \"linear.mlir:1:1\", "               \
  "\"operands\": [" operands "], \"result\": " result ", \"attrs\": {" attrs   \
  "}}"

#define ARG(name, global, local, layout)                                       \
  "{\"name\": \"" name "\", \"global\": " global ", \"local\": " local         \
  ", \"layout\": {" layout "}}"
#define SPLIT "\"batch\": [\"data\"]"
#define FUNCTION(name, arguments, results)                                     \
  "{\"name\": \"" name "\", \"symbol\": \"tessel_fn_" name "\", "              \
  "\"arguments\": [" arguments "], \"results\": [" results "]}"

// clang-format off
extern "C" const char tessel_program_metadata[] =
    "{\"mesh\": {\"axes\": [\"data\", \"stage\"], \"sizes\": [" DATA ", 2]},"
    " \"functions\": ["
    FUNCTION("stage0_init", "", ARG("w", W, W, "")) ", "
    FUNCTION("stage0_forward",
             ARG("w", W, W, "") ", "
             ARG("images", GLOBAL_IMAGES, IMAGES, SPLIT),
             ARG("stage1.input0", GLOBAL_LOGITS, LOGITS, SPLIT)) ", "
    FUNCTION("stage0_backward",
             ARG("w", W, W, "") ", "
             ARG("images", GLOBAL_IMAGES, IMAGES, SPLIT) ", "
             ARG("stage1.input0.gradient", GLOBAL_LOGITS, LOGITS, SPLIT),
             ARG("w.gradient", W, W, "")) ", "
    FUNCTION("stage0_apply",
             ARG("w", W, W, "") ", " ARG("w.gradient", W, W, "") ", "
             ARG("learning_rate", SCALAR, SCALAR, ""),
             ARG("w", W, W, "")) ", "
    FUNCTION("stage1_init", "", ARG("b", B, B, "")) ", "
    FUNCTION("stage1_forward",
             ARG("b", B, B, "") ", "
             ARG("labels", GLOBAL_LABELS, LABELS, SPLIT) ", "
             ARG("stage1.input0", GLOBAL_LOGITS, LOGITS, SPLIT),
             ARG("loss", SCALAR, SCALAR, "") ", "
             ARG("stage1.residual0", GLOBAL_LOGITS, LOGITS, SPLIT)) ", "
    FUNCTION("stage1_backward",
             ARG("b", B, B, "") ", "
             ARG("labels", GLOBAL_LABELS, LABELS, SPLIT) ", "
             ARG("stage1.input0", GLOBAL_LOGITS, LOGITS, SPLIT) ", "
             ARG("stage1.residual0", GLOBAL_LOGITS, LOGITS, SPLIT),
             ARG("b.gradient", B, B, "") ", "
             ARG("stage1.input0.gradient", GLOBAL_LOGITS, LOGITS, SPLIT)) ", "
    FUNCTION("stage1_apply",
             ARG("b", B, B, "") ", " ARG("b.gradient", B, B, "") ", "
             ARG("learning_rate", SCALAR, SCALAR, ""),
             ARG("b", B, B, ""))
    "], \"pipeline\": {\"axis\": \"stage\", \"microbatches\": " MICROBATCHES
    ", \"schedule\": \"" TESSEL_TEST_SCHEDULE "\", \"remat\": false,"
    " \"batch_dim\": \"batch\", \"stages\": ["
    "{\"init\": \"stage0_init\", \"forward\": \"stage0_forward\","
    " \"backward\": \"stage0_backward\", \"apply\": \"stage0_apply\"},"
    "{\"init\": \"stage1_init\", \"forward\": \"stage1_forward\","
    " \"backward\": \"stage1_backward\", \"apply\": \"stage1_apply\"}]}}";
// clang-format on

namespace {

constexpr long kLocalMicro = TESSEL_TEST_LOCAL_MICRO;
constexpr long kF32 = 4;

void *alloc(tessel_context_t *context, long elements) {
  return tessel_rt_alloc(context, elements * kF32);
}

/// Runs ops with one cache slot per call site of a function.
struct Runner {
  tessel_context_t *context;
  void **sites;
  void operator()(int site, const char *descriptor,
                  std::initializer_list<void *> operands, void *result) const {
    tessel_rt_execute(context, &sites[site], descriptor, operands.begin(),
                      static_cast<int32_t>(operands.size()), result);
  }
};

/// SGD on the sum of `count` elements' gradients over the micro-batches:
/// parameter - learning_rate * sum / microbatches.
void sgd(const Runner &run, int firstSite, const char *step, const char *scaled,
         const char *updated, long count, void *parameter, void *sum, void *lr,
         void **result) {
  void *perMicro = alloc(run.context, 1);
  run(firstSite,
      OP("constant", "", SCALAR,
         "\"value\": " TESSEL_STRING(TESSEL_TEST_INVERSE_MICROBATCHES)),
      {}, perMicro);
  void *mean = alloc(run.context, count);
  run(firstSite + 1, scaled, {sum, perMicro}, mean);
  tessel_rt_free(run.context, perMicro);
  void *delta = alloc(run.context, count);
  run(firstSite + 2, step, {mean, lr}, delta);
  tessel_rt_free(run.context, mean);
  *result = alloc(run.context, count);
  run(firstSite + 3, updated, {parameter, delta}, *result);
  tessel_rt_free(run.context, delta);
}

} // namespace

extern "C" void tessel_fn_stage0_init(tessel_context_t *context, void *const *,
                                      void **results) {
  static void *sites[1];
  results[0] = alloc(context, 784 * 10);
  tessel_rt_execute(context, &sites[0],
                    OP("parameter", "", W,
                       "\"name\": \"w\", \"init\": \"normal\", "
                       "\"scale\": 0.01, \"seed\": 1"),
                    nullptr, 0, results[0]);
}

extern "C" void tessel_fn_stage0_forward(tessel_context_t *context,
                                         void *const *arguments,
                                         void **results) {
  static void *sites[1];
  Runner run{context, sites};
  results[0] = alloc(context, kLocalMicro * 10);
  run(0, OP("einsum", IMAGES ", " W, LOGITS, ""), {arguments[1], arguments[0]},
      results[0]);
}

extern "C" void tessel_fn_stage0_backward(tessel_context_t *context,
                                          void *const *arguments,
                                          void **results) {
  static void *sites[2];
  Runner run{context, sites};
  void *local = alloc(context, 784 * 10);
  run(0, OP("einsum", IMAGES ", " LOGITS, W, ""), {arguments[1], arguments[2]},
      local);
  results[0] = alloc(context, 784 * 10);
  run(1, OP("all_reduce", W, W, "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {local}, results[0]);
  tessel_rt_free(context, local);
}

extern "C" void tessel_fn_stage0_apply(tessel_context_t *context,
                                       void *const *arguments, void **results) {
  static void *sites[4];
  sgd(Runner{context, sites}, 0, OP("mul", W ", " SCALAR, W, ""),
      OP("mul", W ", " SCALAR, W, ""), OP("sub", W ", " W, W, ""), 784 * 10,
      arguments[0], arguments[1], arguments[2], &results[0]);
}

extern "C" void tessel_fn_stage1_init(tessel_context_t *context, void *const *,
                                      void **results) {
  static void *sites[1];
  results[0] = alloc(context, 10);
  tessel_rt_execute(
      context, &sites[0],
      OP("parameter", "", B, "\"name\": \"b\", \"init\": \"zeros\""), nullptr,
      0, results[0]);
}

extern "C" void tessel_fn_stage1_forward(tessel_context_t *context,
                                         void *const *arguments,
                                         void **results) {
  static void *sites[6];
  Runner run{context, sites};
  void *b = arguments[0], *labels = arguments[1], *input = arguments[2];
  // The logits are the residual the backward reads.
  results[1] = alloc(context, kLocalMicro * 10);
  run(0, OP("add", LOGITS ", " B, LOGITS, ""), {input, b}, results[1]);
  void *ce = alloc(context, kLocalMicro);
  run(1,
      OP("softmax_cross_entropy", LOGITS ", " LABELS, PER_EXAMPLE,
         "\"dim\": \"classes\""),
      {results[1], labels}, ce);
  void *localSum = alloc(context, 1);
  run(2, OP("reduce", PER_EXAMPLE, SCALAR, "\"kind\": \"sum\""), {ce},
      localSum);
  tessel_rt_free(context, ce);
  void *sum = alloc(context, 1);
  run(3,
      OP("all_reduce", SCALAR, SCALAR,
         "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {localSum}, sum);
  tessel_rt_free(context, localSum);
  void *inverse = alloc(context, 1);
  run(4,
      OP("constant", "", SCALAR,
         "\"value\": " TESSEL_STRING(TESSEL_TEST_INVERSE_MICRO)),
      {}, inverse);
  results[0] = alloc(context, 1);
  run(5, OP("mul", SCALAR ", " SCALAR, SCALAR, ""), {sum, inverse}, results[0]);
  tessel_rt_free(context, sum);
  tessel_rt_free(context, inverse);
}

extern "C" void tessel_fn_stage1_backward(tessel_context_t *context,
                                          void *const *arguments,
                                          void **results) {
  static void *sites[8];
  Runner run{context, sites};
  void *labels = arguments[1], *logits = arguments[3];
  void *probabilities = alloc(context, kLocalMicro * 10);
  run(0, OP("softmax", LOGITS, LOGITS, "\"dim\": \"classes\""), {logits},
      probabilities);
  void *oneHot = alloc(context, kLocalMicro * 10);
  run(1, OP("one_hot", LABELS, LOGITS, "\"dim\": \"classes\""), {labels},
      oneHot);
  void *difference = alloc(context, kLocalMicro * 10);
  run(2, OP("sub", LOGITS ", " LOGITS, LOGITS, ""), {probabilities, oneHot},
      difference);
  tessel_rt_free(context, probabilities);
  tessel_rt_free(context, oneHot);
  void *inverse = alloc(context, 1);
  run(3,
      OP("constant", "", SCALAR,
         "\"value\": " TESSEL_STRING(TESSEL_TEST_INVERSE_MICRO)),
      {}, inverse);
  // The cotangent of stage 0's output, and the bias's gradient from it.
  results[1] = alloc(context, kLocalMicro * 10);
  run(4, OP("mul", LOGITS ", " SCALAR, LOGITS, ""), {difference, inverse},
      results[1]);
  tessel_rt_free(context, difference);
  tessel_rt_free(context, inverse);
  void *local = alloc(context, 10);
  run(5, OP("reduce", LOGITS, B, "\"kind\": \"sum\""), {results[1]}, local);
  results[0] = alloc(context, 10);
  run(6, OP("all_reduce", B, B, "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {local}, results[0]);
  tessel_rt_free(context, local);
}

extern "C" void tessel_fn_stage1_apply(tessel_context_t *context,
                                       void *const *arguments, void **results) {
  static void *sites[4];
  sgd(Runner{context, sites}, 0, OP("mul", B ", " SCALAR, B, ""),
      OP("mul", B ", " SCALAR, B, ""), OP("sub", B ", " B, B, ""), 10,
      arguments[0], arguments[1], arguments[2], &results[0]);
}

// The functions in the order the metadata lists them.
extern "C" const tessel_function_t tessel_program_functions[] = {
    tessel_fn_stage0_init,     tessel_fn_stage0_forward,
    tessel_fn_stage0_backward, tessel_fn_stage0_apply,
    tessel_fn_stage1_init,     tessel_fn_stage1_forward,
    tessel_fn_stage1_backward, tessel_fn_stage1_apply};
