#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/data/splits.hpp"
#include "attn/io/byte_source.hpp"
#include "attn/train/classifier_trainer.hpp"
#include "support/archive_writer.hpp"
#include "support/grouped_split_fixture.hpp"

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

// ---- Grouped splits ------------------------------------------------------------------------

namespace {

// 120 examples in 23 groups of uneven size, both labels in most groups: the fixture the node test
// tests/js/grouped_splits.test.mjs builds again through the wasm module (same formulas).
void grouped_fixture(std::vector<int>& labels, std::vector<std::string>& groups) {
  labels.clear();
  groups.clear();
  for (int i = 0; i < 120; ++i) {
    labels.push_back((i * 7 + 3) % 5 < 2 ? 1 : 0);
    groups.push_back("m" + std::to_string((i * i + 3 * i) % 23));
  }
}

std::string flags_text(const std::vector<bool>& flags) {
  std::string s;
  for (const bool f : flags) s += f ? '1' : '0';
  return s;
}

std::string folds_text(const std::vector<std::size_t>& folds) {
  std::string s;
  for (const std::size_t f : folds) s += static_cast<char>('0' + f);
  return s;
}

// Each group's side (or fold) is the same for all its members.
template <typename T>
bool no_group_straddles(const std::vector<std::string>& groups, const std::vector<T>& side) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    for (std::size_t j = i + 1; j < groups.size(); ++j) {
      if (!groups[i].empty() && groups[i] == groups[j] && side[i] != side[j]) return false;
    }
  }
  return true;
}

// An aclImdb training-only archive: `movies` movies with `per_movie` reviews each, alternately
// positive and negative, and urls_pos.txt / urls_neg.txt naming each review's movie by its id.
Bytes aclimdb_with_movies(int movies, int per_movie, bool with_urls = true) {
  TarBuilder tar;
  std::string urls[2];
  int next_id[2] = {0, 0};
  for (int m = 0; m < movies; ++m) {
    for (int r = 0; r < per_movie; ++r) {
      const int label = (m + r) % 2;
      const int id = next_id[label]++;
      const std::string folder = label == 1 ? "pos" : "neg";
      tar.add("aclImdb/train/" + folder + "/" + std::to_string(id) + (label == 1 ? "_9.txt" : "_2.txt"),
              std::string(label == 1 ? "a fine film " : "a poor film ") + "movie" + std::to_string(m));
      urls[label] += "http://www.imdb.com/title/tt" + std::to_string(1000000 + m) + "/usercomments\n";
    }
  }
  if (with_urls) {
    tar.add("aclImdb/train/urls_neg.txt", urls[0]);
    tar.add("aclImdb/train/urls_pos.txt", urls[1]);
  }
  return gzip_fixed(tar.finish());
}

// The movie number a review's text names ("... movie<m>").
std::string movie_of(const LabelledText& e) { return e.text.substr(e.text.find("movie")); }

}  // namespace

TEST_CASE("splits.grouped_holdout_keeps_groups_whole_is_seeded_and_falls_back_bit_for_bit") {
  std::vector<int> labels;
  std::vector<std::string> groups;
  grouped_fixture(labels, groups);
  const std::vector<bool> held = grouped_holdout(labels, groups, 0.25f, 5);
  CHECK(no_group_straddles(groups, held));
  std::size_t count[2] = {0, 0}, total[2] = {0, 0};
  for (std::size_t i = 0; i < labels.size(); ++i) {
    ++total[labels[i]];
    if (held[i]) ++count[labels[i]];
  }
  // At most each class's target round(0.25 · n_c), and not far below it.
  for (int c = 0; c < 2; ++c) {
    const auto target = static_cast<std::size_t>(std::lround(0.25 * static_cast<double>(total[c])));
    CHECK(count[c] <= target);
    CHECK(count[c] + 6 >= target);
  }
  CHECK(grouped_holdout(labels, groups, 0.25f, 5) == held);
  CHECK(grouped_holdout(labels, groups, 0.25f, 6) != held);
  // The cross-runtime fixture: the wasm module gives these same flags (tests/js/grouped_splits.test.mjs).
  CHECK(flags_text(grouped_holdout(labels, groups, 0.2f, 7)) == kGroupedHoldoutSeed7);
  // No groups (none given, or all ""): exactly the stratified rule.
  CHECK(grouped_holdout(labels, {}, 0.25f, 5) == stratified_holdout(labels, 0.25f, 5));
  CHECK(grouped_holdout(labels, std::vector<std::string>(labels.size()), 0.25f, 5) ==
        stratified_holdout(labels, 0.25f, 5));
  CHECK_THROWS_WITH_AS(grouped_holdout(labels, {"a", "b"}, 0.25f, 5), "grouped_holdout: 2 groups for 120 labels",
                       std::invalid_argument);
  // One group larger than the share: still a hold-out of a whole group, never an empty one.
  const std::vector<int> four = {1, 0, 1, 0};
  const std::vector<bool> whole = grouped_holdout(four, {"a", "a", "b", "b"}, 0.25f, 1);
  CHECK(std::count(whole.begin(), whole.end(), true) == 2);
  CHECK(no_group_straddles<bool>({"a", "a", "b", "b"}, whole));
}

