// One data-parallel step done in one thread (docs/data-parallel.md), for any session with
// shard_gradient / apply_gradient (SentimentSession, Seq2SeqSession): shard r on replica r, the
// buffers summed in shard order, the sum applied by every replica; the last replica's report.
#pragma once

#include <cstddef>
#include <vector>

namespace attn::test {

template <class Session>
auto parallel_step(const std::vector<Session*>& replicas) {
  const std::size_t K = replicas.size();
  std::vector<float> sum, part;
  for (std::size_t r = 0; r < K; ++r) {
    replicas[r]->shard_gradient(r, K, part);
    if (r == 0) {
      sum = part;
    } else {
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += part[i];
    }
  }
  decltype(replicas[0]->apply_gradient(sum)) out;
  for (Session* s : replicas) out = s->apply_gradient(sum);
  return out;
}

}  // namespace attn::test
