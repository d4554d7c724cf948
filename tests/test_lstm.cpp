#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/layers/lstm.hpp"
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

TEST_CASE("lstm.one_step_forward_by_hand") {
  // D = 2, U = 1, B = 1, gate columns i, f, g, o.
  //   w_x = [[0.5, -1, 1, 0], [0, 0.5, -0.5, 1]], w_h = [[1, 0, 0.5, -1]], b = [0, 1, 0, 0]
  //   x = [1, 2], h_prev = 0.5, c_prev = 2
  //   pre = x·w_x + h_prev·w_h + b = [0.5 + 0.5, -1 + 1 + 1, 1 - 1 + 0.25, 2 - 0.5] = [1, 1, 0.25, 1.5]
  //   i = f = σ(1) = 0.7310586, g = tanh(0.25) = 0.2449187, o = σ(1.5) = 0.8175745
  //   c = 0.7310586·2 + 0.7310586·0.2449187 = 1.6411670
  //   h = 0.8175745·tanh(1.6411670) = 0.8175745·0.9276355 = 0.7584111
  Rng rng(3);
  LSTM lstm(2, 1, rng);
  lstm.w_x = matrix({{0.5f, -1, 1, 0}, {0, 0.5f, -0.5f, 1}});
  lstm.w_h = matrix({{1, 0, 0.5f, -1}});
  lstm.b = vector({0, 1, 0, 0});
  LSTMStepCache cache;
  Tensor2 h, c;
  lstm.step_forward(matrix({{1, 2}}), matrix({{0.5f}}), matrix({{2}}), h, c, cache);
  check_close(cache.gates, {1, 4}, {0.7310586f, 0.7310586f, 0.2449187f, 0.8175745f}, 1e-6f);
  check_close(c, {1, 1}, {1.6411670f}, 1e-6f);
  check_close(h, {1, 1}, {0.7584111f}, 1e-6f);

  // The sequence API with T = 1 computes the same step.
  Tensor3 x = {{{1, 2}}};
  Tensor2 h0 = matrix({{0.5f}}), c0 = matrix({{2}});
  Tensor3 h_seq;
  LSTMCache seq;
  lstm.forward(x, nullptr, false, h_seq, seq, &h0, &c0);
  check_close(h_seq, {1, 1, 1}, {0.7584111f}, 1e-6f);
  check_close(seq.h_last, {1, 1}, {0.7584111f}, 1e-6f);
  check_close(seq.c_last, {1, 1}, {1.6411670f}, 1e-6f);
}

TEST_CASE("lstm.init_is_deterministic_and_follows_the_stated_scheme") {
  Rng a(42), b(42), c(43);
  LSTM first(3, 4, a), second(3, 4, b), other(3, 4, c);
  CHECK(first.w_x == second.w_x);
  CHECK(first.w_h == second.w_h);
  CHECK(first.w_x != other.w_x);
  CHECK(first.w_x.shape() == std::array<std::size_t, 2>{3, 16});
  CHECK(first.w_h.shape() == std::array<std::size_t, 2>{4, 16});
  const float glorot = std::sqrt(6.f / (3 + 16));
  CHECK(xt::amax(xt::abs(first.w_x))() <= glorot);
  CHECK(xt::amax(xt::abs(first.w_h))() <= 0.5f);  // 1/√U
  check_close(first.b, {16}, {0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}, 0.f);

  ParameterList params;
  first.parameters(params, "enc.");
  REQUIRE(params.size() == 3);
  CHECK(params[0].name == "enc.w_x");
  CHECK(params[1].name == "enc.w_h");
  CHECK(params[2].name == "enc.b");
  CHECK(parameter_count(params) == 3 * 16 + 4 * 16 + 16);
}

TEST_CASE("lstm.step_gradients") {
  Rng rng(7);
  LSTM lstm(3, 4, rng);
  Tensor2 x = random_state(2, 3, rng), h_prev = random_state(2, 4, rng), c_prev = random_state(2, 4, rng);
  LSTMStepCache cache;
  Tensor2 h, c;
  lstm.step_forward(x, h_prev, c_prev, h, c, cache);
  const Tensor2 rh = probe_weights(h, 11), rc = probe_weights(c, 12);
  ParameterList params;
  lstm.parameters(params);
  zero_grads(params);
  Tensor2 dx, dh_prev, dc_prev;
  lstm.step_backward(rh, rc, cache, dx, dh_prev, dc_prev);

  auto loss = [&] {
    LSTMStepCache scratch;
    Tensor2 hh, cc;
    lstm.step_forward(x, h_prev, c_prev, hh, cc, scratch);
    return probe_loss(hh, rh) + probe_loss(cc, rc);
  };
  check_parameter_gradients(params, loss, attn::test::kRecurrentGrad);
  check_gradient("x_t", x.data(), dx.data(), x.size(), loss, attn::test::kRecurrentGrad);
  check_gradient("h_prev", h_prev.data(), dh_prev.data(), h_prev.size(), loss, attn::test::kRecurrentGrad);
  check_gradient("c_prev", c_prev.data(), dc_prev.data(), c_prev.size(), loss, attn::test::kRecurrentGrad);
}