TEST_CASE("splits.grouped_folds_keep_groups_in_one_fold_and_balance_the_folds") {
  std::vector<int> labels;
  std::vector<std::string> groups;
  grouped_fixture(labels, groups);
  const std::vector<std::size_t> folds = grouped_folds(labels, groups, 4, 3);
  CHECK(no_group_straddles(groups, folds));
  std::size_t size[4] = {};
  for (const std::size_t f : folds) ++size[f];
  for (std::size_t f = 0; f < 4; ++f) CHECK_MESSAGE((size[f] >= 20 && size[f] <= 40), "fold " << f << ": " << size[f]);
  CHECK(grouped_folds(labels, groups, 4, 3) == folds);
  CHECK(grouped_folds(labels, groups, 4, 4) != folds);
  CHECK(folds_text(grouped_folds(labels, groups, 3, 2)) == kGroupedFoldsSeed2);
  CHECK(grouped_folds(labels, std::vector<std::string>(labels.size()), 4, 3) == stratified_folds(labels, 4, 3));
  CHECK_THROWS_WITH_AS(grouped_folds(labels, std::vector<std::string>(120, "same"), 2, 1),
                       "2 folds that keep each group in one fold need at least 2 groups; the data has 1",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(grouped_folds(labels, groups, 1, 1), "k-fold cross-validation needs at least 2 folds, got 1",
                       std::invalid_argument);
}

TEST_CASE("splits.aclimdb_urls_name_each_reviews_movie_and_the_hold_out_keeps_movies_whole") {
  const Bytes gz = aclimdb_with_movies(30, 5);
  MemorySource source(gz.data(), gz.size(), "aclImdb_train.tar.gz");
  const std::vector<LabelledText> all = load_aclimdb_archive(source, "train");
  REQUIRE(all.size() == 150);
  CHECK(group_count(all) == 30);
  for (const LabelledText& e : all) {
    // the group is the IMDb title id of the movie the review's text names
    CHECK(e.group == "tt" + std::to_string(1000000 + std::stoi(movie_of(e).substr(5))));
  }
  const ReviewSplit s = load_review_bytes_split("aclImdb_train.tar.gz", gz.data(), gz.size(), 0.2f, 3);
  REQUIRE(s.held_out);
  CHECK(s.test.size() <= 30);
  CHECK(s.test.size() >= 20);
  std::set<std::string> test_movies;
  for (const LabelledText& e : s.test) test_movies.insert(movie_of(e));
  for (const LabelledText& e : s.train) CHECK_MESSAGE(test_movies.count(movie_of(e)) == 0, movie_of(e));
  CHECK(split_rule(s.train) == SplitRule::by_group);

  // by_group = false, and an archive without urls files: the stratified split, bit for bit.
  const ReviewSplit random =
      load_review_bytes_split("aclImdb_train.tar.gz", gz.data(), gz.size(), 0.2f, 3, {}, {}, true, false);
  const Bytes plain = aclimdb_with_movies(30, 5, false);
  const ReviewSplit no_urls = load_review_bytes_split("aclImdb_train.tar.gz", plain.data(), plain.size(), 0.2f, 3);
  CHECK(split_rule(random.train) == SplitRule::random);
  CHECK(split_rule(no_urls.train) == SplitRule::random);
  REQUIRE(random.test.size() == no_urls.test.size());
  for (std::size_t i = 0; i < random.test.size(); ++i) CHECK(random.test[i].origin == no_urls.test[i].origin);
  CHECK(random.test.size() == 30);  // round(0.2 · 75) per class
}

TEST_CASE("splits.a_damaged_urls_file_is_refused_with_its_name") {
  TarBuilder tar;
  tar.add("aclImdb/train/pos/0_9.txt", "good");
  tar.add("aclImdb/train/pos/5_9.txt", "good again");
  tar.add("aclImdb/train/neg/0_1.txt", "bad");
  tar.add("aclImdb/train/urls_pos.txt", "http://www.imdb.com/title/tt01/usercomments\n");
  const Bytes gz = gzip_fixed(tar.finish());
  MemorySource source(gz.data(), gz.size(), "cut.tar.gz");
  CHECK_THROWS_WITH_AS(load_aclimdb_archive(source, "train"),
                       doctest::Contains("cut.tar.gz:aclImdb/train/urls_pos.txt: has no movie for "
                                         "cut.tar.gz:aclImdb/train/pos/5_9.txt (line 5 of 1)"),
                       DataError);
}

TEST_CASE("splits.csv_and_tsv_group_columns_split_by_group") {
  std::string csv = "review,sentiment,group\n", tsv = "sentence\tlabel\tgroup\n", plain_csv = "review,sentiment\n";
  for (int i = 0; i < 60; ++i) {
    const std::string text = (i % 2 ? "nice " : "awful ") + std::to_string(i);
    const std::string label = i % 2 ? "positive" : "negative";
    const std::string group = "g" + std::to_string(i % 12);
    csv += text + "," + label + "," + group + "\n";
    tsv += text + "\t" + label + "\t" + group + "\n";
    plain_csv += text + "," + label + "\n";
  }
  const auto bytes = [](const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); };
  for (const auto& file : {std::pair<std::string, std::string>{"r.csv", csv}, {"r.tsv", tsv}}) {
    // Plain names, not a structured binding: CAPTURE's lambda may not capture one before C++20 (clang).
    const std::string& name = file.first;
    const std::string& text = file.second;
    CAPTURE(name);
    const ReviewSplit s = load_review_bytes_split(name, bytes(text), text.size(), 0.25f, 4);
    CHECK(group_count(s.train) + group_count(s.test) == 12);
    std::set<std::string> test_groups;
    for (const LabelledText& e : s.test) test_groups.insert(e.group);
    CHECK_FALSE(test_groups.empty());
    for (const LabelledText& e : s.train) CHECK(test_groups.count(e.group) == 0);
  }
  // The same rows without the group column split exactly as before.
  const ReviewSplit plain = load_review_bytes_split("p.csv", bytes(plain_csv), plain_csv.size(), 0.25f, 4);
  std::vector<int> labels;
  for (int i = 0; i < 60; ++i) labels.push_back(i % 2);
  const std::vector<bool> expected = stratified_holdout(labels, 0.25f, 4);
  std::size_t t = 0;
  for (std::size_t i = 0; i < 60; ++i) {
    if (!expected[i]) continue;
    REQUIRE(t < plain.test.size());
    CHECK(plain.test[t++].origin == "p.csv:" + std::to_string(i + 2));
  }
  CHECK(t == plain.test.size());
  const std::string short_row = "sentence\tlabel\tgroup\nfine\tpositive\n";
  CHECK_THROWS_WITH_AS(load_review_bytes_split("s.tsv", bytes(short_row), short_row.size(), 0.25f, 4),
                       doctest::Contains("s.tsv:2: expected 3 tab-separated fields (as the header), found 2"),
                       DataError);
}

TEST_CASE("splits.the_trainers_validation_split_keeps_groups_whole") {
  EncodedDataset data;
  std::vector<int> labels;
  std::vector<std::string> groups;
  grouped_fixture(labels, groups);
  for (std::size_t i = 0; i < labels.size(); ++i) data.sequences.push_back({static_cast<std::int32_t>(i)});
  data.labels = labels;
  data.groups = groups;
  const auto [train, validation] = stratified_split(data, 0.2f, 7);
  const std::vector<bool> held = grouped_holdout(labels, groups, 0.2f, 7);
  REQUIRE(validation.size() == static_cast<std::size_t>(std::count(held.begin(), held.end(), true)));
  std::set<std::string> validation_groups(validation.groups.begin(), validation.groups.end());
  for (const std::string& g : train.groups) CHECK(validation_groups.count(g) == 0);
  // Without groups: the stratified rule as before.
  data.groups.clear();
  const auto [plain_train, plain_validation] = stratified_split(data, 0.2f, 7);
  const std::vector<bool> stratified = stratified_holdout(labels, 0.2f, 7);
  CHECK(plain_validation.size() == static_cast<std::size_t>(std::count(stratified.begin(), stratified.end(), true)));
  CHECK(plain_validation.groups.empty());
}
