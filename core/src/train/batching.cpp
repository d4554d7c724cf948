#include "attn/train/batching.hpp"

#include <algorithm>
#include <numeric>

namespace attn {

std::vector<std::vector<std::size_t>> epoch_batches(const std::vector<std::vector<std::int32_t>>& sequences,
                                                    const EpochBatching& how, Rng& rng) {
  const std::size_t n = sequences.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  rng.shuffle(order);
  const std::size_t span = how.batch_size * how.window;
  for (std::size_t begin = 0; how.window > 1 && begin < n; begin += span) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = order.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + span));
    std::stable_sort(first, last,
                     [&](std::size_t a, std::size_t b) { return sequences[a].size() < sequences[b].size(); });
  }
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t begin = 0; begin < n; begin += how.batch_size) {
    batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(begin),
                         order.begin() + static_cast<std::ptrdiff_t>(std::min(n, begin + how.batch_size)));
  }
  if (how.shuffle_batches) rng.shuffle(batches);
  return batches;
}

std::vector<std::size_t> length_order(const std::vector<std::vector<std::int32_t>>& sequences) {
  std::vector<std::size_t> order(sequences.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sequences[a].size() < sequences[b].size(); });
  return order;
}

}  // namespace attn
