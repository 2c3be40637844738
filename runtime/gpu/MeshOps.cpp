//===- MeshOps.cpp - Mesh-level ops on NCCL -------------------------------===//
//
// Each mesh-level op of the dialect on the NCCL communicator of its group
// (NcclGroups.h), issued on the rank's stream so that it is ordered with
// the kernels around it and no host synchronisation is needed. The
// semantics are the CPU communicator's (tessel/runtime/comm.h), which are
// the reference evaluator's:
//
//   all_reduce          ncclAllReduce (bf16/f16 widened to f32 around it and
//                       rounded back once, as the CPU communicator does)
//   all_gather          ncclAllGather, then the chunks joined along the dim
//   reduce_scatter      the chunks along the dim packed, ncclReduceScatter
//                       (bf16/f16 widened to f32 as for all_reduce)
//   all_to_all          packed chunks, grouped ncclSend/ncclRecv, joined
//   halo_exchange       grouped ncclSend/ncclRecv of edge slabs with the two
//                       neighbours on the axis; pad_value where none
//   collective_permute  grouped ncclSend/ncclRecv; zeros where no source
//   shard_slice         a strided copy of this rank's chunk, no NCCL
//
// NCCL moves contiguous buffers, so chunks along a dim that is not the
// outermost are packed and unpacked with the strided copy kernel. i1 moves
// as bytes; its reductions are the CPU runtime's after narrowing (sum and
// max are "any", min is "all").
//
//===----------------------------------------------------------------------===//

#include "gpu/CudaStatus.h"
#include "gpu/DeviceState.h"
#include "gpu/Ops.h"
#include "gpu/Packing.h"
#include "gpu/Views.h"

#include "executor/Buffers.h"

#include <fmt/format.h>

#include <map>

