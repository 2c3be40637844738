//===- HostCopies.h - State tensors in host memory for checkpoints -*- C++ -*-//
//
// Checkpoints gather and scatter state tensors through MPI and files, which
// need host memory. With the CPU runtime the state already is host memory
// and nothing is copied; with a device backend each tensor gets a host copy
// that is fetched before writing a checkpoint and stored back after reading
// one.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_HOSTCOPIES_H
#define TESSEL_RUNTIME_DRIVER_HOSTCOPIES_H

#include "driver/Checkpoint.h"
#include "tessel/runtime/program.h"

#include <vector>

namespace tessel::driver {

class HostCopies {
public:
  /// `tensors` point at buffers of tessel_rt_alloc.
  HostCopies(tessel_context_t &context, std::vector<StateTensor> tensors);

  /// The tensors in host memory (the originals when they already are).
  const std::vector<StateTensor> &tensors() const { return host; }
  /// Copies the buffers into the host copies (before writing them out).
  void fetch();
  /// Copies the host copies into the buffers (after reading them in).
  void store();

private:
  tessel_context_t &context;
  std::vector<StateTensor> buffers, host;
  std::vector<std::vector<unsigned char>> storage;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_HOSTCOPIES_H
