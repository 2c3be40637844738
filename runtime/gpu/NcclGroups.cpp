//===- NcclGroups.cpp - An NCCL communicator per mesh-axis group ----------===//

#include "gpu/NcclGroups.h"

#include "gpu/CudaStatus.h"

#include "executor/Descriptor.h"

#include <fmt/format.h>
#include <mpi.h>

namespace tessel::runtime::gpu {

NcclGroups::NcclGroups(layout::Mesh mesh, int64_t rank)
    : mesh(std::move(mesh)), rank(rank) {
  // The ids' own communicator, so that they never meet the program's
  // messages (a pipeline's activations go over MPI_COMM_WORLD).
  if (MPI_Comm_dup(MPI_COMM_WORLD, &ids) != MPI_SUCCESS)
    throw OpError("MPI_Comm_dup for the NCCL unique ids failed");
}

NcclGroups::~NcclGroups() {
  for (auto &[axes, comm] : comms)
    ncclCommDestroy(comm);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (ids != MPI_COMM_NULL && !finalized)
    MPI_Comm_free(&ids);
}

int NcclGroups::idTag(const std::vector<std::string> &axes) const {
  // The axes' mesh indices as digits of base numAxes + 1, one number per
  // ordered list of distinct axes, as the MPI communicator tags its groups;
  // MPI promises tags up to 32767 at least.
  int64_t tag = 0;
  for (const std::string &axis : axes)
    tag = tag * (mesh.numAxes() + 1) + mesh.axisIndex(axis).value_or(0) + 1;
  return static_cast<int>(tag % 32768);
}

ncclComm_t NcclGroups::group(const std::vector<std::string> &axes) {
  auto found = comms.find(axes);
  if (found != comms.end())
    return found->second;
  // Listed by position: members[0] makes the id.
  std::vector<int64_t> members = mesh.groupOf(rank, axes);
  int64_t position = mesh.positionInGroup(rank, axes);
  int tag = idTag(axes);
  ncclUniqueId id{};
  ncclResult_t made = ncclSuccess;
  if (position == 0) {
    made = ncclGetUniqueId(&id);
    // The id goes out even when making it failed, so that no member waits
    // for it; every member then sees the failure through ncclCommInitRank.
    for (size_t i = 1; i < members.size(); ++i)
      if (MPI_Send(&id, sizeof(id), MPI_BYTE, static_cast<int>(members[i]),
                   tag, ids) != MPI_SUCCESS)
        throw OpError("MPI_Send of the NCCL unique id failed");
  } else if (MPI_Recv(&id, sizeof(id), MPI_BYTE, static_cast<int>(members[0]),
                      tag, ids, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
    throw OpError("MPI_Recv of the NCCL unique id failed");
  }
  checkNccl(made, "ncclGetUniqueId");
  ncclComm_t comm = nullptr;
  checkNccl(ncclCommInitRank(&comm, static_cast<int>(members.size()), id,
                             static_cast<int>(position)),
            "ncclCommInitRank");
  comms.emplace(axes, comm);
  return comm;
}

} // namespace tessel::runtime::gpu
