//===- ConvPlan.cpp - Convolutions and pooling in cuDNN's layout ----------===//

#include "gpu/ConvPlan.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

namespace tessel::runtime::gpu {

namespace {

bool fitsInt(int64_t value) { return value > 0 && value <= INT_MAX; }

/// The product of the sizes of `type`'s dims other than `exclude`, and
/// those dims' names.
int64_t passThrough(const TensorType &type,
                    const std::vector<std::string> &exclude,
                    std::vector<std::string> &dims) {
  int64_t product = 1;
  for (size_t i = 0; i < type.dims.size(); ++i)
    if (std::find(exclude.begin(), exclude.end(), type.dims[i]) ==
        exclude.end()) {
      dims.push_back(type.dims[i]);
      product *= type.shape[i];
    }
  return product;
}

std::vector<std::string> concatNames(std::vector<std::string> front,
                                     const std::vector<std::string> &back) {
  front.insert(front.end(), back.begin(), back.end());
  return front;
}

std::array<std::string, 2> twoNames(const OpDescriptor &desc,
                                    const char *name) {
  std::vector<std::string> values = desc.stringListAttr(name);
  if (values.size() != 2)
    throw OpError(
        fmt::format("attribute '{}' has {} names, not 2", name, values.size()));
  return {values[0], values[1]};
}

std::optional<std::array<int64_t, 2>>
twoInts(const OpDescriptor &desc, const char *name,
        std::optional<std::vector<int64_t>> fallback) {
  std::vector<int64_t> values = desc.intListAttr(name, std::move(fallback));
  if (values.size() != 2)
    return std::nullopt;
  return std::array<int64_t, 2>{values[0], values[1]};
}

/// Equal low and high padding per spatial dim, as cuDNN pads; none when a
/// dim's two sides differ.
std::optional<std::array<int64_t, 2>>
symmetricPadding(const OpDescriptor &desc) {
  std::vector<int64_t> padding =
      desc.intListAttr("padding", std::vector<int64_t>{0, 0, 0, 0});
  if (padding.size() != 4 || padding[0] != padding[1] ||
      padding[2] != padding[3])
    return std::nullopt;
  return std::array<int64_t, 2>{padding[0], padding[2]};
}

bool sameTypes(const OpDescriptor &desc) {
  for (const TensorType &operand : desc.operands)
    if (operand.type != desc.result.type)
      return false;
  return true;
}

} // namespace

bool Packed::plan(const TensorType &from, const TensorType &to) {
  bytes = static_cast<size_t>(from.numBytes());
  return permute.plan(from, to);
}

std::optional<ConvPlan> planConvolution(const OpDescriptor &desc) {
  desc.expectOperands(2);
  ConvPlan plan;
  plan.kind = desc.op == "tessel.conv2d" ? ConvKind::Forward
              : desc.op == "tessel.conv2d_backward_input"
                  ? ConvKind::BackwardInput
                  : ConvKind::BackwardFilter;
  // Grouped convolutions run on the host (the plan is an ungrouped NCHW
  // one).
  if (desc.intAttr("groups", 1) != 1)
    return std::nullopt;
  std::string inChannel = desc.stringAttr("input_channel");
  std::string outChannel = desc.stringAttr("output_channel");
  std::array<std::string, 2> spatial = twoNames(desc, "spatial");
  std::array<std::string, 2> kernel = twoNames(desc, "kernel");
  std::optional<std::array<int64_t, 2>> strides =
      twoInts(desc, "strides", std::vector<int64_t>{1, 1});
  std::optional<std::array<int64_t, 2>> dilations =
      twoInts(desc, "dilations", std::vector<int64_t>{1, 1});
  std::optional<std::array<int64_t, 2>> padding = symmetricPadding(desc);
  if (!strides || !dilations || !padding || !sameTypes(desc))
    return std::nullopt;
  plan.strides = *strides;
  plan.dilations = *dilations;
  plan.padding = *padding;

  // The three tensors of the convolution as the descriptor has them.
  const TensorType *xType = &desc.operands[0], *wType = &desc.operands[1],
                   *yType = &desc.result;
  if (plan.kind == ConvKind::BackwardInput)
    yType = &desc.operands[0], xType = &desc.result;
  else if (plan.kind == ConvKind::BackwardFilter)
    yType = &desc.operands[1], wType = &desc.result;
  std::vector<std::string> pass;
  plan.n = passThrough(*xType, {inChannel, spatial[0], spatial[1]}, pass);
  TensorType xPacked =
      reordered(*xType, concatNames(pass, {inChannel, spatial[0], spatial[1]}));
  TensorType yPacked = reordered(
      *yType, concatNames(pass, {outChannel, spatial[0], spatial[1]}));
  TensorType wPacked =
      reordered(*wType, {outChannel, inChannel, kernel[0], kernel[1]});
  // Operands are packed from the descriptor's layout; the result is
  // unpacked into it.
  bool planned = plan.kind == ConvKind::BackwardInput
                     ? plan.x.plan(xPacked, *xType)
                     : plan.x.plan(*xType, xPacked);
  planned &= plan.kind == ConvKind::Forward ? plan.y.plan(yPacked, *yType)
                                            : plan.y.plan(*yType, yPacked);
  planned &= plan.kind == ConvKind::BackwardFilter
                 ? plan.w.plan(wPacked, *wType)
                 : plan.w.plan(*wType, wPacked);
  if (!planned)
    return std::nullopt;
  size_t at = pass.size();
  plan.c = xPacked.shape[at];
  plan.h = xPacked.shape[at + 1];
  plan.width = xPacked.shape[at + 2];
  plan.f = wPacked.shape[0];
  plan.kh = wPacked.shape[2];
  plan.kw = wPacked.shape[3];
  plan.p = yPacked.shape[at + 1];
  plan.q = yPacked.shape[at + 2];
  for (int64_t size : {plan.n, plan.c, plan.h, plan.width, plan.f, plan.kh,
                       plan.kw, plan.p, plan.q})
    if (!fitsInt(size))
      return std::nullopt;
  return plan;
}

std::optional<PoolPlan> planPool(const OpDescriptor &desc) {
  PoolPlan plan;
  plan.backward = desc.op == "tessel.pool_backward";
  desc.expectOperands(plan.backward ? 2 : 1);
  std::string kind = desc.stringAttr("kind");
  std::array<std::string, 2> spatial = twoNames(desc, "spatial");
  std::optional<std::array<int64_t, 2>> window =
      twoInts(desc, "window", std::nullopt);
  std::optional<std::array<int64_t, 2>> strides =
      twoInts(desc, "strides", std::vector<int64_t>{1, 1});
  std::optional<std::array<int64_t, 2>> padding = symmetricPadding(desc);
  if ((kind != "max" && kind != "avg") || !window || !strides || !padding ||
      !sameTypes(desc))
    return std::nullopt;
  plan.max = kind == "max";
  plan.window = *window;
  plan.strides = *strides;
  plan.padding = *padding;

  const TensorType &xType = desc.operands[0];
  const TensorType &yType = plan.backward ? desc.operands[1] : desc.result;
  std::vector<std::string> pass;
  plan.n = passThrough(xType, {spatial[0], spatial[1]}, pass);
  std::vector<std::string> order = concatNames(pass, {spatial[0], spatial[1]});
  TensorType xPacked = reordered(xType, order);
  TensorType yPacked = reordered(yType, order);
  if (!plan.x.plan(xType, xPacked))
    return std::nullopt;
  if (plan.backward) {
    if (!plan.dy.plan(yType, yPacked) ||
        !plan.unpack.plan(xPacked, desc.result))
      return std::nullopt;
  } else if (!plan.y.plan(yPacked, yType)) {
    return std::nullopt;
  }
  plan.h = xPacked.shape[pass.size()];
  plan.width = xPacked.shape[pass.size() + 1];
  plan.p = yPacked.shape[pass.size()];
  plan.q = yPacked.shape[pass.size() + 1];
  for (int64_t size : {plan.n, plan.h, plan.width, plan.p, plan.q})
    if (!fitsInt(size))
      return std::nullopt;
  return plan;
}

} // namespace tessel::runtime::gpu
