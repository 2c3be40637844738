//===- Mesh.h - Logical device mesh with named axes -------------*- C++ -*-===//
//
// A logical n-dimensional device mesh. Ranks are numbered row-major over the
// axes in the order they are listed, so the last axis varies fastest. Groups
// over a subset of axes are the sub-communicators that collectives run on.
//
// This file has no MLIR dependency so that the evaluator, the runtime and the
// compiler passes can all share one definition of rank numbering.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_MESH_H
#define TESSEL_LAYOUTS_MESH_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::layout {

/// Checks that a mesh description is well formed: as many names as sizes,
/// every name non-empty and unique, every size at least 1, and at most
/// Mesh::kMaxRanks ranks in all. On failure returns false and fills `error`
/// with a message naming the offending axis (or the mesh).
bool validateMesh(const std::vector<std::string> &names,
                  const std::vector<int64_t> &sizes, std::string &error);

class Mesh {
public:
  /// The most ranks a mesh may have. Shapes, offsets and byte counts are
  /// products of mesh sizes and tensor sizes in int64_t, so the mesh is
  /// kept far below the point where its rank count or a rank's position
  /// could overflow.
  static constexpr int64_t kMaxRanks = int64_t(1) << 31;

  Mesh() = default;
  /// The description must be valid (see validateMesh); use `create` when it
  /// comes from untrusted input.
  Mesh(std::vector<std::string> axisNames, std::vector<int64_t> axisSizes);

  /// Builds a mesh from unverified input, or returns std::nullopt and fills
  /// `error` when validateMesh rejects it.
  static std::optional<Mesh> create(std::vector<std::string> axisNames,
                                    std::vector<int64_t> axisSizes,
                                    std::string &error);

  const std::vector<std::string> &axisNames() const { return names; }
  const std::vector<int64_t> &axisSizes() const { return sizes; }
  unsigned numAxes() const { return static_cast<unsigned>(names.size()); }

  /// The product of all axis sizes; 1 for a 0-d mesh.
  int64_t numRanks() const;

  std::optional<unsigned> axisIndex(std::string_view name) const;
  /// The named axis must exist.
  int64_t axisSize(std::string_view name) const;

  /// The coordinate of `rank` on every axis, in mesh axis order.
  std::vector<int64_t> coordinatesOf(int64_t rank) const;
  /// The inverse of coordinatesOf.
  int64_t rankAt(const std::vector<int64_t> &coords) const;

  /// The product of the sizes of the given axes (the size of a group over
  /// them); 1 for no axes.
  int64_t groupSize(const std::vector<std::string> &axes) const;

  /// The position of `rank` inside its group over `axes`: row-major over its
  /// coordinates on those axes, in the order the axes are listed in `axes`
  /// (not mesh order), so the last listed axis varies fastest.
  int64_t positionInGroup(int64_t rank,
                          const std::vector<std::string> &axes) const;

  /// All ranks of the group over `axes` that contains `rank`, ordered by
  /// positionInGroup.
  std::vector<int64_t> groupOf(int64_t rank,
                               const std::vector<std::string> &axes) const;

  /// Every group over `axes`: a partition of all ranks, each group ordered by
  /// position and the groups ordered by their smallest rank.
  std::vector<std::vector<int64_t>>
  groups(const std::vector<std::string> &axes) const;

  bool operator==(const Mesh &other) const {
    return names == other.names && sizes == other.sizes;
  }
  bool operator!=(const Mesh &other) const { return !(*this == other); }

private:
  /// Resolves axis names to mesh axis indices; every name must exist and
  /// appear once.
  std::vector<unsigned> resolveAxes(const std::vector<std::string> &axes) const;

  std::vector<std::string> names;
  std::vector<int64_t> sizes;
};

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_MESH_H
