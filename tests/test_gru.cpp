#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/layers/gru.hpp"
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

// Random biases, so the gradient checks see the b_h ≠ 0 path through r ⊙ hp_n.
void randomise_biases(GRU& gru, Rng& rng) {
  for (auto& v : gru.b_x) v = rng.uniform(-0.5f, 0.5f);
  for (auto& v : gru.b_h) v = rng.uniform(-0.5f, 0.5f);
}

}  // namespace

TEST_CASE("gru.one_step_forward_by_hand") {
  // D = 2, U = 1, B = 1, gate columns r, z, n.
  //   w_x = [[1, 0, 0.5], [0, -1, 1]], b_x = 0; w_h = [[0.5, 1, 2]], b_h = [0, 0, 0.5]
  //   x = [1, 0.5], h_prev = 1
  //   xp = [1, -0.5, 0.5 + 0.5] = [1, -0.5, 1],  hp = [0.5, 1, 2 + 0.5] = [0.5, 1, 2.5]
  //   r = σ(1 + 0.5) = 0.8175745,  z = σ(-0.5 + 1) = 0.6224593
  //   n = tanh(1 + 0.8175745·2.5) = tanh(3.0439362) = 0.9954698
  //   h = (1 − 0.6224593)·0.9954698 + 0.6224593·1 = 0.9982897
  // (Applying r before the matmul, reset_after=False, would give n = tanh(1 + 2·0.8175745 + 0.5).)
  Rng rng(3);
  GRU gru(2, 1, rng);
  gru.w_x = matrix({{1, 0, 0.5f}, {0, -1, 1}});
  gru.w_h = matrix({{0.5f, 1, 2}});
  gru.b_x = vector({0, 0, 0});
  gru.b_h = vector({0, 0, 0.5f});
  GRUStepCache cache;
  Tensor2 h;
  gru.step_forward(matrix({{1, 0.5f}}), matrix({{1}}), h, cache);
  check_close(cache.hproj, {1, 3}, {0.5f, 1, 2.5f}, 1e-6f);
  check_close(cache.gates, {1, 3}, {0.8175745f, 0.6224593f, 0.9954698f}, 1e-6f);
  check_close(h, {1, 1}, {0.9982897f}, 1e-6f);

  // The sequence API with T = 1 computes the same step.
  Tensor3 x = {{{1, 0.5f}}};
  Tensor2 h0 = matrix({{1}});
  Tensor3 h_seq;
  GRUCache seq;
  gru.forward(x, nullptr, false, h_seq, seq, &h0);
  check_close(h_seq, {1, 1, 1}, {0.9982897f}, 1e-6f);
  check_close(seq.h_last, {1, 1}, {0.9982897f}, 1e-6f);
}

TEST_CASE("gru.init_is_deterministic_and_follows_the_stated_scheme") {
  Rng a(42), b(42), c(43);
  GRU first(3, 4, a), second(3, 4, b), other(3, 4, c);
  CHECK(first.w_x == second.w_x);
  CHECK(first.w_h == second.w_h);
  CHECK(first.w_x != other.w_x);
  CHECK(first.w_x.shape() == std::array<std::size_t, 2>{3, 12});
  CHECK(first.w_h.shape() == std::array<std::size_t, 2>{4, 12});
  CHECK(xt::amax(xt::abs(first.w_x))() <= std::sqrt(6.f / (3 + 12)));
  CHECK(xt::amax(xt::abs(first.w_h))() <= 0.5f);  // 1/√U
  CHECK(xt::amax(xt::abs(first.b_x))() == 0.f);
  CHECK(xt::amax(xt::abs(first.b_h))() == 0.f);

  ParameterList params;
  first.parameters(params, "dec.");
  REQUIRE(params.size() == 4);
  CHECK(params[0].name == "dec.w_x");
  CHECK(params[1].name == "dec.w_h");
  CHECK(params[2].name == "dec.b_x");
  CHECK(params[3].name == "dec.b_h");
  CHECK(parameter_count(params) == 3 * 12 + 4 * 12 + 12 + 12);
}

