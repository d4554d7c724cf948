#include <doctest/doctest.h>

#include <algorithm>

#include "attn/layers/embedding.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

namespace {

TokenIds token_ids(std::initializer_list<std::initializer_list<std::int32_t>> rows) {
  TokenIds ids = xt::zeros<std::int32_t>({rows.size(), rows.begin()->size()});
  std::size_t b = 0;
  for (const auto& row : rows) {
    std::size_t t = 0;
    for (std::int32_t id : row) ids(b, t++) = id;
    ++b;
  }
  return ids;
}

// Overwrites the table with 0..: row v = [2v − 1, 2v] except the padding row 0 (kept at zero).
void set_table(Embedding& layer) {
  ParameterList params;
  layer.parameters(params, "");
  for (std::size_t v = 1; v < layer.vocab_size(); ++v) {
    params[0].value[v * 2] = static_cast<float>(2 * v - 1);
    params[0].value[v * 2 + 1] = static_cast<float>(2 * v);
  }
}

}  // namespace

TEST_CASE("embedding.forward_looks_up_rows") {
  Rng rng(1);
  Embedding layer(4, 2, rng);
  set_table(layer);  // rows: 0 -> [0, 0] (padding), 1 -> [1, 2], 2 -> [3, 4], 3 -> [5, 6]
  Tensor3 y;
  EmbeddingCache cache;
  layer.forward(token_ids({{1, 3}, {0, 2}}), y, cache);
  // [[row 1, row 3], [row 0, row 2]]
  check_close(y, {2, 2, 2}, {1, 2, 5, 6, 0, 0, 3, 4}, 0.f);
}

TEST_CASE("embedding.init_is_small_uniform_with_zero_padding_row") {
  Rng rng(2);
  Embedding layer(50, 8, rng);
  ParameterList params;
  layer.parameters(params, "emb.");
  REQUIRE(params.size() == 1);
  CHECK(params[0].name == "emb.weight");
  CHECK(params[0].shape == std::vector<std::size_t>{50, 8});
  for (std::size_t j = 0; j < 8; ++j) CHECK(layer.weight()(0, j) == 0.f);
  float lo = 1.f, hi = -1.f;
  for (std::size_t i = 8; i < 400; ++i) {
    lo = std::min(lo, layer.weight().data()[i]);
    hi = std::max(hi, layer.weight().data()[i]);
  }
  CHECK(lo >= -0.05f);
  CHECK(hi < 0.05f);
  CHECK(lo < -0.04f);  // 392 draws fill most of the range
  CHECK(hi > 0.04f);

  Rng rng2(2);
  Embedding unpadded(50, 8, rng2, -1);
  CHECK(unpadded.weight()(0, 0) != 0.f);
  // Same seed, same draws: only the padding row differs.
  CHECK(unpadded.weight()(1, 3) == layer.weight()(1, 3));
}

TEST_CASE("embedding.backward_scatter_adds_repeated_ids") {
  Rng rng(3);
  Embedding layer(4, 2, rng);
  Tensor3 y;
  EmbeddingCache cache;
  layer.forward(token_ids({{2, 2, 1}}), y, cache);
  Tensor3 dy = {{{1, 10}, {2, 20}, {4, 40}}};
  layer.backward(dy, cache);
  // Row 2 is used twice: [1 + 2, 10 + 20]; row 1 once: [4, 40]; rows 0 and 3 untouched.
  check_close(layer.weight_grad(), {4, 2}, {0, 0, 4, 40, 3, 30, 0, 0}, 0.f);
  // A second backward accumulates.
  layer.backward(dy, cache);
  check_close(layer.weight_grad(), {4, 2}, {0, 0, 8, 80, 6, 60, 0, 0}, 0.f);
}

TEST_CASE("embedding.padding_row_stays_exactly_zero") {
  Rng rng(4);
  Embedding layer(6, 3, rng, 2);
  Tensor3 y;
  EmbeddingCache cache;
  const TokenIds ids = token_ids({{2, 2, 5, 1}, {3, 2, 2, 2}});
  layer.forward(ids, y, cache);
  for (std::size_t j = 0; j < 3; ++j) CHECK(y(0, 0, j) == 0.f);
  const Tensor3 dy = attn::test::probe_weights(y, 9);
  layer.backward(dy, cache);
  for (std::size_t j = 0; j < 3; ++j) {
    CHECK(layer.weight_grad()(2, j) == 0.f);
    CHECK(layer.weight()(2, j) == 0.f);
  }
  // The other rows did receive gradient: row 5 is dy[0, 2].
  CHECK(layer.weight_grad()(5, 0) == dy(0, 2, 0));
}

TEST_CASE("embedding.gradient_check") {
  // Tolerances: step 1e-2, rel 2e-2, abs 2e-3 (the defaults); y is linear in the weights, so
  // only float32 rounding of the loss separates analytic from numeric.
  const attn::test::GradCheckOptions opt;
  for (std::int32_t padding : {-1, 0}) {
    CAPTURE(padding);
    Rng rng(5);
    Embedding layer(5, 3, rng, padding);
    const TokenIds ids = token_ids({{1, 4, 0, 1}, {0, 3, 3, 2}});
    Tensor3 y;
    EmbeddingCache cache;
    layer.forward(ids, y, cache);
    const Tensor3 r = attn::test::probe_weights(y, 11);
    ParameterList params;
    layer.parameters(params, "");
    zero_grads(params);
    layer.backward(r, cache);
    auto loss = [&] {
      Tensor3 out;
      EmbeddingCache c;
      layer.forward(ids, out, c);
      return attn::test::probe_loss(out, r);
    };
    // Forward still reads the padding row, so the loss depends on it numerically; the layer
    // deliberately withholds that gradient, so those entries are skipped (and checked == 0 above).
    attn::test::check_gradient("weight", params[0].value, params[0].grad, params[0].size, loss, opt,
                               [&](std::size_t i) { return padding >= 0 && i / 3 == std::size_t(padding); });
  }
}

TEST_CASE("embedding.rejects_bad_ids_and_shapes") {
  Rng rng(6);
  Embedding layer(4, 2, rng);
  Tensor3 y;
  EmbeddingCache cache;
  CHECK_THROWS_WITH_AS(layer.forward(token_ids({{1, 2}, {4, 0}}), y, cache),
                       "Embedding: id 4 at position [1, 0] is outside [0, 4)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(layer.forward(token_ids({{1, -3}}), y, cache),
                       "Embedding: id -3 at position [0, 1] is outside [0, 4)", std::invalid_argument);
  CHECK(y.size() == 0);  // nothing was written
  CHECK_THROWS_WITH_AS(Embedding(4, 2, rng, 4), "Embedding: padding_index 4 must be in [0, 4) or -1 for none",
                       std::invalid_argument);
  CHECK_THROWS_AS(Embedding(0, 2, rng), std::invalid_argument);

  layer.forward(token_ids({{1, 2, 3}}), y, cache);
  Tensor3 dy = xt::zeros<float>({1, 2, 2});
  CHECK_THROWS_WITH_AS(layer.backward(dy, cache),
                       "Embedding::backward: dy has shape [1, 2, 2] but the cached ids are [1, 3]; "
                       "dy must be [1, 3, 2]",
                       ShapeError);
}
