//===- ReferenceKernel.cpp - Ops run on the reference kernels -------------===//

#include "executor/ReferenceKernel.h"

#include "executor/Buffers.h"

namespace tessel::runtime {

namespace {
// Per thread, as the kernels are run: one thread per rank runs a program,
// and a test may run several ranks' programs on threads of its own.
thread_local int64_t referenceCalls = 0;
} // namespace

void countReferenceKernelCall() { ++referenceCalls; }

int64_t referenceKernelCalls() { return referenceCalls; }

Kernel viaReference(const OpDescriptor &desc, ReferenceFunction compute) {
  return [operandTypes = desc.operands, resultType = desc.result,
          compute = std::move(compute)](tessel_context_t &,
                                        void *const *operands, void *result) {
    countReferenceKernelCall();
    ReferenceInputs inputs;
    inputs.reserve(operandTypes.size());
    for (size_t i = 0; i < operandTypes.size(); ++i)
      inputs.push_back(loadTensor(operandTypes[i], operands[i]));
    storeTensor(compute(inputs), resultType, result);
  };
}

} // namespace tessel::runtime
