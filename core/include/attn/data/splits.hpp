// Stratified, seeded hold-out selection: the same share of each class is held out, so a small
// test or validation set keeps the class balance of the data. One rule for every caller: the
// CLI's --holdout, the page's test share of a CSV/TSV or training-only archive, and the trainer's
// validation split all pick their examples with stratified_holdout.
#pragma once

#include <cstdint>
#include <vector>

#include "attn/data/review_loaders.hpp"

namespace attn {

// labels in {0, 1}; fraction in [0, 1). Returns one flag per example: true = held out.
// round(fraction · n_c) examples of each class c are held out, chosen by a Fisher–Yates shuffle
// drawn from attn::Rng(seed, stream) — deterministic on every platform.
std::vector<bool> stratified_holdout(const std::vector<int>& labels, float fraction, std::uint64_t seed,
                                     std::uint64_t stream = 0x5b117);

struct TrainTestSplit {
  std::vector<LabelledText> train, test;
};

// Moves the examples stratified_holdout(labels, fraction, seed) picks into `test` and the rest
// into `train`; both keep the examples' original relative order. fraction in [0, 1), else
// std::invalid_argument "hold_out: the test share must be in [0, 1), got X".
TrainTestSplit hold_out(std::vector<LabelledText> examples, float fraction, std::uint64_t seed);

}  // namespace attn
