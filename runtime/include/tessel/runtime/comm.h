/*===- tessel/runtime/comm.h - Mesh communicators over MPI ------*- C -*-===//
 *
 * The communication half of the tessel runtime, as a C ABI.
 *
 * A tessel_comm_t is one rank of a collective group: the equivalent of an
 * MPI_Comm, seen through the logical device mesh the program was compiled
 * for. Every rank of the job creates one with the same mesh; rank r sits at
 * the row-major coordinate of r over the mesh axes (the last axis varies
 * fastest), exactly as in layouts/Mesh.h, which the compiler and the
 * reference evaluator also use.
 *
 * Every mesh-level collective runs over a group: the ranks that share their
 * coordinates on every axis *not* named, so a collective over {model} on a
 * data x model mesh runs independently in each data row. Members of a group
 * are ordered by their position, row-major over their coordinates on the
 * named axes in the order the caller lists them (so {data, model} and
 * {model, data} are the same ranks in different orders). Each group is an
 * MPI sub-communicator, made on first use of an axis list and cached.
 *
 * The semantics of every operation are those of the reference evaluator
 * (reference/Collectives.h); the comments below restate them.
 *
 * Conventions:
 *   - Every function returns a tessel_status_t; on failure
 *     tessel_last_error_message() describes what went wrong.
 *   - Collective operations must be called by every member of the group (and
 *     the first use of an axis list by every rank of the mesh, which is when
 *     its sub-communicator is made) with the same arguments, as in any SPMD
 *     program. Argument checks depend only on those shared arguments, so a
 *     bad call fails on every rank alike instead of leaving some ranks
 *     waiting in MPI.
 *   - Tensors are dense and row-major. Dims are given by index. Outputs are
 *     described by the caller, and their shapes are checked against the
 *     shape the operation produces. Apart from all_reduce, which may run in
 *     place, an output must not overlap its input.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TESSEL_RUNTIME_COMM_H
#define TESSEL_RUNTIME_COMM_H

#include "tessel/runtime/types.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Reductions
 *===----------------------------------------------------------------------===*/

typedef enum tessel_reduction_e {
  TESSEL_REDUCTION_SUM = 0,
  TESSEL_REDUCTION_PROD = 1,
  TESSEL_REDUCTION_MAX = 2,
  TESSEL_REDUCTION_MIN = 3,
  /* The sum divided by the group size; floating-point types only. */
  TESSEL_REDUCTION_MEAN = 4,
} tessel_reduction_t;

/*===----------------------------------------------------------------------===*
 * Communicators
 *===----------------------------------------------------------------------===*/

typedef struct tessel_comm_t tessel_comm_t;

/* Creates this rank's communicator over a mesh of `num_axes` named axes.
 * Collective over all ranks of the job.
 *
 * MPI may be initialised by the caller beforehand; if it is not, this call
 * initialises it and the last tessel_comm_destroy finalises it again (so a
 * process that lets the runtime own MPI cannot create a communicator after
 * destroying its last one). The number of ranks mpirun started must equal
 * the product of the axis sizes, or the call fails with
 * TESSEL_STATUS_FAILED_PRECONDITION and a message such as
 * "mesh data:2 x model:2 needs 4 ranks, but mpirun started 3". */
tessel_status_t tessel_comm_create(int32_t num_axes,
                                   const char *const *axis_names,
                                   const int64_t *axis_sizes,
                                   tessel_comm_t **out_comm);

/* Chooses the MPI collective algorithms the runtime's started collectives
 * are fast with, through the MPI library's parameters in the environment
 * (Open MPI's MCA variables; other libraries ignore them), leaving any the
 * user has set, in the environment or with `mpirun --mca`. Only MPI_Init
 * reads them: a program that initialises MPI itself calls this before
 * MPI_Init; tessel_comm_create calls it when it initialises MPI. Today one:
 * Open MPI's MPI_Iallreduce reduce-scatters and all-gathers (coll_libnbc_
 * iallreduce_algorithm 3) instead of reducing to one rank and broadcasting
 * back, which on fewer than 4 ranks or in place took twice the blocking
 * call's time. The environment outranks Open MPI's parameter files: set
 * the variable itself to choose another there. */
void tessel_comm_choose_mpi_algorithms(void);

/* Frees the communicator and its sub-communicators. Collective over all
 * ranks (MPI_Comm_free). NULL is accepted and ignored. */
tessel_status_t tessel_comm_destroy(tessel_comm_t *comm);

/* This rank's number in the job, 0 <= rank < size. */
tessel_status_t tessel_comm_rank(const tessel_comm_t *comm, int64_t *out_rank);

/* The number of ranks in the mesh. */
tessel_status_t tessel_comm_size(const tessel_comm_t *comm, int64_t *out_size);

/* This rank's coordinate on the named mesh axis. */
tessel_status_t tessel_comm_coordinate(const tessel_comm_t *comm,
                                       const char *axis,
                                       int64_t *out_coordinate);

/* The size of this rank's group over `axes` (in the given order) and the
 * rank's position in it. Purely local; either output may be NULL. */
tessel_status_t tessel_comm_group(const tessel_comm_t *comm, int32_t num_axes,
                                  const char *const *axes, int64_t *out_size,
                                  int64_t *out_position);

/*===----------------------------------------------------------------------===*
 * Collectives
 *
 * `num_axes`/`axes` name the group the operation runs in; no axes is a group
 * of one rank. G below is the size of the group and p this rank's position
 * in it.
 *===----------------------------------------------------------------------===*/

