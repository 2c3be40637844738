//===- Blocks.cpp - global tensors and the blocks ranks hold --------------===//

#include "evaluator/Blocks.h"

#include "dialect/MeshConversion.h"
#include "reference/Shape.h"
#include "layouts/Sharding.h"

using namespace mlir;
using namespace mlir::tessel;
namespace ref = ::tessel::ref;
namespace layout = ::tessel::layout;

namespace tessel::eval {

ref::Tensor blockOf(const ref::Tensor &global, NamedTensorType globalType,
                    const layout::Mesh &mesh, int64_t rank) {
  layout::TensorLayout tensorLayout = toTensorLayout(globalType);
  ref::TensorSpec spec = global.spec;
  spec.shape = layout::localShape(mesh, tensorLayout);
  // A split that does not divide its dimension (pad_uneven) cuts the tensor
  // extended with zeros to whole blocks.
  std::vector<int64_t> high(spec.shape.size(), 0);
  bool padded = false;
  for (size_t d = 0; d < high.size(); ++d) {
    int64_t blocks = layout::splitCount(mesh, tensorLayout.axes[d]);
    high[d] = spec.shape[d] * blocks - global.spec.shape[d];
    padded |= high[d] != 0;
  }
  const ref::Tensor *source = &global;
  ref::Tensor extended;
  if (padded) {
    ref::TensorSpec extendedSpec = global.spec;
    for (size_t d = 0; d < high.size(); ++d)
      extendedSpec.shape[d] += high[d];
    extended = ref::pad(global, global.spec.dims,
                        std::vector<int64_t>(high.size(), 0), high, 0.0,
                        extendedSpec);
    source = &extended;
  }
  return ref::slice(*source, spec.dims,
                    layout::shardOffset(mesh, tensorLayout, rank), spec);
}

bool assembleGlobal(const PerRank &blocks, NamedTensorType globalType,
                    const layout::Mesh &mesh, ref::Tensor &global,
                    std::string &error) {
  layout::TensorLayout tensorLayout = toTensorLayout(globalType);
  ref::TensorSpec spec = blocks.front().spec;
  spec.shape = tensorLayout.shape;
  global = ref::Tensor(spec);
  std::vector<bool> written(global.data.size(), false);
  std::vector<int64_t> globalStrides = ref::rowMajorStrides(spec.shape);
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    std::vector<int64_t> offset = layout::shardOffset(mesh, tensorLayout, rank);
    const ref::Tensor &block = blocks[rank];
    int64_t element = 0;
    bool agree = true;
    bool zeroPadding = true;
    ref::forEachIndex(block.spec.shape, [&](const std::vector<int64_t> &index) {
      double value = block.data[element++];
      int64_t at = 0;
      bool inPadding = false;
      for (size_t d = 0; d < index.size(); ++d) {
        inPadding |= offset[d] + index[d] >= spec.shape[d];
        at += (offset[d] + index[d]) * globalStrides[d];
      }
      // The padding of a padded split is not part of the tensor, and the
      // partitioned program keeps it zero.
      if (inPadding) {
        zeroPadding = zeroPadding && value == 0.0;
        return;
      }
      if (written[at] && global.data[at] != value &&
          !(std::isnan(global.data[at]) && std::isnan(value)))
        agree = false;
      global.data[at] = value;
      written[at] = true;
    });
    if (!zeroPadding) {
      error = "rank " + std::to_string(rank) +
              " holds a non-zero value in the padding of its block";
      return false;
    }
    if (!agree) {
      error = "rank " + std::to_string(rank) +
              " disagrees with another rank that holds a copy of its block";
      return false;
    }
  }
  return true;
}

} // namespace tessel::eval
