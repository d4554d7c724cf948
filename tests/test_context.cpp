#include <doctest/doctest.h>

#include "attn/attention/attend.hpp"
#include "attn/attention/context.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;
using attn::test::vector;

namespace {
const Tensor1 kDecoder = vector({5, 1, 20});
const Tensor2 kAnnotations = matrix({{3, 12, 45}, {59, 2, 5}, {1, 43, 5}, {4, 3, 45.3f}});
}  // namespace

TEST_CASE("context.known_answer_from_course") {
  // 0.119203·[3, 12, 45] + 0.880797·[4, 3, 45.3] = [3.880797, 4.072827, 45.264241].
  const AttendResult r = attend(ScoreKind::dot, kDecoder, kAnnotations);
  check_close(r.scores, {4}, {927, 397, 148, 929}, 1e-3f);
  check_close(r.weights, {4}, {0.119203f, 0, 0, 0.880797f}, 1e-6f);
  check_close(r.context, {3}, {3.880797f, 4.072827f, 45.264241f}, 1e-4f);
  // Weighted annotations are the rows before the sum.
  check_close(xt::eval(xt::view(r.weighted, 0, xt::all())), {3}, {0.357609f, 1.430436f, 5.364135f}, 1e-4f);
  check_close(xt::eval(xt::sum(r.weighted, {0})), {3}, {3.880797f, 4.072827f, 45.264241f}, 1e-4f);
}

TEST_CASE("context.batched_context_vectors") {
  // Two queries' weights over two annotations [1, 0] and [0, 2].
  const Tensor2 w = matrix({{0.25f, 0.75f}, {1, 0}});
  check_close(context_vectors(w, matrix({{1, 0}, {0, 2}})), {2, 2}, {0.25f, 1.5f, 1, 0});
}

TEST_CASE("context.one_annotation_gets_all_the_weight") {
  const AttendResult r = attend(ScoreKind::scaled_dot, vector({1, 2}), matrix({{-7, 3}}));
  check_close(r.weights, {1}, {1});
  check_close(r.context, {2}, {-7, 3});
}

TEST_CASE("context.masked_annotation_does_not_contribute") {
  Mask1 mask = {1, 1, 1, 0};  // hide the winning annotation: the first one takes all the weight
  const AttendResult r = attend(ScoreKind::dot, kDecoder, kAnnotations, {}, 1.f, &mask);
  check_close(r.weights, {4}, {1, 0, 0, 0}, 1e-6f);
  check_close(r.context, {3}, {3, 12, 45}, 1e-4f);
}

TEST_CASE("context.shape_mismatch_throws") {
  CHECK_THROWS_WITH_AS(context_vector(vector({0.5f, 0.5f}), kAnnotations),
                       "context_vector: weights has shape [2] but annotations has shape [4, 3]; need one "
                       "weight per annotation",
                       ShapeError);
  Mask1 mask = {1, 1};
  CHECK_THROWS_AS(attend(ScoreKind::dot, kDecoder, kAnnotations, {}, 1.f, &mask), ShapeError);
}

TEST_CASE("context.init_score_params_shapes_and_determinism") {
  const ScoreParams a = init_score_params(ScoreKind::additive, 3, 4, 5, 6, 42);
  CHECK(a.w1.shape() == std::array<std::size_t, 2>{6, 3});
  CHECK(a.w2.shape() == std::array<std::size_t, 2>{6, 4});
  CHECK(a.v.shape(0) == 6);
  const ScoreParams b = init_score_params(ScoreKind::additive, 3, 4, 5, 6, 42);
  CHECK(a.w1 == b.w1);
  CHECK(init_score_params(ScoreKind::location, 3, 4, 5, 6, 1).w.shape() == std::array<std::size_t, 2>{5, 3});
  CHECK(init_score_params(ScoreKind::concat, 3, 4, 5, 6, 1).w.shape() == std::array<std::size_t, 2>{6, 7});
  // Every kind works end to end with its initialised parameters.
  for (ScoreKind kind : all_score_kinds()) {
    const std::size_t ds = (kind == ScoreKind::general || kind == ScoreKind::additive || kind == ScoreKind::concat ||
                            kind == ScoreKind::location)
                               ? 2
                               : 3;
    Tensor1 query = xt::ones<float>({ds});
    const AttendResult r = attend(kind, query, kAnnotations, init_score_params(kind, ds, 3, 4, 5, 7));
    CHECK(xt::sum(r.weights)() == doctest::Approx(1.0));
  }
}
