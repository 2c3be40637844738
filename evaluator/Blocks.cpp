//===- Blocks.cpp - global tensors and the blocks ranks hold --------------===//

#include "evaluator/Blocks.h"

#include "dialect/MeshConversion.h"
#include "evaluator/kernels/Shape.h"
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
  return ref::slice(global, spec.dims,
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
    ref::forEachIndex(block.spec.shape, [&](const std::vector<int64_t> &index) {
      int64_t at = 0;
      for (size_t d = 0; d < index.size(); ++d)
        at += (offset[d] + index[d]) * globalStrides[d];
      double value = block.data[element++];
      if (written[at] && global.data[at] != value &&
          !(std::isnan(global.data[at]) && std::isnan(value)))
        agree = false;
      global.data[at] = value;
      written[at] = true;
    });
    if (!agree) {
      error = "rank " + std::to_string(rank) +
              " disagrees with another rank that holds a copy of its block";
      return false;
    }
  }
  return true;
}

} // namespace tessel::eval
