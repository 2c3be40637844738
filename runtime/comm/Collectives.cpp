//===- Collectives.cpp - Mesh collectives over MPI ------------------------===//

#include "comm/Collectives.h"

#include "base/ElementType.h"
#include "base/Status.h"
#include "comm/Packing.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

namespace tessel::runtime {

namespace {
// Tags of the point-to-point messages. Collective traffic never matches
// point-to-point receives, and messages between one pair of ranks with one
// tag arrive in order, so these only need to tell the two halo directions
// apart.
constexpr int kTagLowHalo = 1;  // Becomes the receiver's low halo.
constexpr int kTagHighHalo = 2; // Becomes the receiver's high halo.
constexpr int kTagPermute = 3;
} // namespace

/// "group over [data, model] (4 ranks)"
static std::string describe(const Group &group) {
  return fmt::format("group over [{}] ({} rank{})", fmt::join(group.axes, ", "),
                     group.size, group.size == 1 ? "" : "s");
}

/// The MPI operation behind a reduction, refusing what MPI cannot do for
/// the type. Mean is a sum that the caller divides afterwards.
static tessel_status_t mpiOp(tessel_reduction_t reduction,
                             tessel_element_type_t type, const char *op,
                             MPI_Op &out) {
  switch (reduction) {
  case TESSEL_REDUCTION_SUM:
    out = MPI_SUM;
    return TESSEL_STATUS_OK;
  case TESSEL_REDUCTION_PROD:
    out = MPI_PROD;
    return TESSEL_STATUS_OK;
  case TESSEL_REDUCTION_MAX:
    out = MPI_MAX;
    return TESSEL_STATUS_OK;
  case TESSEL_REDUCTION_MIN:
    out = MPI_MIN;
    return TESSEL_STATUS_OK;
  case TESSEL_REDUCTION_MEAN:
    if (!isFloating(type))
      return failf(TESSEL_STATUS_UNIMPLEMENTED,
                   "{}: the mean of {} values is not provided (it is not a "
                   "{} value)",
                   op, elementTypeName(type), elementTypeName(type));
    out = MPI_SUM;
    return TESSEL_STATUS_OK;
  }
  return failf(TESSEL_STATUS_INVALID_ARGUMENT, "{}: unknown reduction {}", op,
               static_cast<int>(reduction));
}

/// Turns the sums of a mean into means, for f32 and f64 data.
static void divideSums(void *data, int64_t count, tessel_element_type_t type,
                       int64_t groupSize) {
  if (type == TESSEL_ELEMENT_TYPE_F64) {
    auto *values = static_cast<double *>(data);
    for (int64_t i = 0; i < count; ++i)
      values[i] /= static_cast<double>(groupSize);
  } else {
    auto *values = static_cast<float *>(data);
    for (int64_t i = 0; i < count; ++i)
      values[i] /= static_cast<float>(groupSize);
  }
}

namespace {

/// A reduction over a group of one rank: the member's own data, copied
/// unless the output is the input. MPI would do the same, but bf16 and f16
/// data would first be widened into f32 scratch, which a mixed-precision
/// step's gradients on one rank (`data:1`) held until their waits.
bool reducedInAGroupOfOne(const Group &group, const TensorView &input,
                          const TensorView &output) {
  if (group.size != 1)
    return false;
  if (output.data != input.data)
    std::memcpy(output.data, input.data, input.numBytes());
  return true;
}

} // namespace

tessel_status_t allReduce(const Group &group, tessel_reduction_t reduction,
                          const TensorView &input, const TensorView &output) {
  const char *op = "tessel_comm_all_reduce";
  TESSEL_RETURN_IF_ERROR(
      checkOutput(input, output, input.shape, op, /*allowInPlace=*/true));
  MPI_Op mpiReduction = MPI_OP_NULL;
  TESSEL_RETURN_IF_ERROR(mpiOp(reduction, input.type, op, mpiReduction));
  int64_t numElements = input.numElements();
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(numElements, op, count));
  if (numElements == 0 || reducedInAGroupOfOne(group, input, output))
    return TESSEL_STATUS_OK;
  bool mean = reduction == TESSEL_REDUCTION_MEAN;

