//===- Sampling.cpp - Picking the next token from logits ------------------===//

#include "driver/Sampling.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace tessel::driver {

int64_t sampleToken(const float *logits, int64_t vocab,
                    const SamplingOptions &options, std::mt19937_64 &random) {
  // max_element and the sort below assume ordered values (a NaN would be
  // taken or skipped by where it stands), and the softmax needs a finite
  // largest logit.
  bool anyFinite = false;
  for (int64_t v = 0; v < vocab; ++v) {
    if (std::isnan(logits[v]) || logits[v] == HUGE_VALF)
      return kNoToken;
    anyFinite = anyFinite || logits[v] != -HUGE_VALF;
  }
  if (!anyFinite)
    return kNoToken;
  if (options.temperature <= 0)
    return std::max_element(logits, logits + vocab) - logits;
  std::vector<int64_t> order(static_cast<size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  // Largest first, equal logits in index order, so that the kept set and
  // the order of the cumulative sum below are fixed.
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return logits[a] > logits[b]; });
  if (options.topK > 0 && options.topK < vocab)
    order.resize(static_cast<size_t>(options.topK));
  // softmax(logits / T) up to its normaliser, in double.
  double largest = logits[order.front()];
  std::vector<double> weights(order.size());
  double total = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    weights[i] = std::exp((logits[order[i]] - largest) / options.temperature);
    total += weights[i];
  }
  // 53 random bits as a double in [0, 1): defined by the generator's
  // output alone, unlike std::uniform_real_distribution.
  double u = static_cast<double>(random() >> 11) * 0x1.0p-53;
  double threshold = u * total, cumulative = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    cumulative += weights[i];
    if (threshold < cumulative)
      return order[i];
  }
  return order.back();
}

} // namespace tessel::driver
