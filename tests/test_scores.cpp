#include <doctest/doctest.h>

#include <cmath>

#include "attn/attention/scores.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;
using attn::test::vector;

namespace {
// The course's running example: decoder hidden state and four annotations.
const Tensor1 kDecoder = vector({5, 1, 20});
const Tensor2 kAnnotations = matrix({{3, 12, 45}, {59, 2, 5}, {1, 43, 5}, {4, 3, 45.3f}});
}  // namespace

TEST_CASE("scores.dot_known_answer") {
  // 5·3 + 1·12 + 20·45 = 927; 5·59 + 2 + 100 = 397; 5 + 43 + 100 = 148; 20 + 3 + 906 = 929.
  check_close(scores(ScoreKind::dot, kDecoder, kAnnotations), {4}, {927, 397, 148, 929}, 1e-3f);
}

TEST_CASE("scores.dot_batched_matches_single") {
  const Tensor2 queries = matrix({{5, 1, 20}, {1, 0, 0}});
  // Second query picks the first component of each annotation: 3, 59, 1, 4.
  check_close(dot_scores(queries, kAnnotations), {2, 4}, {927, 397, 148, 929, 3, 59, 1, 4}, 1e-3f);
}

TEST_CASE("scores.scaled_dot_divides_by_sqrt_dk") {
  // d_k = 4: [1,2,3,4]·[1,1,1,1] = 10 -> 10/2 = 5; [1,2,3,4]·[0,0,0,2] = 8 -> 4.
  const Tensor2 q = matrix({{1, 2, 3, 4}});
  const Tensor2 k = matrix({{1, 1, 1, 1}, {0, 0, 0, 2}});
  check_close(scaled_dot_scores(q, k), {1, 2}, {5, 4});
}

TEST_CASE("scores.general_is_s_W_h") {
  // W = [[1, 0], [2, 1]], s = [1, 2]: sᵀW = [1·1 + 2·2, 1·0 + 2·1] = [5, 2].
  // h1 = [1, 1] -> 7; h2 = [0, 3] -> 6; h3 = [-1, 2] -> -1.
  ScoreParams p;
  p.w = matrix({{1, 0}, {2, 1}});
  check_close(scores(ScoreKind::general, vector({1, 2}), matrix({{1, 1}, {0, 3}, {-1, 2}}), p), {3}, {7, 6, -1});
}

TEST_CASE("scores.general_allows_different_query_and_key_sizes") {
  // Ds = 1, Dh = 2: W = [[2, 3]], s = [1] -> sᵀW = [2, 3]; h = [1, 1] -> 5, h = [1, 0] -> 2.
  ScoreParams p;
  p.w = matrix({{2, 3}});
  check_close(scores(ScoreKind::general, vector({1}), matrix({{1, 1}, {1, 0}}), p), {2}, {5, 2});
}

TEST_CASE("scores.additive_is_bahdanau") {
  // A = 2. W1 s = [[1, 0], [0, 1]]·[1, 2] = [1, 2]. W2 h: W2 = [[1, 0], [0, -1]].
  // h1 = [0, 2]: W2 h1 = [0, -2]; tanh([1, 0]) = [0.761594, 0]; v = [1, 2] -> 0.761594.
  // h2 = [1, 0]: W2 h2 = [1, 0];  tanh([2, 2]) = [0.964028, 0.964028] -> 0.964028·3 = 2.892083.
  ScoreParams p;
  p.w1 = matrix({{1, 0}, {0, 1}});
  p.w2 = matrix({{1, 0}, {0, -1}});
  p.v = vector({1, 2});
  check_close(scores(ScoreKind::additive, vector({1, 2}), matrix({{0, 2}, {1, 0}}), p), {2}, {0.761594f, 2.892083f});
}

TEST_CASE("scores.concat_equals_additive_with_split_weights") {
  // The same numbers as the additive case, with W = [W1 | W2].
  ScoreParams p;
  p.w = matrix({{1, 0, 1, 0}, {0, 1, 0, -1}});
  p.v = vector({1, 2});
  check_close(scores(ScoreKind::concat, vector({1, 2}), matrix({{0, 2}, {1, 0}}), p), {2}, {0.761594f, 2.892083f});
}

TEST_CASE("scores.location_ignores_keys") {
  // W s with W = [[1, 1], [0, 2], [3, 0]], s = [2, 1] -> [3, 2, 6]; keys only set T = 3.
  ScoreParams p;
  p.w = matrix({{1, 1}, {0, 2}, {3, 0}});
  const Tensor1 s = vector({2, 1});
  check_close(scores(ScoreKind::location, s, matrix({{9, 9}, {8, 8}, {7, 7}}), p), {3}, {3, 2, 6});
  check_close(scores(ScoreKind::location, s, matrix({{0, 0}, {0, 0}, {0, 0}}), p), {3}, {3, 2, 6});
}

TEST_CASE("scores.cosine") {
  // s = [1, 0]: h = [2, 0] -> 1; [0, 5] -> 0; [-3, 0] -> -1; [1, 1] -> 1/√2; zero vector -> 0.
  check_close(scores(ScoreKind::cosine, vector({1, 0}), matrix({{2, 0}, {0, 5}, {-3, 0}, {1, 1}, {0, 0}})), {5},
              {1, 0, -1, 0.70710678f, 0});
}

TEST_CASE("scores.shape_mismatch_throws_with_shapes_in_message") {
  const Tensor2 keys = matrix({{1, 2}, {3, 4}});
  CHECK_THROWS_WITH_AS(scores(ScoreKind::dot, vector({1, 2, 3}), keys),
                       "dot_scores: keys has shape [2, 2] but queries has shape [1, 3]; keys must be [T, 3]",
                       ShapeError);
  ScoreParams p;
  p.w = matrix({{1, 0, 0}});
  CHECK_THROWS_WITH_AS(scores(ScoreKind::general, vector({1, 2}), keys, p),
                       "general_scores: W has shape [1, 3]; expected [2, 2]", ShapeError);
  // A parameterised kind without its parameters names the missing one.
  CHECK_THROWS_AS(scores(ScoreKind::additive, vector({1, 2}), keys), ShapeError);
  CHECK_THROWS_AS(scores(ScoreKind::location, vector({1, 2}), keys), ShapeError);
  CHECK_THROWS_AS(scores(ScoreKind::dot, Tensor1(xt::zeros<float>({0})), keys), ShapeError);
}

TEST_CASE("scores.kind_names_round_trip") {
  for (ScoreKind kind : all_score_kinds()) CHECK(score_kind_from_name(score_kind_name(kind)) == kind);
  CHECK_THROWS_WITH_AS(score_kind_from_name("dott"),
                       "unknown scoring function 'dott'; valid: dot, scaled_dot, general, additive, "
                       "concat, location, cosine",
                       std::invalid_argument);
  CHECK(score_kind_has_parameters(ScoreKind::additive));
  CHECK_FALSE(score_kind_has_parameters(ScoreKind::scaled_dot));
}
