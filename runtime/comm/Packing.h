//===- Packing.h - Moving blocks of row-major tensors along a dim -*- C++
//-*-===//
//
// MPI collectives move contiguous buffers, ordered by rank. A chunk of a
// row-major tensor along its outermost dim is contiguous, but a chunk along
// any other dim is `outer` strided pieces. These helpers see a tensor as
// [outer, size, inner] around one dim and copy blocks along the middle, so
// that chunks can be laid out one after another before a collective and
// joined along the dim after it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_COMM_PACKING_H
#define TESSEL_RUNTIME_COMM_PACKING_H

#include "base/TensorView.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::runtime {

/// A row-major tensor seen as [outer, size, inner] around one of its dims:
/// `outer` is the product of the dims before it, `inner` of those after it.
struct DimView {
  int64_t outer;
  int64_t size;
  int64_t inner;

  int64_t numElements() const { return outer * size * inner; }
};

/// The view of `shape` around `dim`, with the dim's size replaced by `size`
/// when given (the shape of a chunk along it).
DimView viewAround(const Shape &shape, unsigned dim);
DimView viewAround(const Shape &shape, unsigned dim, int64_t size);

/// For every outer index o, copies `count` slices along the middle dim:
/// source[o, sourceStart + k, :] -> destination[o, destinationStart + k, :]
/// for k < count. Both tensors share `outer` and `inner` and differ only in
/// the size of the middle dim.
void copyAlongDim(const void *source, int64_t sourceSize, int64_t sourceStart,
                  void *destination, int64_t destinationSize,
                  int64_t destinationStart, int64_t count, int64_t outer,
                  int64_t inner, size_t elementSize);

/// Cuts `source` (viewed as `whole`) into `parts` equal chunks along the
/// middle dim and stores them one after another in `destination`, each
/// row-major in its own shape [outer, whole.size / parts, inner].
void packChunks(const void *source, const DimView &whole, int64_t parts,
                void *destination, size_t elementSize);

/// The inverse of packChunks: `parts` consecutive chunks, each of shape
/// `chunk`, joined along the middle dim into a tensor of shape
/// [outer, parts * chunk.size, inner].
void unpackChunks(const void *source, const DimView &chunk, int64_t parts,
                  void *destination, size_t elementSize);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_COMM_PACKING_H