  if (isHalfFloat(input.type)) {
    // MPI has no 16-bit float arithmetic: reduce in f32 and round once.
    ScratchBytes scratch;
    float *wide = scratch.allocateFloats(numElements);
    widenHalfToFloat(input.data, numElements, input.type, wide);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Allreduce(MPI_IN_PLACE, wide, count, MPI_FLOAT,
                               mpiReduction, group.comm),
                 "MPI_Allreduce", op));
    if (mean)
      divideSums(wide, numElements, TESSEL_ELEMENT_TYPE_F32, group.size);
    narrowFloatToHalf(wide, numElements, input.type, output.data);
    return TESSEL_STATUS_OK;
  }

  const void *send = output.data == input.data ? MPI_IN_PLACE : input.data;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Allreduce(send, output.data, count, mpiDatatype(input.type),
                             mpiReduction, group.comm),
               "MPI_Allreduce", op));
  if (mean)
    divideSums(output.data, numElements, input.type, group.size);
  return TESSEL_STATUS_OK;
}

tessel_status_t allGather(const Group &group, int32_t dim,
                          const TensorView &input, const TensorView &output) {
  const char *op = "tessel_comm_all_gather";
  TESSEL_RETURN_IF_ERROR(checkDim(input, dim, op, "dim"));
  Shape gathered = input.shape;
  gathered[dim] *= group.size;
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, gathered, op));
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(input.numElements(), op, count));
  if (count == 0)
    return TESSEL_STATUS_OK;

  // MPI_Allgather lays the members' tensors one after another, which is
  // already the concatenation along `dim` when nothing is outside it.
  DimView chunk = viewAround(input.shape, dim);
  MPI_Datatype type = mpiDatatype(input.type);
  if (chunk.outer == 1)
    return checkMpi(MPI_Allgather(input.data, count, type, output.data, count,
                                  type, group.comm),
                    "MPI_Allgather", op);
  ScratchBytes received;
  received.allocate(input.numBytes() * group.size);
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Allgather(input.data, count, type, received.data(), count,
                             type, group.comm),
               "MPI_Allgather", op));
  unpackChunks(received.data(), chunk, group.size, output.data,
               input.elementBytes());
  return TESSEL_STATUS_OK;
}

/// The shape of one of the group's equal chunks of `input` along `dim`, or
/// a failure when the dim does not split evenly. It divides once: a 64-bit
/// division is tens of cycles, a visible part of a 4 KiB collective's cost
/// outside MPI.
static tessel_status_t chunkShapeOf(const TensorView &input, int32_t dim,
                                    const Group &group, const char *op,
                                    const char *role, Shape &out) {
  TESSEL_RETURN_IF_ERROR(checkDim(input, dim, op, role));
  int64_t chunk = input.shape[dim] / group.size;
  if (chunk * group.size != input.shape[dim])
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: {} {} of the input {} has size {}, which does not split "
                 "evenly over the {}",
                 op, role, dim, describe(input), input.shape[dim],
                 describe(group));
  out = input.shape;
  out[dim] = chunk;
  return TESSEL_STATUS_OK;
}

/// A reduce-scatter's checked arguments, which its blocking and started
/// forms share.
struct ReduceScatterCall {
  MPI_Op reduction = MPI_OP_NULL;
  bool mean = false;
  int count = 0; // Elements of each member's chunk, as MPI counts them.
  int64_t numElements = 0, chunkElements = 0;
  /// No call to make: empty chunks, or a group of one (output filled).
  bool done = false;
};

static tessel_status_t
prepareReduceScatter(const Group &group, tessel_reduction_t reduction,
                     int32_t dim, const TensorView &input,
                     const TensorView &output, const char *op,
                     ReduceScatterCall &call) {
  Shape scattered;
  TESSEL_RETURN_IF_ERROR(chunkShapeOf(input, dim, group, op, "dim", scattered));
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, scattered, op));
  TESSEL_RETURN_IF_ERROR(mpiOp(reduction, input.type, op, call.reduction));
  call.mean = reduction == TESSEL_REDUCTION_MEAN;
  call.numElements = input.numElements();
  call.chunkElements = output.numElements();
  TESSEL_RETURN_IF_ERROR(mpiCount(call.chunkElements, op, call.count));
  call.done = call.count == 0 || reducedInAGroupOfOne(group, input, output);
  return TESSEL_STATUS_OK;
}

