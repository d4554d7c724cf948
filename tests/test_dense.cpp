#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "attn/layers/dense.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::matrix;

namespace {

Tensor3 random_tensor3(Rng& rng, std::size_t b, std::size_t t, std::size_t d) {
  Tensor3 x = xt::empty<float>({b, t, d});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  return x;
}

void set_values(const Parameter& p, std::initializer_list<float> values) {
  REQUIRE(values.size() == p.size);
  std::copy(values.begin(), values.end(), p.value);
}

}  // namespace

TEST_CASE("dense.forward_hand_computed") {
  Rng rng(1);
  Dense layer(2, 3, rng);
  ParameterList params;
  layer.parameters(params, "fc.");
  REQUIRE(params.size() == 2);
  CHECK(params[0].name == "fc.w");
  CHECK(params[1].name == "fc.b");
  set_values(params[0], {1, 2, 3, 4, 5, 6});  // W = [[1, 2, 3], [4, 5, 6]]
  set_values(params[1], {0.5f, -1, 0});
  Tensor2 y;
  DenseCache cache;
  layer.forward(matrix({{1, 1}, {2, -1}}), y, cache);
  // [1, 1] · W = [1 + 4, 2 + 5, 3 + 6] = [5, 7, 9];  + b = [5.5, 6, 9]
  // [2, -1] · W = [2 − 4, 4 − 5, 6 − 6] = [-2, -1, 0]; + b = [-1.5, -2, 0]
  check_close(y, {2, 3}, {5.5f, 6, 9, -1.5f, -2, 0}, 0.f);

  // backward with dy = ones: db = column sums = [2, 2, 2]; dW = xᵀ · 1 = [[3, 3, 3], [0, 0, 0]];
  // dx = 1 · Wᵀ = row sums of W = [6, 15] per row.
  Tensor2 dx;
  layer.backward(xt::ones<float>({2, 3}), cache, dx);
  check_close(layer.bias_grad(), {3}, {2, 2, 2}, 0.f);
  check_close(layer.weight_grad(), {2, 3}, {3, 3, 3, 0, 0, 0}, 0.f);
  check_close(dx, {2, 2}, {6, 15, 6, 15}, 0.f);
}

TEST_CASE("dense.glorot_init") {
  Rng rng(2);
  Dense layer(30, 20, rng);
  const float limit = std::sqrt(6.f / 50.f);  // 0.34641
  CHECK(xt::amax(xt::abs(layer.weight()))() <= limit);
  CHECK(xt::amax(xt::abs(layer.weight()))() > 0.9f * limit);  // 600 draws reach near the edge
  CHECK(xt::amax(xt::abs(layer.bias()))() == 0.f);
}

TEST_CASE("dense.gradient_check_rows") {
  // Tolerances: step 1e-2, rel 2e-2, abs 2e-3 (defaults); the layer is linear in every input.
  Rng rng(3);
  Dense layer(3, 4, rng);
  Tensor2 x = random_uniform(rng, 5, 3, -1.f, 1.f);
  Tensor2 y;
  DenseCache cache;
  layer.forward(x, y, cache);
  const Tensor2 r = attn::test::probe_weights(y, 4);
  ParameterList params;
  layer.parameters(params, "");
  zero_grads(params);
  Tensor2 dx;
  layer.backward(r, cache, dx);
  auto loss = [&] {
    Tensor2 out;
    DenseCache c;
    layer.forward(x, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
}

TEST_CASE("dense.gradient_check_sequence_without_bias") {
  // Tolerances: the defaults, as above.
  Rng rng(4);
  Dense layer(3, 2, rng, false);
  Tensor3 x = random_tensor3(rng, 2, 3, 3);
  Tensor3 y;
  DenseCache cache;
  layer.forward(x, y, cache);
  CHECK(y.shape() == std::array<std::size_t, 3>{2, 3, 2});
  const Tensor3 r = attn::test::probe_weights(y, 5);
  ParameterList params;
  layer.parameters(params, "");
  REQUIRE(params.size() == 1);
  zero_grads(params);
  Tensor3 dx;
  layer.backward(r, cache, dx);
  auto loss = [&] {
    Tensor3 out;
    DenseCache c;
    layer.forward(x, out, c);
    return attn::test::probe_loss(out, r);
  };
  attn::test::check_parameter_gradients(params, loss);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
}

TEST_CASE("dense.sequence_matches_rows_and_skipping_dx_keeps_parameter_grads") {
  Rng rng(5);
  Dense layer(4, 3, rng);
  Tensor3 x = random_tensor3(rng, 2, 5, 4);
  Tensor2 rows = xt::empty<float>({10, 4});
  std::copy(x.data(), x.data() + x.size(), rows.data());
  Tensor3 y3;
  Tensor2 y2;
  DenseCache c3, c2;
  layer.forward(x, y3, c3);
  layer.forward(rows, y2, c2);
  REQUIRE(y3.size() == y2.size());
  CHECK(std::equal(y3.begin(), y3.end(), y2.begin()));

  ParameterList params;
  layer.parameters(params, "");
  const Tensor3 dy = attn::test::probe_weights(y3, 6);
  zero_grads(params);
  Tensor3 dx;
  layer.backward(dy, c3, dx);
  const Tensor2 dw_full = layer.weight_grad();
  const Tensor1 db_full = layer.bias_grad();
  zero_grads(params);
  layer.backward(dy, c3);  // no dx
  CHECK(layer.weight_grad() == dw_full);
  CHECK(layer.bias_grad() == db_full);
  // Accumulation: a second call doubles the gradients.
  layer.backward(dy, c3);
  CHECK(xt::allclose(layer.weight_grad(), 2.f * dw_full));
}

TEST_CASE("dense.rejects_bad_shapes") {
  Rng rng(6);
  Dense layer(2, 3, rng);
  Tensor2 y;
  DenseCache cache;
  CHECK_THROWS_WITH_AS(layer.forward(Tensor2(xt::zeros<float>({4, 3})), y, cache),
                       "Dense::forward: x has shape [4, 3]; x must be [N, 2]", ShapeError);
  Tensor3 y3;
  CHECK_THROWS_WITH_AS(layer.forward(Tensor3(xt::zeros<float>({1, 4, 5})), y3, cache),
                       "Dense::forward: x has shape [1, 4, 5]; x must be [B, T, 2]", ShapeError);
  layer.forward(Tensor2(xt::zeros<float>({4, 2})), y, cache);
  Tensor2 dx;
  CHECK_THROWS_WITH_AS(layer.backward(Tensor2(xt::zeros<float>({5, 3})), cache, dx),
                       "Dense::backward: dy has shape [5, 3] but forward saw 4 rows; dy must have 4 rows of 3",
                       ShapeError);
  DenseCache empty;
  CHECK_THROWS_AS(layer.backward(Tensor2(xt::zeros<float>({0, 3})), empty, dx), ShapeError);
  CHECK_THROWS_AS(Dense(0, 3, rng), std::invalid_argument);
}
