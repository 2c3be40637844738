//===- Collectives.cpp - Simulated mesh collectives -----------------------===//

#include "reference/Collectives.h"

#include "reference/Shape.h"

#include <algorithm>
#include <cassert>

namespace tessel::ref {

/// The `size` elements of x along `dim` starting at `start`.
static Tensor sliceAlong(const Tensor &x, std::string_view dim, int64_t start,
                         int64_t size) {
  TensorSpec spec = x.spec;
  spec.shape[spec.dimIndex(dim)] = size;
  return slice(x, {std::string(dim)}, {start}, spec);
}

/// The parts joined along `dim`; they all share one spec apart from `dim`.
static Tensor concatAlong(const std::vector<Tensor> &parts,
                          std::string_view dim) {
  assert(!parts.empty() && "nothing to concatenate");
  TensorSpec spec = parts.front().spec;
  int64_t total = 0;
  for (const Tensor &part : parts)
    total += part.dimSize(dim);
  spec.shape[spec.dimIndex(dim)] = total;
  return concat(parts, dim, spec);
}

/// Chunk `index` of `count` equal chunks of x along `dim`.
static Tensor chunkAlong(const Tensor &x, std::string_view dim, int64_t count,
                         int64_t index) {
  int64_t size = x.dimSize(dim);
  assert(size % count == 0 && "dim does not split evenly over the group");
  int64_t chunk = size / count;
  return sliceAlong(x, dim, index * chunk, chunk);
}

static void checkShards(const PerRank &perRank, const layout::Mesh &mesh) {
  (void)perRank;
  (void)mesh;
  assert(static_cast<int64_t>(perRank.size()) == mesh.numRanks() &&
         "need exactly one shard per rank");
#ifndef NDEBUG
  for (const Tensor &shard : perRank)
    assert(shard.spec == perRank.front().spec && "shards differ in spec");
#endif
}

/// The reduction of the tensors of `members`, rounded once.
static Tensor reduceMembers(const PerRank &perRank,
                            const std::vector<int64_t> &members,
                            ReductionKind kind) {
  const TensorSpec &spec = perRank[members.front()].spec;
  std::vector<double> values(spec.numElements(), reductionIdentity(kind));
  for (int64_t member : members)
    for (size_t i = 0; i < values.size(); ++i)
      values[i] = reductionCombine(kind, values[i], perRank[member].data[i]);
  if (kind == ReductionKind::Mean)
    for (double &value : values)
      value /= static_cast<double>(members.size());
  return Tensor(spec, std::move(values));
}

PerRank allReduce(const PerRank &perRank, const layout::Mesh &mesh,
                  ReductionKind kind, const std::vector<std::string> &axes) {
  checkShards(perRank, mesh);
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank)
    result[rank] = reduceMembers(perRank, mesh.groupOf(rank, axes), kind);
  return result;
}

PerRank allGather(const PerRank &perRank, const layout::Mesh &mesh,
                  std::string_view dim, const std::vector<std::string> &axes) {
  checkShards(perRank, mesh);
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    std::vector<Tensor> parts;
    for (int64_t member : mesh.groupOf(rank, axes))
      parts.push_back(perRank[member]);
    result[rank] = concatAlong(parts, dim);
  }
  return result;
}

PerRank reduceScatter(const PerRank &perRank, const layout::Mesh &mesh,
                      ReductionKind kind, std::string_view dim,
                      const std::vector<std::string> &axes) {
  checkShards(perRank, mesh);
  int64_t count = mesh.groupSize(axes);
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    Tensor reduced = reduceMembers(perRank, mesh.groupOf(rank, axes), kind);
    result[rank] =
        chunkAlong(reduced, dim, count, mesh.positionInGroup(rank, axes));
  }
  return result;
}

