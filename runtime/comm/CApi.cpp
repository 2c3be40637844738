//===- CApi.cpp - The C entry points of tessel/runtime/comm.h -------------===//
//
// Each entry point converts its C arguments into checked C++ values, calls
// the implementation, and makes sure no C++ exception crosses into C: an
// allocation failure becomes RESOURCE_EXHAUSTED, anything else INTERNAL.
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"

#include "base/Status.h"
#include "base/TensorView.h"
#include "comm/Collectives.h"
#include "comm/MpiComm.h"

#include <exception>
#include <new>

using namespace tessel::runtime;

struct tessel_comm_t {
  std::unique_ptr<MpiComm> impl;
};

struct tessel_comm_request_t {
  std::unique_ptr<PendingCollective> pending;
};

namespace {

/// Runs `body`, turning exceptions into statuses.
template <typename Body>
tessel_status_t guarded(const char *op, Body &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return failf(TESSEL_STATUS_RESOURCE_EXHAUSTED, "{}: out of memory", op);
  } catch (const std::exception &error) {
    return failf(TESSEL_STATUS_INTERNAL, "{}: {}", op, error.what());
  } catch (...) {
    return failf(TESSEL_STATUS_INTERNAL, "{}: unknown exception", op);
  }
}

tessel_status_t checkComm(const tessel_comm_t *comm, const char *op) {
  if (!comm || !comm->impl)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: the communicator is NULL",
                 op);
  return TESSEL_STATUS_OK;
}

/// Copies a C list of axis names.
tessel_status_t axisList(int32_t numAxes, const char *const *axes,
                         const char *op, std::vector<std::string> &out) {
  if (numAxes < 0 || (numAxes > 0 && !axes))
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: {} axes given but {}", op,
                 numAxes,
                 numAxes < 0 ? "a count cannot be negative" : "no names");
  out.clear();
  for (int32_t i = 0; i < numAxes; ++i) {
    if (!axes[i])
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: axis name #{} is NULL",
                   op, i);
    out.emplace_back(axes[i]);
  }
  return TESSEL_STATUS_OK;
}

/// The group over the C axis list.
tessel_status_t groupOf(tessel_comm_t *comm, int32_t numAxes,
                        const char *const *axes, const char *op,
                        const Group *&out) {
  TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
  if ((out = comm->impl->cachedGroup(numAxes, axes)))
    return TESSEL_STATUS_OK;
  std::vector<std::string> names;
  TESSEL_RETURN_IF_ERROR(axisList(numAxes, axes, op, names));
  return comm->impl->group(names, op, out);
}

/// Views of an input and an output descriptor.
tessel_status_t views(const tessel_tensor_t *input,
                      const tessel_tensor_t *output, const char *op,
                      TensorView &inputView, TensorView &outputView) {
  TESSEL_RETURN_IF_ERROR(viewOf(input, op, "input", inputView));
  return viewOf(output, op, "output", outputView);
}

} // namespace

