//===- Reshape.cpp - which splits a reshape carries over ------------------===//

#include "layouts/Reshape.h"

#include "layouts/CheckedArithmetic.h"

using namespace tessel::layout;

std::optional<std::vector<ReshapeGroup>>
tessel::layout::reshapeGroups(const std::vector<int64_t> &from,
                              const std::vector<int64_t> &to) {
  for (const std::vector<int64_t> *shape : {&from, &to})
    for (int64_t size : *shape)
      if (size < 1)
        return std::nullopt;
  // Counts past int64_t are no shape's (and would wrap into equal ones);
  // with equal counts that fit, every partial product below fits too.
  std::optional<int64_t> fromCount = checkedProduct(from);
  std::optional<int64_t> toCount = checkedProduct(to);
  if (!fromCount || !toCount || *fromCount != *toCount)
    return std::nullopt;
  // Take one dimension from each side, then more from the side whose
  // product is smaller until the products meet: the group closes at the
  // first point where both sides hold the same elements.
  std::vector<ReshapeGroup> groups;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    ReshapeGroup group{i, i, j, j};
    int64_t fromElements = 1, toElements = 1;
    if (i < from.size())
      fromElements *= from[i++];
    if (j < to.size())
      toElements *= to[j++];
    while (fromElements != toElements) {
      if (fromElements < toElements)
        fromElements *= from[i++];
      else
        toElements *= to[j++];
    }
    group.inputEnd = i;
    group.resultEnd = j;
    groups.push_back(group);
  }
  return groups;
}

/// Returns the first dimension in [begin, end) of a size other than 1.
static std::optional<size_t> majorOf(const std::vector<int64_t> &shape,
                                     size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i)
    if (shape[i] != 1)
      return i;
  return std::nullopt;
}

std::optional<size_t>
tessel::layout::splitSourceOfReshape(const std::vector<int64_t> &from,
                                     const std::vector<int64_t> &to,
                                     size_t resultDim, int64_t blocks) {
  std::optional<std::vector<ReshapeGroup>> groups = reshapeGroups(from, to);
  if (!groups || blocks < 1)
    return std::nullopt;
  for (const ReshapeGroup &group : *groups) {
    if (resultDim < group.resultBegin || resultDim >= group.resultEnd)
      continue;
    std::optional<size_t> resultMajor =
        majorOf(to, group.resultBegin, group.resultEnd);
    std::optional<size_t> inputMajor =
        majorOf(from, group.inputBegin, group.inputEnd);
    if (resultMajor != resultDim || !inputMajor)
      return std::nullopt;
    // In a smallest group, majors of one size are the whole group but for
    // dimensions of size 1: the dimension is carried over, padding and all.
    if (from[*inputMajor] == to[resultDim])
      return inputMajor;
    if (from[*inputMajor] % blocks == 0 && to[resultDim] % blocks == 0)
      return inputMajor;
    return std::nullopt;
  }
  return std::nullopt;
}