PerRank allToAll(const PerRank &perRank, const layout::Mesh &mesh,
                 std::string_view splitDim, std::string_view concatDim,
                 const std::vector<std::string> &axes) {
  checkShards(perRank, mesh);
  int64_t count = mesh.groupSize(axes);
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    int64_t position = mesh.positionInGroup(rank, axes);
    std::vector<Tensor> received;
    for (int64_t member : mesh.groupOf(rank, axes))
      received.push_back(
          chunkAlong(perRank[member], splitDim, count, position));
    result[rank] = concatAlong(received, concatDim);
  }
  return result;
}

PerRank haloExchange(const PerRank &perRank, const layout::Mesh &mesh,
                     std::string_view dim, std::string_view axis, int64_t low,
                     int64_t high, double padValue) {
  checkShards(perRank, mesh);
  std::optional<unsigned> axisIndex = mesh.axisIndex(axis);
  assert(axisIndex && "unknown halo axis");
  int64_t axisSize = mesh.axisSizes()[*axisIndex];
  int64_t local = perRank.front().dimSize(dim);
  assert(low >= 0 && high >= 0 && low <= local && high <= local &&
         "halo wider than a neighbour's shard");
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    std::vector<int64_t> coords = mesh.coordinatesOf(rank);
    const Tensor &own = perRank[rank];
    std::vector<Tensor> parts;
    if (low > 0) {
      if (coords[*axisIndex] > 0) {
        std::vector<int64_t> neighbour = coords;
        --neighbour[*axisIndex];
        parts.push_back(
            sliceAlong(perRank[mesh.rankAt(neighbour)], dim, local - low, low));
      } else {
        TensorSpec spec = own.spec;
        spec.shape[spec.dimIndex(dim)] = low;
        parts.emplace_back(spec, padValue);
      }
    }
    parts.push_back(own);
    if (high > 0) {
      if (coords[*axisIndex] + 1 < axisSize) {
        std::vector<int64_t> neighbour = coords;
        ++neighbour[*axisIndex];
        parts.push_back(
            sliceAlong(perRank[mesh.rankAt(neighbour)], dim, 0, high));
      } else {
        TensorSpec spec = own.spec;
        spec.shape[spec.dimIndex(dim)] = high;
        parts.emplace_back(spec, padValue);
      }
    }
    result[rank] = concatAlong(parts, dim);
  }
  return result;
}

PerRank
collectivePermute(const PerRank &perRank, const layout::Mesh &mesh,
                  const std::vector<std::string> &axes,
                  const std::vector<std::pair<int64_t, int64_t>> &pairs) {
  checkShards(perRank, mesh);
  int64_t count = mesh.groupSize(axes);
  PerRank result(perRank.size(), Tensor(perRank.front().spec));
  for (const std::vector<int64_t> &group : mesh.groups(axes)) {
    for (const auto &[source, target] : pairs) {
      (void)count;
      assert(source >= 0 && source < count && target >= 0 && target < count &&
             "permute position outside the group");
      result[group[target]] = perRank[group[source]];
    }
  }
  return result;
}

/// Block `index` of `count` blocks of ceil(size / count) elements along
/// `dim`, the positions past the end holding zeros (a padded split).
static Tensor paddedChunkAlong(const Tensor &x, std::string_view dim,
                               int64_t count, int64_t index) {
  int64_t size = x.dimSize(dim);
  int64_t chunk = (size + count - 1) / count;
  int64_t start = std::min(index * chunk, size);
  int64_t kept = std::min(chunk, size - start);
  Tensor part = sliceAlong(x, dim, start, kept);
  if (kept == chunk)
    return part;
  TensorSpec spec = part.spec;
  spec.shape[spec.dimIndex(dim)] = chunk;
  return pad(part, {std::string(dim)}, {0}, {chunk - kept}, 0.0, spec);
}

PerRank shardSlice(const PerRank &perRank, const layout::Mesh &mesh,
                   std::string_view dim, const std::vector<std::string> &axes) {
  checkShards(perRank, mesh);
  int64_t count = mesh.groupSize(axes);
  PerRank result(perRank.size());
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank)
    result[rank] = paddedChunkAlong(perRank[rank], dim, count,
                                    mesh.positionInGroup(rank, axes));
  return result;
}

} // namespace tessel::ref
