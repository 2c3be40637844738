/*===- tessel/runtime/kernels.h - Compute kernels on the CPU ----*- C -*-===//
 *
 * The compute half of the tessel runtime, as a C ABI. A tessel_kernels_t
 * holds what the kernels need across calls (the oneDNN CPU engine and
 * stream); create one per thread that runs kernels.
 *
 * Tensors are tessel_tensor_t (types.h): dense, row-major, in host memory,
 * never owned by the runtime. Every function returns a tessel_status_t; on
 * failure tessel_last_error_message() says why.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TESSEL_RUNTIME_KERNELS_H
#define TESSEL_RUNTIME_KERNELS_H

#include "tessel/runtime/types.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tessel_kernels_t tessel_kernels_t;

tessel_status_t tessel_kernels_create(tessel_kernels_t **out_kernels);

/* NULL is accepted and ignored. */
tessel_status_t tessel_kernels_destroy(tessel_kernels_t *kernels);

/* 1 when the kernels compute in bf16 on this CPU, else 0. oneDNN 2.x has
 * bf16 convolutions, matmuls, pooling, softmax and element-wise kernels
 * only on CPUs with AVX-512 (native with AVX512-BF16); elsewhere bf16 ops
 * run on the reference kernels, and casts and copies in bf16 still run
 * here. */
int tessel_kernels_compute_bf16(void);

/* 1 when the bf16 matmul and convolution kernels outrun the f32 ones on
 * this CPU, else 0: with AMX, and on AMD's CPUs with AVX512-BF16 (Zen 4
 * and later), whose dot product does two multiply-adds a lane at the f32
 * FMAs' rate (oneDNN 2.6's 2048^3 GEMM: 946 GFLOP/s in bf16 against 508 in
 * f32 on 2 cores of an EPYC). Intel's AVX512-BF16 without AMX issues it at
 * half that rate, and oneDNN 2.6's bf16 matmuls and convolutions ran at
 * 150 to 170 GFLOP/s against 240 to 320 for f32 on a 2-core Xeon. The
 * choice depends on the CPU alone, so that every rank of a job on one
 * kind of machine computes alike. */
int tessel_kernels_bf16_products_outrun_f32(void);

/* 1 when the bf16 convolution's filter gradient outruns the f32 one on
 * this CPU, else 0: with AMX only. On AMD's AVX512-BF16, where the other
 * bf16 products outrun f32, oneDNN 2.6's bf16 backward-weights kernel does
 * not: the CNN example's filter gradients took 58 us a call in bf16
 * against 22 on the f32 kernel between conversions (2 ranks, `model:2`
 * over f2), the ResNet example's 100 to 157 against 70 to 78 (one rank),
 * where its forward convolution and input gradient were the faster in
 * bf16. Like tessel_kernels_bf16_products_outrun_f32, it depends on the
 * CPU alone. */
int tessel_kernels_bf16_filter_gradients_outrun_f32(void);

/* result = einsum(lhs, rhs), the contraction of two tensors.
 *
 * Each dim of each tensor carries a label, an arbitrary integer given in
 * `*_labels` (one per dim, in dim order); the same label on two tensors
 * means the same dim, with the same size. A label on
 *   - lhs, rhs and result is a batch dim;
 *   - lhs and result only is an M dim, rhs and result only an N dim;
 *   - lhs and rhs only is contracted (a K dim): the result sums over it.
 * Every result label must be on an operand, every operand label on the
 * other operand or the result, and no tensor may repeat a label (no
 * diagonals, no sums over one operand, no broadcasting).
 *
 * The operands are permuted (oneDNN reorders) into [batch, M, K] and
 * [batch, K, N] unless they already are, multiplied by one batched oneDNN
 * matmul, and the product is permuted into the result's dim order unless it
 * is already [batch, M, N]. f32 or bf16 (all three of one type; bf16
 * accumulates in f32 and rounds once). */
tessel_status_t
tessel_kernels_einsum(tessel_kernels_t *kernels, const tessel_tensor_t *lhs,
                      const int32_t *lhs_labels, const tessel_tensor_t *rhs,
                      const int32_t *rhs_labels, const tessel_tensor_t *result,
                      const int32_t *result_labels);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TESSEL_RUNTIME_KERNELS_H */
