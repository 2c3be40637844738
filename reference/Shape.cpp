//===- Shape.cpp - Reference data-movement and indexing kernels -----------===//

#include "reference/Shape.h"

#include <cassert>

namespace tessel::ref {

/// For each dim of `from`, the row-major stride in `in` of the dim with the
/// same name, or 0 when `in` has no such dim.
static std::vector<int64_t> stridesByName(const TensorSpec &from,
                                          const TensorSpec &in) {
  std::vector<int64_t> inStrides = rowMajorStrides(in.shape);
  std::vector<int64_t> result(from.dims.size(), 0);
  for (size_t d = 0; d < from.dims.size(); ++d) {
    int inDim = in.dimIndex(from.dims[d]);
    if (inDim >= 0)
      result[d] = inStrides[inDim];
  }
  return result;
}

static int64_t dotProduct(const std::vector<int64_t> &index,
                          const std::vector<int64_t> &strides) {
  int64_t result = 0;
  for (size_t d = 0; d < index.size(); ++d)
    result += index[d] * strides[d];
  return result;
}

Tensor rename(const Tensor &x, const TensorSpec &resultSpec) {
  assert(resultSpec.shape == x.spec.shape && resultSpec.type == x.spec.type &&
         "rename keeps shape and type");
  return Tensor(resultSpec, x.data);
}

Tensor reshape(const Tensor &x, const TensorSpec &resultSpec) {
  assert(resultSpec.numElements() == x.numElements() &&
         resultSpec.type == x.spec.type &&
         "reshape keeps element count and type");
  return Tensor(resultSpec, x.data);
}

Tensor transpose(const Tensor &x, const TensorSpec &resultSpec) {
  assert(resultSpec.rank() == x.rank() && "transpose keeps every dim");
  return broadcast(x, resultSpec);
}

Tensor broadcast(const Tensor &x, const TensorSpec &resultSpec) {
  NamedIndexMap sourceMap(resultSpec.dims, resultSpec.shape, x.spec);
  std::vector<double> values;
  values.reserve(resultSpec.numElements());
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    values.push_back(x.data[sourceMap.offset(index)]);
  });
  return Tensor(resultSpec, std::move(values));
}

Tensor slice(const Tensor &x, const std::vector<std::string> &dims,
             const std::vector<int64_t> &starts, const TensorSpec &resultSpec) {
  assert(dims.size() == starts.size() && "one start per sliced dim");
  std::vector<int64_t> sourceStrides = stridesByName(resultSpec, x.spec);
  std::vector<int64_t> xStrides = rowMajorStrides(x.spec.shape);
  int64_t base = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    int dim = x.dimIndex(dims[i]);
    assert(dim >= 0 && starts[i] >= 0 &&
           starts[i] + resultSpec.dimSize(dims[i]) <= x.spec.shape[dim] &&
           "slice window out of range");
    base += starts[i] * xStrides[dim];
  }
  std::vector<double> values;
  values.reserve(resultSpec.numElements());
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    values.push_back(x.data[base + dotProduct(index, sourceStrides)]);
  });
  return Tensor(resultSpec, std::move(values));
}

Tensor concat(const std::vector<Tensor> &inputs, std::string_view dim,
              const TensorSpec &resultSpec) {
  Tensor result(resultSpec);
  int64_t resultDimStride =
      rowMajorStrides(resultSpec.shape)[resultSpec.dimIndex(dim)];
  int64_t position = 0;
  for (const Tensor &input : inputs) {
    assert(input.rank() == resultSpec.rank() && "concat keeps every dim");
    std::vector<int64_t> targetStrides = stridesByName(input.spec, resultSpec);
    int64_t base = position * resultDimStride;
    int64_t flat = 0;
    forEachIndex(input.spec.shape, [&](const std::vector<int64_t> &index) {
      result.data[base + dotProduct(index, targetStrides)] =
          roundToType(input.data[flat++], resultSpec.type);
    });
    position += input.dimSize(dim);
  }
  assert(position == resultSpec.dimSize(dim) && "concat size mismatch");
  return result;
}