TEST_CASE("lstm.sequence_gradients_with_pre_and_post_padding") {
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    Rng rng(reverse ? 21 : 20);
    LSTM lstm(3, 4, rng);
    const Mask2 mask = mixed_mask();
    Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{3, 5, 3}, rng);
    Tensor2 h0 = random_state(3, 4, rng), c0 = random_state(3, 4, rng);
    Tensor3 h_seq;
    LSTMCache cache;
    lstm.forward(x, &mask, reverse, h_seq, cache, &h0, &c0);
    const Tensor3 r_seq = probe_weights(h_seq, 31);
    const Tensor2 r_h = probe_weights(cache.h_last, 32), r_c = probe_weights(cache.c_last, 33);
    ParameterList params;
    lstm.parameters(params);
    zero_grads(params);
    Tensor3 dx;
    Tensor2 dh0, dc0;
    lstm.backward(r_seq, &r_h, &r_c, cache, dx, &dh0, &dc0);

    auto loss = [&] {
      Tensor3 out;
      LSTMCache scratch;
      lstm.forward(x, &mask, reverse, out, scratch, &h0, &c0);
      return probe_loss(out, r_seq) + probe_loss(scratch.h_last, r_h) + probe_loss(scratch.c_last, r_c);
    };
    check_parameter_gradients(params, loss, attn::test::kRecurrentGrad);
    check_gradient("x", x.data(), dx.data(), x.size(), loss, attn::test::kRecurrentGrad);
    check_gradient("h0", h0.data(), dh0.data(), h0.size(), loss, attn::test::kRecurrentGrad);
    check_gradient("c0", c0.data(), dc0.data(), c0.size(), loss, attn::test::kRecurrentGrad);
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

TEST_CASE("lstm.sequence_matches_chained_steps") {
  // A decoder chains step_forward / step_backward; forward and backward must agree with the
  // sequence API (outputs, final states, dx, dh0, dc0, parameter grads).
  Rng rng(5);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 4, 3}, rng);
  const Tensor3 dh_seq = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 4, 4}, rng);
  const Tensor2 dh_last = random_state(2, 4, rng), dc_last = random_state(2, 4, rng);
  for (bool reverse : {false, true}) {
    CAPTURE(reverse);
    Rng init_seq(6), init_step(6);
    LSTM seq(3, 4, init_seq), steps(3, 4, init_step);
    Tensor3 h_seq, dx_seq;
    Tensor2 dh0_seq, dc0_seq;
    LSTMCache cache;
    seq.forward(x, nullptr, reverse, h_seq, cache);
    seq.backward(dh_seq, &dh_last, &dc_last, cache, dx_seq, &dh0_seq, &dc0_seq);

    Tensor2 h = xt::zeros<float>({2, 4}), c = xt::zeros<float>({2, 4});
    std::vector<LSTMStepCache> step_caches(4);
    for (std::size_t s = 0; s < 4; ++s) {
      const std::size_t t = reverse ? 3 - s : s;
      const Tensor2 x_t = xt::view(x, xt::all(), t, xt::all());
      steps.step_forward(x_t, h, c, h, c, step_caches[s]);  // in place: h, c alias h_prev, c_prev
      const Tensor2 out_t = xt::view(h_seq, xt::all(), t, xt::all());
      check_near(out_t, h, 1e-6f, "h_t");
    }
    check_near(cache.h_last, h, 1e-6f, "h_last");
    check_near(cache.c_last, c, 1e-6f, "c_last");

    Tensor2 dh = dh_last, dc = dc_last, dx_t;
    for (std::size_t s = 4; s-- > 0;) {
      const std::size_t t = reverse ? 3 - s : s;
      dh += xt::view(dh_seq, xt::all(), t, xt::all());
      steps.step_backward(dh, dc, step_caches[s], dx_t, dh, dc);  // in place: dh_prev, dc_prev alias dh, dc
      const Tensor2 dx_seq_t = xt::view(dx_seq, xt::all(), t, xt::all());
      check_near(dx_t, dx_seq_t, 1e-6f, "dx_t");
    }
    check_near(dh, dh0_seq, 1e-6f, "dh0");
    check_near(dc, dc0_seq, 1e-6f, "dc0");
    check_near(steps.dw_x, seq.dw_x, 1e-6f, "dw_x");
    check_near(steps.dw_h, seq.dw_h, 1e-6f, "dw_h");
    check_near(steps.db, seq.db, 1e-6f, "db");
  }
}

