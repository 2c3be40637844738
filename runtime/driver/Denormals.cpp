//===- Denormals.cpp - Flushing subnormal floats to zero ------------------===//

#include "driver/Denormals.h"

#ifdef TESSEL_DRIVER_HAS_OPENMP
#include <omp.h>
#endif

#if defined(__x86_64__) || defined(__SSE2__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define TESSEL_HAS_MXCSR 1
#endif

#include <cstdlib>
#include <cstring>

namespace tessel::driver {
namespace {

bool keptByEnvironment() {
  const char *keep = std::getenv("TESSEL_KEEP_DENORMALS");
  return keep && *keep && std::strcmp(keep, "0") != 0;
}

#ifdef TESSEL_HAS_MXCSR
void flushOnThisThread() {
  _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
  _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
}
#endif

} // namespace

bool flushDenormalsUnlessKept() {
#ifdef TESSEL_HAS_MXCSR
  if (keptByEnvironment())
    return false;
  flushOnThisThread();
#ifdef TESSEL_DRIVER_HAS_OPENMP
  // The pool's threads may already exist (oneDNN or an earlier parallel
  // region started them), so each sets its own mode.
#pragma omp parallel
  flushOnThisThread();
#endif
  return true;
#else
  return false;
#endif
}

} // namespace tessel::driver
