//===- MpiComm.h - One rank of a mesh, over MPI -----------------*- C++ -*-===//
//
// The object behind tessel_comm_t: this rank's place in the mesh, a private
// duplicate of MPI_COMM_WORLD, and one sub-communicator per group of mesh
// axes it has been asked about.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_COMM_MPICOMM_H
#define TESSEL_RUNTIME_COMM_MPICOMM_H

#include "layouts/Mesh.h"
#include "tessel/runtime/comm.h"

#include <mpi.h>

#include <climits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessel::runtime {

/// This rank's group over a list of mesh axes: an MPI communicator whose
/// ranks are the positions of Mesh::positionInGroup.
struct Group {
  MPI_Comm comm = MPI_COMM_NULL;
  int64_t size = 1;
  int64_t position = 0;
  /// The axes, for messages.
  std::vector<std::string> axes;
};

class MpiComm {
public:
  /// Initialises MPI if nobody has, checks the mesh against the number of
  /// ranks, and duplicates MPI_COMM_WORLD. Collective over the job.
  static tessel_status_t create(std::vector<std::string> axisNames,
                                std::vector<int64_t> axisSizes,
                                std::unique_ptr<MpiComm> &out);

  MpiComm(const MpiComm &) = delete;
  MpiComm &operator=(const MpiComm &) = delete;
  /// Frees whatever destroy() has not (without reporting errors).
  ~MpiComm();

  /// Frees the communicators (collective) and finalises MPI when the runtime
  /// initialised it and this was its last communicator.
  tessel_status_t destroy();

  const layout::Mesh &mesh() const { return meshValue; }
  int64_t rank() const { return rankValue; }
  /// The private duplicate of MPI_COMM_WORLD; its ranks are mesh ranks.
  MPI_Comm world() const { return worldComm; }

  /// Checks that `axes` are mesh axes, each named once, or fails naming the
  /// offending one and the mesh.
  tessel_status_t checkAxes(const std::vector<std::string> &axes,
                            const char *op) const;

  /// This rank's group over `axes` (checked by checkAxes). The first call
  /// for a list of axes makes the group's communicator, which is
  /// collective over the group's members (not over every rank of the mesh:
  /// a pipeline's stages reach their collectives at different times);
  /// later calls return the cached group.
  tessel_status_t group(const std::vector<std::string> &axes, const char *op,
                        const Group *&out);

  /// The cached group over exactly these axes, or null: the C API's path
  /// for every call after a group's first, which copies no names (a
  /// collective of a few KiB takes a few microseconds, and building the
  /// list of names cost a tenth of that).
  const Group *cachedGroup(int32_t numAxes, const char *const *axes) const;

  /// "data:2 x model:2"
  std::string meshString() const;

private:
  /// The tag under which the members of the group over `axes` make it.
  int groupTag(const std::vector<std::string> &axes) const;

  MpiComm(layout::Mesh mesh, int64_t rank, MPI_Comm world)
      : meshValue(std::move(mesh)), rankValue(rank), worldComm(world) {}

  layout::Mesh meshValue;
  int64_t rankValue;
  MPI_Comm worldComm;
  std::map<std::vector<std::string>, Group> groups;
};

/// Turns an MPI return code into a status: OK for MPI_SUCCESS, otherwise
/// MPI_ERROR with a message naming `call`, `op` and MPI's own description.
/// (Inline with the message out of line: every collective call passes
/// here, and a 4 KiB one takes about a microsecond.)
tessel_status_t mpiFailure(int code, const char *call, const char *op);
inline tessel_status_t checkMpi(int code, const char *call, const char *op) {
  return code == MPI_SUCCESS ? TESSEL_STATUS_OK : mpiFailure(code, call, op);
}

/// Narrows an element count to the int that MPI calls take, or fails.
tessel_status_t tooManyForMpi(int64_t count, const char *op);
inline tessel_status_t mpiCount(int64_t count, const char *op, int &out) {
  if (count > INT_MAX)
    return tooManyForMpi(count, op);
  out = static_cast<int>(count);
  return TESSEL_STATUS_OK;
}

/// The MPI type with the element's representation. For bf16 and f16 it is
/// MPI_UINT16_T, good for moving data but not for reducing it.
MPI_Datatype mpiDatatype(tessel_element_type_t type);

std::string meshString(const std::vector<std::string> &names,
                       const std::vector<int64_t> &sizes);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_COMM_MPICOMM_H
