//===- BatchBlocksTest.cpp - each rank's block of a step's images ---------===//
//
// BatchMaker::fillImages against the definition of a block: element i of
// a rank's block is the global batch's element at the block's offset plus
// i's coordinates (shardOffset), pixel / 255 of the example drawn there,
// or zero where an uneven split's padding lies past the global tensor. On
// every rank of layouts that take each of the driver's paths: whole
// examples (replicated, split over the batch), a split of the pixels or of
// an image's rows (runs along the innermost dim), the batch innermost
// (runs of one element), padding, and a bf16 argument.
//
//===----------------------------------------------------------------------===//

#include "driver/Batches.h"
#include "executor/Buffers.h"
#include "layouts/Mesh.h"
#include "layouts/Sharding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::driver;

namespace {

constexpr int64_t kRows = 3, kColumns = 4;

/// 10 images of kRows x kColumns whose pixels are all different.
Dataset images() {
  Dataset dataset;
  dataset.count = 10;
  dataset.pixelsPerImage = kRows * kColumns;
  for (int64_t i = 0; i < dataset.count * dataset.pixelsPerImage; ++i)
    dataset.pixels.push_back(static_cast<uint8_t>((i * 37 + 11) % 256));
  dataset.labels.assign(dataset.count, 0);
  return dataset;
}

/// The global argument of `dims` (some of batch, rows, columns) split over
/// `axes` on `mesh`, with the rank's local shape.
ValueSpec argument(const layout::Mesh &mesh,
                   const std::vector<std::string> &dims,
                   const std::vector<layout::AxisList> &axes,
                   ref::ElementType type, int64_t batch) {
  TensorType global{dims, {}, type};
  for (const std::string &dim : dims)
    global.shape.push_back(dim == "batch"  ? batch
                           : dim == "rows" ? kRows
                                           : kColumns);
  TensorType local = global;
  local.shape = layout::localShape(mesh, {global.dims, global.shape, axes});
  return {"images", global, local, axes, ""};
}

/// What element `flat` of `rank`'s block must hold: the pixel of the
/// global element it stands for (the pixels of an image in the row-major
/// order of the argument's other dims), or 0 for padding.
double expectedElement(const layout::Mesh &mesh, const ValueSpec &spec,
                       int64_t rank, int64_t flat, const Dataset &dataset,
                       const std::vector<int64_t> &batch) {
  std::vector<int64_t> offsets =
      layout::shardOffset(mesh, spec.tensorLayout(), rank);
  std::vector<int64_t> coordinates(spec.local.rank());
  for (int d = spec.local.rank() - 1; d >= 0; --d) {
    coordinates[d] = offsets[d] + flat % spec.local.shape[d];
    flat /= spec.local.shape[d];
    if (coordinates[d] >= spec.global.shape[d])
      return 0.0;
  }
  int64_t example = 0, pixel = 0;
  for (int d = 0; d < spec.global.rank(); ++d) {
    if (spec.global.dims[d] == "batch")
      example = coordinates[d];
    else
      pixel = pixel * spec.global.shape[d] + coordinates[d];
  }
  uint8_t value = dataset.pixels[batch[example] * dataset.pixelsPerImage + pixel];
  return static_cast<float>(value / 255.0);
}

/// `value` stored as `type` and read back (its rounding to bf16).
double asStored(ref::ElementType type, double value) {
  std::vector<unsigned char> element(runtime::elementBytes(type));
  runtime::storeElement(type, element.data(), 0, value);
  return runtime::loadElement(type, element.data(), 0);
}

/// Every rank's block of `spec` is what its definition says.
void expectBlocks(const layout::Mesh &mesh, const ValueSpec &spec) {
  Dataset dataset = images();
  BatchMaker maker(dataset, /*seed=*/7);
  std::vector<int64_t> batch = maker.examplesOfStep(1, batchSizeOf(spec));
  for (int64_t rank = 0; rank < mesh.numRanks(); ++rank) {
    // Filled with NaN, so that an element the driver skips shows.
    std::vector<unsigned char> block(spec.local.numBytes(), 0xff);
    maker.fillImages(spec, batch, mesh, rank, block.data());
    for (int64_t i = 0; i < spec.local.numElements(); ++i)
      ASSERT_EQ(runtime::loadElement(spec.local.type, block.data(), i),
                asStored(spec.local.type,
                         expectedElement(mesh, spec, rank, i, dataset, batch)))
          << spec.local.str() << " on rank " << rank << ", element " << i;
  }
}

using ref::ElementType;
const layout::AxisList kWhole = {};
const layout::AxisList kOverX = {"x"};

} // namespace