/// What MPI_(I)reduce_scatter_block sends: it hands member p the p-th
/// contiguous block, so the chunks along `dim` are laid out one after
/// another in `scratch` first unless they already are in `input`.
static const void *chunksInOrder(const TensorView &input, int32_t dim,
                                 int64_t groupSize, ScratchBytes &scratch) {
  DimView whole = viewAround(input.shape, dim);
  if (whole.outer == 1)
    return input.data;
  scratch.allocate(input.numBytes());
  packChunks(input.data, whole, groupSize, scratch.data(),
             input.elementBytes());
  return scratch.data();
}

tessel_status_t reduceScatter(const Group &group, tessel_reduction_t reduction,
                              int32_t dim, const TensorView &input,
                              const TensorView &output) {
  const char *op = "tessel_comm_reduce_scatter";
  ReduceScatterCall call;
  TESSEL_RETURN_IF_ERROR(
      prepareReduceScatter(group, reduction, dim, input, output, op, call));
  if (call.done)
    return TESSEL_STATUS_OK;

  // Blocking, not the started form waited for: on two ranks, one call
  // after a barrier, 64 KiB of f32 took 6.3 us against 11.2 started; 1 MiB
  // 141 against 134, 4 MiB 624 against 568.
  ScratchBytes packed;
  const void *send = chunksInOrder(input, dim, group.size, packed);

  if (isHalfFloat(input.type)) {
    // f32 data, then f32 sums of this member's chunk, in one scratch.
    ScratchBytes scratch;
    float *wide = scratch.allocateFloats(call.numElements + call.chunkElements);
    float *reduced = wide + call.numElements;
    widenHalfToFloat(send, call.numElements, input.type, wide);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Reduce_scatter_block(wide, reduced, call.count, MPI_FLOAT,
                                          call.reduction, group.comm),
                 "MPI_Reduce_scatter_block", op));
    if (call.mean)
      divideSums(reduced, call.chunkElements, TESSEL_ELEMENT_TYPE_F32,
                 group.size);
    narrowFloatToHalf(reduced, call.chunkElements, input.type, output.data);
    return TESSEL_STATUS_OK;
  }

  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Reduce_scatter_block(send, output.data, call.count,
                                        mpiDatatype(input.type), call.reduction,
                                        group.comm),
               "MPI_Reduce_scatter_block", op));
  if (call.mean)
    divideSums(output.data, call.chunkElements, input.type, group.size);
  return TESSEL_STATUS_OK;
}

PendingCollective::~PendingCollective() {
  if (request != MPI_REQUEST_NULL)
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  if (!neighbourRequests.empty())
    MPI_Waitall(static_cast<int>(neighbourRequests.size()),
                neighbourRequests.data(), MPI_STATUSES_IGNORE);
}

tessel_status_t PendingCollective::test(bool &done) {
  done = finished;
  if (finished)
    return TESSEL_STATUS_OK;
  int complete = 1;
  if (request != MPI_REQUEST_NULL)
    TESSEL_RETURN_IF_ERROR(checkMpi(
        MPI_Test(&request, &complete, MPI_STATUS_IGNORE), "MPI_Test", op));
  if (complete && !neighbourRequests.empty())
    TESSEL_RETURN_IF_ERROR(checkMpi(
        MPI_Testall(static_cast<int>(neighbourRequests.size()),
                    neighbourRequests.data(), &complete, MPI_STATUSES_IGNORE),
        "MPI_Testall", op));
  if (complete) {
    if (finish)
      finish();
    finished = done = true;
  }
  return TESSEL_STATUS_OK;
}

tessel_status_t PendingCollective::wait() {
  if (finished)
    return TESSEL_STATUS_OK;
  if (request != MPI_REQUEST_NULL)
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait", op));
  if (!neighbourRequests.empty())
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Waitall(static_cast<int>(neighbourRequests.size()),
                             neighbourRequests.data(), MPI_STATUSES_IGNORE),
                 "MPI_Waitall", op));
  if (finish)
    finish();
  finished = true;
  return TESSEL_STATUS_OK;
}