Tensor pad(const Tensor &x, const std::vector<std::string> &dims,
           const std::vector<int64_t> &low, const std::vector<int64_t> &high,
           double value, const TensorSpec &resultSpec) {
  assert(dims.size() == low.size() && dims.size() == high.size() &&
         "one low and one high amount per padded dim");
  (void)high; // Only the asserts read it: the result spec fixes the size.
  Tensor result(resultSpec, value);
  std::vector<int64_t> targetStrides = stridesByName(x.spec, resultSpec);
  std::vector<int64_t> resultStrides = rowMajorStrides(resultSpec.shape);
  int64_t base = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    assert(low[i] >= 0 && high[i] >= 0 && "padding must be non-negative");
    assert(resultSpec.dimSize(dims[i]) ==
               x.dimSize(dims[i]) + low[i] + high[i] &&
           "padded size mismatch");
    base += low[i] * resultStrides[resultSpec.dimIndex(dims[i])];
  }
  int64_t flat = 0;
  forEachIndex(x.spec.shape, [&](const std::vector<int64_t> &index) {
    result.data[base + dotProduct(index, targetStrides)] = x.data[flat++];
  });
  return result;
}

Tensor cast(const Tensor &x, ElementType type) {
  TensorSpec resultSpec = x.spec;
  resultSpec.type = type;
  return Tensor(resultSpec, x.data);
}

bool gather(const Tensor &table, const Tensor &ids, std::string_view vocabDim,
            const TensorSpec &resultSpec, Tensor &out, std::string &error) {
  int64_t vocabSize = table.dimSize(vocabDim);
  int64_t vocabStride =
      rowMajorStrides(table.spec.shape)[table.dimIndex(vocabDim)];
  std::vector<int64_t> tableStrides = stridesByName(resultSpec, table.spec);
  std::vector<int64_t> idsStrides = stridesByName(resultSpec, ids.spec);
  std::vector<double> values;
  values.reserve(resultSpec.numElements());
  bool ok = true;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    if (!ok)
      return;
    int64_t idsOffset = dotProduct(index, idsStrides);
    double id = ids.data[idsOffset];
    if (!(id >= 0.0 && id < static_cast<double>(vocabSize))) {
      std::vector<int64_t> idsIndex(ids.rank());
      for (int d = 0; d < ids.rank(); ++d)
        idsIndex[d] = index[resultSpec.dimIndex(ids.spec.dims[d])];
      error = "id " + std::to_string(static_cast<int64_t>(id)) + " at " +
              describeIndex(ids.spec, idsIndex) +
              " is outside the vocabulary range [0, " +
              std::to_string(vocabSize) + ")";
      ok = false;
      return;
    }
    values.push_back(table.data[dotProduct(index, tableStrides) +
                                static_cast<int64_t>(id) * vocabStride]);
  });
  if (!ok)
    return false;
  out = Tensor(resultSpec, std::move(values));
  return true;
}

Tensor oneHot(const Tensor &ids, std::string_view newDim,
              const TensorSpec &resultSpec, double onValue, double offValue) {
  int newDimIndex = resultSpec.dimIndex(newDim);
  assert(newDimIndex >= 0 && !ids.spec.hasDim(newDim) &&
         "one-hot adds exactly the new dim");
  std::vector<int64_t> idsStrides = stridesByName(resultSpec, ids.spec);
  std::vector<double> values;
  values.reserve(resultSpec.numElements());
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    double id = ids.data[dotProduct(index, idsStrides)];
    bool hot = id == static_cast<double>(index[newDimIndex]);
    values.push_back(hot ? onValue : offValue);
  });
  return Tensor(resultSpec, std::move(values));
}

Tensor iota(const TensorSpec &resultSpec, std::string_view dim) {
  int dimIndex = resultSpec.dimIndex(dim);
  assert(dimIndex >= 0 && "iota dim missing from the result");
  std::vector<double> values;
  values.reserve(resultSpec.numElements());
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    values.push_back(static_cast<double>(index[dimIndex]));
  });
  return Tensor(resultSpec, std::move(values));
}

} // namespace tessel::ref
