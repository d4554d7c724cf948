// Stratified, seeded hold-out selection: the same share of each class is held out, so a small
// test or validation set keeps the class balance of the data. One rule for every caller: the
// CLI's --holdout, the page's test share of a CSV/TSV or training-only archive, and the trainer's
// validation split all pick their examples with stratified_holdout; `attn cv` deals its folds
// with stratified_folds, which shuffles each class the same way.
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

// Stratified k-fold assignment: each class's examples are shuffled (Fisher–Yates from
// attn::Rng(seed, stream)) and dealt round-robin to the folds, class 1 continuing where class 0
// stopped, so fold f holds floor or ceil(n_c / k) examples of each class c and the fold sizes
// differ by at most one. Returns each example's fold in [0, k). k must be at least 2 and at most
// the size of the smaller class, else std::invalid_argument saying so.
std::vector<std::size_t> stratified_folds(const std::vector<int>& labels, std::size_t k, std::uint64_t seed,
                                          std::uint64_t stream = 0xf01d5);

// Fold `fold` of `folds` (from stratified_folds) as the test set, every other fold as the
// training set; both keep the examples' original relative order.
TrainTestSplit fold_split(const std::vector<LabelledText>& examples, const std::vector<std::size_t>& folds,
                          std::size_t fold);

}  // namespace attn
