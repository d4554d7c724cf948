// Stratified, seeded hold-out selection: the same share of each class is held out, so a small
// test or validation set keeps the class balance of the data.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

// labels in {0, 1}; fraction in [0, 1). Returns one flag per example: true = held out.
// round(fraction · n_c) examples of each class c are held out, chosen by a Fisher–Yates shuffle
// drawn from attn::Rng(seed, stream) — deterministic on every platform.
std::vector<bool> stratified_holdout(const std::vector<int>& labels, float fraction, std::uint64_t seed,
                                     std::uint64_t stream = 0x5b117);

}  // namespace attn
