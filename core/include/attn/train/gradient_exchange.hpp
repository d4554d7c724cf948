// The data-parallel step's pieces shared by every trainer that offers it (ClassifierTrainingRun,
// Seq2SeqTrainingRun; docs/data-parallel.md): which rows of a batch shard r of K takes, the
// dropout stream a shard draws from, and the exchange buffer's layout — every parameter's
// gradient flat in parameters() order, then the trainer's own extras (e.g. the loss sum).
#pragma once

#include <cstddef>
#include <cstdint>

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
// Sets every parameter's gradient to sum / divisor, read flat in list order; returns the end.
const float* unpack_gradients(const ParameterList& params, const float* sum, float divisor);

}  // namespace attn
