#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/data/splits.hpp"
#include "support/archive_writer.hpp"

using namespace attn;
using test_archive::Bytes;
using test_archive::gzip_fixed;
using test_archive::TarBuilder;

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

// An aclImdb archive with `train` reviews per class and `test` reviews per class.
Bytes aclimdb(int train, int test) {
  TarBuilder tar;
  for (int i = 0; i < train; ++i) {
    tar.add("aclImdb/train/pos/" + std::to_string(i) + "_9.txt", "a great film " + std::to_string(i));
    tar.add("aclImdb/train/neg/" + std::to_string(i) + "_1.txt", "a dull film " + std::to_string(i));
  }
  for (int i = 0; i < test; ++i) {
    tar.add("aclImdb/test/pos/" + std::to_string(i) + "_8.txt", "lovely " + std::to_string(i));
    tar.add("aclImdb/test/neg/" + std::to_string(i) + "_2.txt", "boring " + std::to_string(i));
  }
  tar.add("aclImdb/imdb.vocab", "film\n");
  return gzip_fixed(tar.finish());
}

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

TEST_CASE("splits.load_review_bytes_split_uses_the_test_half_else_holds_out") {
  SUBCASE("an archive with a test half: its halves") {
    const Bytes gz = aclimdb(4, 3);
    const ReviewSplit s = load_review_bytes_split("imdb.tar.gz", gz.data(), gz.size(), 0.25f, 1);
    CHECK_FALSE(s.held_out);
    CHECK(s.source_has_test);
    CHECK(s.train.size() == 8);
    CHECK(s.test.size() == 6);
    CHECK(s.test[0].origin.find("aclImdb/test/") != std::string::npos);
  }
  SUBCASE("an archive with a test half, asked for a hold-out: held out of its training half") {
    const Bytes gz = aclimdb(4, 3);
    const ReviewSplit s = load_review_bytes_split("imdb.tar.gz", gz.data(), gz.size(), 0.25f, 1, {}, {}, false);
    CHECK(s.held_out);
    CHECK(s.source_has_test);
    CHECK(s.train.size() == 6);
    REQUIRE(s.test.size() == 2);
    CHECK(positives(s.test) == 1);
    for (const LabelledText& e : s.test) CHECK(e.origin.find("aclImdb/train/") != std::string::npos);
  }
  SUBCASE("a training-only archive: a stratified, seeded hold-out") {
    const Bytes gz = aclimdb(10, 0);
    const ReviewSplit s = load_review_bytes_split("aclImdb_train.tar.gz", gz.data(), gz.size(), 0.2f, 5);
    CHECK(s.held_out);
    CHECK_FALSE(s.source_has_test);
    CHECK(s.train.size() == 16);
    CHECK(s.test.size() == 4);
    CHECK(positives(s.test) == 2);
    const ReviewSplit again = load_review_bytes_split("aclImdb_train.tar.gz", gz.data(), gz.size(), 0.2f, 5);
    REQUIRE(again.test.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) CHECK(again.test[i].origin == s.test[i].origin);
  }
  SUBCASE("a CSV: held out; a one-class file and a bad share are refused") {
    std::string csv = "review,sentiment\n";
    for (int i = 0; i < 10; ++i)
      csv += "good " + std::to_string(i) + ",positive\nbad " + std::to_string(i) + ",negative\n";
    const ReviewSplit s =
        load_review_bytes_split("r.csv", reinterpret_cast<const std::uint8_t*>(csv.data()), csv.size(), 0.3f, 2);
    CHECK(s.held_out);
    CHECK(s.test.size() == 6);
    CHECK(positives(s.test) == 3);
    const std::string one = "review,sentiment\ngood,positive\nfine,positive\n";
    CHECK_THROWS_AS(
        load_review_bytes_split("one.csv", reinterpret_cast<const std::uint8_t*>(one.data()), one.size(), 0.3f, 2),
        DataError);
    CHECK_THROWS_WITH_AS(
        load_review_bytes_split("r.csv", reinterpret_cast<const std::uint8_t*>(csv.data()), csv.size(), 1.f, 2),
        "the test share must be in [0, 1), got 1.000000", std::invalid_argument);
  }
  SUBCASE("an archive without training reviews is still an error") {
    const Bytes gz = aclimdb(0, 2);
    CHECK_THROWS_WITH_AS(load_review_bytes_split("t.tar.gz", gz.data(), gz.size(), 0.2f, 1),
                         doctest::Contains("no reviews found: expected files like aclImdb/train/pos/*.txt"), DataError);
  }
}