TEST_CASE("lstm.padding_does_not_change_real_positions") {
  // The same 3 real steps per row, run at T = 3 without a mask and at T = 5 with two padded
  // steps per row placed after (post), before (pre), or one row each way. Padded inputs and
  // their output gradients hold garbage that must not leak.
  const std::size_t batch = 2, real = 3, padded = 5, d = 3, u = 4;
  Rng data(9);
  const Tensor3 x_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, d}, data);
  const Tensor3 dh_real = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, real, u}, data);
  const Tensor2 h0 = random_state(batch, u, data), c0 = random_state(batch, u, data);
  const Tensor2 dh_last = random_state(batch, u, data), dc_last = random_state(batch, u, data);
  const std::vector<std::vector<std::size_t>> offsets = {{0, 0}, {2, 2}, {2, 0}};  // post, pre, mixed

  for (bool reverse : {false, true}) {
    Rng init(1);
    LSTM plain(d, u, init);
    Tensor3 h_plain, dx_plain;
    Tensor2 dh0_plain, dc0_plain;
    LSTMCache cache_plain;
    plain.forward(x_real, nullptr, reverse, h_plain, cache_plain, &h0, &c0);
    plain.backward(dh_real, &dh_last, &dc_last, cache_plain, dx_plain, &dh0_plain, &dc0_plain);

    for (const auto& offset : offsets) {
      CAPTURE(reverse);
      CAPTURE(offset[0]);
      CAPTURE(offset[1]);
      Rng init2(1), junk(77);
      LSTM lstm(d, u, init2);
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
      Tensor2 dh0, dc0;
      LSTMCache cache;
      lstm.forward(x, &mask, reverse, h_seq, cache, &h0, &c0);
      lstm.backward(dh, &dh_last, &dc_last, cache, dx, &dh0, &dc0);

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
      check_near(cache.c_last, cache_plain.c_last, 1e-6f, "c_last");
      check_near(dh0, dh0_plain, 1e-6f, "dh0");
      check_near(dc0, dc0_plain, 1e-6f, "dc0");
      check_near(lstm.dw_x, plain.dw_x, 1e-6f, "dw_x");
      check_near(lstm.dw_h, plain.dw_h, 1e-6f, "dw_h");
      check_near(lstm.db, plain.db, 1e-6f, "db");
    }
  }
}

TEST_CASE("lstm.backward_accumulates_weights_and_overwrites_inputs") {
  Rng rng(4);
  LSTM lstm(2, 3, rng);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 3, 2}, rng);
  Tensor3 h_seq, dx;
  LSTMCache cache;
  lstm.forward(x, nullptr, false, h_seq, cache);
  const Tensor3 dh = probe_weights(h_seq, 5);
  lstm.backward(dh, nullptr, nullptr, cache, dx);
  const Tensor2 once = lstm.dw_h;
  const Tensor3 dx_once = dx;
  lstm.backward(dh, nullptr, nullptr, cache, dx);
  check_near(lstm.dw_h, xt::eval(2.f * once), 1e-6f, "dw_h twice");
  check_near(dx, dx_once, 0.f, "dx overwritten");
  CHECK(xt::amax(xt::abs(once))() > 0.f);
}

