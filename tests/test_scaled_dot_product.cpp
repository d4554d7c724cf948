#include <doctest/doctest.h>

#include <cmath>

#include "attn/attention/masks.hpp"
#include "attn/attention/scaled_dot_product.hpp"
#include "attn/random.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;

TEST_CASE("scaled_dot_product.hand_computed") {
  // Q = [[1, 1]], K = [[1, 1], [-1, -1]]: Q Kᵀ / √2 = [√2, -√2]; softmax = [1/(1+e^{-2√2}), ...]
  // e^{-2.828427} = 0.059106 -> weights [0.944193, 0.055807].
  // V = [[10, 0], [0, 10]] -> output [9.44193, 0.55807].
  const AttentionResult r =
      scaled_dot_product_attention(matrix({{1, 1}}), matrix({{1, 1}, {-1, -1}}), matrix({{10, 0}, {0, 10}}));
  check_close(r.weights, {1, 2}, {0.944193f, 0.055807f}, 1e-5f);
  check_close(r.output, {1, 2}, {9.44193f, 0.55807f}, 1e-4f);
}

TEST_CASE("scaled_dot_product.causal_mask_shape_and_values") {
  check_close(causal_mask(3), {3, 3}, {1, 0, 0, 1, 1, 0, 1, 1, 1});
}

TEST_CASE("scaled_dot_product.causal_mask_blocks_the_future") {
  Rng rng(3);
  const Tensor2 x = random_uniform(rng, 4, 8, -1, 1);
  const Tensor2 v = random_uniform(rng, 4, 2, -1, 1);
  const AttentionResult r = scaled_dot_product_attention(x, x, v, causal_mask(4));
  for (std::size_t i = 0; i < 4; ++i) {
    float row = 0.f;
    for (std::size_t j = 0; j < 4; ++j) {
      if (j > i) CHECK(r.weights(i, j) == 0.f);
      row += r.weights(i, j);
    }
    CHECK(row == doctest::Approx(1.0).epsilon(1e-5));
  }
  // Query 0 sees only key 0, so its output is exactly V's first row.
  check_close(xt::eval(xt::view(r.output, 0, xt::all())), {2}, {v(0, 0), v(0, 1)}, 1e-6f);
  // Changing a future key and value leaves earlier outputs unchanged.
  Tensor2 x2 = x;
  Tensor2 v2 = v;
  xt::view(x2, 3, xt::all()) = 5.f;
  xt::view(v2, 3, xt::all()) = -9.f;
  const AttentionResult r2 = scaled_dot_product_attention(x2, x2, v2, causal_mask(4));
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 2; ++j) CHECK(r2.output(i, j) == doctest::Approx(r.output(i, j)));
  }
}

TEST_CASE("scaled_dot_product.padding_mask") {
  check_close(padding_mask(2, 3, 2), {2, 3}, {1, 1, 0, 1, 1, 0});
  Mask1 valid = {1, 0, 1};
  check_close(padding_mask(2, valid), {2, 3}, {1, 0, 1, 1, 0, 1});
  check_close(combine_masks(causal_mask(3), padding_mask(3, 3, 2)), {3, 3}, {1, 0, 0, 1, 1, 0, 1, 1, 0});
  CHECK_THROWS_AS(padding_mask(2, 3, 4), ShapeError);

  // Appending padded keys does not change the output of the real ones.
  Rng rng(11);
  const Tensor2 q = random_uniform(rng, 2, 4, -1, 1);
  const Tensor2 k = random_uniform(rng, 3, 4, -1, 1);
  const Tensor2 v = random_uniform(rng, 3, 5, -1, 1);
  const AttentionResult plain = scaled_dot_product_attention(q, k, v);
  const Tensor2 k_pad = xt::concatenate(xt::xtuple(k, random_uniform(rng, 2, 4, -3, 3)), 0);
  const Tensor2 v_pad = xt::concatenate(xt::xtuple(v, random_uniform(rng, 2, 5, -3, 3)), 0);
  const AttentionResult padded = scaled_dot_product_attention(q, k_pad, v_pad, padding_mask(2, 5, 3));
  CHECK(xt::allclose(plain.output, padded.output, 1e-5, 1e-6));
  CHECK(xt::allclose(plain.weights, xt::view(padded.weights, xt::all(), xt::range(0, 3)), 1e-5, 1e-6));
}

TEST_CASE("scaled_dot_product.fully_masked_query_gives_zero_output") {
  Mask2 mask = {{0, 0}, {1, 1}};
  const AttentionResult r =
      scaled_dot_product_attention(matrix({{1, 0}, {0, 1}}), matrix({{1, 0}, {0, 1}}), matrix({{3, 4}, {5, 6}}), mask);
  check_close(xt::eval(xt::view(r.output, 0, xt::all())), {2}, {0, 0});
  for (float x : r.output) CHECK_FALSE(std::isnan(x));
}

TEST_CASE("scaled_dot_product.multi_head_split_merge_round_trip") {
  Rng rng(5);
  const Tensor2 x = random_uniform(rng, 5, 12, -1, 1);
  const Tensor3 heads = split_heads(x, 3);
  CHECK(heads.shape() == std::array<std::size_t, 3>{3, 5, 4});
  CHECK(heads(1, 2, 3) == x(2, 1 * 4 + 3));
  CHECK(merge_heads(heads) == x);
  CHECK_THROWS_WITH_AS(split_heads(x, 5),
                       "split_heads: x has shape [5, 12]; its last axis (12) must be divisible by the "
                       "number of heads (5)",
                       ShapeError);
}

TEST_CASE("scaled_dot_product.multi_head_equals_per_head_single") {
  Rng rng(9);
  const Tensor3 q = split_heads(random_uniform(rng, 4, 8, -1, 1), 2);
  const Tensor3 k = split_heads(random_uniform(rng, 6, 8, -1, 1), 2);
  const Tensor3 v = split_heads(random_uniform(rng, 6, 8, -1, 1), 2);
  const Mask2 mask = padding_mask(4, 6, 5);
  const MultiHeadAttentionResult mh = scaled_dot_product_attention(q, k, v, &mask);
  for (std::size_t h = 0; h < 2; ++h) {
    const AttentionResult one = scaled_dot_product_attention(Tensor2(xt::view(q, h, xt::all(), xt::all())),
                                                             Tensor2(xt::view(k, h, xt::all(), xt::all())),
                                                             Tensor2(xt::view(v, h, xt::all(), xt::all())), mask);
    CHECK(xt::allclose(one.output, xt::view(mh.output, h, xt::all(), xt::all())));
    CHECK(xt::allclose(one.weights, xt::view(mh.weights, h, xt::all(), xt::all())));
  }
}

TEST_CASE("scaled_dot_product.shape_errors") {
  CHECK_THROWS_WITH_AS(scaled_dot_product_attention(matrix({{1, 2}}), matrix({{1, 2, 3}}), matrix({{1}})),
                       "scaled_dot_product_attention: Q has shape [1, 2] but K has shape [1, 3]; Q and K "
                       "must share d_k",
                       ShapeError);
  CHECK_THROWS_AS(scaled_dot_product_attention(matrix({{1, 2}}), matrix({{1, 2}}), matrix({{1}, {2}})), ShapeError);
  CHECK_THROWS_WITH_AS(scaled_dot_product_attention(matrix({{1, 2}}), matrix({{1, 2}}), matrix({{1}}), causal_mask(2)),
                       "scaled_dot_product_attention: mask has shape [2, 2]; expected [Tq, Tk] = [1, 1]", ShapeError);
}
