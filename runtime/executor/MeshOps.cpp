//===- MeshOps.cpp - Mesh-level ops on the communicator -------------------===//
//
// Each mesh-level op of the dialect is one call of tessel/runtime/comm.h,
// whose semantics are the reference evaluator's (Collectives.h). The
// descriptor names dims and axes; the communicator takes dim indices and
// axis names. It moves no i1 tensors, so those travel as i32 and are
// narrowed back. all_reduce, all_gather, reduce_scatter and halo_exchange
// also have a non-blocking form (registerMeshStarts) for tessel_rt_start.
//
//===----------------------------------------------------------------------===//

#include "executor/Buffers.h"
#include "executor/Context.h"
#include "executor/Op.h"

#include <fmt/format.h>

#include <cstring>

namespace tessel::runtime {

namespace {

/// The calls' arguments that stay fixed from step to step, made once. Not
/// copyable: axisPointers point into axes.
struct CommCall {
  TensorType input, output;
  std::vector<std::string> axes;
  std::vector<const char *> axisPointers;

  CommCall(const OpDescriptor &desc, std::vector<std::string> axisNames)
      : input(desc.operands.at(0)), output(desc.result),
        axes(std::move(axisNames)) {
    for (const std::string &axis : axes)
      axisPointers.push_back(axis.c_str());
  }
  CommCall(const CommCall &) = delete;
  CommCall &operator=(const CommCall &) = delete;
  int32_t numAxes() const { return static_cast<int32_t>(axes.size()); }
  const char *const *axisList() const { return axisPointers.data(); }
};

using CommFunction = std::function<tessel_status_t(
    tessel_comm_t *comm, const tessel_tensor_t *input,
    const tessel_tensor_t *output)>;

/// Calls `call` with descriptors of the input and output buffers, widening
/// i1 to i32 around it.
void runOnComm(tessel_context_t &context, const CommCall &call,
               const void *input, void *output, const CommFunction &function) {
  if (!context.comm)
    throw OpError("the context has no communicator for a mesh-level op");
  std::optional<tessel_element_type_t> type = commElementType(call.input.type);
  std::vector<int32_t> wideInput, wideOutput;
  const void *inputData = input;
  void *outputData = output;
  if (!type) {
    // i1: one byte per element, moved as i32.
    type = TESSEL_ELEMENT_TYPE_I32;
    wideInput.resize(call.input.numElements());
    for (size_t i = 0; i < wideInput.size(); ++i)
      wideInput[i] = static_cast<const uint8_t *>(input)[i];
    wideOutput.resize(call.output.numElements());
    inputData = wideInput.data();
    outputData = wideOutput.data();
  }
  tessel_tensor_t in{const_cast<void *>(inputData), *type, call.input.rank(),
                     call.input.shape.data()};
  tessel_tensor_t out{outputData, *type, call.output.rank(),
                      call.output.shape.data()};
  if (function(context.comm, &in, &out) != TESSEL_STATUS_OK)
    throw OpError(tessel_last_error_message());
  for (size_t i = 0; i < wideOutput.size(); ++i)
    static_cast<uint8_t *>(output)[i] = wideOutput[i] != 0;
}

tessel_reduction_t reductionAttr(const OpDescriptor &desc) {
  std::string kind = desc.stringAttr("kind");
  if (kind == "sum")
    return TESSEL_REDUCTION_SUM;
  if (kind == "max")
    return TESSEL_REDUCTION_MAX;
  if (kind == "min")
    return TESSEL_REDUCTION_MIN;
  throw OpError(fmt::format(
      "attribute 'kind' is '{}', not one of 'sum', 'max', 'min'", kind));
}

int32_t inputDim(const OpDescriptor &desc, const char *name) {
  return desc.operands[0].dimIndex(desc.stringAttr(name), "operand 0");
}

/// Wraps a call that needs nothing but the buffers into a Kernel.
template <typename Call>
Kernel commKernel(const OpDescriptor &desc, std::vector<std::string> axes,
                  Call &&body) {
  auto call = std::make_shared<const CommCall>(desc, std::move(axes));
  return [call, body = std::forward<Call>(body)](
             tessel_context_t &context, void *const *operands, void *result) {
    runOnComm(
        context, *call, operands[0], result,
        [&](tessel_comm_t *comm, const tessel_tensor_t *in,
            const tessel_tensor_t *out) { return body(*call, comm, in, out); });
  };
}

Kernel buildAllReduce(const OpDescriptor &desc) {
  desc.expectOperands(1);
  tessel_reduction_t reduction = reductionAttr(desc);
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_all_reduce(comm, call.numAxes(),
                                                    call.axisList(), reduction,
                                                    in, out);
                    });
}

