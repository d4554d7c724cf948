#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/data/splits.hpp"

using namespace attn;

namespace {

// 30 positive and 10 negative examples, interleaved; text = "r<i>".
std::vector<LabelledText> examples() {
  std::vector<LabelledText> out;
  for (int i = 0; i < 40; ++i) out.push_back({"r" + std::to_string(i), i % 4 == 0 ? 0 : 1, ""});
  return out;
}

std::size_t positives(const std::vector<LabelledText>& v) {
  std::size_t n = 0;
  for (const LabelledText& e : v) n += e.label == 1;
  return n;
}

int index_of(const LabelledText& e) { return std::stoi(e.text.substr(1)); }

}  // namespace

TEST_CASE("splits.stratified_holdout_keeps_class_shares_and_is_seeded") {
  std::vector<int> labels;
  for (const LabelledText& e : examples()) labels.push_back(e.label);
  const std::vector<bool> a = stratified_holdout(labels, 0.2f, 7);
  // round(0.2 · 30) = 6 positives and round(0.2 · 10) = 2 negatives.
  std::size_t pos = 0, neg = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i]) continue;
    (labels[i] == 1 ? pos : neg) += 1;
  }
  CHECK(pos == 6);
  CHECK(neg == 2);
  CHECK(stratified_holdout(labels, 0.2f, 7) == a);  // same seed, same choice
  CHECK(stratified_holdout(labels, 0.2f, 8) != a);  // another seed, another choice
  CHECK(stratified_holdout(labels, 0.f, 7) == std::vector<bool>(labels.size(), false));
  CHECK_THROWS_WITH_AS(stratified_holdout(labels, 1.f, 7), doctest::Contains("fraction must be in [0, 1)"),
                       std::invalid_argument);
}

TEST_CASE("splits.hold_out_moves_the_chosen_examples_in_order") {
  const TrainTestSplit s = hold_out(examples(), 0.25f, 3);
  // round(0.25 · 30) + round(0.25 · 10) = 8 + 3 (7.5 and 2.5 round away from 0).
  CHECK(s.test.size() == 11);
  CHECK(positives(s.test) == 8);
  CHECK(s.train.size() + s.test.size() == 40);
  // The flags stratified_holdout gives for the same labels and seed, and the original order.
  std::vector<int> labels;
  for (const LabelledText& e : examples()) labels.push_back(e.label);
  const std::vector<bool> held = stratified_holdout(labels, 0.25f, 3);
  for (const auto* part : {&s.train, &s.test}) {
    for (std::size_t i = 0; i < part->size(); ++i) {
      CHECK(held[static_cast<std::size_t>(index_of((*part)[i]))] == (part == &s.test));
      if (i > 0) CHECK(index_of((*part)[i - 1]) < index_of((*part)[i]));
    }
  }
  CHECK_THROWS_WITH_AS(hold_out(examples(), -0.1f, 3), doctest::Contains("hold_out: the test share must be in [0, 1)"),
                       std::invalid_argument);
}
