//===- StageLinks.h - Messages between pipeline stages ----------*- C++ -*-===//
//
// A pipelined program (docs/pipeline.md) sends each micro-batch's
// activations to the next stage's rank and its cotangents back to the
// stage before, as non-blocking MPI messages of the tensors' bytes; the
// training step's schedule and the evaluation (PipelineEvaluation.h) both
// send through them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_STAGELINKS_H
#define TESSEL_RUNTIME_DRIVER_STAGELINKS_H

#include "driver/Metadata.h"
#include "executor/Backend.h"
#include "tessel/runtime/program.h"

#include <mpi.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tessel::driver {

/// Buffers of tessel_rt_alloc by name, freed with the map.
class NamedBuffers {
public:
  explicit NamedBuffers(tessel_context_t *context) : context(context) {}
  NamedBuffers(NamedBuffers &&other) noexcept
      : context(other.context), buffers(std::move(other.buffers)) {
    other.buffers.clear();
  }
  NamedBuffers(const NamedBuffers &) = delete;
  NamedBuffers &operator=(const NamedBuffers &) = delete;
  ~NamedBuffers() { clear(); }

  void clear() {
    for (auto &[name, buffer] : buffers)
      tessel_rt_free(context, buffer);
    buffers.clear();
  }
  /// Takes `buffer` as `name`, freeing the one it replaces.
  void put(const std::string &name, void *buffer) {
    void *&slot = buffers[name];
    tessel_rt_free(context, slot);
    slot = buffer;
  }
  void *find(const std::string &name) const {
    auto it = buffers.find(name);
    return it == buffers.end() ? nullptr : it->second;
  }
  void erase(const std::string &name) {
    auto it = buffers.find(name);
    if (it == buffers.end())
      return;
    tessel_rt_free(context, it->second);
    buffers.erase(it);
  }

private:
  tessel_context_t *context;
  std::map<std::string, void *> buffers;
};

/// One message between neighbouring stages: the bytes of its
/// tensors one after the other, in host memory until it has gone.
struct StageMessage {
  MPI_Request request = MPI_REQUEST_NULL;
  std::vector<unsigned char> bytes;
};

/// The messages with the neighbouring stages, on a communicator of their
/// own; a message's tag is its micro-batch and its direction.
class StageLinks {
public:
  enum Direction { Activations = 0, Cotangents = 1 };

  StageLinks(tessel_context_t *context, int64_t before, int64_t after)
      : context(context), before(before), after(after) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  }
  ~StageLinks() {
    waitForSends();
    for (auto &[key, message] : receives)
      if (message->request != MPI_REQUEST_NULL) {
        MPI_Cancel(&message->request);
        MPI_Wait(&message->request, MPI_STATUS_IGNORE);
      }
    MPI_Comm_free(&comm);
  }
  StageLinks(const StageLinks &) = delete;
  StageLinks &operator=(const StageLinks &) = delete;

  static int tag(Direction direction, int64_t microbatch) {
    return static_cast<int>(2 * microbatch + direction);
  }

  /// Starts receiving micro-batch `microbatch`'s message in `direction`
  /// (from the stage before for activations, after for cotangents), unless
  /// that has started.
  void expect(Direction direction, int64_t microbatch,
              const std::vector<const ValueSpec *> &tensors) {
    auto key = std::make_pair(direction, microbatch);
    if (receives.count(key))
      return;
    auto message = std::make_unique<StageMessage>();
    message->bytes.resize(static_cast<size_t>(bytesOf(tensors)));
    MPI_Irecv(message->bytes.data(), static_cast<int>(message->bytes.size()),
              MPI_BYTE,
              static_cast<int>(direction == Activations ? before : after),
              tag(direction, microbatch), comm, &message->request);
    receives[key] = std::move(message);
  }

  /// Waits for the message and puts its tensors in buffers of their own.
  void receive(Direction direction, int64_t microbatch,
               const std::vector<const ValueSpec *> &tensors,
               NamedBuffers &into) {
    expect(direction, microbatch, tensors);
    auto it = receives.find({direction, microbatch});
    MPI_Wait(&it->second->request, MPI_STATUS_IGNORE);
    size_t offset = 0;
    for (const ValueSpec *tensor : tensors) {
      auto bytes = static_cast<size_t>(tensor->local.numBytes());
      void *buffer = tessel_rt_alloc(context, tensor->local.numBytes());
      runtime::activeBackend().copyToBuffer(
          *context, buffer, it->second->bytes.data() + offset, bytes);
      into.put(tensor->name, buffer);
      offset += bytes;
    }
    receives.erase(it);
  }

  /// Sends the tensors (by name from `from`) without waiting for them to
  /// arrive.
  void send(Direction direction, int64_t microbatch,
            const std::vector<const ValueSpec *> &tensors,
            const NamedBuffers &from) {
    auto message = std::make_unique<StageMessage>();
    message->bytes.resize(static_cast<size_t>(bytesOf(tensors)));
    size_t offset = 0;
    for (const ValueSpec *tensor : tensors) {
      auto bytes = static_cast<size_t>(tensor->local.numBytes());
      runtime::activeBackend().copyFromBuffer(*context,
                                              message->bytes.data() + offset,
                                              from.find(tensor->name), bytes);
      offset += bytes;
    }
    MPI_Isend(message->bytes.data(), static_cast<int>(message->bytes.size()),
              MPI_BYTE,
              static_cast<int>(direction == Activations ? after : before),
              tag(direction, microbatch), comm, &message->request);
    sends.push_back(std::move(message));
  }

  /// Waits until every message sent has gone (the end of a step).
  void waitForSends() {
    for (auto &message : sends)
      MPI_Wait(&message->request, MPI_STATUS_IGNORE);
    sends.clear();
  }

  static int64_t bytesOf(const std::vector<const ValueSpec *> &tensors) {
    int64_t bytes = 0;
    for (const ValueSpec *tensor : tensors)
      bytes += tensor->local.numBytes();
    return bytes;
  }

private:
  tessel_context_t *context;
  int64_t before, after;
  MPI_Comm comm = MPI_COMM_NULL;
  std::map<std::pair<Direction, int64_t>, std::unique_ptr<StageMessage>>
      receives;
  std::vector<std::unique_ptr<StageMessage>> sends;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_STAGELINKS_H
