//===- BatchFeeder.h - A function's arguments for a batch of data -*- C++ -*-//
//
// Evaluation (driver/Evaluation.h) and forward-only programs
// (driver/Inference.h) run a compiled function over a dataset's examples in
// order, a batch of the compiled batch size at a time. Each data argument
// gets this rank's block of the batch, made in host memory and copied into
// a buffer of tessel_rt_alloc (device memory with a device backend); every
// other argument (a parameter, a buffer) is a trained tensor the caller
// holds.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_BATCHFEEDER_H
#define TESSEL_RUNTIME_DRIVER_BATCHFEEDER_H

#include "driver/Batches.h"
#include "driver/Metadata.h"
#include "tessel/runtime/program.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

/// Where an argument of a function that runs on data comes from. A
/// `dropout_step` (a model whose forward has dropout, which is off outside
/// training) gets 0.
enum class Feed { Images, Labels, Tokens, Targets, Array, DropoutStep, State };

/// The arguments of one call: the data buffers, which it owns and frees,
/// and the state buffers, which it borrows.
class BatchArguments {
public:
  explicit BatchArguments(tessel_context_t *context) : context(context) {}
  BatchArguments(BatchArguments &&other) noexcept;
  BatchArguments(const BatchArguments &) = delete;
  BatchArguments &operator=(const BatchArguments &) = delete;
  BatchArguments &operator=(BatchArguments &&) = delete;
  ~BatchArguments();

  void *const *data() const { return arguments.data(); }

private:
  friend class BatchFeeder;
  tessel_context_t *context;
  std::vector<void *> arguments;
  std::vector<void *> owned;
};

class BatchFeeder {
public:
  /// `feeds` has one entry per argument of `function`; batch b holds the
  /// dataset's examples b * batchSize to (b + 1) * batchSize - 1.
  BatchFeeder(const FunctionSpec &function, const Dataset &dataset,
              std::vector<Feed> feeds, int64_t batchSize)
      : function(&function), dataset(&dataset), feeds(std::move(feeds)),
        batchSize(batchSize), batches(dataset, /*seed=*/0),
        staging(this->feeds.size()) {}

  /// The arguments of batch `batch`, each State argument the buffer that
  /// `stateBuffer(name)` returns; nothing, with `error` naming the
  /// argument, when that is null.
  std::optional<BatchArguments>
  arguments(int64_t batch, const layout::Mesh &mesh, int64_t rank,
            tessel_context_t *context,
            const std::function<void *(const std::string &)> &stateBuffer,
            std::string &error);

private:
  const FunctionSpec *function;
  const Dataset *dataset;
  std::vector<Feed> feeds;
  int64_t batchSize;
  BatchMaker batches;
  /// Host memory each data argument's block is made in, kept between
  /// batches.
  std::vector<std::vector<unsigned char>> staging;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_BATCHFEEDER_H
