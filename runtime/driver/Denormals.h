//===- Denormals.h - Flushing subnormal floats to zero ----------*- C++ -*-===//
//
// x86 cores compute on subnormal floats (below 1.2e-38) in microcode, tens
// of times slower than on normal ones. Training makes them: Adam's second
// moment of a tiny gradient, softmax's exp of a large negative logit, and
// every value of a run whose loss diverges. A one-rank Transformer step
// (4 blocks, d_model 256, AdamW at lr 0.1) took 574 ms instead of 130 ms,
// its einsums 4 times slower, with the same losses to five digits. So the
// compiled programs flush subnormal results to zero and read subnormal
// inputs as zero (MXCSR's FTZ and DAZ), as TensorFlow does on CPU by
// default; TESSEL_KEEP_DENORMALS=1 keeps IEEE arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_DENORMALS_H
#define TESSEL_RUNTIME_DRIVER_DENORMALS_H

namespace tessel::driver {

/// Unless TESSEL_KEEP_DENORMALS is set to a value other than "0", sets
/// flush-to-zero and denormals-are-zero on this thread and on every thread
/// of the OpenMP pool the kernels run on (threads started later inherit
/// the mode from the one starting them). Returns whether it did; false too
/// on processors without the mode (not x86-64).
bool flushDenormalsUnlessKept();

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_DENORMALS_H
