//===- Packing.cpp - Moving blocks of row-major tensors along a dim -------===//

#include "comm/Packing.h"

#include <cassert>
#include <cstring>

namespace tessel::runtime {

DimView viewAround(const Shape &shape, unsigned dim) {
  assert(dim < shape.size() && "dim outside the tensor");
  return viewAround(shape, dim, shape[dim]);
}

DimView viewAround(const Shape &shape, unsigned dim, int64_t size) {
  assert(dim < shape.size() && "dim outside the tensor");
  DimView view{1, size, 1};
  for (unsigned i = 0; i < dim; ++i)
    view.outer *= shape[i];
  for (size_t i = dim + 1; i < shape.size(); ++i)
    view.inner *= shape[i];
  return view;
}

void copyAlongDim(const void *source, int64_t sourceSize, int64_t sourceStart,
                  void *destination, int64_t destinationSize,
                  int64_t destinationStart, int64_t count, int64_t outer,
                  int64_t inner, size_t elementSize) {
  assert(sourceStart >= 0 && sourceStart + count <= sourceSize &&
         "slice outside the source");
  assert(destinationStart >= 0 && destinationStart + count <= destinationSize &&
         "slice outside the destination");
  // Each outer index holds one contiguous run of count * inner elements.
  size_t run = size_t(count * inner) * elementSize;
  if (run == 0)
    return;
  const auto *from = static_cast<const char *>(source);
  auto *to = static_cast<char *>(destination);
  for (int64_t o = 0; o < outer; ++o)
    std::memcpy(to + size_t((o * destinationSize + destinationStart) * inner) *
                         elementSize,
                from + size_t((o * sourceSize + sourceStart) * inner) *
                           elementSize,
                run);
}

void packChunks(const void *source, const DimView &whole, int64_t parts,
                void *destination, size_t elementSize) {
  assert(parts > 0 && whole.size % parts == 0 && "uneven chunks");
  int64_t chunkSize = whole.size / parts;
  size_t chunkBytes =
      size_t(whole.outer * chunkSize * whole.inner) * elementSize;
  for (int64_t part = 0; part < parts; ++part)
    copyAlongDim(source, whole.size, part * chunkSize,
                 static_cast<char *>(destination) + part * chunkBytes,
                 chunkSize, 0, chunkSize, whole.outer, whole.inner,
                 elementSize);
}

void unpackChunks(const void *source, const DimView &chunk, int64_t parts,
                  void *destination, size_t elementSize) {
  size_t chunkBytes = size_t(chunk.numElements()) * elementSize;
  for (int64_t part = 0; part < parts; ++part)
    copyAlongDim(static_cast<const char *>(source) + part * chunkBytes,
                 chunk.size, 0, destination, parts * chunk.size,
                 part * chunk.size, chunk.size, chunk.outer, chunk.inner,
                 elementSize);
}

} // namespace tessel::runtime
