/*===- HeaderCheck.c - The public header is C -----------------------------===//
 *
 * Compiled as strict C99 with warnings as errors, so that the C ABI header
 * stays usable from C (and from generated code that speaks C).
 *
 *===----------------------------------------------------------------------===*/

#include "tessel/runtime/comm.h"

#include <stddef.h>

tessel_status_t tesselHeaderCheck(tessel_comm_t *comm, float *data) {
  int64_t shape[2] = {2, 3};
  tessel_tensor_t tensor = {data, TESSEL_ELEMENT_TYPE_F32, 2, shape};
  const char *axes[1] = {"x"};
  return tessel_comm_all_reduce(comm, 1, axes, TESSEL_REDUCTION_SUM, &tensor,
                                &tensor);
}