/* Every member gets the elementwise reduction of all members' inputs; the
 * output has the input's shape and type and may be the input itself (in
 * place). bf16 and f16 are widened to f32, reduced in f32 and rounded back
 * once (to nearest, ties to even), so the result is the exact reduction
 * rounded once for all but very long sums. */
tessel_status_t tessel_comm_all_reduce(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes,
                                       tessel_reduction_t reduction,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output);

/* Every member gets the members' inputs concatenated along `dim` in position
 * order: the output is G times larger along `dim`. */
tessel_status_t tessel_comm_all_gather(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes, int32_t dim,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output);

/* Reduces over the group like all_reduce, then the member at position p
 * keeps the p-th of G equal chunks along `dim`, which G must divide. */
tessel_status_t tessel_comm_reduce_scatter(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, int32_t dim, const tessel_tensor_t *input,
    const tessel_tensor_t *output);

/* Each member splits its input along `split_dim` into G equal chunks; the
 * member at position j receives chunk j of every member i and concatenates
 * them along `concat_dim` in order of i. The dims may be the same (then the
 * shape is unchanged). */
tessel_status_t tessel_comm_all_to_all(tessel_comm_t *comm, int32_t num_axes,
                                       const char *const *axes,
                                       int32_t split_dim, int32_t concat_dim,
                                       const tessel_tensor_t *input,
                                       const tessel_tensor_t *output);

/* The output is [the last `low` elements along `dim` of the predecessor on
 * mesh axis `axis`] ++ [the input] ++ [the first `high` elements of the
 * successor]: low + high larger along `dim`. At either edge of the axis,
 * where there is no neighbour, that part is filled with `pad_value`
 * (converted to the element type). Both widths must be at most the input's
 * size along `dim`: halos come from the immediate neighbours only. */
tessel_status_t tessel_comm_halo_exchange(tessel_comm_t *comm, const char *axis,
                                          int32_t dim, int64_t low,
                                          int64_t high, double pad_value,
                                          const tessel_tensor_t *input,
                                          const tessel_tensor_t *output);

/* `pairs` holds `num_pairs` (source position, target position) pairs, as
 * 2 * num_pairs integers. In each group the member at each target position
 * receives the input of the member at the source position; members that
 * receive nothing get zeros. When several pairs name one target, the last
 * one counts. The output has the input's shape. */
tessel_status_t tessel_comm_collective_permute(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    int32_t num_pairs, const int64_t *pairs, const tessel_tensor_t *input,
    const tessel_tensor_t *output);

/*===----------------------------------------------------------------------===*
 * Non-blocking collectives
 *
 * all_reduce, all_gather, reduce_scatter and halo_exchange can also be
 * started, with MPI's non-blocking collectives (a halo exchange's
 * point-to-point messages with MPI_Isend and MPI_Irecv), and waited for
 * later, so that the caller computes while the data moves. The arguments,
 * checks and results are those of the blocking calls; the output holds the
 * result once the request is done. Until tessel_comm_wait returns, the
 * input and the output must stay allocated and unmodified (the output
 * unread). Every
 * member of the group starts the same collectives in the same order, as
 * with blocking ones, and may mix blocking and non-blocking calls.
 *
 * An all_reduce of fewer elements than the largest power of two within
 * its group (a loss, a norm) runs blocking at its start: the start
 * returns once every member has started it, with the request complete
 * (Open MPI's started algorithm that tessel_comm_choose_mpi_algorithms
 * selects would take 2 (n - 1) messages in a row there).
 *
 * MPI moves a started collective's data only while some MPI call runs on
 * the rank (Open MPI's shared-memory and TCP transports have no progress
 * thread of their own): call tessel_comm_test between pieces of work.
 *===----------------------------------------------------------------------===*/

typedef struct tessel_comm_request_t tessel_comm_request_t;

tessel_status_t tessel_comm_all_reduce_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request);

tessel_status_t tessel_comm_all_gather_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    int32_t dim, const tessel_tensor_t *input, const tessel_tensor_t *output,
    tessel_comm_request_t **out_request);

tessel_status_t tessel_comm_reduce_scatter_start(
    tessel_comm_t *comm, int32_t num_axes, const char *const *axes,
    tessel_reduction_t reduction, int32_t dim, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request);

/* The halos are posted, and the input's own part copied into the output,
 * at the start; the received halos and the padding at an edge of the axis
 * are written into the output when the request is done. */
tessel_status_t tessel_comm_halo_exchange_start(
    tessel_comm_t *comm, const char *axis, int32_t dim, int64_t low,
    int64_t high, double pad_value, const tessel_tensor_t *input,
    const tessel_tensor_t *output, tessel_comm_request_t **out_request);

/* Lets MPI move data; *out_done becomes 1 once the request's output holds
 * the result, else 0. The request stays valid either way. */
tessel_status_t tessel_comm_test(tessel_comm_request_t *request,
                                 int32_t *out_done);

/* Blocks until the output holds the result, then frees the request (also
 * when it fails). */
tessel_status_t tessel_comm_wait(tessel_comm_request_t *request);

/* Without communication: the output is chunk p of G equal chunks of the
 * input along `dim`. */
tessel_status_t tessel_comm_shard_slice(const tessel_comm_t *comm,
                                        int32_t num_axes,
                                        const char *const *axes, int32_t dim,
                                        const tessel_tensor_t *input,
                                        const tessel_tensor_t *output);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TESSEL_RUNTIME_COMM_H */