tessel_status_t startAllReduce(const Group &group, tessel_reduction_t reduction,
                               const TensorView &input,
                               const TensorView &output,
                               std::unique_ptr<PendingCollective> &out) {
  const char *op = "tessel_comm_all_reduce";
  TESSEL_RETURN_IF_ERROR(
      checkOutput(input, output, input.shape, op, /*allowInPlace=*/true));
  MPI_Op mpiReduction = MPI_OP_NULL;
  TESSEL_RETURN_IF_ERROR(mpiOp(reduction, input.type, op, mpiReduction));
  int64_t numElements = input.numElements();
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(numElements, op, count));
  auto pending = std::make_unique<PendingCollective>(op);
  if (numElements == 0 || reducedInAGroupOfOne(group, input, output)) {
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }
  // Fewer elements than the largest power of two within the group: there
  // Open MPI's reduce-scatter algorithm chosen for started all-reduces
  // (tessel_comm_choose_mpi_algorithms) falls back to a ring of 2 (n - 1)
  // messages in a row, where the blocking call sends 2 log2(n). Such a sum
  // (a loss, a norm) is latency alone, with little to hide, so it runs now,
  // blocking (4 bytes on 8 ranks over 2 cores took 43 us started on that
  // ring).
  int64_t powerOfTwo = 1;
  while (powerOfTwo * 2 <= group.size)
    powerOfTwo *= 2;
  if (numElements < powerOfTwo) {
    out = std::move(pending);
    return allReduce(group, reduction, input, output);
  }
  bool mean = reduction == TESSEL_REDUCTION_MEAN;
  int64_t groupSize = group.size;

  if (isHalfFloat(input.type)) {
    // As allReduce: reduced in f32 (scratch), rounded once when finished.
    float *wide = pending->scratch.allocateFloats(numElements);
    widenHalfToFloat(input.data, numElements, input.type, wide);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Iallreduce(MPI_IN_PLACE, wide, count, MPI_FLOAT,
                                mpiReduction, group.comm, &pending->request),
                 "MPI_Iallreduce", op));
    tessel_element_type_t type = input.type;
    void *target = output.data;
    pending->finish = [=] {
      if (mean)
        divideSums(wide, numElements, TESSEL_ELEMENT_TYPE_F32, groupSize);
      narrowFloatToHalf(wide, numElements, type, target);
    };
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }

  const void *send = output.data == input.data ? MPI_IN_PLACE : input.data;
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Iallreduce(send, output.data, count, mpiDatatype(input.type),
                              mpiReduction, group.comm, &pending->request),
               "MPI_Iallreduce", op));
  if (mean) {
    tessel_element_type_t type = input.type;
    void *target = output.data;
    pending->finish = [=] { divideSums(target, numElements, type, groupSize); };
  }
  out = std::move(pending);
  return TESSEL_STATUS_OK;
}

tessel_status_t startAllGather(const Group &group, int32_t dim,
                               const TensorView &input,
                               const TensorView &output,
                               std::unique_ptr<PendingCollective> &out) {
  const char *op = "tessel_comm_all_gather";
  TESSEL_RETURN_IF_ERROR(checkDim(input, dim, op, "dim"));
  Shape gathered = input.shape;
  gathered[dim] *= group.size;
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, gathered, op));
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(input.numElements(), op, count));
  auto pending = std::make_unique<PendingCollective>(op);
  if (count == 0) {
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }
  DimView chunk = viewAround(input.shape, dim);
  MPI_Datatype type = mpiDatatype(input.type);
  void *receive = output.data;
  if (chunk.outer != 1) {
    // Received member after member, joined along `dim` when finished.
    pending->scratch.allocate(input.numBytes() * group.size);
    receive = pending->scratch.data();
    const char *received = pending->scratch.data();
    int64_t groupSize = group.size;
    size_t elementBytes = input.elementBytes();
    void *target = output.data;
    pending->finish = [=] {
      unpackChunks(received, chunk, groupSize, target, elementBytes);
    };
  }
  TESSEL_RETURN_IF_ERROR(
      checkMpi(MPI_Iallgather(input.data, count, type, receive, count, type,
                              group.comm, &pending->request),
               "MPI_Iallgather", op));
  out = std::move(pending);
  return TESSEL_STATUS_OK;
}

