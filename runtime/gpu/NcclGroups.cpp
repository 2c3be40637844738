//===- NcclGroups.cpp - An NCCL communicator per mesh-axis group ----------===//

#include "gpu/NcclGroups.h"

#include "gpu/CudaStatus.h"

#include "executor/Descriptor.h"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>

namespace tessel::runtime::gpu {

NcclGroups::~NcclGroups() {
  for (auto &[axes, comm] : comms)
    ncclCommDestroy(comm);
}

ncclComm_t NcclGroups::group(const std::vector<std::string> &axes) {
  auto found = comms.find(axes);
  if (found != comms.end())
    return found->second;
  std::vector<int64_t> members = mesh.groupOf(rank, axes);
  int64_t position = mesh.positionInGroup(rank, axes);
  int color =
      static_cast<int>(*std::min_element(members.begin(), members.end()));
  MPI_Comm groupComm = MPI_COMM_NULL;
  if (MPI_Comm_split(MPI_COMM_WORLD, color, static_cast<int>(position),
                     &groupComm) != MPI_SUCCESS)
    throw OpError("MPI_Comm_split for an NCCL group failed");
  ncclUniqueId id{};
  ncclResult_t made = ncclSuccess;
  if (position == 0)
    made = ncclGetUniqueId(&id);
  // The id goes out even when making it failed, so that no member waits
  // for it; every member then sees the failure through ncclCommInitRank.
  int sent = MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, groupComm);
  MPI_Comm_free(&groupComm);
  checkNccl(made, "ncclGetUniqueId");
  if (sent != MPI_SUCCESS)
    throw OpError("MPI_Bcast of the NCCL unique id failed");
  ncclComm_t comm = nullptr;
  checkNccl(ncclCommInitRank(&comm, static_cast<int>(members.size()), id,
                             static_cast<int>(position)),
            "ncclCommInitRank");
  comms.emplace(axes, comm);
  return comm;
}

} // namespace tessel::runtime::gpu