extern "C" {

tessel_status_t tessel_comm_create(int32_t num_axes,
                                   const char *const *axis_names,
                                   const int64_t *axis_sizes,
                                   tessel_comm_t **out_comm) {
  const char *op = "tessel_comm_create";
  return guarded(op, [&] {
    if (!out_comm)
      return fail(TESSEL_STATUS_INVALID_ARGUMENT,
                  "tessel_comm_create: out_comm is NULL");
    *out_comm = nullptr;
    std::vector<std::string> names;
    TESSEL_RETURN_IF_ERROR(axisList(num_axes, axis_names, op, names));
    if (num_axes > 0 && !axis_sizes)
      return fail(TESSEL_STATUS_INVALID_ARGUMENT,
                  "tessel_comm_create: axis_sizes is NULL");
    std::vector<int64_t> sizes(axis_sizes, axis_sizes + num_axes);
    auto comm = std::make_unique<tessel_comm_t>();
    TESSEL_RETURN_IF_ERROR(
        MpiComm::create(std::move(names), std::move(sizes), comm->impl));
    *out_comm = comm.release();
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t tessel_comm_destroy(tessel_comm_t *comm) {
  return guarded("tessel_comm_destroy", [&] {
    if (!comm)
      return TESSEL_STATUS_OK;
    tessel_status_t status =
        comm->impl ? comm->impl->destroy() : TESSEL_STATUS_OK;
    delete comm;
    return status;
  });
}

tessel_status_t tessel_comm_rank(const tessel_comm_t *comm, int64_t *out_rank) {
  const char *op = "tessel_comm_rank";
  TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
  if (!out_rank)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: out_rank is NULL", op);
  *out_rank = comm->impl->rank();
  return TESSEL_STATUS_OK;
}

tessel_status_t tessel_comm_size(const tessel_comm_t *comm, int64_t *out_size) {
  const char *op = "tessel_comm_size";
  TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
  if (!out_size)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: out_size is NULL", op);
  *out_size = comm->impl->mesh().numRanks();
  return TESSEL_STATUS_OK;
}

tessel_status_t tessel_comm_coordinate(const tessel_comm_t *comm,
                                       const char *axis,
                                       int64_t *out_coordinate) {
  const char *op = "tessel_comm_coordinate";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
    if (!axis || !out_coordinate)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: {} is NULL", op,
                   axis ? "out_coordinate" : "axis");
    const tessel::layout::Mesh &mesh = comm->impl->mesh();
    std::optional<unsigned> index = mesh.axisIndex(axis);
    if (!index)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: '{}' is not an axis of the mesh {}", op, axis,
                   comm->impl->meshString());
    *out_coordinate = mesh.coordinatesOf(comm->impl->rank())[*index];
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t tessel_comm_group(const tessel_comm_t *comm, int32_t num_axes,
                                  const char *const *axes, int64_t *out_size,
                                  int64_t *out_position) {
  const char *op = "tessel_comm_group";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
    std::vector<std::string> names;
    TESSEL_RETURN_IF_ERROR(axisList(num_axes, axes, op, names));
    TESSEL_RETURN_IF_ERROR(comm->impl->checkAxes(names, op));
    const tessel::layout::Mesh &mesh = comm->impl->mesh();
    if (out_size)
      *out_size = mesh.groupSize(names);
    if (out_position)
      *out_position = mesh.positionInGroup(comm->impl->rank(), names);
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t tessel_comm_all_reduce(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes,
                                       tessel_reduction_t reduction,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output) {
  const char *op = "tessel_comm_all_reduce";
  return guarded(op, [&] {
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    return allReduce(*group, reduction, in, out);
  });
}

tessel_status_t tessel_comm_all_gather(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes, int32_t dim,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output) {
  const char *op = "tessel_comm_all_gather";
  return guarded(op, [&] {
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    return allGather(*group, dim, in, out);
  });
}

tessel_status_t tessel_comm_reduce_scatter(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, int32_t dim, const tessel_tensor_t *input,
    const tessel_tensor_t *output) {
  const char *op = "tessel_comm_reduce_scatter";
  return guarded(op, [&] {
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    return reduceScatter(*group, reduction, dim, in, out);
  });
}

/// Hands a started collective to the caller as a request.
static tessel_status_t handOut(std::unique_ptr<PendingCollective> pending,
                               tessel_comm_request_t **out_request) {
  auto request = std::make_unique<tessel_comm_request_t>();
  request->pending = std::move(pending);
  *out_request = request.release();
  return TESSEL_STATUS_OK;
}

static tessel_status_t checkRequestOut(tessel_comm_request_t **out_request,
                                       const char *op) {
  if (!out_request)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: out_request is NULL", op);
  *out_request = nullptr;
  return TESSEL_STATUS_OK;
}

tessel_status_t tessel_comm_all_reduce_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request) {
  const char *op = "tessel_comm_all_reduce_start";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkRequestOut(out_request, op));
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    std::unique_ptr<PendingCollective> pending;
    TESSEL_RETURN_IF_ERROR(startAllReduce(*group, reduction, in, out, pending));
    return handOut(std::move(pending), out_request);
  });
}

tessel_status_t tessel_comm_all_gather_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes, int32_t dim,
    const tessel_tensor_t *input, const tessel_tensor_t *output,
    tessel_comm_request_t **out_request) {
  const char *op = "tessel_comm_all_gather_start";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkRequestOut(out_request, op));
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    std::unique_ptr<PendingCollective> pending;
    TESSEL_RETURN_IF_ERROR(startAllGather(*group, dim, in, out, pending));
    return handOut(std::move(pending), out_request);
  });
}