tessel_status_t startReduceScatter(const Group &group,
                                   tessel_reduction_t reduction, int32_t dim,
                                   const TensorView &input,
                                   const TensorView &output,
                                   std::unique_ptr<PendingCollective> &out) {
  const char *op = "tessel_comm_reduce_scatter";
  ReduceScatterCall call;
  TESSEL_RETURN_IF_ERROR(
      prepareReduceScatter(group, reduction, dim, input, output, op, call));
  auto pending = std::make_unique<PendingCollective>(op);
  if (call.done) {
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }
  bool mean = call.mean;
  int64_t groupSize = group.size, chunkElements = call.chunkElements;
  const void *send = chunksInOrder(input, dim, group.size, pending->scratch);

  if (isHalfFloat(input.type)) {
    // f32 data, then f32 sums of this member's chunk, in one scratch.
    float *wide =
        pending->moreScratch.allocateFloats(call.numElements + chunkElements);
    float *reduced = wide + call.numElements;
    widenHalfToFloat(send, call.numElements, input.type, wide);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Ireduce_scatter_block(wide, reduced, call.count, MPI_FLOAT,
                                           call.reduction, group.comm,
                                           &pending->request),
                 "MPI_Ireduce_scatter_block", op));
    tessel_element_type_t type = input.type;
    void *target = output.data;
    pending->finish = [=] {
      if (mean)
        divideSums(reduced, chunkElements, TESSEL_ELEMENT_TYPE_F32, groupSize);
      narrowFloatToHalf(reduced, chunkElements, type, target);
    };
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }

  TESSEL_RETURN_IF_ERROR(checkMpi(
      MPI_Ireduce_scatter_block(send, output.data, call.count,
                                mpiDatatype(input.type), call.reduction,
                                group.comm, &pending->request),
      "MPI_Ireduce_scatter_block", op));
  if (mean) {
    tessel_element_type_t type = input.type;
    void *target = output.data;
    pending->finish = [=] {
      divideSums(target, chunkElements, type, groupSize);
    };
  }
  out = std::move(pending);
  return TESSEL_STATUS_OK;
}

tessel_status_t allToAll(const Group &group, int32_t splitDim,
                         int32_t concatDim, const TensorView &input,
                         const TensorView &output) {
  const char *op = "tessel_comm_all_to_all";
  Shape chunkShape;
  TESSEL_RETURN_IF_ERROR(
      chunkShapeOf(input, splitDim, group, op, "split dim", chunkShape));
  TESSEL_RETURN_IF_ERROR(checkDim(input, concatDim, op, "concat dim"));
  Shape result = chunkShape;
  result[concatDim] *= group.size;
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, result, op));
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(elementCount(chunkShape), op, count));
  if (count == 0)
    return TESSEL_STATUS_OK;
  size_t elementBytes = input.elementBytes();

  // MPI_Alltoall sends the j-th contiguous block to member j and stores the
  // block from member i i-th. So: chunks along the split dim one after
  // another before, and the received chunks joined along the concat dim
  // after, each skipped when the layout already is that.
  DimView whole = viewAround(input.shape, splitDim);
  const void *send = input.data;
  ScratchBytes packed;
  if (whole.outer != 1) {
    packed.allocate(input.numBytes());
    packChunks(input.data, whole, group.size, packed.data(), elementBytes);
    send = packed.data();
  }
  DimView received = viewAround(chunkShape, concatDim);
  void *receive = output.data;
  ScratchBytes unjoined;
  if (received.outer != 1) {
    unjoined.allocate(output.numBytes());
    receive = unjoined.data();
  }
  MPI_Datatype type = mpiDatatype(input.type);
  TESSEL_RETURN_IF_ERROR(checkMpi(
      MPI_Alltoall(send, count, type, receive, count, type, group.comm),
      "MPI_Alltoall", op));
  if (received.outer != 1)
    unpackChunks(unjoined.data(), received, group.size, output.data,
                 elementBytes);
  return TESSEL_STATUS_OK;
}

tessel_status_t haloExchange(const MpiComm &comm, const std::string &axis,
                             int32_t dim, int64_t low, int64_t high,
                             double padValue, const TensorView &input,
                             const TensorView &output) {
  std::unique_ptr<PendingCollective> pending;
  TESSEL_RETURN_IF_ERROR(startHaloExchange(comm, axis, dim, low, high, padValue,
                                           input, output, pending));
  return pending->wait();
}