TEST_CASE("gru.step_gradients") {
  Rng rng(7);
  GRU gru(3, 4, rng);
  randomise_biases(gru, rng);
  Tensor2 x = random_state(2, 3, rng), h_prev = random_state(2, 4, rng);
  GRUStepCache cache;
  Tensor2 h;
  gru.step_forward(x, h_prev, h, cache);
  const Tensor2 rh = probe_weights(h, 11);
  ParameterList params;
  gru.parameters(params);
  zero_grads(params);
  Tensor2 dx, dh_prev;
  gru.step_backward(rh, cache, dx, dh_prev);

  auto loss = [&] {
    GRUStepCache scratch;
    Tensor2 hh;
    gru.step_forward(x, h_prev, hh, scratch);
    return probe_loss(hh, rh);
  };
  check_parameter_gradients(params, loss, attn::test::kRecurrentGrad);
  check_gradient("x_t", x.data(), dx.data(), x.size(), loss, attn::test::kRecurrentGrad);
  check_gradient("h_prev", h_prev.data(), dh_prev.data(), h_prev.size(), loss, attn::test::kRecurrentGrad);
}

TEST_CASE("gru.sequence_gradients_with_pre_and_post_padding") {
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    Rng rng(reverse ? 21 : 20);
    GRU gru(3, 4, rng);
    randomise_biases(gru, rng);
    const Mask2 mask = mixed_mask();
    Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{3, 5, 3}, rng);
    Tensor2 h0 = random_state(3, 4, rng);
    Tensor3 h_seq;
    GRUCache cache;
    gru.forward(x, &mask, reverse, h_seq, cache, &h0);
    const Tensor3 r_seq = probe_weights(h_seq, 31);
    const Tensor2 r_h = probe_weights(cache.h_last, 32);
    ParameterList params;
    gru.parameters(params);
    zero_grads(params);
    Tensor3 dx;
    Tensor2 dh0;
    gru.backward(r_seq, &r_h, cache, dx, &dh0);

    auto loss = [&] {
      Tensor3 out;
      GRUCache scratch;
      gru.forward(x, &mask, reverse, out, scratch, &h0);
      return probe_loss(out, r_seq) + probe_loss(scratch.h_last, r_h);
    };
    check_parameter_gradients(params, loss, attn::test::kRecurrentGrad);
    check_gradient("x", x.data(), dx.data(), x.size(), loss, attn::test::kRecurrentGrad);
    check_gradient("h0", h0.data(), dh0.data(), h0.size(), loss, attn::test::kRecurrentGrad);
    // Padded positions: no output, no input gradient, exactly.
    for (std::size_t b = 0; b < 3; ++b) {
      for (std::size_t t = 0; t < 5; ++t) {
        if (mask(b, t) != 0) continue;
        for (std::size_t j = 0; j < 4; ++j) CHECK(h_seq(b, t, j) == 0.f);
        for (std::size_t j = 0; j < 3; ++j) CHECK(dx(b, t, j) == 0.f);
      }
    }
  }
}

