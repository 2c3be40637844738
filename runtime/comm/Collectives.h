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

#include <functional>
#include <memory>
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

/// Bytes MPI reads or writes, left uninitialised: every collective fills
/// its scratch (packs, widens or receives into it) before reading it, and
/// a zeroed vector cost a memset of the whole buffer on every call.
class ScratchBytes {
public:
  /// Replaces the buffer by `bytes` uninitialised bytes.
  void allocate(size_t bytes) { bytesHeld.reset(new char[bytes]); }
  /// Replaces the buffer by room for `count` floats, and returns it.
  float *allocateFloats(size_t count) {
    allocate(count * sizeof(float));
    return reinterpret_cast<float *>(data());
  }
  char *data() const { return bytesHeld.get(); }

private:
  std::unique_ptr<char[]> bytesHeld;
};

/// A collective started with MPI's non-blocking call and not yet waited for:
/// its request (or, for the neighbour traffic of a halo exchange, its
/// point-to-point requests), the scratch buffers MPI reads or writes until
/// it completes,
/// and what remains to be done to the output afterwards (a mean's division,
/// unpacking chunks, rounding back to 16 bits). The input and output views
/// it was started on must stay alive and untouched until complete() or
/// wait() has finished it.
class PendingCollective {
public:
  explicit PendingCollective(const char *op) : op(op) {}
  PendingCollective(const PendingCollective &) = delete;
  PendingCollective &operator=(const PendingCollective &) = delete;
  /// Waits for an unfinished request, so that MPI never writes into freed
  /// scratch (errors are not reported here; wait() reports them).
  ~PendingCollective();

  /// Drives MPI's progress; `done` is true once the output holds the
  /// result (after which test and wait do nothing more).
  tessel_status_t test(bool &done);
  /// Blocks until the output holds the result.
  tessel_status_t wait();

  const char *op;
  MPI_Request request = MPI_REQUEST_NULL;
  /// Point-to-point requests, all of which complete the collective; each
  /// is MPI_REQUEST_NULL once complete.
  std::vector<MPI_Request> neighbourRequests;
  ScratchBytes scratch, moreScratch;
  /// Run once MPI has completed the request.
  std::function<void()> finish;
  bool finished = false;
};

/// Non-blocking forms of allReduce, allGather and reduceScatter: the same
/// checks and results (the output is written by the time `out` is
/// finished), started with MPI_Iallreduce, MPI_Iallgather and
/// MPI_Ireduce_scatter_block so that the caller computes meanwhile.
tessel_status_t startAllReduce(const Group &group, tessel_reduction_t reduction,
                               const TensorView &input,
                               const TensorView &output,
                               std::unique_ptr<PendingCollective> &out);
tessel_status_t startAllGather(const Group &group, int32_t dim,
                               const TensorView &input,
                               const TensorView &output,
                               std::unique_ptr<PendingCollective> &out);
tessel_status_t startReduceScatter(const Group &group,
                                   tessel_reduction_t reduction, int32_t dim,
                                   const TensorView &input,
                                   const TensorView &output,
                                   std::unique_ptr<PendingCollective> &out);

/// The non-blocking form of haloExchange: the same checks and result. The
/// halos this rank sends are copied out and the messages posted
/// (MPI_Isend, MPI_Irecv), and the own part is copied into the output, at
/// the start; the received halos and the edge padding go into the output
/// when finished.
tessel_status_t startHaloExchange(const MpiComm &comm, const std::string &axis,
                                  int32_t dim, int64_t low, int64_t high,
                                  double padValue, const TensorView &input,
                                  const TensorView &output,
                                  std::unique_ptr<PendingCollective> &out);

/// Needs only the group's size and this rank's position, no communicator.
tessel_status_t shardSlice(int64_t groupSize, int64_t position,
                           const std::vector<std::string> &axes, int32_t dim,
                           const TensorView &input, const TensorView &output);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_COMM_COLLECTIVES_H
