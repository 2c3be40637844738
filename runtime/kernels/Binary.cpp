//===- Binary.cpp - Element-wise binary ops with broadcasting on oneDNN ---===//

#include "kernels/Binary.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

namespace {

dnnl::algorithm algorithmOf(BinaryAlgorithm algorithm) {
  switch (algorithm) {
  case BinaryAlgorithm::Add:
    return dnnl::algorithm::binary_add;
  case BinaryAlgorithm::Subtract:
    return dnnl::algorithm::binary_sub;
  case BinaryAlgorithm::Multiply:
    return dnnl::algorithm::binary_mul;
  case BinaryAlgorithm::Divide:
    return dnnl::algorithm::binary_div;
  case BinaryAlgorithm::Max:
    return dnnl::algorithm::binary_max;
  case BinaryAlgorithm::Min:
    return dnnl::algorithm::binary_min;
  }
  return dnnl::algorithm::binary_add;
}

dnnl::algorithm algorithmOf(ComparisonAlgorithm algorithm) {
  switch (algorithm) {
  case ComparisonAlgorithm::Equal:
    return dnnl::algorithm::binary_eq;
  case ComparisonAlgorithm::NotEqual:
    return dnnl::algorithm::binary_ne;
  case ComparisonAlgorithm::Less:
    return dnnl::algorithm::binary_lt;
  case ComparisonAlgorithm::LessEqual:
    return dnnl::algorithm::binary_le;
  case ComparisonAlgorithm::Greater:
    return dnnl::algorithm::binary_gt;
  case ComparisonAlgorithm::GreaterEqual:
    return dnnl::algorithm::binary_ge;
  }
  return dnnl::algorithm::binary_eq;
}

/// The binary primitive over the caller's layouts, with dst's elements of
/// `dstType`.
std::unique_ptr<PreparedKernel> binary(dnnl::algorithm algorithm,
                                       const StridedTensor &src0,
                                       const StridedTensor &src1,
                                       const StridedTensor &dst,
                                       dnnl::memory::data_type dstType) {
  for (const StridedTensor *tensor : {&src0, &src1, &dst})
    if (numElements(*tensor) == 0 || tensor->dims.size() != dst.dims.size())
      return nullptr;
  if (!dnnlType(src0.type) || src0.type != src1.type || src0.dims != dst.dims ||
      dst.dims.empty())
    return nullptr;
  return preparedOrNull({&src0, &src1, &dst}, [&] {
    // The destination's layout is oneDNN's choice (src0's, where it can):
    // a broadcasting binary op is fastest when src0 and dst agree.
    dnnl::binary::desc desc(
        algorithm, userLayout(src0), userLayout(src1),
        dnnl::memory::desc(dst.dims, dstType, dnnl::memory::format_tag::any));
    dnnl::binary::primitive_desc pd(desc, callerScratchpad(), cpuEngine());
    auto chain = std::make_unique<PrimitiveChain>();
    auto a = chain->addInput(userLayout(src0), pd.src0_desc());
    auto b = chain->addInput(userLayout(src1), pd.src1_desc());
    auto c = chain->setOutput(userLayout(dst, dstType), pd.dst_desc());
    chain->addStep(
        dnnl::binary(pd),
        {{DNNL_ARG_SRC_0, a}, {DNNL_ARG_SRC_1, b}, {DNNL_ARG_DST, c}});
    return chain;
  });
}

} // namespace

std::unique_ptr<PreparedKernel> prepareBinary(BinaryAlgorithm algorithm,
                                              const StridedTensor &src0,
                                              const StridedTensor &src1,
                                              const StridedTensor &dst) {
  std::optional<dnnl::memory::data_type> type = dnnlType(dst.type);
  if (!type || dst.type != src0.type)
    return nullptr;
  return binary(algorithmOf(algorithm), src0, src1, dst, *type);
}

std::unique_ptr<PreparedKernel> prepareComparison(ComparisonAlgorithm algorithm,
                                                  const StridedTensor &src0,
                                                  const StridedTensor &src1,
                                                  const StridedTensor &dst) {
  return binary(algorithmOf(algorithm), src0, src1, dst,
                dnnl::memory::data_type::u8);
}

} // namespace tessel::runtime
