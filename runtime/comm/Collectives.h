//===- Collectives.h - Mesh collectives over MPI ----------------*- C++ -*-===//
//
// The mesh-level operations on checked tensor views, for one rank. Each
// checks the output it is given against the shape it produces, then moves
// data with one MPI collective (point-to-point only for the neighbour
// traffic of halo exchanges and permutations), packing chunks along a dim
// that is not the outermost into contiguous buffers around it (Packing.h).
// The meaning of each is the reference's, reference/Collectives.h.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_COMM_COLLECTIVES_H
#define TESSEL_RUNTIME_COMM_COLLECTIVES_H

#include "base/TensorView.h"
#include "comm/MpiComm.h"

#include <utility>
#include <vector>

namespace tessel::runtime {

tessel_status_t allReduce(const Group &group, tessel_reduction_t reduction,
                          const TensorView &input, const TensorView &output);

tessel_status_t allGather(const Group &group, int32_t dim,
                          const TensorView &input, const TensorView &output);

tessel_status_t reduceScatter(const Group &group, tessel_reduction_t reduction,
                              int32_t dim, const TensorView &input,
                              const TensorView &output);

tessel_status_t allToAll(const Group &group, int32_t splitDim,
                         int32_t concatDim, const TensorView &input,
                         const TensorView &output);

tessel_status_t haloExchange(const MpiComm &comm, const std::string &axis,
                             int32_t dim, int64_t low, int64_t high,
                             double padValue, const TensorView &input,
                             const TensorView &output);

tessel_status_t
collectivePermute(const Group &group,
                  const std::vector<std::pair<int64_t, int64_t>> &pairs,
                  const TensorView &input, const TensorView &output);

/// Needs only the group's size and this rank's position, no communicator.
tessel_status_t shardSlice(int64_t groupSize, int64_t position,
                           const std::vector<std::string> &axes, int32_t dim,
                           const TensorView &input, const TensorView &output);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_COMM_COLLECTIVES_H
