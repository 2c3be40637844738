//===- CarriedStateTest.cpp - State that decode passes to its next call ---===//
//
// A key/value cache that decode returns is fed back to it only when it is
// the same global tensor under the same layout; the same local shape is
// not enough, and the error names both layouts.
//
//===----------------------------------------------------------------------===//

#include "driver/CarriedState.h"

#include <gtest/gtest.h>

using namespace tessel::driver;

namespace {

/// A [batch:4, key:16, heads:4, head_dim:4] f32 cache named as examples/gpt's
/// (each split over an axis of 2).
ValueSpec cache(std::vector<tessel::layout::AxisList> axes) {
  ValueSpec value;
  value.name = "block0.attn.k_cache";
  value.global.dims = {"batch", "key", "heads", "head_dim"};
  value.global.shape = {4, 16, 4, 4};
  value.axes = std::move(axes);
  value.local = value.global;
  for (size_t d = 0; d < value.axes.size(); ++d)
    if (!value.axes[d].empty())
      value.local.shape[d] /= 2;
  return value;
}

TEST(CarriedState, TheSameLayoutIsCarried) {
  EXPECT_EQ(checkCarriedState(cache({{}, {"model"}, {}, {}}),
                              cache({{}, {"model"}, {}, {}})),
            std::nullopt);
  // No axes listed is every dim replicated.
  EXPECT_EQ(checkCarriedState(cache({}), cache({{}, {}, {}, {}})),
            std::nullopt);
}

TEST(CarriedState, AnotherSplitOfTheSameLocalShapeIsAnError) {
  // On a data:2 x model:2 mesh, the positions over data against over
  // model: the same local shape, [4, 8, 4, 4], and other blocks.
  ValueSpec taken = cache({{}, {"model"}, {}, {}});
  ValueSpec returned = cache({{}, {"data"}, {}, {}});
  ASSERT_EQ(returned.local.shape, taken.local.shape);
  auto error = checkCarriedState(taken, returned);
  ASSERT_TRUE(error);
  EXPECT_EQ(*error,
            "decode returns 'block0.attn.k_cache' as [batch:4, key:16, "
            "heads:4, head_dim:4] f32, key over data but takes it as "
            "[batch:4, key:16, heads:4, head_dim:4] f32, key over model; "
            "state carried from call to call must keep its dims, type and "
            "layout");
}

TEST(CarriedState, OtherDimsOrTypeAreAnError) {
  ValueSpec taken = cache({});
  ValueSpec transposed = cache({});
  std::swap(transposed.global.dims[2], transposed.global.dims[3]);
  auto error = checkCarriedState(taken, transposed);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("as [batch:4, key:16, head_dim:4, heads:4] f32, "
                        "replicated but takes it as [batch:4, key:16, "
                        "heads:4, head_dim:4] f32, replicated"),
            std::string::npos)
      << *error;
  ValueSpec halves = cache({});
  halves.global.type = halves.local.type = tessel::ref::ElementType::BF16;
  error = checkCarriedState(taken, halves);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("as [batch:4, key:16, heads:4, head_dim:4] bf16"),
            std::string::npos)
      << *error;
}

} // namespace
