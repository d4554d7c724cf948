#include "attn/data/splits.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "attn/random.hpp"

namespace attn {

std::vector<bool> stratified_holdout(const std::vector<int>& labels, float fraction, std::uint64_t seed,
                                     std::uint64_t stream) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("stratified_holdout: fraction must be in [0, 1), got " + std::to_string(fraction));
  }
  Rng rng(seed, stream);
  std::vector<bool> held_out(labels.size(), false);
  for (int label = 0; label <= 1; ++label) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == label) members.push_back(i);
    }
    for (std::size_t i = members.size(); i > 1; --i) {
      std::swap(members[i - 1], members[rng.below(static_cast<std::uint32_t>(i))]);
    }
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

}  // namespace attn
