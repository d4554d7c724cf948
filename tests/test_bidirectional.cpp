#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/layers/bidirectional.hpp"
#include "support/recurrent_fixtures.hpp"

using namespace attn;
using attn::test::check_close;
using attn::test::check_gradient;
using attn::test::check_near;
using attn::test::check_parameter_gradients;
using attn::test::GradCheckOptions;
using attn::test::matrix;
using attn::test::mixed_mask;
using attn::test::probe_loss;
using attn::test::probe_weights;
using attn::test::random_state;
using attn::test::random_tensor;
using attn::test::vector;

namespace {

template <class Bi>
void check_bidirectional_gradients(std::uint64_t seed) {
  Rng rng(seed);
  Bi layer(3, 2, rng);
  const Mask2 mask = mixed_mask();
  Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{3, 5, 3}, rng);
  Tensor3 h_seq;
  typename Bi::Cache cache;
  layer.forward(x, &mask, h_seq, cache);
  REQUIRE(h_seq.shape() == std::array<std::size_t, 3>{3, 5, 4});
  const Tensor3 r_seq = probe_weights(h_seq, 31);
  const Tensor2 r_last = probe_weights(cache.h_last, 32);
  ParameterList params;
  layer.parameters(params);
  zero_grads(params);
  Tensor3 dx;
  layer.backward(r_seq, &r_last, cache, dx);

  auto loss = [&] {
    Tensor3 out;
    typename Bi::Cache scratch;
    layer.forward(x, &mask, out, scratch);
    return probe_loss(out, r_seq) + probe_loss(scratch.h_last, r_last);
  };
  check_parameter_gradients(params, loss, attn::test::kRecurrentGrad);
  check_gradient("x", x.data(), dx.data(), x.size(), loss, attn::test::kRecurrentGrad);
  for (std::size_t b = 0; b < 3; ++b) {
    for (std::size_t t = 0; t < 5; ++t) {
      if (mask(b, t) != 0) continue;
      for (std::size_t j = 0; j < 4; ++j) CHECK(h_seq(b, t, j) == 0.f);
      for (std::size_t j = 0; j < 3; ++j) CHECK(dx(b, t, j) == 0.f);
    }
  }
}

}  // namespace

TEST_CASE("bidirectional.one_step_forward_by_hand") {
  // BiGRU, D = 2, U = 1, T = 1, zero initial states, gate columns r, z, n; x = [1, 0.5].
  // Forward direction: w_x = [[1, 0, 0.5], [0, -1, 1]], w_h = [[0.5, 1, 2]], b_h = [0, 0, 0.5].
  //   xp = [1, -0.5, 1], hp = b_h = [0, 0, 0.5] (h_prev = 0)
  //   r = σ(1) = 0.7310586, z = σ(-0.5) = 0.3775407, n = tanh(1 + 0.7310586·0.5) = 0.8776693
  //   →h = (1 − 0.3775407)·0.8776693 = 0.5463134
  // Backward direction: w_x = [[0, 0, 1], [0, 0, 0]], everything else 0.
  //   xp = [0, 0, 1], r = z = 0.5, n = tanh(1) = 0.7615942, ←h = 0.5·0.7615942 = 0.3807971
  // h_seq[0, 0] = h_last[0] = [0.5463134, 0.3807971].
  Rng rng(3);
  BiGRU layer(2, 1, rng);
  layer.forward_layer.w_x = matrix({{1, 0, 0.5f}, {0, -1, 1}});
  layer.forward_layer.w_h = matrix({{0.5f, 1, 2}});
  layer.forward_layer.b_h = vector({0, 0, 0.5f});
  layer.backward_layer.w_x = matrix({{0, 0, 1}, {0, 0, 0}});
  layer.backward_layer.w_h = matrix({{0, 0, 0}});
  const Tensor3 x = {{{1, 0.5f}}};
  Tensor3 h_seq;
  BiGRU::Cache cache;
  layer.forward(x, nullptr, h_seq, cache);
  check_close(h_seq, {1, 1, 2}, {0.5463134f, 0.3807971f}, 1e-6f);
  check_close(cache.h_last, {1, 2}, {0.5463134f, 0.3807971f}, 1e-6f);
}

TEST_CASE("bidirectional.concatenates_the_two_directions") {
  // [→h_t ; ←h_t] at every t; the final state pairs →h after t = T-1 with ←h after t = 0, each
  // carried over the row's padding.
  Rng rng(8);
  BiLSTM layer(3, 2, rng);
  const Mask2 mask = mixed_mask();
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{3, 5, 3}, rng);
  Tensor3 h_seq, h_fwd, h_bwd;
  BiLSTM::Cache cache;
  LSTMCache fwd, bwd;
  layer.forward(x, &mask, h_seq, cache);
  layer.forward_layer.forward(x, &mask, false, h_fwd, fwd);
  layer.backward_layer.forward(x, &mask, true, h_bwd, bwd);
  const Tensor3 left = xt::view(h_seq, xt::all(), xt::all(), xt::range(0, 2));
  const Tensor3 right = xt::view(h_seq, xt::all(), xt::all(), xt::range(2, 4));
  check_near(left, h_fwd, 0.f, "forward half");
  check_near(right, h_bwd, 0.f, "backward half");
  for (std::size_t b = 0; b < 3; ++b) {
    // Last real steps: row 0 and 1 end at t = 4, row 2 at t = 2; first real: 0, 2, 0.
    const std::size_t last = b == 2 ? 2 : 4, first = b == 1 ? 2 : 0;
    for (std::size_t j = 0; j < 2; ++j) {
      CHECK(cache.h_last(b, j) == h_seq(b, last, j));
      CHECK(cache.h_last(b, 2 + j) == h_seq(b, first, 2 + j));
    }
  }
}

