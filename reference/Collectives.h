//===- Collectives.h - Simulated mesh collectives ---------------*- C++ -*-===//
//
// The reference semantics of mesh-level communication, simulated for a whole
// mesh in one process. Every function takes the local shard of every rank
// (`perRank[r]` belongs to rank r; all shards have the same spec) and returns
// every rank's result. A collective over `axes` runs independently in each
// group Mesh::groupOf(rank, axes), whose members are ordered by
// Mesh::positionInGroup. Sizes that must divide evenly are guaranteed by the
// verified op that calls these.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_COLLECTIVES_H
#define TESSEL_REFERENCE_COLLECTIVES_H

#include "reference/Reductions.h"
#include "reference/Tensor.h"
#include "layouts/Mesh.h"

#include <utility>

namespace tessel::ref {

using PerRank = std::vector<Tensor>;

/// Every member gets the elementwise reduction of all members' tensors
/// (Mean divides the sum by the group size).
PerRank allReduce(const PerRank &perRank, const layout::Mesh &mesh,
                  ReductionKind kind, const std::vector<std::string> &axes);

/// Every member gets the members' tensors concatenated along `dim` in
/// position order.
PerRank allGather(const PerRank &perRank, const layout::Mesh &mesh,
                  std::string_view dim, const std::vector<std::string> &axes);

/// Reduces over the group like allReduce, then the member at position p
/// keeps the p-th of groupSize equal chunks along `dim`.
PerRank reduceScatter(const PerRank &perRank, const layout::Mesh &mesh,
                      ReductionKind kind, std::string_view dim,
                      const std::vector<std::string> &axes);

/// Each member splits its tensor along `splitDim` into groupSize equal
/// chunks; the member at position j receives chunk j of every member i and
/// concatenates them along `concatDim` in order of i. The two dims may be
/// the same.
PerRank allToAll(const PerRank &perRank, const layout::Mesh &mesh,
                 std::string_view splitDim, std::string_view concatDim,
                 const std::vector<std::string> &axes);

/// Each rank's result is [the last `low` elements along `dim` of its
/// predecessor on `axis`] ++ [its own tensor] ++ [the first `high` elements
/// of its successor]; at either edge of the axis, where there is no
/// neighbour, the missing part is filled with `padValue`. The result is
/// low + high larger along `dim`.
PerRank haloExchange(const PerRank &perRank, const layout::Mesh &mesh,
                     std::string_view dim, std::string_view axis, int64_t low,
                     int64_t high, double padValue);

/// In each group, the member at each pair's target position receives the
/// tensor of the member at its source position; members that receive
/// nothing get zeros. Pairs are (sourcePosition, targetPosition).
PerRank
collectivePermute(const PerRank &perRank, const layout::Mesh &mesh,
                  const std::vector<std::string> &axes,
                  const std::vector<std::pair<int64_t, int64_t>> &pairs);

/// Without communication, each rank keeps chunk positionInGroup(rank, axes)
/// of groupSize equal chunks along `dim`.
PerRank shardSlice(const PerRank &perRank, const layout::Mesh &mesh,
                   std::string_view dim, const std::vector<std::string> &axes);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_COLLECTIVES_H
