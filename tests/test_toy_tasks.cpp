#include <doctest/doctest.h>

#include <algorithm>

#include "attn/data/toy_tasks.hpp"

using namespace attn;

TEST_CASE("toy_tasks.contains_token_is_balanced_and_marks_the_target") {
  const SequenceDataset d = make_contains_token_task(200, 3, 9, 20, 7, 5);
  REQUIRE(d.size() == 200);
  std::size_t positives = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto& seq = d.tokens[i];
    CHECK(seq.size() >= 3);
    CHECK(seq.size() <= 9);
    const auto sevens = std::count(seq.begin(), seq.end(), 7);
    CHECK(sevens == (d.labels[i] > 0.5f ? 1 : 0));
    for (std::size_t t = 0; t < seq.size(); ++t) {
      CHECK(seq[t] >= 4);
      CHECK(seq[t] < 20);
      CHECK(d.decisive[i][t] == (seq[t] == 7 ? 1 : 0));
    }
    positives += d.labels[i] > 0.5f ? 1 : 0;
  }
  CHECK(positives == 100);
}

TEST_CASE("toy_tasks.first_of_two_labels_follow_the_order") {
  const SequenceDataset d = make_first_of_two_task(100, 2, 8, 16, 5, 6, 3);
  for (std::size_t i = 0; i < d.size(); ++i) {
    const auto& seq = d.tokens[i];
    const auto a = std::find(seq.begin(), seq.end(), 5) - seq.begin();
    const auto b = std::find(seq.begin(), seq.end(), 6) - seq.begin();
    REQUIRE(a < static_cast<long>(seq.size()));
    REQUIRE(b < static_cast<long>(seq.size()));
    CHECK((d.labels[i] > 0.5f) == (a < b));
  }
}

TEST_CASE("toy_tasks.same_seed_same_data") {
  const SequenceDataset a = make_contains_token_task(50, 3, 9, 20, 7, 11);
  const SequenceDataset b = make_contains_token_task(50, 3, 9, 20, 7, 11);
  const SequenceDataset c = make_contains_token_task(50, 3, 9, 20, 7, 12);
  CHECK(a.tokens == b.tokens);
  CHECK(a.tokens != c.tokens);
}

TEST_CASE("toy_tasks.make_batch_pads_pre_and_post") {
  SequenceDataset d;
  d.tokens = {{4, 5, 6}, {7}};
  d.labels = {1.f, 0.f};
  d.decisive = {{0, 0, 0}, {1}};
  const std::size_t indices[] = {0, 1};
  ClassifierBatch post, pre;
  make_batch(d, indices, 2, Padding::post, post);
  make_batch(d, indices, 2, Padding::pre, pre);
  CHECK(post.ids == TokenIds{{4, 5, 6}, {7, 0, 0}});
  CHECK(post.mask == Mask2{{1, 1, 1}, {1, 0, 0}});
  CHECK(pre.ids == TokenIds{{4, 5, 6}, {0, 0, 7}});
  CHECK(pre.mask == Mask2{{1, 1, 1}, {0, 0, 1}});
  CHECK(pre.labels(0) == 1.f);
  const std::size_t bad[] = {2};
  CHECK_THROWS_WITH_AS(make_batch(d, bad, 1, Padding::post, pre), "make_batch: index 2 is out of range for 2 examples",
                       ShapeError);
}

TEST_CASE("toy_tasks.bad_arguments") {
  CHECK_THROWS_AS(make_contains_token_task(0, 3, 9, 20, 7, 1), std::invalid_argument);
  CHECK_THROWS_AS(make_contains_token_task(10, 9, 3, 20, 7, 1), std::invalid_argument);
  CHECK_THROWS_AS(make_contains_token_task(10, 3, 9, 20, 2, 1), std::invalid_argument);
  CHECK_THROWS_AS(make_first_of_two_task(10, 1, 9, 20, 5, 6, 1), std::invalid_argument);
  CHECK_THROWS_AS(make_first_of_two_task(10, 2, 9, 20, 5, 5, 1), std::invalid_argument);
}