namespace tessel::runtime::gpu {

namespace {

ncclComm_t groupComm(DeviceState &device,
                     const std::vector<std::string> &axes) {
  if (!device.nccl)
    throw OpError("the context has no communicator for a mesh-level op");
  return device.nccl->group(axes);
}

NcclGroups &groupsOf(DeviceState &device) {
  if (!device.nccl)
    throw OpError("the context has no communicator for a mesh-level op");
  return *device.nccl;
}

/// The NCCL type reductions run in, after widening 16-bit floats.
ncclDataType_t reductionType(ref::ElementType type) {
  switch (type) {
  case ref::ElementType::F64:
    return ncclFloat64;
  case ref::ElementType::I32:
    return ncclInt32;
  case ref::ElementType::I64:
    return ncclInt64;
  case ref::ElementType::I1:
    return ncclUint8;
  default:
    return ncclFloat32;
  }
}

bool isNarrowFloat(ref::ElementType type) {
  return type == ref::ElementType::BF16 || type == ref::ElementType::F16;
}

ncclRedOp_t reductionAttr(const OpDescriptor &desc) {
  std::string kind = desc.stringAttr("kind");
  bool bits = desc.operands[0].type == ref::ElementType::I1;
  if (kind == "sum")
    return bits ? ncclMax : ncclSum; // a sum of 0/1 narrowed to i1 is "any"
  if (kind == "max")
    return ncclMax;
  if (kind == "min")
    return ncclMin;
  throw OpError(fmt::format(
      "attribute 'kind' is '{}', not one of 'sum', 'max', 'min'", kind));
}

int dimAttr(const OpDescriptor &desc, const char *name) {
  return desc.operands[0].dimIndex(desc.stringAttr(name), "operand 0");
}

void copyDevice(cudaStream_t stream, void *to, const void *from, size_t bytes) {
  if (bytes > 0 && to != from)
    checkCuda(
        cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream),
        "cudaMemcpyAsync");
}

/// Runs the grouped sends and receives that `body` issues.
template <typename Body> void grouped(Body &&body) {
  checkNccl(ncclGroupStart(), "ncclGroupStart");
  try {
    body();
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  checkNccl(ncclGroupEnd(), "ncclGroupEnd");
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Kernel buildAllReduce(const OpDescriptor &desc) {
  desc.expectOperands(1);
  ncclRedOp_t op = reductionAttr(desc);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  ref::ElementType type = desc.operands[0].type;
  auto count = static_cast<size_t>(desc.operands[0].numElements());
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    ncclComm_t comm = groupComm(device, axes);
    if (count == 0)
      return;
    if (!isNarrowFloat(type)) {
      checkNccl(ncclAllReduce(operands[0], result, count, reductionType(type),
                              op, comm, stream),
                "ncclAllReduce");
      return;
    }
    // Reduced in f32 and rounded once, like the CPU communicator.
    DeviceBuffer wide(stream, count * sizeof(float));
    launchConvert(stream, dtypeOf(type), operands[0], DType::F32, wide.get(),
                  static_cast<int64_t>(count));
    checkNccl(ncclAllReduce(wide.get(), wide.get(), count, ncclFloat32, op,
                            comm, stream),
              "ncclAllReduce");
    launchConvert(stream, DType::F32, wide.get(), dtypeOf(type), result,
                  static_cast<int64_t>(count));
    checkCuda(cudaGetLastError(), "the convert kernel");
  };
}

Kernel buildAllGather(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  int dim = dimAttr(desc, "dim");
  const TensorType &in = desc.operands[0];
  size_t inBytes = static_cast<size_t>(in.numBytes());
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    int64_t members = groupsOf(device).size(axes);
    ncclComm_t comm = groupComm(device, axes);
    // The output seen as [members, input] with chunks along `dim`.
    Chunks chunks;
    std::vector<int64_t> outShape = in.shape;
    outShape[dim] *= members;
    if (!chunks.plan(in.type, outShape, dim, members))
      throw OpError("all_gather: too many dims for the GPU's packing");
    DeviceBuffer gathered(stream, inBytes * members);
    checkNccl(ncclAllGather(operands[0], gathered.get(), inBytes, ncclUint8,
                            comm, stream),
              "ncclAllGather");
    chunks.unpack(stream, gathered.get(), result);
  };
}

Kernel buildReduceScatter(const OpDescriptor &desc) {
  desc.expectOperands(1);
  ncclRedOp_t op = reductionAttr(desc);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  int dim = dimAttr(desc, "dim");
  const TensorType &in = desc.operands[0];
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    int64_t members = groupsOf(device).size(axes);
    ncclComm_t comm = groupComm(device, axes);
    Chunks chunks;
    if (!chunks.plan(in.type, in.shape, dim, members))
      throw OpError(fmt::format("reduce_scatter: {} members do not divide "
                                "dim {} of {}",
                                members, dim, in.str()));
    auto count = static_cast<size_t>(chunks.chunkElements);
    DeviceBuffer packed(stream, chunks.chunkBytes() * members);
    chunks.pack(stream, operands[0], packed.get());
    if (!isNarrowFloat(in.type)) {
      checkNccl(ncclReduceScatter(packed.get(), result, count,
                                  reductionType(in.type), op, comm, stream),
                "ncclReduceScatter");
      return;
    }
    DeviceBuffer wide(stream, count * members * sizeof(float));
    DeviceBuffer mine(stream, count * sizeof(float));
    launchConvert(stream, dtypeOf(in.type), packed.get(), DType::F32,
                  wide.get(), static_cast<int64_t>(count * members));
    checkNccl(ncclReduceScatter(wide.get(), mine.get(), count, ncclFloat32, op,
                                comm, stream),
              "ncclReduceScatter");
    launchConvert(stream, DType::F32, mine.get(), dtypeOf(in.type), result,
                  static_cast<int64_t>(count));
    checkCuda(cudaGetLastError(), "the convert kernel");
  };
}