Kernel buildAllGather(const OpDescriptor &desc) {
  desc.expectOperands(1);
  int32_t dim = inputDim(desc, "dim");
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_all_gather(
                          comm, call.numAxes(), call.axisList(), dim, in, out);
                    });
}

Kernel buildReduceScatter(const OpDescriptor &desc) {
  desc.expectOperands(1);
  tessel_reduction_t reduction = reductionAttr(desc);
  int32_t dim = inputDim(desc, "dim");
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_reduce_scatter(
                          comm, call.numAxes(), call.axisList(), reduction, dim,
                          in, out);
                    });
}

Kernel buildAllToAll(const OpDescriptor &desc) {
  desc.expectOperands(1);
  int32_t splitDim = inputDim(desc, "split_dim");
  int32_t concatDim = inputDim(desc, "concat_dim");
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_all_to_all(comm, call.numAxes(),
                                                    call.axisList(), splitDim,
                                                    concatDim, in, out);
                    });
}

/// A halo_exchange's attributes, checked.
struct HaloAttrs {
  int32_t dim;
  std::string axis;
  int64_t low, high;
  double padValue;

  explicit HaloAttrs(const OpDescriptor &desc)
      : dim(inputDim(desc, "dim")), axis(desc.stringAttr("axis")),
        padValue(desc.doubleAttr("pad_value", 0.0)) {
    std::vector<int64_t> halo = desc.intListAttr("halo");
    if (halo.size() != 2)
      throw OpError("attribute 'halo' must be [low, high]");
    low = halo[0];
    high = halo[1];
  }
};

Kernel buildHaloExchange(const OpDescriptor &desc) {
  desc.expectOperands(1);
  HaloAttrs attrs(desc);
  return commKernel(desc, {},
                    [=](const CommCall &, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_halo_exchange(
                          comm, attrs.axis.c_str(), attrs.dim, attrs.low,
                          attrs.high, attrs.padValue, in, out);
                    });
}

Kernel buildCollectivePermute(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<int64_t> pairs = desc.intListAttr("pairs");
  if (pairs.size() % 2 != 0)
    throw OpError("attribute 'pairs' has an odd number of positions");
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_collective_permute(
                          comm, call.numAxes(), call.axisList(),
                          static_cast<int32_t>(pairs.size() / 2), pairs.data(),
                          in, out);
                    });
}

Kernel buildShardSlice(const OpDescriptor &desc) {
  desc.expectOperands(1);
  int32_t dim = inputDim(desc, "dim");
  return commKernel(desc, desc.stringListAttr("axes"),
                    [=](const CommCall &call, tessel_comm_t *comm,
                        const tessel_tensor_t *in, const tessel_tensor_t *out) {
                      return tessel_comm_shard_slice(
                          comm, call.numAxes(), call.axisList(), dim, in, out);
                    });
}

/// A collective started on the communicator; the request is the
/// communicator's until wait() hands it back.
class CommInFlight final : public InFlight {
public:
  explicit CommInFlight(tessel_comm_request_t *request) : request(request) {}
  CommInFlight(const CommInFlight &) = delete;
  CommInFlight &operator=(const CommInFlight &) = delete;
  /// A call never waited for (its function failed half-way) is waited for
  /// here, so that MPI stops writing into its buffers before they go.
  ~CommInFlight() override {
    if (request)
      tessel_comm_wait(request);
  }

  bool test() override {
    int32_t done = 0;
    if (!request)
      return true;
    if (tessel_comm_test(request, &done) != TESSEL_STATUS_OK)
      throw OpError(tessel_last_error_message());
    return done != 0;
  }

  void wait() override {
    if (!request)
      return;
    tessel_comm_request_t *waited = request;
    request = nullptr;
    if (tessel_comm_wait(waited) != TESSEL_STATUS_OK)
      throw OpError(tessel_last_error_message());
  }

private:
  tessel_comm_request_t *request;
};

