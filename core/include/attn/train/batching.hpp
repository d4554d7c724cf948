// The batches of a training epoch, shared by every trainer (classifier, seq2seq): a shuffled
// order of the examples, optionally sorted by length within windows so a batch pads little, cut
// into batches. The padding gather itself is text/sequences.hpp's gather_padded.
//
// Legend: N examples, B batch size, W window (batches per length-sorted window).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attn/random.hpp"

namespace attn {

struct EpochBatching {
  std::size_t batch_size = 1;  // B >= 1
  // Windows of W·B examples of the shuffled order are sorted by length (stable) before cutting;
  // W <= 1 sorts nothing.
  std::size_t window = 1;
  // Shuffle the order of the batches after cutting (so lengths do not march up in a window).
  bool shuffle_batches = false;
};

// One epoch's batches of example indices [ceil(N / B)][<= B], drawn from `rng` in this order:
// rng.shuffle(0 .. N-1), then (shuffle_batches) rng.shuffle(batches). `sequences` gives the
// lengths only. The last batch holds the remainder.
std::vector<std::vector<std::size_t>> epoch_batches(const std::vector<std::vector<std::int32_t>>& sequences,
                                                    const EpochBatching& how, Rng& rng);

// 0 .. N-1 sorted by sequence length (stable): the order evaluation walks so batches pad little
// (metrics do not depend on it).
std::vector<std::size_t> length_order(const std::vector<std::vector<std::int32_t>>& sequences);

}  // namespace attn
