//===- Evaluation.h - Test accuracy of the trained model --------*- C++ -*-===//
//
// A model may define `evaluate(parameters..., images, labels) -> (loss,
// correct)` (the examples do; tessel-autodiff makes the parameters
// arguments). After training, the driver runs it over the test split in
// batches of the model's batch size and reports the accuracy.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_EVALUATION_H
#define TESSEL_RUNTIME_DRIVER_EVALUATION_H

#include "driver/FashionMnist.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

#include <functional>
#include <optional>
#include <string>

namespace tessel::driver {

struct EvaluationResult {
  int64_t examples = 0;
  double correct = 0;
  double meanLoss = 0;
  /// Wall time inside the model's evaluate calls (the forward passes and
  /// their communication), without making the batches.
  double forwardSeconds = 0;
};

/// Runs `evaluate` (described by `function`) on every full batch of
/// `dataset`, taking each argument that is not data from `stateBuffer(name)`.
/// Collective over the ranks; fills `error` and returns nothing when the
/// function's arguments or results are not the expected ones.
std::optional<EvaluationResult>
evaluateModel(const FunctionSpec &function, tessel_function_t evaluate,
              const Dataset &dataset, const layout::Mesh &mesh, int64_t rank,
              tessel_context_t *context,
              const std::function<void *(const std::string &)> &stateBuffer,
              std::string &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_EVALUATION_H