/// Wraps the start of a collective into a StartKernel, or none for i1
/// tensors, which move widened to i32 through a temporary and so run
/// blocking.
template <typename Call>
StartKernel commStart(const OpDescriptor &desc, std::vector<std::string> axes,
                      Call &&body) {
  if (!commElementType(desc.operands.at(0).type))
    return {};
  auto call = std::make_shared<const CommCall>(desc, std::move(axes));
  return [call, body = std::forward<Call>(body)](
             tessel_context_t &context, void *const *operands,
             void *result) -> std::unique_ptr<InFlight> {
    if (!context.comm)
      throw OpError("the context has no communicator for a mesh-level op");
    tessel_element_type_t type = *commElementType(call->input.type);
    tessel_tensor_t in{operands[0], type, call->input.rank(),
                       call->input.shape.data()};
    tessel_tensor_t out{result, type, call->output.rank(),
                        call->output.shape.data()};
    tessel_comm_request_t *request = nullptr;
    if (body(*call, context.comm, &in, &out, &request) != TESSEL_STATUS_OK)
      throw OpError(tessel_last_error_message());
    return std::make_unique<CommInFlight>(request);
  };
}

StartKernel startAllReduce(const OpDescriptor &desc) {
  desc.expectOperands(1);
  tessel_reduction_t reduction = reductionAttr(desc);
  return commStart(
      desc, desc.stringListAttr("axes"),
      [=](const CommCall &call, tessel_comm_t *comm, const tessel_tensor_t *in,
          const tessel_tensor_t *out, tessel_comm_request_t **request) {
        return tessel_comm_all_reduce_start(
            comm, call.numAxes(), call.axisList(), reduction, in, out, request);
      });
}

StartKernel startAllGather(const OpDescriptor &desc) {
  desc.expectOperands(1);
  int32_t dim = inputDim(desc, "dim");
  return commStart(
      desc, desc.stringListAttr("axes"),
      [=](const CommCall &call, tessel_comm_t *comm, const tessel_tensor_t *in,
          const tessel_tensor_t *out, tessel_comm_request_t **request) {
        return tessel_comm_all_gather_start(
            comm, call.numAxes(), call.axisList(), dim, in, out, request);
      });
}

StartKernel startReduceScatter(const OpDescriptor &desc) {
  desc.expectOperands(1);
  tessel_reduction_t reduction = reductionAttr(desc);
  int32_t dim = inputDim(desc, "dim");
  return commStart(
      desc, desc.stringListAttr("axes"),
      [=](const CommCall &call, tessel_comm_t *comm, const tessel_tensor_t *in,
          const tessel_tensor_t *out, tessel_comm_request_t **request) {
        return tessel_comm_reduce_scatter_start(comm, call.numAxes(),
                                                call.axisList(), reduction, dim,
                                                in, out, request);
      });
}

StartKernel startHaloExchange(const OpDescriptor &desc) {
  desc.expectOperands(1);
  HaloAttrs attrs(desc);
  return commStart(desc, {},
                   [=](const CommCall &, tessel_comm_t *comm,
                       const tessel_tensor_t *in, const tessel_tensor_t *out,
                       tessel_comm_request_t **request) {
                     return tessel_comm_halo_exchange_start(
                         comm, attrs.axis.c_str(), attrs.dim, attrs.low,
                         attrs.high, attrs.padValue, in, out, request);
                   });
}

} // namespace

void registerMeshStarts(StartRegistry &registry) {
  registry.insert({
      {"tessel.all_reduce", startAllReduce},
      {"tessel.all_gather", startAllGather},
      {"tessel.reduce_scatter", startReduceScatter},
      {"tessel.halo_exchange", startHaloExchange},
  });
}

void registerMeshOps(KernelRegistry &registry) {
  registry.insert({
      {"tessel.all_reduce", buildAllReduce},
      {"tessel.all_gather", buildAllGather},
      {"tessel.reduce_scatter", buildReduceScatter},
      {"tessel.all_to_all", buildAllToAll},
      {"tessel.halo_exchange", buildHaloExchange},
      {"tessel.collective_permute", buildCollectivePermute},
      {"tessel.shard_slice", buildShardSlice},
  });
}

} // namespace tessel::runtime