TEST_CASE("gru.sequence_matches_chained_steps") {
  // A decoder chains step_forward / step_backward; forward and backward must agree with the
  // sequence API (outputs, final state, dx, dh0, parameter grads).
  Rng rng(5);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 4, 3}, rng);
  const Tensor3 dh_seq = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 4, 4}, rng);
  const Tensor2 dh_last = random_state(2, 4, rng);
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    Rng init_seq(6), init_step(6), biases_seq(8), biases_step(8);
    GRU seq(3, 4, init_seq), steps(3, 4, init_step);
    randomise_biases(seq, biases_seq);
    randomise_biases(steps, biases_step);
    Tensor3 h_seq, dx_seq;
    Tensor2 dh0_seq;
    GRUCache cache;
    seq.forward(x, nullptr, reverse, h_seq, cache);
    seq.backward(dh_seq, &dh_last, cache, dx_seq, &dh0_seq);

    Tensor2 h = xt::zeros<float>({2, 4});
    std::vector<GRUStepCache> step_caches(4);
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t t = reverse ? 3 - s : s;
      const Tensor2 x_t = xt::view(x, xt::all(), t, xt::all());
      steps.step_forward(x_t, h, h, step_caches[s]);  // in place: h aliases h_prev
      const Tensor2 out_t = xt::view(h_seq, xt::all(), t, xt::all());
      check_near(out_t, h, 1e-6f, "h_t");
    }
    check_near(cache.h_last, h, 1e-6f, "h_last");

    Tensor2 dh = dh_last, dx_t;
    for (std::size_t s = 4; s-- > 0;) {
      const std::size_t t = reverse ? 3 - s : s;
      dh += xt::view(dh_seq, xt::all(), t, xt::all());
      steps.step_backward(dh, step_caches[s], dx_t, dh);  // in place: dh_prev aliases dh
      const Tensor2 dx_seq_t = xt::view(dx_seq, xt::all(), t, xt::all());
      check_near(dx_t, dx_seq_t, 1e-6f, "dx_t");
    }
    check_near(dh, dh0_seq, 1e-6f, "dh0");
    check_near(steps.dw_x, seq.dw_x, 1e-6f, "dw_x");
    check_near(steps.dw_h, seq.dw_h, 1e-6f, "dw_h");
    check_near(steps.db_x, seq.db_x, 1e-6f, "db_x");
    check_near(steps.db_h, seq.db_h, 1e-6f, "db_h");
  }
}

TEST_CASE("gru.padding_does_not_change_real_positions") {
  // The same 3 real steps per row, run at T = 3 without a mask and at T = 5 with two padded
  // steps per row placed after (post), before (pre), or one row each way. Padded inputs and
  // their output gradients hold garbage that must not leak.
  const std::size_t batch = 2, real = 3, padded = 5, d = 3, u = 4;
  Rng data(9);
  const Tensor3 x_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, d}, data);
  const Tensor3 dh_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, u}, data);
  const Tensor2 h0 = random_state(batch, u, data), dh_last = random_state(batch, u, data);
  const std::vector<std::vector<std::size_t>> offsets = {{0, 0}, {2, 2}, {2, 0}};  // post, pre, mixed

  for (bool reverse : {false, true}) {
    Rng init(1);
    GRU plain(d, u, init);
    Tensor3 h_plain, dx_plain;
    Tensor2 dh0_plain;
    GRUCache cache_plain;
    plain.forward(x_real, nullptr, reverse, h_plain, cache_plain, &h0);
    plain.backward(dh_real, &dh_last, cache_plain, dx_plain, &dh0_plain);

    for (const auto& offset : offsets) {
      CAPTURE(reverse);
      CAPTURE(offset[0]);
      CAPTURE(offset[1]);
      Rng init2(1), junk(77);
      GRU gru(d, u, init2);
      Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, padded, d}, junk, -5.f, 5.f);
      Tensor3 dh = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, padded, u}, junk, -5.f, 5.f);
      Mask2 mask = xt::zeros<std::uint8_t>({batch, padded});
      for (std::size_t b = 0; b < batch; ++b) {
        for (std::size_t t = 0; t < real; ++t) {
          mask(b, offset[b] + t) = 1;
          for (std::size_t j = 0; j < d; ++j) x(b, offset[b] + t, j) = x_real(b, t, j);
          for (std::size_t j = 0; j < u; ++j) dh(b, offset[b] + t, j) = dh_real(b, t, j);
        }
      }
      Tensor3 h_seq, dx;
      Tensor2 dh0;
      GRUCache cache;
      gru.forward(x, &mask, reverse, h_seq, cache, &h0);
      gru.backward(dh, &dh_last, cache, dx, &dh0);

      for (std::size_t b = 0; b < batch; ++b) {
        for (std::size_t t = 0; t < padded; ++t) {
          const bool is_real = t >= offset[b] && t < offset[b] + real;
          for (std::size_t j = 0; j < u; ++j) {
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
      check_near(dh0, dh0_plain, 1e-6f, "dh0");
      check_near(gru.dw_x, plain.dw_x, 1e-6f, "dw_x");
      check_near(gru.dw_h, plain.dw_h, 1e-6f, "dw_h");
      check_near(gru.db_x, plain.db_x, 1e-6f, "db_x");
      check_near(gru.db_h, plain.db_h, 1e-6f, "db_h");
    }
  }
}

