//===- Mesh.cpp - Logical device mesh with named axes ---------------------===//

#include "layouts/Mesh.h"

#include "layouts/CheckedArithmetic.h"

#include <cassert>
#include <unordered_set>

namespace tessel::layout {

bool validateMesh(const std::vector<std::string> &names,
                  const std::vector<int64_t> &sizes, std::string &error) {
  if (names.size() != sizes.size()) {
    error = "mesh has " + std::to_string(names.size()) + " axis names but " +
            std::to_string(sizes.size()) + " axis sizes";
    return false;
  }
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      error = "mesh axis #" + std::to_string(i) + " has an empty name";
      return false;
    }
    if (!seen.insert(names[i]).second) {
      error = "mesh axis '" + names[i] + "' is listed more than once";
      return false;
    }
    if (sizes[i] < 1) {
      error = "mesh axis '" + names[i] + "' has size " +
              std::to_string(sizes[i]) + "; sizes must be at least 1";
      return false;
    }
  }
  // Every size is at least 1, so the product only grows: it is checked
  // against the limit at each step, before it could overflow.
  int64_t ranks = 1;
  for (int64_t size : sizes) {
    std::optional<int64_t> product = checkedMul(ranks, size);
    if (!product || *product > Mesh::kMaxRanks) {
      std::string mesh;
      for (size_t i = 0; i < names.size(); ++i)
        mesh += (i ? ";" : "") + names[i] + ":" + std::to_string(sizes[i]);
      error = "the mesh " + mesh + " has more than " +
              std::to_string(Mesh::kMaxRanks) + " ranks";
      return false;
    }
    ranks = *product;
  }
  return true;
}

Mesh::Mesh(std::vector<std::string> axisNames, std::vector<int64_t> axisSizes)
    : names(std::move(axisNames)), sizes(std::move(axisSizes)) {
#ifndef NDEBUG
  std::string error;
  assert(validateMesh(names, sizes, error) && "invalid mesh description");
#endif
}

std::optional<Mesh> Mesh::create(std::vector<std::string> axisNames,
                                 std::vector<int64_t> axisSizes,
                                 std::string &error) {
  if (!validateMesh(axisNames, axisSizes, error))
    return std::nullopt;
  return Mesh(std::move(axisNames), std::move(axisSizes));
}

int64_t Mesh::numRanks() const {
  int64_t product = 1;
  for (int64_t size : sizes)
    product *= size;
  return product;
}

std::optional<unsigned> Mesh::axisIndex(std::string_view name) const {
  for (unsigned i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return i;
  return std::nullopt;
}

int64_t Mesh::axisSize(std::string_view name) const {
  std::optional<unsigned> index = axisIndex(name);
  assert(index && "unknown mesh axis");
  return sizes[*index];
}

std::vector<int64_t> Mesh::coordinatesOf(int64_t rank) const {
  assert(rank >= 0 && rank < numRanks() && "rank outside the mesh");
  std::vector<int64_t> coords(sizes.size());
  // Peel coordinates off from the fastest-varying (last) axis.
  for (size_t i = sizes.size(); i-- > 0;) {
    coords[i] = rank % sizes[i];
    rank /= sizes[i];
  }
  return coords;
}

int64_t Mesh::rankAt(const std::vector<int64_t> &coords) const {
  assert(coords.size() == sizes.size() && "coordinate count mismatch");
  int64_t rank = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    assert(coords[i] >= 0 && coords[i] < sizes[i] && "coordinate out of range");
    rank = rank * sizes[i] + coords[i];
  }
  return rank;
}

std::vector<unsigned>
Mesh::resolveAxes(const std::vector<std::string> &axes) const {
  std::vector<unsigned> indices;
  indices.reserve(axes.size());
  for (const std::string &axis : axes) {
    std::optional<unsigned> index = axisIndex(axis);
    assert(index && "unknown mesh axis");
    for (unsigned previous : indices) {
      (void)previous;
      assert(previous != *index && "mesh axis listed twice in a group");
    }
    indices.push_back(*index);
  }
  return indices;
}

int64_t Mesh::groupSize(const std::vector<std::string> &axes) const {
  int64_t product = 1;
  for (unsigned index : resolveAxes(axes))
    product *= sizes[index];
  return product;
}

int64_t Mesh::positionInGroup(int64_t rank,
                              const std::vector<std::string> &axes) const {
  std::vector<int64_t> coords = coordinatesOf(rank);
  int64_t position = 0;
  for (unsigned index : resolveAxes(axes))
    position = position * sizes[index] + coords[index];
  return position;
}

std::vector<int64_t> Mesh::groupOf(int64_t rank,
                                   const std::vector<std::string> &axes) const {
  std::vector<unsigned> indices = resolveAxes(axes);
  std::vector<int64_t> coords = coordinatesOf(rank);
  int64_t count = groupSize(axes);
  std::vector<int64_t> members;
  members.reserve(count);
  for (int64_t position = 0; position < count; ++position) {
    // Decompose the position over the listed axes, last listed fastest, and
    // keep the coordinates on every other axis from `rank`.
    int64_t remainder = position;
    for (size_t i = indices.size(); i-- > 0;) {
      coords[indices[i]] = remainder % sizes[indices[i]];
      remainder /= sizes[indices[i]];
    }
    members.push_back(rankAt(coords));
  }
  return members;
}

std::vector<std::vector<int64_t>>
Mesh::groups(const std::vector<std::string> &axes) const {
  // The member at position 0 has coordinate 0 on every group axis, so it is
  // the smallest rank of its group; visiting ranks in increasing order and
  // starting a group at each position-0 rank orders groups by smallest rank.
  std::vector<std::vector<int64_t>> result;
  for (int64_t rank = 0, e = numRanks(); rank < e; ++rank)
    if (positionInGroup(rank, axes) == 0)
      result.push_back(groupOf(rank, axes));
  return result;
}

} // namespace tessel::layout