Kernel buildAllToAll(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  int splitDim = dimAttr(desc, "split_dim");
  int concatDim = dimAttr(desc, "concat_dim");
  const TensorType &in = desc.operands[0];
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    int64_t members = groupsOf(device).size(axes);
    ncclComm_t comm = groupComm(device, axes);
    Chunks sent, received;
    std::vector<int64_t> outShape = in.shape;
    outShape[splitDim] /= members;
    outShape[concatDim] *= members;
    if (!sent.plan(in.type, in.shape, splitDim, members) ||
        !received.plan(in.type, outShape, concatDim, members))
      throw OpError(fmt::format("all_to_all: {} members do not divide {}",
                                members, in.str()));
    size_t chunkBytes = sent.chunkBytes();
    DeviceBuffer packed(stream, chunkBytes * members);
    DeviceBuffer gathered(stream, chunkBytes * members);
    sent.pack(stream, operands[0], packed.get());
    grouped([&] {
      for (int64_t peer = 0; peer < members; ++peer) {
        checkNccl(
            ncclSend(static_cast<char *>(packed.get()) + peer * chunkBytes,
                     chunkBytes, ncclUint8, static_cast<int>(peer), comm,
                     stream),
            "ncclSend");
        checkNccl(
            ncclRecv(static_cast<char *>(gathered.get()) + peer * chunkBytes,
                     chunkBytes, ncclUint8, static_cast<int>(peer), comm,
                     stream),
            "ncclRecv");
      }
    });
    received.unpack(stream, gathered.get(), result);
  };
}

Kernel buildHaloExchange(const OpDescriptor &desc) {
  desc.expectOperands(1);
  int dim = dimAttr(desc, "dim");
  std::vector<std::string> axis = {desc.stringAttr("axis")};
  std::vector<int64_t> halo = desc.intListAttr("halo");
  if (halo.size() != 2)
    throw OpError("attribute 'halo' must be [low, high]");
  int64_t low = halo[0], high = halo[1];
  double padValue = desc.doubleAttr("pad_value", 0.0);
  const TensorType &in = desc.operands[0];
  int64_t size = in.shape[dim];
  if (low < 0 || high < 0 || low > size || high > size)
    throw OpError(fmt::format("halo [{}, {}] is wider than the {} elements "
                              "along the dim",
                              low, high, size));
  std::vector<int64_t> outShape = in.shape;
  outShape[dim] += low + high;
  // What goes out (my last `low` to the successor, my first `high` to the
  // predecessor), what comes in, and where my own block lands.
  Slab sendUp, sendDown, recvLow, recvHigh, middle;
  if (!sendUp.plan(in.type, in.shape, dim, size - low, low) ||
      !sendDown.plan(in.type, in.shape, dim, 0, high) ||
      !recvLow.plan(in.type, outShape, dim, 0, low) ||
      !recvHigh.plan(in.type, outShape, dim, low + size, high) ||
      !middle.plan(in.type, outShape, dim, low, size))
    throw OpError("halo_exchange: too many dims for the GPU");
  DType type = dtypeOf(in.type);
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    NcclGroups &groups = groupsOf(device);
    int64_t members = groups.size(axis), position = groups.position(axis);
    ncclComm_t comm = groupComm(device, axis);
    bool hasPredecessor = position > 0;
    bool hasSuccessor = position + 1 < members;
    middle.unpack(stream, operands[0], result);
    DeviceBuffer upBuffer(stream, sendUp.bytes),
        downBuffer(stream, sendDown.bytes);
    DeviceBuffer lowBuffer(stream, recvLow.bytes),
        highBuffer(stream, recvHigh.bytes);
    if (low > 0 && hasSuccessor)
      sendUp.pack(stream, operands[0], upBuffer.get());
    if (high > 0 && hasPredecessor)
      sendDown.pack(stream, operands[0], downBuffer.get());
    // At the ends of the axis the halo is pad_value.
    if (low > 0 && !hasPredecessor)
      launchFill(stream, type, lowBuffer.get(), recvLow.walk.count(), padValue);
    if (high > 0 && !hasSuccessor)
      launchFill(stream, type, highBuffer.get(), recvHigh.walk.count(),
                 padValue);
    checkCuda(cudaGetLastError(), "the halo packing kernels");
    auto peer = [](int64_t p) { return static_cast<int>(p); };
    grouped([&] {
      if (low > 0 && hasSuccessor)
        checkNccl(ncclSend(upBuffer.get(), sendUp.bytes, ncclUint8,
                           peer(position + 1), comm, stream),
                  "ncclSend");
      if (low > 0 && hasPredecessor)
        checkNccl(ncclRecv(lowBuffer.get(), recvLow.bytes, ncclUint8,
                           peer(position - 1), comm, stream),
                  "ncclRecv");
      if (high > 0 && hasPredecessor)
        checkNccl(ncclSend(downBuffer.get(), sendDown.bytes, ncclUint8,
                           peer(position - 1), comm, stream),
                  "ncclSend");
      if (high > 0 && hasSuccessor)
        checkNccl(ncclRecv(highBuffer.get(), recvHigh.bytes, ncclUint8,
                           peer(position + 1), comm, stream),
                  "ncclRecv");
    });
    if (low > 0)
      recvLow.unpack(stream, lowBuffer.get(), result);
    if (high > 0)
      recvHigh.unpack(stream, highBuffer.get(), result);
    checkCuda(cudaGetLastError(), "the halo unpacking kernels");
  };
}

