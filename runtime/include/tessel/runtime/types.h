/*===- tessel/runtime/types.h - Statuses and tensors ------------*- C -*-===//
 *
 * What every part of the tessel runtime's C ABI shares: status codes with a
 * thread-local message, and the descriptor of a dense tensor in host memory.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TESSEL_RUNTIME_TYPES_H
#define TESSEL_RUNTIME_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

typedef enum tessel_status_e {
  TESSEL_STATUS_OK = 0,
  /* A malformed call: unknown axis, bad dim, wrong output shape, ... */
  TESSEL_STATUS_INVALID_ARGUMENT = 1,
  /* The call is well formed but the job is not in a state to run it: the
   * mesh does not match the number of ranks mpirun started, MPI was
   * finalised, ... */
  TESSEL_STATUS_FAILED_PRECONDITION = 2,
  /* An MPI call returned an error (the message names the call). */
  TESSEL_STATUS_MPI_ERROR = 3,
  /* Out of memory for a temporary buffer, or a message too large for one
   * MPI call (more than INT_MAX elements). */
  TESSEL_STATUS_RESOURCE_EXHAUSTED = 4,
  /* A combination the runtime does not provide (the mean of integers, an
   * element type a kernel lacks). */
  TESSEL_STATUS_UNIMPLEMENTED = 5,
  /* A bug in the runtime. */
  TESSEL_STATUS_INTERNAL = 6,
} tessel_status_t;

/* The name of a status code ("INVALID_ARGUMENT"); never NULL. */
const char *tessel_status_name(tessel_status_t status);

/* The message of the most recent call that failed on this thread, or "" if
 * none has. Successful calls leave it unchanged, like errno. The pointer is
 * valid until the next failing call on this thread. */
const char *tessel_last_error_message(void);

/*===----------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------===*/

typedef enum tessel_element_type_e {
  TESSEL_ELEMENT_TYPE_F32 = 0,
  TESSEL_ELEMENT_TYPE_F64 = 1,
  /* 16-bit floats, stored as their bit patterns (uint16_t). */
  TESSEL_ELEMENT_TYPE_BF16 = 2,
  TESSEL_ELEMENT_TYPE_F16 = 3,
  TESSEL_ELEMENT_TYPE_I32 = 4,
  TESSEL_ELEMENT_TYPE_I64 = 5,
} tessel_element_type_t;

/* A dense row-major tensor in host memory; the runtime never owns `data` or
 * `shape`. A rank-0 tensor (one element) has rank 0 and may have a NULL
 * shape. */
typedef struct tessel_tensor_t {
  void *data;
  tessel_element_type_t element_type;
  int32_t rank;
  const int64_t *shape;
} tessel_tensor_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TESSEL_RUNTIME_TYPES_H */
