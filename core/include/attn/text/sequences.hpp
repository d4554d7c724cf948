// Encoded reviews (ids [T_i], ragged) -> a rectangular batch, with Keras' `pad_sequences`
// semantics, and length statistics for choosing maxlen.
// Legend: N sequences, T = maxlen (time steps of the padded batch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/tensor.hpp"

namespace attn {

enum class PadMode { pre, post };

struct PaddedBatch {
  TokenIds ids;  // [N, T]
  Mask2 mask;    // [N, T], 1 = real token, 0 = padding (independent of the ids' values)
};

// seqs: N ragged id lists -> ids/mask [N, maxlen], exactly keras.preprocessing.sequence.
// pad_sequences(seqs, maxlen, padding=..., truncating=..., value=...):
//   truncating pre keeps the LAST maxlen ids (drops the beginning), post keeps the first maxlen;
//   padding pre puts `value` before the ids (right-aligned), post after them (left-aligned).
// An empty sequence gives a row of `value` with an all-zero mask. Throws std::invalid_argument
// when maxlen is 0 (Keras' maxlen=None is pad_to_longest).
PaddedBatch pad_sequences(const std::vector<std::vector<std::int32_t>>& seqs, std::size_t maxlen = 500,
                          PadMode padding = PadMode::pre, PadMode truncating = PadMode::pre, std::int32_t value = 0);
// Keras' maxlen=None: T = the longest sequence, so nothing is truncated. [N, 0] when every
// sequence is empty (or N = 0).
PaddedBatch pad_to_longest(const std::vector<std::vector<std::int32_t>>& seqs, PadMode padding = PadMode::pre,
                           std::int32_t value = 0);

// The batch gather every trainer uses (the classifier, the seq2seq model, the toy tasks): rows
// seqs[indices[0..B)] -> ids [B, T] (and mask [B, T] when not null), value 0 (PAD) elsewhere. A
// row longer than T keeps its LAST T ids (pad_sequences' default truncation); padding 'pre' puts
// the ids at the end of the row, 'post' at its start. Reuses the buffers when the shape repeats.
// Throws ShapeError for an index outside seqs.
void gather_padded(const std::vector<std::vector<std::int32_t>>& seqs, const std::size_t* indices, std::size_t count,
                   std::size_t width, PadMode padding, TokenIds& ids, Mask2* mask);
// The width of such a batch: min(longest row, maxlen), at least 1.
std::size_t padded_width(const std::vector<std::vector<std::int32_t>>& seqs, const std::size_t* indices,
                         std::size_t count, std::size_t maxlen = static_cast<std::size_t>(-1));

// Length of each sequence: N ragged lists -> [N].
std::vector<std::size_t> sequence_lengths(const std::vector<std::vector<std::int32_t>>& seqs);

// Summary of N lengths. Percentiles use the nearest-rank method: pP = the smallest length with at
// least P% of the lengths <= it, i.e. sorted[ceil(P/100 * N) - 1] — always an observed length.
// The histogram has `bins` equal bins starting at 0: bin k counts lengths in
// [k * bin_width, (k + 1) * bin_width), with bin_width = ceil((max + 1) / bins).
struct LengthStats {
  std::size_t count = 0, min = 0, max = 0;
  double mean = 0;
  std::size_t p50 = 0, p90 = 0, p95 = 0, p99 = 0;
  std::vector<std::size_t> histogram;
  std::size_t bin_width = 1;
  std::vector<std::size_t> sorted;  // the lengths, ascending

  // Number of sequences pad_sequences(maxlen) would truncate (length > maxlen).
  std::size_t truncated_at(std::size_t maxlen) const;
  // Total ids those truncations drop: sum of max(0, length - maxlen).
  std::size_t tokens_dropped_at(std::size_t maxlen) const;
};

// Empty `lengths` give count 0, all statistics 0 and `bins` empty bins. Throws
// std::invalid_argument when bins is 0.
LengthStats length_stats(const std::vector<std::size_t>& lengths, std::size_t bins = 20);
// Nearest-rank P-th percentile (0 < P <= 100) of ascending `sorted` (non-empty).
std::size_t nearest_rank_percentile(const std::vector<std::size_t>& sorted, double percent);
// Share of sequences longer than maxlen, in [0, 1] (0 for no sequences): how much a maxlen truncates.
double share_longer_than(const std::vector<std::size_t>& lengths, std::size_t maxlen);

}  // namespace attn