TEST_CASE("lstm.shape_errors") {
  Rng rng(1);
  LSTM lstm(4, 3, rng);
  Tensor3 h_seq;
  LSTMCache cache;
  const Tensor3 bad_x = xt::zeros<float>({2, 5, 3});
  CHECK_THROWS_WITH_AS(lstm.forward(bad_x, nullptr, false, h_seq, cache),
                       "LSTM.forward: x has shape [2, 5, 3] but must be [B, T, 4] with B, T >= 1", ShapeError);
  const Tensor3 x = xt::zeros<float>({2, 5, 4});
  const Mask2 bad_mask = xt::ones<std::uint8_t>({2, 4});
  CHECK_THROWS_WITH_AS(lstm.forward(x, &bad_mask, false, h_seq, cache),
                       "LSTM.forward: mask has shape [2, 4] but x has shape [2, 5, 4]; mask must be [2, 5]",
                       ShapeError);
  const Tensor2 bad_h0 = xt::zeros<float>({2, 2});
  CHECK_THROWS_WITH_AS(lstm.forward(x, nullptr, false, h_seq, cache, &bad_h0),
                       "LSTM.forward: h0 has shape [2, 2] but must be [2, 3]", ShapeError);
  Tensor3 dx;
  CHECK_THROWS_WITH_AS(lstm.backward(h_seq, nullptr, nullptr, cache, dx),
                       "LSTM.backward: the cache holds no forward of this layer", ShapeError);
  lstm.forward(x, nullptr, false, h_seq, cache);
  const Tensor3 bad_dh = xt::zeros<float>({2, 4, 3});
  CHECK_THROWS_WITH_AS(lstm.backward(bad_dh, nullptr, nullptr, cache, dx),
                       "LSTM.backward: dh_seq has shape [2, 4, 3] but the forward output h_seq has shape [2, 5, 3]",
                       ShapeError);
  LSTMStepCache step;
  Tensor2 h, c;
  CHECK_THROWS_WITH_AS(
      lstm.step_forward(xt::zeros<float>({2, 4}), xt::zeros<float>({2, 3}), xt::zeros<float>({1, 3}), h, c, step),
      "LSTM.step_forward: c_prev has shape [1, 3] but must be [2, 3]", ShapeError);
}

TEST_CASE("lstm.fixed_shapes_reuse_buffers") {
  // Layer contract rule 4: a second call at the same shapes resizes nothing.
  Rng rng(2);
  LSTM lstm(3, 4, rng);
  const Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{2, 5, 3}, rng);
  Tensor3 h_seq, dx;
  LSTMCache cache;
  lstm.forward(x, nullptr, false, h_seq, cache);
  lstm.backward(h_seq, nullptr, nullptr, cache, dx);
  const float* buffers[] = {h_seq.data(), dx.data(), cache.gates.data(), cache.c.data(), cache.h_last.data()};
  lstm.forward(x, nullptr, true, h_seq, cache);
  lstm.backward(h_seq, nullptr, nullptr, cache, dx);
  const float* again[] = {h_seq.data(), dx.data(), cache.gates.data(), cache.c.data(), cache.h_last.data()};
  for (std::size_t i = 0; i < 5; ++i) CHECK(buffers[i] == again[i]);
}

TEST_CASE("lstm.learns_to_carry_the_first_token_through_padding") {
  // Target: h_last[b, 0] = 0.5 · x[b, 0] with x[b, 0] = ±1, followed by 1–5 real steps of
  // U(-1, 1) noise and then post-padding; plain SGD (lr 1) on L = mean_b (h_last[b, 0] − target)².
  const std::size_t batch = 16, steps = 6;
  Rng rng(12);
  LSTM lstm(1, 4, rng);
  Tensor3 x = random_tensor<Tensor3>(std::array<std::size_t, 3>{batch, steps, 1}, rng);
  Mask2 mask = xt::zeros<std::uint8_t>({batch, steps});
  Tensor1 target = xt::zeros<float>({batch});
  for (std::size_t b = 0; b < batch; ++b) {
    const std::size_t length = 2 + rng.below(5);
    for (std::size_t t = 0; t < length; ++t) mask(b, t) = 1;
    x(b, 0, 0) = b % 2 == 0 ? 1.f : -1.f;
    target(b) = 0.5f * x(b, 0, 0);
  }
  ParameterList params;
  lstm.parameters(params);
  Tensor3 h_seq, dx;
  const Tensor3 no_output_grad = xt::zeros<float>({batch, steps, std::size_t{4}});
  Tensor2 dh_last = xt::zeros<float>({batch, std::size_t{4}});
  LSTMCache cache;
  double first_loss = 0, loss = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    lstm.forward(x, &mask, false, h_seq, cache);
    loss = 0;
    for (std::size_t b = 0; b < batch; ++b) {
      const float err = cache.h_last(b, 0) - target(b);
      loss += err * err / batch;
      dh_last(b, 0) = 2.f * err / batch;
    }
    if (iteration == 0) first_loss = loss;
    zero_grads(params);
    lstm.backward(no_output_grad, &dh_last, nullptr, cache, dx);
    for (const Parameter& p : params) {
      for (std::size_t i = 0; i < p.size; ++i) p.value[i] -= 1.f * p.grad[i];
    }
  }
  INFO("loss " << first_loss << " -> " << loss);
  CHECK(loss < 0.1 * first_loss);
}
