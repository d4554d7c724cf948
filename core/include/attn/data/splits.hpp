// Stratified, seeded hold-out selection: the same share of each class is held out, so a small
// test or validation set keeps the class balance of the data. One rule for every caller: the
// CLI's --holdout, the page's test share of a CSV/TSV or training-only archive, and the trainer's
// validation split all pick their examples with stratified_holdout; `attn cv` deals its folds
// with stratified_folds, which shuffles each class the same way.
//
// Grouped splits: when the data says which group each example belongs to (aclImdb's movie, read
// from urls_pos.txt / urls_neg.txt; a CSV's or TSV's `group` column), a random split puts most
// groups on both sides (~97 % of IMDB's movies keep reviews in the training part of a random
// 10 % hold-out), so a model that learns a movie's names and plot words is rewarded in
// validation but not on unseen movies. grouped_holdout and grouped_folds keep every group on one
// side. Without any group they are exactly stratified_holdout and stratified_folds (same flags,
// bit for bit), so data without groups splits as it always did.
#pragma once

#include <cstdint>
#include <string>
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

// Moves the examples grouped_holdout(labels, groups, fraction, seed) picks into `test` and the
// rest into `train` (plain stratified_holdout when no example names a group: clear_groups first
// to split at random); both keep the examples' original relative order. fraction in [0, 1), else
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

// True if any example names a group (LabelledText::group not empty).
bool has_groups(const std::vector<LabelledText>& examples);
// The number of distinct groups the examples name (0 without any).
std::size_t group_count(const std::vector<LabelledText>& examples);
// Each example's group ("" for none), in order.
std::vector<std::string> groups_of(const std::vector<LabelledText>& examples);
// Forgets every example's group, so every split of them is the plain stratified one (the CLI's
// --no-group-split, the page's "random split" choice).
void clear_groups(std::vector<LabelledText>& examples);

// Held-out flags that never split a group: groups[i] names example i's group ("" = a group of
// its own); groups empty or all "" -> exactly stratified_holdout(labels, fraction, seed, stream).
// Otherwise the groups are shuffled (Fisher–Yates from attn::Rng(seed, stream)) and taken in
// that order while neither class goes over its target round(fraction · n_c), so each class's
// held-out count is at most its target and usually within one group of it. If fraction > 0 and
// every group is too large for the targets, the first smallest group in the shuffled order is
// held out, so a hold-out that was asked for is never empty. groups.size() must equal
// labels.size() (when not empty), else std::invalid_argument.
std::vector<bool> grouped_holdout(const std::vector<int>& labels, const std::vector<std::string>& groups,
                                  float fraction, std::uint64_t seed, std::uint64_t stream = 0x5b117);

// Fold numbers that never split a group: groups empty or all "" -> exactly
// stratified_folds(labels, k, seed, stream). Otherwise the groups, shuffled as above, are dealt
// one by one to the fold that is emptiest for them: the fold f minimising
// max_c (count_c[f] + g_c) / n_c (then the smaller fold, then the lower f), which keeps both the
// fold sizes and each fold's class balance close. k must be at least 2, at most the smaller
// class's size and at most the number of groups, else std::invalid_argument saying so.
std::vector<std::size_t> grouped_folds(const std::vector<int>& labels, const std::vector<std::string>& groups,
                                       std::size_t k, std::uint64_t seed, std::uint64_t stream = 0xf01d5);

// Which rule hold_out and the CLI's splits use: by group when the examples name groups, else
// stratified at random.
enum class SplitRule { by_group, random };
SplitRule split_rule(const std::vector<LabelledText>& examples);
// "by group" or "random" (the CLI's --json "split" field).
const char* split_rule_name(SplitRule rule);

}  // namespace attn
