//===- NcclGroups.h - An NCCL communicator per mesh-axis group --*- C++ -*-===//
//
// The GPU counterpart of the MPI communicator's group cache: a collective
// over a list of mesh axes runs in the ranks that agree on every other
// axis, ordered by layout::Mesh::positionInGroup (the CPU runtime's order,
// so both backends compute the same thing). Each group gets its own
// ncclComm_t whose NCCL rank is the position: the position-0 member makes
// an ncclUniqueId and sends it to the other members, point to point over a
// communicator of the ids' own, and all call ncclCommInitRank. Made on the
// first use of an axis list by the group's members alone, as the MPI
// communicator makes its groups: the stages of a pipelined program run
// different functions and reach their groups' first collectives at
// different times, so nothing may wait on a rank outside the group.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_NCCLGROUPS_H
#define TESSEL_RUNTIME_GPU_NCCLGROUPS_H

#include "layouts/Mesh.h"

#include <mpi.h>
#include <nccl.h>

#include <map>
#include <string>
#include <vector>

namespace tessel::runtime::gpu {

class NcclGroups {
public:
  /// Collective over MPI_COMM_WORLD (the backend's start-up, which every
  /// rank runs): duplicates it for the ids. OpError when MPI fails.
  NcclGroups(layout::Mesh mesh, int64_t rank);
  ~NcclGroups();
  NcclGroups(const NcclGroups &) = delete;
  NcclGroups &operator=(const NcclGroups &) = delete;

  /// This rank's communicator over `axes` (in the order listed); OpError
  /// when NCCL or MPI fails.
  ncclComm_t group(const std::vector<std::string> &axes);
  /// Its size and this rank's position in it, from the mesh alone.
  int64_t size(const std::vector<std::string> &axes) const {
    return mesh.groupSize(axes);
  }
  int64_t position(const std::vector<std::string> &axes) const {
    return mesh.positionInGroup(rank, axes);
  }
  const layout::Mesh &meshOf() const { return mesh; }

private:
  /// The tag of the ids for `axes`: the same on every member.
  int idTag(const std::vector<std::string> &axes) const;

  layout::Mesh mesh;
  int64_t rank;
  MPI_Comm ids = MPI_COMM_NULL;
  std::map<std::vector<std::string>, ncclComm_t> comms;
};

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_NCCLGROUPS_H