TEST_CASE("bidirectional.lstm_gradients_with_pre_and_post_padding") { check_bidirectional_gradients<BiLSTM>(20); }

TEST_CASE("bidirectional.gru_gradients_with_pre_and_post_padding") { check_bidirectional_gradients<BiGRU>(21); }

TEST_CASE("bidirectional.padding_does_not_change_real_positions") {
  // Row 0 post-padded, row 1 pre-padded by two steps, against the unpadded T = 3 run.
  const std::size_t batch = 2, real = 3, padded = 5, d = 3, u = 2;
  const std::size_t offset[2] = {0, 2};
  Rng data(9), junk(77);
  const Tensor3 x_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, d}, data);
  const Tensor3 dh_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, 2 * u}, data);
  const Tensor2 dfinal = random_tensor<Tensor2>(std::array<std::size_t, 2>{batch, 2 * u}, data);
  Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, padded, d}, junk, -5.f, 5.f);
  Tensor3 dh = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, padded, 2 * u}, junk, -5.f, 5.f);
  Mask2 mask = xt::zeros<std::uint8_t>({batch, padded});
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t t = 0; t < real; ++t) {
      mask(b, offset[b] + t) = 1;
      for (std::size_t j = 0; j < d; ++j) x(b, offset[b] + t, j) = x_real(b, t, j);
      for (std::size_t j = 0; j < 2 * u; ++j) dh(b, offset[b] + t, j) = dh_real(b, t, j);
    }
  }
  Rng init_plain(1), init_padded(1);
  BiLSTM plain(d, u, init_plain), layer(d, u, init_padded);
  Tensor3 h_plain, dx_plain, h_seq, dx;
  BiLSTM::Cache cache_plain, cache;
  plain.forward(x_real, nullptr, h_plain, cache_plain);
  plain.backward(dh_real, &dfinal, cache_plain, dx_plain);
  layer.forward(x, &mask, h_seq, cache);
  layer.backward(dh, &dfinal, cache, dx);

  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t t = 0; t < padded; ++t) {
      const bool is_real = t >= offset[b] && t < offset[b] + real;
      for (std::size_t j = 0; j < 2 * u; ++j) {
        if (is_real)
          CHECK(std::fabs(h_seq(b, t, j) - h_plain(b, t - offset[b], j)) <= 1e-6f);
        else
          CHECK(h_seq(b, t, j) == 0.f);
      }
      for (std::size_t j = 0; j < d; ++j) {
        if (is_real)
          CHECK(std::fabs(dx(b, t, j) - dx_plain(b, t - offset[b], j)) <= 1e-6f);
        else
          CHECK(dx(b, t, j) == 0.f);
      }
    }
  }
  check_near(cache.h_last, cache_plain.h_last, 1e-6f, "h_last");
  ParameterList got, want;
  layer.parameters(got);
  plain.parameters(want);
  for (std::size_t p = 0; p < got.size(); ++p) {
    for (std::size_t i = 0; i < got[p].size; ++i) {
      INFO(got[p].name << "[" << i << "]");
      CHECK(std::fabs(got[p].grad[i] - want[p].grad[i]) <= 1e-6f);
    }
  }
}

TEST_CASE("bidirectional.parameters_and_determinism") {
  Rng a(42), b(42);
  BiGRU first(3, 2, a), second(3, 2, b);
  CHECK(first.forward_layer.w_x == second.forward_layer.w_x);
  CHECK(first.backward_layer.w_h == second.backward_layer.w_h);
  // The two directions draw consecutively from one stream, so they differ.
  CHECK(first.forward_layer.w_x != first.backward_layer.w_x);
  CHECK(first.output_size() == 4);
  ParameterList params;
  first.parameters(params, "encoder.");
  std::vector<std::string> names;
  for (const Parameter& p : params) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"encoder.forward.w_x", "encoder.forward.w_h", "encoder.forward.b_x",
                                          "encoder.forward.b_h", "encoder.backward.w_x", "encoder.backward.w_h",
                                          "encoder.backward.b_x", "encoder.backward.b_h"});
  Rng c(1);
  BiLSTM lstm(3, 2, c);
  ParameterList lstm_params;
  lstm.parameters(lstm_params);
  REQUIRE(lstm_params.size() == 6);
  CHECK(lstm_params[3].name == "backward.w_x");
}

TEST_CASE("bidirectional.shape_errors") {
  Rng rng(1);
  BiLSTM layer(4, 3, rng);
  Tensor3 h_seq;
  BiLSTM::Cache cache;
  const Tensor3 bad_x = xt::zeros<float>({2, 5, 3});
  CHECK_THROWS_WITH_AS(layer.forward(bad_x, nullptr, h_seq, cache),
                       "LSTM.forward: x has shape [2, 5, 3] but must be [B, T, 4] with B, T >= 1", ShapeError);
  const Tensor3 x = xt::zeros<float>({2, 5, 4});
  layer.forward(x, nullptr, h_seq, cache);
  Tensor3 dx;
  const Tensor3 one_direction = xt::zeros<float>({2, 5, 3});
  CHECK_THROWS_WITH_AS(layer.backward(one_direction, nullptr, cache, dx),
                       "Bidirectional.backward: dh_seq has shape [2, 5, 3] but the forward output h_seq has shape "
                       "[2, 5, 6]",
                       ShapeError);
  const Tensor2 bad_final = xt::zeros<float>({2, 3});
  CHECK_THROWS_WITH_AS(layer.backward(h_seq, &bad_final, cache, dx),
                       "Bidirectional.backward: dfinal has shape [2, 3] but the final state has shape [2, 6]",
                       ShapeError);
}