TEST(BatchBlocks, WholeExamples) {
  layout::Mesh mesh({"x"}, {2});
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kWhole, kWhole, kWhole}, ElementType::F32, 4));
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kOverX, kWhole, kWhole}, ElementType::F32, 4));
}

TEST(BatchBlocks, SplitsOfAnImage) {
  layout::Mesh mesh({"x"}, {2});
  // The columns in halves; the rows (3) unevenly, the second block's last
  // row padding.
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kWhole, kWhole, kOverX}, ElementType::F32, 4));
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kWhole, kOverX, kWhole}, ElementType::F32, 4));
  layout::Mesh two({"x", "y"}, {2, 2});
  expectBlocks(two, argument(two, {"batch", "rows", "columns"},
                             {{"y"}, kOverX, kWhole}, ElementType::F32, 4));
}

TEST(BatchBlocks, AnInnermostDimSplitUnevenly) {
  layout::Mesh mesh({"x"}, {2});
  // The rows (3) innermost over 2 ranks: the second rank's runs hold one
  // row and one element of padding.
  expectBlocks(mesh, argument(mesh, {"batch", "columns", "rows"},
                              {kWhole, kWhole, kOverX}, ElementType::F32, 4));
  expectBlocks(mesh, argument(mesh, {"batch", "columns", "rows"},
                              {kWhole, kWhole, kOverX}, ElementType::F16, 4));
}

TEST(BatchBlocks, PaddedBatchAndBatchInnermost) {
  layout::Mesh mesh({"x"}, {2});
  // A batch of 3 over 2 ranks: the second block's second example is
  // padding.
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kOverX, kWhole, kWhole}, ElementType::F32, 3));
  expectBlocks(mesh, argument(mesh, {"rows", "columns", "batch"},
                              {kWhole, kOverX, kWhole}, ElementType::F32, 4));
  expectBlocks(mesh, argument(mesh, {"rows", "batch", "columns"},
                              {kWhole, kOverX, kWhole}, ElementType::F32, 3));
}

TEST(BatchBlocks, NarrowArguments) {
  layout::Mesh mesh({"x"}, {2});
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kWhole, kWhole, kWhole}, ElementType::BF16, 4));
  expectBlocks(mesh, argument(mesh, {"batch", "rows", "columns"},
                              {kWhole, kOverX, kWhole}, ElementType::F16, 4));
}

// Text: element (example, i) of "tokens" is byte batch[example] + i of the
// corpus, of "targets" the byte after it; split along the sequence
// unevenly (5 over 2), the padding zero.
TEST(BatchBlocks, TokensAndTargetsOfASplitSequence) {
  Dataset corpus;
  for (int byte = 0; byte < 40; ++byte)
    corpus.text.push_back(static_cast<uint8_t>(97 + byte % 26));
  constexpr int64_t kSeq = 5;
  corpus.count = static_cast<int64_t>(corpus.text.size()) - kSeq;
  BatchMaker maker(corpus, /*seed=*/3);
  layout::Mesh mesh({"x"}, {2});
  TensorType global{{"batch", "seq"}, {4, kSeq}, ElementType::I32};
  std::vector<layout::AxisList> axes = {kWhole, kOverX};
  TensorType local = global;
  local.shape = layout::localShape(mesh, {global.dims, global.shape, axes});
  ValueSpec tokens{"tokens", global, local, axes, ""};
  std::vector<int64_t> batch = maker.examplesOfStep(2, 4);
  for (int64_t shift : {0, 1})
    for (int64_t rank = 0; rank < 2; ++rank) {
      std::vector<int32_t> block(local.numElements(), -1);
      maker.fillTokens(tokens, batch, mesh, rank, block.data(), shift);
      std::vector<int64_t> offsets =
          layout::shardOffset(mesh, tokens.tensorLayout(), rank);
      for (int64_t example = 0; example < 4; ++example)
        for (int64_t i = 0; i < local.shape[1]; ++i) {
          int64_t position = offsets[1] + i;
          int32_t expected =
              position < kSeq ? corpus.text[batch[example] + position + shift]
                              : 0;
          EXPECT_EQ(block[example * local.shape[1] + i], expected)
              << "shift " << shift << ", rank " << rank << ", example "
              << example << ", position " << position;
        }
    }
}