tessel_status_t startHaloExchange(const MpiComm &comm, const std::string &axis,
                                  int32_t dim, int64_t low, int64_t high,
                                  double padValue, const TensorView &input,
                                  const TensorView &output,
                                  std::unique_ptr<PendingCollective> &out) {
  const char *op = "tessel_comm_halo_exchange";
  const layout::Mesh &mesh = comm.mesh();
  std::optional<unsigned> axisIndex = mesh.axisIndex(axis);
  if (!axisIndex)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: '{}' is not an axis of the mesh {}", op, axis,
                 comm.meshString());
  TESSEL_RETURN_IF_ERROR(checkDim(input, dim, op, "dim"));
  int64_t local = input.shape[dim];
  if (low < 0 || high < 0 || low > local || high > local)
    return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                 "{}: halo widths low {} and high {} must be between 0 and "
                 "the local size {} of dim {}: halos come from the immediate "
                 "neighbours only",
                 op, low, high, local, dim);
  Shape widened = input.shape;
  widened[dim] += low + high;
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, widened, op));
  auto pending = std::make_unique<PendingCollective>(op);
  if (output.numElements() == 0) {
    out = std::move(pending);
    return TESSEL_STATUS_OK;
  }

  // Neighbours on the axis; the world communicator's ranks are mesh ranks.
  std::vector<int64_t> coords = mesh.coordinatesOf(comm.rank());
  int64_t coordinate = coords[*axisIndex];
  int predecessor = MPI_PROC_NULL, successor = MPI_PROC_NULL;
  if (coordinate > 0) {
    --coords[*axisIndex];
    predecessor = static_cast<int>(mesh.rankAt(coords));
    ++coords[*axisIndex];
  }
  if (coordinate + 1 < mesh.axisSizes()[*axisIndex]) {
    ++coords[*axisIndex];
    successor = static_cast<int>(mesh.rankAt(coords));
  }

  DimView view = viewAround(input.shape, dim);
  size_t elementBytes = input.elementBytes();
  MPI_Datatype type = mpiDatatype(input.type);
  int lowCount = 0, highCount = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(view.outer * low * view.inner, op, lowCount));
  TESSEL_RETURN_IF_ERROR(
      mpiCount(view.outer * high * view.inner, op, highCount));
  // Halos arrive in (scratch), and leave from (moreScratch), contiguous
  // buffers of shape [outer, width, inner], low then high; at an edge of
  // the axis the halo is padding.
  size_t lowBytes = lowCount * elementBytes,
         highBytes = highCount * elementBytes;
  pending->scratch.allocate(lowBytes + highBytes);
  pending->moreScratch.allocate(lowBytes + highBytes);
  char *lowHalo = pending->scratch.data(), *highHalo = lowHalo + lowBytes;
  char *lowSend = pending->moreScratch.data(), *highSend = lowSend + lowBytes;
  std::vector<MPI_Request> &requests = pending->neighbourRequests;
  // MPI writes each request handle when the call is made, so a slot is
  // pushed for every call and handed over.
  requests.reserve(4);
  auto slot = [&]() {
    requests.push_back(MPI_REQUEST_NULL);
    return &requests.back();
  };
  if (low > 0) {
    if (predecessor != MPI_PROC_NULL)
      TESSEL_RETURN_IF_ERROR(
          checkMpi(MPI_Irecv(lowHalo, lowCount, type, predecessor, kTagLowHalo,
                             comm.world(), slot()),
                   "MPI_Irecv", op));
    else
      fillWith(lowHalo, lowCount, input.type, padValue);
    if (successor != MPI_PROC_NULL) {
      // Our last `low` elements are the successor's low halo.
      copyAlongDim(input.data, local, local - low, lowSend, low, 0, low,
                   view.outer, view.inner, elementBytes);
      TESSEL_RETURN_IF_ERROR(
          checkMpi(MPI_Isend(lowSend, lowCount, type, successor, kTagLowHalo,
                             comm.world(), slot()),
                   "MPI_Isend", op));
    }
  }
  if (high > 0) {
    if (successor != MPI_PROC_NULL)
      TESSEL_RETURN_IF_ERROR(
          checkMpi(MPI_Irecv(highHalo, highCount, type, successor, kTagHighHalo,
                             comm.world(), slot()),
                   "MPI_Irecv", op));
    else
      fillWith(highHalo, highCount, input.type, padValue);
    if (predecessor != MPI_PROC_NULL) {
      // Our first `high` elements are the predecessor's high halo.
      copyAlongDim(input.data, local, 0, highSend, high, 0, high, view.outer,
                   view.inner, elementBytes);
      TESSEL_RETURN_IF_ERROR(
          checkMpi(MPI_Isend(highSend, highCount, type, predecessor,
                             kTagHighHalo, comm.world(), slot()),
                   "MPI_Isend", op));
    }
  }
  // The own part is copied while the messages are in flight; the halos
  // once they have arrived.
  int64_t total = widened[dim];
  copyAlongDim(input.data, local, 0, output.data, total, low, local, view.outer,
               view.inner, elementBytes);
  void *target = output.data;
  pending->finish = [=] {
    copyAlongDim(lowHalo, low, 0, target, total, 0, low, view.outer, view.inner,
                 elementBytes);
    copyAlongDim(highHalo, high, 0, target, total, low + local, high,
                 view.outer, view.inner, elementBytes);
  };
  out = std::move(pending);
  return TESSEL_STATUS_OK;
}

