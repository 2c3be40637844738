//===- LinearClassifier.cpp - A hand-compiled program for the driver ------===//
//
// Plays the part of what tessel compile emits for a linear softmax
// classifier trained with SGD under a data-parallel layout on a mesh
// data:RANKS: the program metadata, and init and train_step as sequences of
// tessel_rt_execute calls with one descriptor and one cache slot per op,
// each buffer allocated before its op and freed after its last use. Built
// once per mesh size (TESSEL_TEST_RANKS) from this one source, like one
// model compiled for two layouts.
//
//   logits = images . w + b                      [batch, classes]
//   loss   = mean over the global batch of softmax_cross_entropy(logits)
//   dlogits = (softmax(logits) - one_hot(labels)) / global batch
//   w -= lr * all_reduce(images^T . dlogits); b -= lr * all_reduce(sum dlogits)
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/program.h"

#include <string>

#define TESSEL_STRINGIFY(x) #x
#define TESSEL_STRING(x) TESSEL_STRINGIFY(x)

#define RANKS TESSEL_STRING(TESSEL_TEST_RANKS)
#define GLOBAL_BATCH "64"
#define LOCAL_BATCH TESSEL_STRING(TESSEL_TEST_LOCAL_BATCH)

#define TENSOR(dims, shape, type)                                              \
  "{\"dims\": [" dims "], \"shape\": [" shape "], \"type\": \"" type "\"}"
#define W TENSOR("\"pixels\", \"classes\"", "784, 10", "f32")
#define B TENSOR("\"classes\"", "10", "f32")
#define IMAGES TENSOR("\"batch\", \"pixels\"", LOCAL_BATCH ", 784", "f32")
#define LABELS TENSOR("\"batch\"", LOCAL_BATCH, "i32")
#define LOGITS TENSOR("\"batch\", \"classes\"", LOCAL_BATCH ", 10", "f32")
#define PER_EXAMPLE TENSOR("\"batch\"", LOCAL_BATCH, "f32")
#define SCALAR TENSOR("", "", "f32")

#define OP(name, loc, operands, result, attrs)                                 \
  "{\"op\": \"tessel." name "\", \"loc\": \"linear.mlir:" loc                  \
  "\", \"operands\": [" operands "], \"result\": " result                      \
  ", \"attrs\": {" attrs "}}"

#define ARG(name, global, local, layout)                                       \
  "{\"name\": \"" name "\", \"global\": " global ", \"local\": " local         \
  ", \"layout\": {" layout "}}"

extern "C" const char tessel_program_metadata[] =
    "{\"mesh\": {\"axes\": [\"data\"], \"sizes\": [" RANKS "]},"
    " \"functions\": ["
    "{\"name\": \"init\", \"symbol\": \"tessel_fn_init\", \"arguments\": [],"
    " \"results\": [" ARG("w", W, W, "") ", " ARG(
        "b", B, B,
        "") "]},"
            "{\"name\": \"train_step\", \"symbol\": \"tessel_fn_train_step\","
            " \"arguments\": [" ARG("w", W, W, "") ", " ARG(
                "b",
                B, B, "") ", " ARG("images",
                                   TENSOR("\"batch\", \"pixels\"",
                                          GLOBAL_BATCH ", 784", "f32"),
                                   IMAGES,
                                   "\"batch\": [\"data\"]") ", " ARG("labels",
                                                                     TENSOR(
                                                                         "\"bat"
                                                                         "ch\"",
                                                                         GLOBAL_BATCH,
                                                                         "i32"),
                                                                     LABELS,
                                                                     "\"batch\""
                                                                     ": "
                                                                     "[\"data\""
                                                                     "]") ","
                                                                          " " ARG("learning_rate",
                                                                                  SCALAR,
                                                                                  SCALAR,
                                                                                  "") "],"
                                                                                      " \"results\": [" ARG(
                                                                                          "w",
                                                                                          W,
                                                                                          W,
                                                                                          "") ", " ARG("b",
                                                                                                       B,
                                                                                                       B,
                                                                                                       "") ", " ARG("loss",
                                                                                                                    SCALAR,
                                                                                                                    SCALAR,
                                                                                                                    "") "]}]}";

namespace {

constexpr long kLocalBatch = TESSEL_TEST_LOCAL_BATCH;
constexpr long kF32 = 4;

void *alloc(tessel_context_t *context, long elements) {
  return tessel_rt_alloc(context, elements * kF32);
}

} // namespace

extern "C" void tessel_fn_init(tessel_context_t *context, void *const *,
                               void **results) {
  static void *sites[2];
  results[0] = alloc(context, 784 * 10);
  tessel_rt_execute(context, &sites[0],
                    OP("parameter", "3:8", "", W,
                       "\"name\": \"w\", \"init\": \"normal\", "
                       "\"scale\": 0.01, \"seed\": 1"),
                    nullptr, 0, results[0]);
  results[1] = alloc(context, 10);
  tessel_rt_execute(
      context, &sites[1],
      OP("parameter", "4:8", "", B, "\"name\": \"b\", \"init\": \"zeros\""),
      nullptr, 0, results[1]);
}