tessel_status_t tessel_comm_reduce_scatter_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, int32_t dim, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request) {
  const char *op = "tessel_comm_reduce_scatter_start";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkRequestOut(out_request, op));
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    std::unique_ptr<PendingCollective> pending;
    TESSEL_RETURN_IF_ERROR(
        startReduceScatter(*group, reduction, dim, in, out, pending));
    return handOut(std::move(pending), out_request);
  });
}

tessel_status_t tessel_comm_halo_exchange_start(
    tessel_comm_t *comm, const char *axis, int32_t dim, int64_t low,
    int64_t high, double pad_value, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request) {
  const char *op = "tessel_comm_halo_exchange_start";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkRequestOut(out_request, op));
    TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
    if (!axis)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: axis is NULL", op);
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    std::unique_ptr<PendingCollective> pending;
    TESSEL_RETURN_IF_ERROR(startHaloExchange(*comm->impl, axis, dim, low, high,
                                             pad_value, in, out, pending));
    return handOut(std::move(pending), out_request);
  });
}

tessel_status_t tessel_comm_test(tessel_comm_request_t *request,
                                 int32_t *out_done) {
  const char *op = "tessel_comm_test";
  return guarded(op, [&] {
    if (!request || !request->pending || !out_done)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: {} is NULL", op,
                   out_done ? "the request" : "out_done");
    bool done = false;
    TESSEL_RETURN_IF_ERROR(request->pending->test(done));
    *out_done = done ? 1 : 0;
    return TESSEL_STATUS_OK;
  });
}

tessel_status_t tessel_comm_wait(tessel_comm_request_t *request) {
  const char *op = "tessel_comm_wait";
  return guarded(op, [&] {
    if (!request || !request->pending) {
      delete request;
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: the request is NULL",
                   op);
    }
    std::unique_ptr<tessel_comm_request_t> owned(request);
    return owned->pending->wait();
  });
}

tessel_status_t tessel_comm_all_to_all(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes,
                                       int32_t split_dim, int32_t concat_dim,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output) {
  const char *op = "tessel_comm_all_to_all";
  return guarded(op, [&] {
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    return allToAll(*group, split_dim, concat_dim, in, out);
  });
}

tessel_status_t tessel_comm_halo_exchange(tessel_comm_t *comm, const char *axis,
                                          int32_t dim, int64_t low,
                                          int64_t high, double pad_value,
                                          const tessel_tensor_t *input,
                                          const tessel_tensor_t *output) {
  const char *op = "tessel_comm_halo_exchange";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
    if (!axis)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: axis is NULL", op);
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    return haloExchange(*comm->impl, axis, dim, low, high, pad_value, in, out);
  });
}

tessel_status_t tessel_comm_collective_permute(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    int32_t num_pairs, const int64_t *pairs, const tessel_tensor_t *input,
    const tessel_tensor_t *output) {
  const char *op = "tessel_comm_collective_permute";
  return guarded(op, [&] {
    if (num_pairs < 0 || (num_pairs > 0 && !pairs))
      return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: {} pairs given but {}",
                   op, num_pairs,
                   num_pairs < 0 ? "a count cannot be negative" : "no pairs");
    std::vector<std::pair<int64_t, int64_t>> pairList;
    for (int32_t i = 0; i < num_pairs; ++i)
      pairList.emplace_back(pairs[2 * i], pairs[2 * i + 1]);
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const Group *group = nullptr;
    TESSEL_RETURN_IF_ERROR(groupOf(comm, num_axes, axes, op, group));
    return collectivePermute(*group, pairList, in, out);
  });
}

tessel_status_t tessel_comm_shard_slice(const tessel_comm_t *comm,
                                        int32_t num_axes,
                                        const char *const *axes, int32_t dim,
                                        const tessel_tensor_t *input,
                                        const tessel_tensor_t *output) {
  const char *op = "tessel_comm_shard_slice";
  return guarded(op, [&] {
    TESSEL_RETURN_IF_ERROR(checkComm(comm, op));
    std::vector<std::string> names;
    TESSEL_RETURN_IF_ERROR(axisList(num_axes, axes, op, names));
    TESSEL_RETURN_IF_ERROR(comm->impl->checkAxes(names, op));
    TensorView in, out;
    TESSEL_RETURN_IF_ERROR(views(input, output, op, in, out));
    const tessel::layout::Mesh &mesh = comm->impl->mesh();
    return shardSlice(mesh.groupSize(names),
                      mesh.positionInGroup(comm->impl->rank(), names), names,
                      dim, in, out);
  });
}

} // extern "C"
