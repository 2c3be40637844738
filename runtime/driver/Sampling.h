//===- Sampling.h - Picking the next token from logits ----------*- C++ -*-===//
//
// Text generation turns each row of a language model's logits into a token
// on the host: greedily (the largest logit), or drawn from the softmax of
// the logits divided by a temperature, optionally among the k largest only.
// The draw takes its randomness from a seeded generator with an exactly
// specified algorithm (std::mt19937_64, whose output the standard fixes), so
// a seed gives the same text on every machine and every run.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_SAMPLING_H
#define TESSEL_RUNTIME_DRIVER_SAMPLING_H

#include <cstdint>
#include <random>

namespace tessel::driver {

struct SamplingOptions {
  /// 0 is greedy decoding; otherwise the logits are divided by it.
  double temperature = 0;
  /// Draw among the k largest logits only (0: among all).
  int64_t topK = 0;
};

/// What sampleToken returns for logits that pick no token.
constexpr int64_t kNoToken = -1;

/// The token that `logits` (`vocab` values) pick: with temperature 0 the
/// index of the largest (the first of equal ones, as tessel.argmax); else a
/// draw from softmax(logits / temperature) over the topK largest (ties at
/// the k-th kept in index order), one value of `random` per draw. Logits
/// with a NaN or +inf, or none above -inf, have neither a largest nor a
/// softmax: kNoToken, drawing nothing (-inf alone is a token ruled out).
int64_t sampleToken(const float *logits, int64_t vocab,
                    const SamplingOptions &options, std::mt19937_64 &random);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_SAMPLING_H
