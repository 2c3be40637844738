/*===- tessel/runtime/program.h - What compiled programs call ---*- C -*-===//
 *
 * The ABI between a compiled SPMD program and the runtime. tessel compile
 * lowers each function of a partitioned module (tessel-lower-to-runtime) to
 * an LLVM function that allocates its buffers, runs every op through
 * tessel_rt_execute (collectives through tessel_rt_start and
 * tessel_rt_wait) and frees each buffer after its last use; the driver
 * (runtime/driver) owns main(), the communicator, the data and the training
 * loop, and calls those functions.
 *
 * An op reaches the runtime as a descriptor: a NUL-terminated JSON object
 * that the compiler writes once per op into the program's read-only data.
 *
 *   {"op": "tessel.einsum",              the op's name
 *    "loc": "mlp.mlir:17:9",             where it is in the model
 *    "operands": [TENSOR, ...],          local (per-rank) types
 *    "result": TENSOR,
 *    "attrs": {"name": VALUE, ...}}      the op's attributes
 *
 * TENSOR is {"dims": ["batch", "pixels"], "shape": [16, 784],
 * "type": "f32"}, with the rank's local sizes in row-major storage order;
 * "type" is one of f32, f64, bf16, f16, i1, i32, i64 (i1 stored as one byte,
 * bf16 and f16 as their 16-bit patterns). VALUE is a string (string and enum
 * attributes: "sum", "max", "normal", "ge"), a number, a list of strings or
 * numbers (string arrays, dense i64 arrays), or for a constant's dense value
 * a list of numbers in row-major order. A mesh-level op's "axes" name the
 * mesh axes it runs over, in the order the op lists them.
 *
 * "tessel.fused", a chain of element-wise ops that the compiler fused,
 * carries them as "attrs": {"body": [ENTRY, ...]}, each ENTRY an op of its
 * own: {"op": "tessel.mul", "args": [k, ...], "result": TENSOR,
 * "attrs": {...}}. Values are numbered: the fused op's operands 0 to N-1,
 * then entry i's result N + i; "args" name earlier values, and the last
 * entry's value is the fused result, which is f32. An entry is a unary op
 * (neg, abs, exp, log, sqrt, rsqrt, tanh, sigmoid, relu, gelu, erf), a
 * binary op (add, sub, mul, div, max, min, pow), compare ("kind"; its i1
 * result is read only as a select's condition), select (condition, on
 * true, on false) or constant (a splat: "value" is one number, its shape
 * any). Every entry but a constant has the fused result's dims and sizes,
 * in any order; the operands, f32 or i1 conditions, may lack some of them
 * or hold them in another order, and are broadcast by name as the ops
 * themselves broadcast.
 *
 * A fused op may have several results (tessel-merge-fused-outputs): its
 * descriptor then lists the types of the results after the first as
 * "more_results": [TENSOR, ...] (each with the first result's dims and
 * sizes in its order), and "attrs" names the body value of each as
 * "outputs": [k, ...], entries computed by an op before the last. The call
 * passes the first result's buffer as `result` and the others' buffers
 * after the operands in `operands`, `num_operands` counting both.
 *
 * The program also exports tessel_program_metadata, a JSON object:
 *
 *   {"mesh": {"axes": ["data", "model"], "sizes": [2, 2]},
 *    "functions": [{"name": "train_step", "symbol": "tessel_fn_train_step",
 *                   "arguments": [ARG, ...], "results": [ARG, ...]}]}
 *
 * ARG is {"name": "w1", "global": TENSOR, "local": TENSOR,
 * "layout": {"hidden": ["model"]}, "role": "parameter"}: the tensor's
 * `tessel.name`, its global and local types, the mesh axes that split each
 * split dimension and, for an argument that is trained state rather than
 * data, its `tessel.role` ("parameter", "buffer" or "optimizer_state").
 *
 * A training program (tessel compile) has the functions init and
 * train_step; a forward-only one (tessel compile --mode infer) has neither,
 * only the model's functions, each taking its parameters and buffers as
 * leading arguments with a role (docs/codegen.md). Every program exports
 * tessel_program_functions, an array of the compiled functions in the
 * order the metadata lists them, so the driver calls a function by its
 * name in the metadata.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TESSEL_RUNTIME_PROGRAM_H
#define TESSEL_RUNTIME_PROGRAM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything one rank's program runs with: its communicator and its
 * kernels' state. Created by the driver. */
typedef struct tessel_context_t tessel_context_t;

/* A compiled function: reads its arguments' buffers (which it never frees)
 * and stores into results[i] a buffer it allocated with tessel_rt_alloc,
 * which the caller then owns and frees with tessel_rt_free. */
typedef void (*tessel_function_t)(tessel_context_t *context,
                                  void *const *arguments, void **results);

/* Allocates `bytes` bytes, aligned for any element type (64 bytes); a
 * failure ends the job with a message. */
void *tessel_rt_alloc(tessel_context_t *context, int64_t bytes);

/* Frees a buffer of tessel_rt_alloc; NULL is ignored. */
void tessel_rt_free(tessel_context_t *context, void *buffer);

/* Runs one op: reads `num_operands` operand buffers and writes the op's
 * result into `result` (allocated by the caller for the result's local
 * type). `site` points to a slot private to this call site, NULL at first,
 * where the runtime caches what it made of `descriptor`, so the JSON is
 * parsed once per op and not once per step. An op that fails (a label
 * outside its classes, an MPI error) ends the job with a message that names
 * the op, its location in the model and the rank. */
void tessel_rt_execute(tessel_context_t *context, void **site,
                       const char *descriptor, void *const *operands,
                       int32_t num_operands, void *result);

/* A collective (all_reduce, all_gather, reduce_scatter, halo_exchange) in
 * two halves, so that the ops between them run while its data moves:
 * tessel_rt_start takes tessel_rt_execute's arguments and starts the op,
 * tessel_rt_wait with the same site returns once `result` holds the op's
 * result. Until then the operand and result buffers must be neither freed
 * nor written (nor the result read). Every op run in between (tessel_rt_execute,
 * tessel_rt_start) first lets the collectives in flight progress. A site
 * starts at most one call at a time, and a compiled function waits for
 * each collective it starts before it returns. An op without a
 * non-blocking form (any other op; i1 tensors; the CUDA runtime's
 * collectives, which its stream orders) runs to the end in
 * tessel_rt_start, and tessel_rt_wait returns at once. */
void tessel_rt_start(tessel_context_t *context, void **site,
                     const char *descriptor, void *const *operands,
                     int32_t num_operands, void *result);
void tessel_rt_wait(tessel_context_t *context, void **site);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TESSEL_RUNTIME_PROGRAM_H */