TEST_CASE("splits.stratified_folds_are_disjoint_cover_every_example_once_and_keep_class_shares") {
  const std::vector<LabelledText> corpus = builtin_split(false);  // 528 reviews, 264 per class
  std::vector<int> labels;
  for (const LabelledText& e : corpus) labels.push_back(e.label);
  const std::size_t k = 3;
  const std::vector<std::size_t> folds = stratified_folds(labels, k, 1);
  REQUIRE(folds.size() == corpus.size());
  std::size_t per_class[3][2] = {};
  for (std::size_t i = 0; i < folds.size(); ++i) {
    REQUIRE(folds[i] < k);  // every example in exactly one fold
    ++per_class[folds[i]][labels[i]];
  }
  for (std::size_t f = 0; f < k; ++f) {
    CHECK(per_class[f][0] == 88);  // 264 / 3 of each class in every fold
    CHECK(per_class[f][1] == 88);
  }
  // The test folds of fold_split are disjoint and together are the whole corpus, in order.
  std::vector<int> seen(corpus.size(), 0);
  for (std::size_t f = 0; f < k; ++f) {
    const TrainTestSplit s = fold_split(corpus, folds, f);
    CHECK(s.train.size() + s.test.size() == corpus.size());
    std::size_t at = 0;
    for (const LabelledText& e : s.test) {
      while (at < corpus.size() && !(folds[at] == f && corpus[at].text == e.text)) ++at;
      REQUIRE(at < corpus.size());  // found after the previous one: original order kept
      ++seen[at++];
    }
  }
  CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(corpus.size()));
  CHECK(stratified_folds(labels, k, 1) == folds);  // same seed, same folds
  CHECK(stratified_folds(labels, k, 2) != folds);  // another seed, other folds
}

TEST_CASE("splits.stratified_folds_with_uneven_classes_and_bad_k") {
  std::vector<int> labels;
  for (const LabelledText& e : examples()) labels.push_back(e.label);  // 30 positive, 10 negative
  const std::vector<std::size_t> folds = stratified_folds(labels, 4, 9);
  std::size_t size[4] = {}, neg[4] = {};
  for (std::size_t i = 0; i < folds.size(); ++i) {
    ++size[folds[i]];
    neg[folds[i]] += labels[i] == 0;
  }
  for (std::size_t f = 0; f < 4; ++f) {
    CHECK(size[f] == 10);                 // sizes differ by at most one (here all equal)
    CHECK((neg[f] == 2 || neg[f] == 3));  // floor or ceil of 10 / 4 negatives
  }
  CHECK(stratified_folds(labels, 10, 1).size() == 40);  // k = the smaller class: one negative per fold
  CHECK_THROWS_WITH_AS(stratified_folds(labels, 1, 1), "k-fold cross-validation needs at least 2 folds, got 1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(stratified_folds(labels, 11, 1),
                       "11 folds need at least 11 examples of each class; class 0 has 10", std::invalid_argument);
  CHECK_THROWS_AS(fold_split(examples(), std::vector<std::size_t>(3, 0), 0), std::invalid_argument);
}

TEST_CASE("splits.sentence_files_are_held_out_like_a_csv") {
  std::string pos, neg;
  for (int i = 0; i < 10; ++i) {
    pos += "good " + std::to_string(i) + "\n";
    neg += "bad " + std::to_string(i) + "\n";
  }
  const auto bytes = [](const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); };
  const ReviewSplit s =
      load_sentence_bytes_split({"rt.pos", bytes(pos), pos.size()}, {"rt.neg", bytes(neg), neg.size()}, 0.3f, 2);
  CHECK(s.held_out);
  CHECK_FALSE(s.source_has_test);
  CHECK(s.train.size() == 14);
  REQUIRE(s.test.size() == 6);
  CHECK(positives(s.test) == 3);
  // The same rule as a CSV holding the same reviews in the same order: the same examples held out.
  std::string csv = "review,sentiment\n";
  for (int i = 0; i < 10; ++i) csv += "good " + std::to_string(i) + ",positive\n";
  for (int i = 0; i < 10; ++i) csv += "bad " + std::to_string(i) + ",negative\n";
  const ReviewSplit c = load_review_bytes_split("r.csv", bytes(csv), csv.size(), 0.3f, 2);
  REQUIRE(c.test.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(c.test[i].text == s.test[i].text);
  CHECK_THROWS_WITH_AS(
      load_sentence_bytes_split({"rt.pos", bytes(pos), pos.size()}, {"rt.neg", bytes(neg), 0}, 0.3f, 2),
      "rt.neg: the file is empty; expected one negative sentence per line", DataError);
  CHECK_THROWS_AS(
      load_sentence_bytes_split({"rt.pos", bytes(pos), pos.size()}, {"rt.neg", bytes(neg), neg.size()}, 1.f, 2),
      std::invalid_argument);
}
