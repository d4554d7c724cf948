// Small synthetic sequence-classification tasks whose decisive tokens are known, so tests can
// check both that a model learns and that its attention lands on the right place.
//   contains_token: label 1 iff the target token occurs (exactly once in positives).
//   first_of_two:   every sequence holds token A and token B once; label 1 iff A comes first.
// Token ids: 0 is padding, 1..3 are reserved (start, out-of-vocabulary, spare), so ordinary
// tokens are drawn from [4, vocab_size).
#pragma once

#include <cstdint>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/tensor.hpp"

namespace attn {

struct SequenceDataset {
  std::vector<std::vector<std::int32_t>> tokens;
  std::vector<float> labels;                        // 0 or 1
  std::vector<std::vector<std::uint8_t>> decisive;  // 1 at the positions that decide the label
  std::size_t vocab_size = 0;
  std::size_t size() const { return tokens.size(); }
};

SequenceDataset make_contains_token_task(std::size_t count, std::size_t min_len, std::size_t max_len,
                                         std::size_t vocab_size, std::int32_t target, std::uint64_t seed);
SequenceDataset make_first_of_two_task(std::size_t count, std::size_t min_len, std::size_t max_len,
                                       std::size_t vocab_size, std::int32_t token_a, std::int32_t token_b,
                                       std::uint64_t seed);

enum class Padding { pre, post };

struct ClassifierBatch {
  TokenIds ids;    // [B, T]
  Mask2 mask;      // [B, T], 1 = real token
  Tensor1 labels;  // [B]
};

// Gathers dataset[indices[0..count)] padded to the longest of them ('pre' puts the padding first,
// as Keras' pad_sequences does by default). Reuses `out`'s buffers when shapes repeat.
void make_batch(const SequenceDataset& data, const std::size_t* indices, std::size_t count, Padding padding,
                ClassifierBatch& out);

}  // namespace attn
