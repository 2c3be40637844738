//===- PackingTest.cpp - Blocks of row-major tensors along a dim ----------===//

#include "comm/Packing.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace tessel::runtime;

namespace {

TEST(Packing, ViewAroundADim) {
  DimView view = viewAround({2, 3, 4, 5}, 2);
  EXPECT_EQ(view.outer, 6);
  EXPECT_EQ(view.size, 4);
  EXPECT_EQ(view.inner, 5);
  DimView chunk = viewAround({2, 3, 4, 5}, 0, 1);
  EXPECT_EQ(chunk.outer, 1);
  EXPECT_EQ(chunk.size, 1);
  EXPECT_EQ(chunk.inner, 60);
}

TEST(Packing, ChunksAlongTheMiddleDimAndBack) {
  // [2, 4, 3] cut into 2 chunks along dim 1: chunk 0 holds rows 0-1 of both
  // outer indices, chunk 1 rows 2-3.
  std::vector<int> tensor(24);
  std::iota(tensor.begin(), tensor.end(), 0);
  DimView whole = viewAround({2, 4, 3}, 1);
  std::vector<int> packed(24, -1);
  packChunks(tensor.data(), whole, 2, packed.data(), sizeof(int));
  std::vector<int> expected = {0, 1, 2, 3, 4,  5,  12, 13, 14, 15, 16, 17,
                               6, 7, 8, 9, 10, 11, 18, 19, 20, 21, 22, 23};
  EXPECT_EQ(packed, expected);

  std::vector<int> joined(24, -1);
  unpackChunks(packed.data(), viewAround({2, 4, 3}, 1, 2), 2, joined.data(),
               sizeof(int));
  EXPECT_EQ(joined, tensor);
}

TEST(Packing, CopyIntoTheMiddleOfALargerDim) {
  // A [2, 1, 2] slice written at index 1 of a [2, 3, 2] tensor.
  std::vector<int> slice = {1, 2, 3, 4};
  std::vector<int> tensor(12, 0);
  copyAlongDim(slice.data(), 1, 0, tensor.data(), 3, 1, 1, 2, 2, sizeof(int));
  std::vector<int> expected = {0, 0, 1, 2, 0, 0, 0, 0, 3, 4, 0, 0};
  EXPECT_EQ(tensor, expected);
}

} // namespace
