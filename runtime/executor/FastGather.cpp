//===- FastGather.cpp - gather as copies of table rows --------------------===//
//
// The result is walked in row-major order, one run of its innermost dim at
// a time: the run's id is read once where the ids do not vary along that
// dim (an embedding row), and the run is one memcpy where the table holds
// it contiguously.
//
//===----------------------------------------------------------------------===//

#include "executor/FastGather.h"

#include "executor/Buffers.h"
#include "executor/FastKernel.h"
#include "executor/OuterWalk.h"

#include <cstring>
#include <vector>

namespace tessel::runtime {

std::optional<Kernel> buildFastGather(const OpDescriptor &desc,
                                      const std::string &dim,
                                      Kernel reference) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  const TensorType &table = desc.operands[0], &ids = desc.operands[1];
  const TensorType &result = desc.result;
  ref::ElementType idType = ids.type;
  if ((idType != ref::ElementType::I32 && idType != ref::ElementType::I64) ||
      table.type != result.type || !hasDim(table, dim) ||
      result.numElements() == 0 || result.rank() == 0)
    return std::nullopt;
  // Each result dim is a table dim or an ids dim (the verifier's rule).
  std::vector<int64_t> shape = result.shape, tableStrides, idStrides;
  for (const std::string &name : result.dims) {
    bool inTable = hasDim(table, name) && name != dim;
    if (!inTable && !hasDim(ids, name))
      return std::nullopt;
    tableStrides.push_back(inTable ? strideOf(table, name) : 0);
    idStrides.push_back(hasDim(ids, name) ? strideOf(ids, name) : 0);
  }
  auto bytesPerElement = static_cast<int64_t>(elementBytes(result.type));
  int64_t vocabulary = table.shape[table.dimIndex(dim, "the table")];
  int64_t vocabularyStride = strideOf(table, dim);
  size_t inner = shape.size() - 1;
  int64_t run = shape[inner];
  bool oneIdPerRun = idStrides[inner] == 0;
  bool contiguousRun = tableStrides[inner] == 1;
  return Kernel([=](tessel_context_t &context, void *const *operands,
                    void *out) {
    const auto *rows = static_cast<const unsigned char *>(operands[0]);
    auto *bytes = static_cast<unsigned char *>(out);
    OuterWalk<2> walk(shape, inner, {&tableStrides, &idStrides});
    int64_t written = 0;
    do {
      for (int64_t i = 0; i < run;) {
        int64_t id = static_cast<int64_t>(loadElement(
            idType, operands[1], walk.offset(1) + i * idStrides[inner]));
        if (id < 0 || id >= vocabulary) {
          reference(context, operands, out); // Throws, naming the id.
          return;
        }
        const unsigned char *row =
            rows + (walk.offset(0) + id * vocabularyStride) * bytesPerElement;
        if (oneIdPerRun && contiguousRun) {
          std::memcpy(bytes + written * bytesPerElement, row,
                      run * bytesPerElement);
          written += run;
          break;
        }
        std::memcpy(bytes + written * bytesPerElement,
                    row + i * tableStrides[inner] * bytesPerElement,
                    bytesPerElement);
        ++written;
        ++i;
      }
    } while (walk.next());
  });
}

} // namespace tessel::runtime
