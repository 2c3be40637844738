//===- Elements.h - Loads and rounding stores, on device and host -*- C++
//-*-===//
//
// What every kernel shares: reading an element of any type as a double, and
// rounding a double to a type and storing it exactly as ref::roundToType and
// the executor's storeElement do. Host code compiles them too, so that the
// tests check them against the reference on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_ELEMENTS_H
#define TESSEL_RUNTIME_GPU_ELEMENTS_H

#include "gpu/Launch.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <math.h>

namespace tessel::runtime::gpu {

/// Threads per block for the flat kernels and the fiber reductions.
constexpr int kBlock = 256;

inline unsigned blocksFor(int64_t count) {
  int64_t blocks = (count + kBlock - 1) / kBlock;
  // Grid-stride loops cover the rest; 65535 blocks keep every SM busy.
  return static_cast<unsigned>(blocks < 1 ? 1
                                          : (blocks > 65535 ? 65535 : blocks));
}

TESSEL_HOST_DEVICE inline double load(DType type, const void *data, int64_t i) {
  switch (type) {
  case DType::F32:
    return static_cast<const float *>(data)[i];
  case DType::F64:
    return static_cast<const double *>(data)[i];
  case DType::BF16:
    return __bfloat162float(
        __ushort_as_bfloat16(static_cast<const unsigned short *>(data)[i]));
  case DType::F16:
    return __half2float(
        __ushort_as_half(static_cast<const unsigned short *>(data)[i]));
  case DType::I1:
    return static_cast<const unsigned char *>(data)[i] != 0 ? 1.0 : 0.0;
  case DType::I32:
    return static_cast<const int *>(data)[i];
  case DType::I64:
    return static_cast<double>(static_cast<const long long *>(data)[i]);
  }
  return 0.0;
}

/// ref::roundToI32: truncate, wrap modulo 2^32; non-finite values are 0.
TESSEL_HOST_DEVICE inline int toI32(double value) {
  if (!isfinite(value))
    return 0;
  const double twoTo32 = 4294967296.0;
  double wrapped = fmod(trunc(value), twoTo32);
  if (wrapped < 0)
    wrapped += twoTo32;
  if (wrapped >= twoTo32 / 2)
    wrapped -= twoTo32;
  return static_cast<int>(wrapped);
}

/// ref::roundToI64: truncate and saturate; NaN is 0.
TESSEL_HOST_DEVICE inline long long toI64(double value) {
  if (isnan(value))
    return 0;
  const double limit = 9223372036854775808.0;
  if (value >= limit)
    return 9223372036854774784LL; // the largest double below 2^63
  if (value < -limit)
    return static_cast<long long>(-limit);
  return static_cast<long long>(trunc(value));
}

TESSEL_HOST_DEVICE inline void store(DType type, void *data, int64_t i,
                                     double value) {
  // NaNs of the 16-bit types get the host's quiet NaN with the value's
  // sign (base/Float16.h), not the library's, so that both runtimes write
  // the same bytes.
  if (isnan(value) && (type == DType::BF16 || type == DType::F16)) {
    unsigned short sign = signbit(value) ? 0x8000 : 0;
    static_cast<unsigned short *>(data)[i] =
        sign | (type == DType::BF16 ? 0x7fc0 : 0x7e00);
    return;
  }
  switch (type) {
  case DType::F32:
    static_cast<float *>(data)[i] = static_cast<float>(value);
    return;
  case DType::F64:
    static_cast<double *>(data)[i] = value;
    return;
  case DType::BF16:
    // Through f32, as ref::roundToType rounds bf16.
    static_cast<unsigned short *>(data)[i] =
        __bfloat16_as_ushort(__float2bfloat16_rn(static_cast<float>(value)));
    return;
  case DType::F16:
    static_cast<unsigned short *>(data)[i] =
        __half_as_ushort(__double2half(value));
    return;
  case DType::I1:
    static_cast<unsigned char *>(data)[i] =
        (value != 0.0 && !isnan(value)) ? 1 : 0;
    return;
  case DType::I32:
    static_cast<int *>(data)[i] = toI32(value);
    return;
  case DType::I64:
    static_cast<long long *>(data)[i] = toI64(value);
    return;
  }
}

TESSEL_HOST_DEVICE inline bool isIntegerType(DType type) {
  return type == DType::I1 || type == DType::I32 || type == DType::I64;
}

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_ELEMENTS_H