TEST_CASE("gru.backward_accumulates_weights_and_overwrites_inputs") {
  Rng rng(4);
  GRU gru(2, 3, rng);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 3, 2}, rng);
  Tensor3 h_seq, dx;
  GRUCache cache;
  gru.forward(x, nullptr, false, h_seq, cache);
  const Tensor3 dh = probe_weights(h_seq, 5);
  gru.backward(dh, nullptr, cache, dx);
  const Tensor2 once = gru.dw_h;
  const Tensor3 dx_once = dx;
  gru.backward(dh, nullptr, cache, dx);
  check_near(gru.dw_h, xt::eval(2.f * once), 1e-6f, "dw_h twice");
  check_near(dx, dx_once, 0.f, "dx overwritten");
  CHECK(xt::amax(xt::abs(once))() > 0.f);
}

TEST_CASE("gru.shape_errors") {
  Rng rng(1);
  GRU gru(4, 3, rng);
  Tensor3 h_seq;
  GRUCache cache;
  const Tensor3 bad_x = xt::zeros<float>({2, 5, 3});
  CHECK_THROWS_WITH_AS(gru.forward(bad_x, nullptr, false, h_seq, cache),
                       "GRU.forward: x has shape [2, 5, 3] but must be [B, T, 4] with B, T >= 1", ShapeError);
  const Tensor3 x = xt::zeros<float>({2, 5, 4});
  const Mask2 bad_mask = xt::ones<std::uint8_t>({3, 5});
  CHECK_THROWS_WITH_AS(gru.forward(x, &bad_mask, false, h_seq, cache),
                       "GRU.forward: mask has shape [3, 5] but x has shape [2, 5, 4]; mask must be [2, 5]", ShapeError);
  gru.forward(x, nullptr, false, h_seq, cache);
  Tensor3 dx;
  const Tensor2 bad_last = xt::zeros<float>({2, 4});
  CHECK_THROWS_WITH_AS(gru.backward(h_seq, &bad_last, cache, dx),
                       "GRU.backward: dh_last has shape [2, 4] but must be [2, 3]", ShapeError);
  GRUStepCache step;
  Tensor2 h, dx_t, dh_prev;
  CHECK_THROWS_WITH_AS(gru.step_backward(xt::zeros<float>({2, 3}), step, dx_t, dh_prev),
                       "GRU.step_backward: the cache holds no step_forward of this layer", ShapeError);
  CHECK_THROWS_WITH_AS(gru.step_forward(xt::zeros<float>({2, 5}), xt::zeros<float>({2, 3}), h, step),
                       "GRU.step_forward: x_t has shape [2, 5] but must be [B, 4]", ShapeError);
}

TEST_CASE("gru.fixed_shapes_reuse_buffers") {
  // Layer contract rule 4: a second call at the same shapes resizes nothing.
  Rng rng(2);
  GRU gru(3, 4, rng);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 5, 3}, rng);
  Tensor3 h_seq, dx;
  GRUCache cache;
  gru.forward(x, nullptr, false, h_seq, cache);
  gru.backward(h_seq, nullptr, cache, dx);
  const float* buffers[] = {h_seq.data(), dx.data(), cache.gates.data(), cache.hproj.data(), cache.h_last.data()};
  gru.forward(x, nullptr, true, h_seq, cache);
  gru.backward(h_seq, nullptr, cache, dx);
  const float* again[] = {h_seq.data(), dx.data(), cache.gates.data(), cache.hproj.data(), cache.h_last.data()};
  for (std::size_t i = 0; i < 5; ++i) CHECK(buffers[i] == again[i]);
}