Kernel buildCollectivePermute(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  std::vector<int64_t> pairs = desc.intListAttr("pairs");
  if (pairs.size() % 2 != 0)
    throw OpError("attribute 'pairs' has an odd number of positions");
  // The source each target receives from: the last pair naming it.
  std::map<int64_t, int64_t> sourceOf;
  for (size_t i = 0; i < pairs.size(); i += 2)
    sourceOf[pairs[i + 1]] = pairs[i];
  size_t bytes = static_cast<size_t>(desc.operands[0].numBytes());
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    DeviceState &device = deviceOf(context);
    cudaStream_t stream = device.stream;
    NcclGroups &groups = groupsOf(device);
    int64_t members = groups.size(axes), position = groups.position(axes);
    for (const auto &[target, source] : sourceOf)
      if (target < 0 || target >= members || source < 0 || source >= members)
        throw OpError(fmt::format("pair ({}, {}) is outside the group of {}",
                                  source, target, members));
    ncclComm_t comm = groupComm(device, axes);
    auto mine = sourceOf.find(position);
    if (mine == sourceOf.end())
      checkCuda(cudaMemsetAsync(result, 0, bytes, stream), "cudaMemsetAsync");
    else if (mine->second == position)
      copyDevice(stream, result, operands[0], bytes);
    if (bytes == 0)
      return;
    grouped([&] {
      for (const auto &[target, source] : sourceOf)
        if (source == position && target != position)
          checkNccl(ncclSend(operands[0], bytes, ncclUint8,
                             static_cast<int>(target), comm, stream),
                    "ncclSend");
      if (mine != sourceOf.end() && mine->second != position)
        checkNccl(ncclRecv(result, bytes, ncclUint8,
                           static_cast<int>(mine->second), comm, stream),
                  "ncclRecv");
    });
  };
}

Kernel buildShardSlice(const OpDescriptor &desc) {
  desc.expectOperands(1);
  std::vector<std::string> axes = desc.stringListAttr("axes");
  int dim = dimAttr(desc, "dim");
  const TensorType &in = desc.operands[0];
  return [=](tessel_context_t &context, void *const *operands, void *result) {
    cudaStream_t stream = deviceOf(context).stream;
    // The position comes from the mesh alone: no communication.
    int64_t members = context.mesh.groupSize(axes);
    int64_t position = context.mesh.positionInGroup(context.rank, axes);
    if (in.shape[dim] % members != 0)
      throw OpError(fmt::format("shard_slice: {} members do not divide dim "
                                "{} of {}",
                                members, dim, in.str()));
    int64_t width = in.shape[dim] / members;
    Slab chunk;
    if (!chunk.plan(in.type, in.shape, dim, position * width, width))
      throw OpError("shard_slice: too many dims for the GPU");
    chunk.pack(stream, operands[0], result);
    checkCuda(cudaGetLastError(), "the copy kernel");
  };
}

} // namespace

void registerGpuMeshOps(KernelRegistry &registry) {
  registry["tessel.all_reduce"] = buildAllReduce;
  registry["tessel.all_gather"] = buildAllGather;
  registry["tessel.reduce_scatter"] = buildReduceScatter;
  registry["tessel.all_to_all"] = buildAllToAll;
  registry["tessel.halo_exchange"] = buildHaloExchange;
  registry["tessel.collective_permute"] = buildCollectivePermute;
  registry["tessel.shard_slice"] = buildShardSlice;
}

} // namespace tessel::runtime::gpu
