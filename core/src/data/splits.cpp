#include "attn/data/splits.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "attn/random.hpp"

namespace attn {
namespace {

// The indices of the examples labelled `label`, in an order shuffled by `rng` (Fisher–Yates).
std::vector<std::size_t> shuffled_members(const std::vector<int>& labels, int label, Rng& rng) {
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == label) members.push_back(i);
  }
  rng.shuffle(members);
  return members;
}

}  // namespace

std::vector<bool> stratified_holdout(const std::vector<int>& labels, float fraction, std::uint64_t seed,
                                     std::uint64_t stream) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("stratified_holdout: fraction must be in [0, 1), got " + std::to_string(fraction));
  }
  Rng rng(seed, stream);
  std::vector<bool> held_out(labels.size(), false);
  for (int label = 0; label <= 1; ++label) {
    const std::vector<std::size_t> members = shuffled_members(labels, label, rng);
    const auto take = static_cast<std::size_t>(std::lround(static_cast<double>(fraction) * members.size()));
    for (std::size_t k = 0; k < take; ++k) held_out[members[k]] = true;
  }
  return held_out;
}

TrainTestSplit hold_out(std::vector<LabelledText> examples, float fraction, std::uint64_t seed) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("hold_out: the test share must be in [0, 1), got " + std::to_string(fraction));
  }
  std::vector<int> labels;
  labels.reserve(examples.size());
  for (const LabelledText& e : examples) labels.push_back(e.label);
  const std::vector<bool> held = stratified_holdout(labels, fraction, seed);
  TrainTestSplit out;
  for (std::size_t i = 0; i < examples.size(); ++i) (held[i] ? out.test : out.train).push_back(std::move(examples[i]));
  return out;
}

std::vector<std::size_t> stratified_folds(const std::vector<int>& labels, std::size_t k, std::uint64_t seed,
                                          std::uint64_t stream) {
  if (k < 2) throw std::invalid_argument("k-fold cross-validation needs at least 2 folds, got " + std::to_string(k));
  std::size_t class_size[2] = {0, 0};
  for (const int label : labels) {
    if (label != 0 && label != 1) {
      throw std::invalid_argument("stratified_folds: labels must be 0 or 1, got " + std::to_string(label));
    }
    ++class_size[label];
  }
  const int smaller = class_size[0] <= class_size[1] ? 0 : 1;
  if (k > class_size[smaller]) {
    throw std::invalid_argument(std::to_string(k) + " folds need at least " + std::to_string(k) +
                                " examples of each class; class " + std::to_string(smaller) + " has " +
                                std::to_string(class_size[smaller]));
  }
  Rng rng(seed, stream);
  std::vector<std::size_t> fold(labels.size(), 0);
  std::size_t next = 0;  // class 1 continues the deal where class 0 stopped: fold sizes differ by <= 1
  for (int label = 0; label <= 1; ++label) {
    for (const std::size_t i : shuffled_members(labels, label, rng)) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
}

TrainTestSplit fold_split(const std::vector<LabelledText>& examples, const std::vector<std::size_t>& folds,
                          std::size_t fold) {
  if (folds.size() != examples.size()) {
    throw std::invalid_argument("fold_split: " + std::to_string(folds.size()) + " fold numbers for " +
                                std::to_string(examples.size()) + " examples");
  }
  TrainTestSplit out;
  for (std::size_t i = 0; i < examples.size(); ++i) (folds[i] == fold ? out.test : out.train).push_back(examples[i]);
  return out;
}

}  // namespace attn
