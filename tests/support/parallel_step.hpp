// One data-parallel step done in one thread (docs/data-parallel.md), for any session with
// shard_gradient / apply_gradient (SentimentSession, Seq2SeqSession): shard r on replica r, then
// every replica applies its own buffer with the others' (added in shard order by the session);
// the last replica's report.
#pragma once

#include <cstddef>
#include <vector>

namespace attn::test {

template <class Session>
auto parallel_step(const std::vector<Session*>& replicas) {
  const std::size_t K = replicas.size();
  std::vector<std::vector<float>> parts;
  for (std::size_t r = 0; r < K; ++r) parts.push_back(replicas[r]->shard_gradient(r, K));
  decltype(replicas[0]->apply_gradient(parts)) out;
  for (std::size_t r = 0; r < K; ++r) {
    std::vector<std::vector<float>> others;
    for (std::size_t j = 0; j < K; ++j) {
      if (j != r) others.push_back(parts[j]);
    }
    out = replicas[r]->apply_gradient(others);
  }
  return out;
}

}  // namespace attn::test