tessel_status_t
collectivePermute(const Group &group,
                  const std::vector<std::pair<int64_t, int64_t>> &pairs,
                  const TensorView &input, const TensorView &output) {
  const char *op = "tessel_comm_collective_permute";
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, input.shape, op));
  // Where each position's tensor comes from; a later pair for the same
  // target replaces an earlier one, as in the reference.
  std::vector<int64_t> sourceOf(group.size, -1);
  for (size_t i = 0; i < pairs.size(); ++i) {
    auto [source, target] = pairs[i];
    if (source < 0 || source >= group.size || target < 0 ||
        target >= group.size)
      return failf(TESSEL_STATUS_INVALID_ARGUMENT,
                   "{}: pair #{} ({} -> {}) names a position outside the {}",
                   op, i, source, target, describe(group));
    sourceOf[target] = source;
  }
  int count = 0;
  TESSEL_RETURN_IF_ERROR(mpiCount(input.numElements(), op, count));
  if (count == 0)
    return TESSEL_STATUS_OK;

  int64_t self = group.position;
  int64_t from = sourceOf[self];
  MPI_Datatype type = mpiDatatype(input.type);
  std::vector<MPI_Request> requests;
  requests.reserve(group.size + 1);
  if (from >= 0 && from != self) {
    requests.push_back(MPI_REQUEST_NULL);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Irecv(output.data, count, type, static_cast<int>(from),
                           kTagPermute, group.comm, &requests.back()),
                 "MPI_Irecv", op));
  }
  for (int64_t target = 0; target < group.size; ++target) {
    if (target == self || sourceOf[target] != self)
      continue;
    requests.push_back(MPI_REQUEST_NULL);
    TESSEL_RETURN_IF_ERROR(
        checkMpi(MPI_Isend(input.data, count, type, static_cast<int>(target),
                           kTagPermute, group.comm, &requests.back()),
                 "MPI_Isend", op));
  }
  if (from == self)
    std::memcpy(output.data, input.data, input.numBytes());
  else if (from < 0)
    fillWith(output.data, input.numElements(), input.type, 0.0);
  return checkMpi(MPI_Waitall(static_cast<int>(requests.size()),
                              requests.data(), MPI_STATUSES_IGNORE),
                  "MPI_Waitall", op);
}

tessel_status_t shardSlice(int64_t groupSize, int64_t position,
                           const std::vector<std::string> &axes, int32_t dim,
                           const TensorView &input, const TensorView &output) {
  const char *op = "tessel_comm_shard_slice";
  (void)axes;
  TESSEL_RETURN_IF_ERROR(checkDim(input, dim, op, "dim"));
  // A split that does not divide the dimension (a pad_uneven layout) gives
  // every member ceil(size / groupSize) elements; past the end are zeros.
  int64_t size = input.shape[dim];
  int64_t chunk = (size + groupSize - 1) / groupSize;
  Shape sliced = input.shape;
  sliced[dim] = chunk;
  TESSEL_RETURN_IF_ERROR(checkOutput(input, output, sliced, op));
  int64_t start = std::min(position * chunk, size);
  int64_t kept = std::min(chunk, size - start);
  if (kept < chunk)
    std::memset(output.data, 0, static_cast<size_t>(output.numBytes()));
  DimView view = viewAround(input.shape, dim);
  copyAlongDim(input.data, view.size, start, output.data, chunk, 0, kept,
               view.outer, view.inner, input.elementBytes());
  return TESSEL_STATUS_OK;
}

} // namespace tessel::runtime
