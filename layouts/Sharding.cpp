//===- Sharding.cpp - layout maths of one tensor on a mesh ----------------===//

#include "layouts/Sharding.h"

#include "layouts/CheckedArithmetic.h"

#include <algorithm>
#include <map>

using namespace tessel::layout;

bool tessel::layout::checkLayout(const Mesh &mesh, const TensorLayout &layout,
                                 std::string &error, bool padUneven) {
  if (layout.shape.size() != layout.dims.size() ||
      layout.axes.size() != layout.dims.size()) {
    error = "tensor layout has " + std::to_string(layout.dims.size()) +
            " dimension names, " + std::to_string(layout.shape.size()) +
            " sizes and " + std::to_string(layout.axes.size()) + " axis lists";
    return false;
  }
  std::map<std::string, std::string> splitBy;
  for (size_t i = 0; i < layout.dims.size(); ++i) {
    const std::string &dim = layout.dims[i];
    if (layout.shape[i] < 0) {
      error = "dimension '" + dim + "' has size " +
              std::to_string(layout.shape[i]) + "; sizes must be >= 0";
      return false;
    }
    for (const std::string &axis : layout.axes[i]) {
      if (!mesh.axisIndex(axis)) {
        error = "dimension '" + dim + "' is split over '" + axis +
                "', which is not an axis of the mesh";
        return false;
      }
      auto [it, inserted] = splitBy.emplace(axis, dim);
      if (!inserted) {
        error = it->second == dim ? "mesh axis '" + axis +
                                        "' splits dimension '" + dim + "' twice"
                                  : "mesh axis '" + axis + "' splits both '" +
                                        it->second + "' and '" + dim + "'";
        return false;
      }
    }
    int64_t blocks = splitCount(mesh, layout.axes[i]);
    if (layout.shape[i] % blocks != 0 && !padUneven) {
      std::string axes;
      for (const std::string &axis : layout.axes[i])
        axes += (axes.empty() ? "'" : ", '") + axis + "'";
      error = "dimension '" + dim + "' of size " +
              std::to_string(layout.shape[i]) + " does not divide over " +
              axes + " (" + std::to_string(blocks) + " blocks)";
      return false;
    }
  }
  return true;
}

int64_t tessel::layout::splitCount(const Mesh &mesh, const AxisList &axes) {
  return mesh.groupSize(axes);
}

std::vector<int64_t> tessel::layout::localShape(const Mesh &mesh,
                                                const TensorLayout &layout) {
  std::vector<int64_t> shape = layout.shape;
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] = blockSize(shape[i], splitCount(mesh, layout.axes[i]));
  return shape;
}

std::vector<int64_t> tessel::layout::shardOffset(const Mesh &mesh,
                                                 const TensorLayout &layout,
                                                 int64_t rank) {
  std::vector<int64_t> local = localShape(mesh, layout);
  std::vector<int64_t> offset(local.size(), 0);
  for (size_t i = 0; i < local.size(); ++i)
    if (!layout.axes[i].empty())
      offset[i] = mesh.positionInGroup(rank, layout.axes[i]) * local[i];
  return offset;
}

std::optional<int64_t> tessel::layout::bytesPerRank(const Mesh &mesh,
                                                    const TensorLayout &layout,
                                                    int64_t elementBytes) {
  std::optional<int64_t> elements = checkedProduct(localShape(mesh, layout));
  if (!elements)
    return std::nullopt;
  return checkedMul(*elements, elementBytes);
}

std::vector<int64_t> tessel::layout::replicaGroup(const Mesh &mesh,
                                                  const TensorLayout &layout,
                                                  int64_t rank) {
  AxisList unused;
  for (const std::string &axis : mesh.axisNames())
    if (std::none_of(
            layout.axes.begin(), layout.axes.end(), [&](const AxisList &axes) {
              return std::find(axes.begin(), axes.end(), axis) != axes.end();
            }))
      unused.push_back(axis);
  return mesh.groupOf(rank, unused);
}
