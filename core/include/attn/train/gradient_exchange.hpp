// The data-parallel step's pieces shared by every trainer that offers it (ClassifierTrainingRun,
// Seq2SeqTrainingRun; docs/data-parallel.md) and the sessions around them: which rows of a batch
// shard r of K takes, the dropout stream a shard draws from, the exchange buffer's layout (every
// parameter's gradient flat in parameters() order, then the trainer's own extras, e.g. the loss
// sum), and the K buffers of a step summed in shard order — by every replica alike, in the engine,
// so the replicas stay bit-identical (float addition is not associative: the order is fixed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"

namespace attn {

// Rows [first, last) of a batch of B: contiguous, sizes differing by at most one, possibly empty
// when K > B.
struct ShardRows {
  std::size_t first = 0, last = 0;
  bool empty() const { return first == last; }
  std::size_t size() const { return last - first; }
};

// std::invalid_argument "<who>: shard must be in [0, shards) ..." for shards == 0 or
// shard >= shards.
void check_shard(const char* who, std::size_t shard, std::size_t shards);
// Shard `shard` of `shards` of a batch of `batch` rows (checked as check_shard).
ShardRows shard_rows(const char* who, std::size_t shard, std::size_t shards, std::size_t batch);

// The random stream of shard `shard` of `shards` at optimiser step `step`: a run is
// deterministic for a given seed and K (base: the trainer's dropout stream id).
Rng shard_rng(std::uint64_t seed, std::uint64_t base, std::size_t step, std::size_t shard, std::size_t shards);

// std::invalid_argument "<who>: the gradient buffer holds N floats, this model exchanges M
// (<layout>)" when size != expected.
void check_exchange_size(const char* who, std::size_t size, std::size_t expected, const char* layout);

// Writes every parameter's gradient × scale to `out`, flat in list order; returns the end.
float* pack_gradients(const ParameterList& params, float scale, float* out);
// Sets every parameter's gradient to (parts[0] + parts[1] + ...) / divisor, added in that order,
// read flat in list order from the same offset of every part; returns the offset after them.
std::size_t unpack_gradients(const ParameterList& params, const std::vector<const float*>& parts, float divisor);
// parts[0][at] + parts[1][at] + ..., in that order (a buffer's extras).
float sum_in_order(const std::vector<const float*>& parts, std::size_t at);

// A session's side of the step (SentimentSession, Seq2SeqSession): the buffer its own shard's
// gradient is written to, kept until the step is applied, and the K buffers in shard order.
class ShardBuffers {
 public:
  // The buffer for this replica's shard, `size` floats (its contents: the caller's); no shard is
  // ready until filled() says which one it holds.
  std::vector<float>& fill(std::size_t size);
  void filled(std::size_t shard, std::size_t shards);
  // This replica's own buffer with `others` (the K - 1 other shards' buffers, in shard order)
  // around it: all K in shard order. std::logic_error "<who>: ..." when no shard was computed
  // since the last step; std::invalid_argument when `others` holds another count than K - 1 or a
  // buffer of another length ("... holds N floats, this model exchanges M").
  std::vector<const float*> in_order(const char* who, const std::vector<std::vector<float>>& others) const;
  // The step was applied: the next one needs its own shard again.
  void applied() { ready_ = false; }

 private:
  std::vector<float> own_;
  std::size_t shard_ = 0, shards_ = 0;
  bool ready_ = false;
};

}  // namespace attn
