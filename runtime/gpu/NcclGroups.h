//===- NcclGroups.h - An NCCL communicator per mesh-axis group --*- C++ -*-===//
//
// The GPU counterpart of the MPI communicator's group cache: a collective
// over a list of mesh axes runs in the ranks that agree on every other
// axis, ordered by layout::Mesh::positionInGroup (the CPU runtime's order,
// so both backends compute the same thing). Each group gets its own
// ncclComm_t whose NCCL rank is the position: the position-0 member makes
// an ncclUniqueId and sends it over MPI to the others (an MPI_Comm_split of
// MPI_COMM_WORLD by group), and all call ncclCommInitRank. Made on the
// first use of an axis list; every rank reaches that use at the same op of
// the SPMD program, so the collective creation cannot deadlock.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_NCCLGROUPS_H
#define TESSEL_RUNTIME_GPU_NCCLGROUPS_H

#include "layouts/Mesh.h"

#include <nccl.h>

#include <map>
#include <string>
#include <vector>

namespace tessel::runtime::gpu {

class NcclGroups {
public:
  NcclGroups(layout::Mesh mesh, int64_t rank)
      : mesh(std::move(mesh)), rank(rank) {}
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
  layout::Mesh mesh;
  int64_t rank;
  std::map<std::vector<std::string>, ncclComm_t> comms;
};

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_NCCLGROUPS_H