extern "C" void tessel_fn_train_step(tessel_context_t *context,
                                     void *const *arguments, void **results) {
  static void *sites[20];
  void *w = arguments[0], *b = arguments[1], *images = arguments[2],
       *labels = arguments[3], *lr = arguments[4];
  auto run = [&](int site, const char *descriptor,
                 std::initializer_list<void *> operands, void *result) {
    tessel_rt_execute(context, &sites[site], descriptor, operands.begin(),
                      static_cast<int32_t>(operands.size()), result);
  };

  void *xw = alloc(context, kLocalBatch * 10);
  run(0, OP("einsum", "8:9", IMAGES ", " W, LOGITS, ""), {images, w}, xw);
  void *logits = alloc(context, kLocalBatch * 10);
  run(1, OP("add", "9:9", LOGITS ", " B, LOGITS, ""), {xw, b}, logits);
  tessel_rt_free(context, xw);

  // The loss: each rank's sum, summed over data and divided by the global
  // batch, as the compiler splits a mean over a split dim.
  void *ce = alloc(context, kLocalBatch);
  run(2,
      OP("softmax_cross_entropy", "10:9", LOGITS ", " LABELS, PER_EXAMPLE,
         "\"dim\": \"classes\""),
      {logits, labels}, ce);
  void *localSum = alloc(context, 1);
  run(3, OP("reduce", "11:9", PER_EXAMPLE, SCALAR, "\"kind\": \"sum\""), {ce},
      localSum);
  tessel_rt_free(context, ce);
  void *sum = alloc(context, 1);
  run(4,
      OP("all_reduce", "11:9", SCALAR, SCALAR,
         "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {localSum}, sum);
  tessel_rt_free(context, localSum);
  void *inverseBatch = alloc(context, 1);
  run(5, OP("constant", "11:9", "", SCALAR, "\"value\": 0.015625"), {},
      inverseBatch);
  results[2] = alloc(context, 1);
  run(6, OP("mul", "11:9", SCALAR ", " SCALAR, SCALAR, ""), {sum, inverseBatch},
      results[2]);
  tessel_rt_free(context, sum);

  // The gradient of the mean loss with respect to the logits.
  void *probabilities = alloc(context, kLocalBatch * 10);
  run(7, OP("softmax", "12:9", LOGITS, LOGITS, "\"dim\": \"classes\""),
      {logits}, probabilities);
  tessel_rt_free(context, logits);
  void *oneHot = alloc(context, kLocalBatch * 10);
  run(8, OP("one_hot", "12:9", LABELS, LOGITS, "\"dim\": \"classes\""),
      {labels}, oneHot);
  void *difference = alloc(context, kLocalBatch * 10);
  run(9, OP("sub", "12:9", LOGITS ", " LOGITS, LOGITS, ""),
      {probabilities, oneHot}, difference);
  tessel_rt_free(context, probabilities);
  tessel_rt_free(context, oneHot);
  void *dlogits = alloc(context, kLocalBatch * 10);
  run(11, OP("mul", "12:9", LOGITS ", " SCALAR, LOGITS, ""),
      {difference, inverseBatch}, dlogits);
  tessel_rt_free(context, difference);
  tessel_rt_free(context, inverseBatch);

  // Parameter gradients: partial sums over this rank's examples, summed
  // over data (the all_reduce of data parallelism).
  void *dwLocal = alloc(context, 784 * 10);
  run(12, OP("einsum", "8:9", IMAGES ", " LOGITS, W, ""), {images, dlogits},
      dwLocal);
  void *dw = alloc(context, 784 * 10);
  run(13,
      OP("all_reduce", "8:9", W, W, "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {dwLocal}, dw);
  tessel_rt_free(context, dwLocal);
  void *dbLocal = alloc(context, 10);
  run(14, OP("reduce", "9:9", LOGITS, B, "\"kind\": \"sum\""), {dlogits},
      dbLocal);
  tessel_rt_free(context, dlogits);
  void *db = alloc(context, 10);
  run(15,
      OP("all_reduce", "9:9", B, B, "\"kind\": \"sum\", \"axes\": [\"data\"]"),
      {dbLocal}, db);
  tessel_rt_free(context, dbLocal);

  // SGD.
  void *stepW = alloc(context, 784 * 10);
  run(16, OP("mul", "3:8", W ", " SCALAR, W, ""), {dw, lr}, stepW);
  tessel_rt_free(context, dw);
  results[0] = alloc(context, 784 * 10);
  run(17, OP("sub", "3:8", W ", " W, W, ""), {w, stepW}, results[0]);
  tessel_rt_free(context, stepW);
  void *stepB = alloc(context, 10);
  run(18, OP("mul", "4:8", B ", " SCALAR, B, ""), {db, lr}, stepB);
  tessel_rt_free(context, db);
  results[1] = alloc(context, 10);
  run(19, OP("sub", "4:8", B ", " B, B, ""), {b, stepB}, results[1]);
  tessel_rt_free(context, stepB);
}

// The functions in the order the metadata lists them.
extern "C" const tessel_function_t tessel_program_functions[] = {
    tessel_fn_init, tessel_fn_train_step};
