#include <doctest/doctest.h>

#include "attn/layers/positional_encoding.hpp"
#include "support/grad_check.hpp"
#include "support/tensor_check.hpp"

using namespace attn;
using attn::test::check_close;

TEST_CASE("positional_encoding.sinusoidal_values") {
  // D = 4: column pairs (0, 1) use pos / 10000^0 = pos, (2, 3) use pos / 10000^(2/4) = pos / 100.
  //   pos 0: [sin 0, cos 0, sin 0, cos 0]           = [0, 1, 0, 1]
  //   pos 1: [sin 1, cos 1, sin 0.01, cos 0.01]     = [0.841471, 0.540302, 0.010000, 0.999950]
  //   pos 2: [sin 2, cos 2, sin 0.02, cos 0.02]     = [0.909297, -0.416147, 0.019999, 0.999800]
  check_close(sinusoidal_positional_encoding(3, 4), {3, 4},
              {0, 1, 0, 1, 0.841471f, 0.540302f, 0.0099998f, 0.999950f, 0.909297f, -0.416147f, 0.0199987f, 0.999800f},
              1e-6f);
  // Odd D = 3: column 2 (= 2i with i = 1) is a lone sine at pos / 10000^(2/3) = pos / 464.1589.
  //   pos 1: [sin 1, cos 1, sin(0.00215443)] ; pos 3: [sin 3, cos 3, sin(0.00646333)]
  const Tensor2 odd = sinusoidal_positional_encoding(4, 3);
  check_close(xt::eval(xt::view(odd, 1, xt::all())), {3}, {0.841471f, 0.540302f, 0.00215443f}, 1e-6f);
  check_close(xt::eval(xt::view(odd, 3, xt::all())), {3}, {0.141120f, -0.989992f, 0.00646326f}, 1e-6f);
  CHECK_THROWS_AS(sinusoidal_positional_encoding(3, 0), std::invalid_argument);
}

TEST_CASE("positional_encoding.add_sinusoidal_adds_the_table_to_every_batch_row") {
  Rng rng(1);
  Tensor3 x = xt::empty<float>({2, 5, 6});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  const Tensor3 before = x;
  add_sinusoidal_positional_encoding(x);
  const Tensor2 pe = sinusoidal_positional_encoding(5, 6);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t d = 0; d < 6; ++d) CHECK(x(b, t, d) == before(b, t, d) + pe(t, d));
}

TEST_CASE("positional_encoding.learned_forward_backward_hand_computed") {
  Rng rng(2);
  LearnedPositionalEncoding layer(3, 2, rng);
  ParameterList params;
  layer.parameters(params, "pos.");
  REQUIRE(params.size() == 1);
  CHECK(params[0].name == "pos.position");
  CHECK(params[0].shape == std::vector<std::size_t>{3, 2});
  for (float p : layer.position()) CHECK(std::fabs(p) < 0.05f);
  const float table[] = {1, 2, 3, 4, 5, 6};  // P = [[1, 2], [3, 4], [5, 6]]
  std::copy(table, table + 6, params[0].value);
  // T = 2 < max_len: only P[0] and P[1] are used.
  const Tensor3 x = {{{10, 20}, {30, 40}}, {{0, 0}, {-1, -1}}};
  Tensor3 y, dx;
  layer.forward(x, y);
  // y[b, t] = x[b, t] + P[t]
  check_close(y, {2, 2, 2}, {11, 22, 33, 44, 1, 2, 2, 3}, 0.f);
  const Tensor3 dy = {{{1, 2}, {3, 4}}, {{10, 20}, {30, 40}}};
  zero_grads(params);
  layer.backward(dy, dx);
  // dx = dy; dP[0] = [1 + 10, 2 + 20], dP[1] = [3 + 30, 4 + 40], dP[2] untouched
  CHECK(dx == dy);
  check_close(Tensor1(xt::adapt(params[0].grad, 6, xt::no_ownership(), std::array<std::size_t, 1>{6})), {6},
              {11, 22, 33, 44, 0, 0}, 0.f);
}

TEST_CASE("positional_encoding.learned_gradient_check") {
  // Tolerances: the defaults (step 1e-2, rel 2e-2, abs 2e-3); y is linear in x and P.
  Rng rng(3);
  LearnedPositionalEncoding layer(5, 3, rng);
  Tensor3 x = xt::empty<float>({2, 4, 3});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  Tensor3 y, dx;
  layer.forward(x, y);
  const Tensor3 r = attn::test::probe_weights(y, 5);
  ParameterList params;
  layer.parameters(params, "");
  zero_grads(params);
  layer.backward(r, dx);
  auto loss = [&] {
    Tensor3 out;
    layer.forward(x, out);
    return attn::test::probe_loss(out, r);
  };
  // P's last row (t = 4) is unused at T = 4: its analytic 0 must match a numeric 0.
  attn::test::GradCheckOptions all;
  all.max_probes = 15;
  attn::test::check_parameter_gradients(params, loss, all);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
}

TEST_CASE("positional_encoding.learned_rejects_long_sequences_and_bad_dims") {
  Rng rng(4);
  LearnedPositionalEncoding layer(3, 2, rng);
  Tensor3 y;
  CHECK_THROWS_WITH_AS(layer.forward(Tensor3(xt::zeros<float>({1, 4, 2})), y),
                       "LearnedPositionalEncoding::forward: x has 4 time steps but max_len is 3; build the "
                       "encoding with a larger max_len",
                       ShapeError);
  CHECK_THROWS_WITH_AS(layer.forward(Tensor3(xt::zeros<float>({1, 2, 5})), y),
                       "LearnedPositionalEncoding::forward: x has shape [1, 2, 5]; it must be [B, T, 2]", ShapeError);
  CHECK_THROWS_AS(LearnedPositionalEncoding(0, 2, rng), std::invalid_argument);
}

TEST_CASE("positional_encoding.positions_count_from_each_rows_first_real_token") {
  // Row 0 all real, row 1 'pre'-padded (real from t = 2), row 2 without a real token.
  const Mask2 mask = {{1, 1, 1}, {0, 0, 1}, {0, 0, 0}};
  std::vector<std::size_t> starts;
  sequence_starts(mask, starts);
  CHECK(starts == std::vector<std::size_t>{0, 2, 3});

  // Learned, P = [[1, 2], [3, 4], [5, 6]], x = 0: row 0 gets P[0], P[1], P[2]; row 1 gets
  // nothing at t = 0, 1 and P[0] at t = 2 (its first position); row 2 gets nothing.
  Rng rng(5);
  LearnedPositionalEncoding layer(3, 2, rng);
  ParameterList params;
  layer.parameters(params, "");
  const float table[] = {1, 2, 3, 4, 5, 6};
  std::copy(table, table + 6, params[0].value);
  const Tensor3 x = xt::zeros<float>({3, 3, 2});
  Tensor3 y, dx;
  layer.forward(x, y, &starts);
  check_close(y, {3, 3, 2}, {1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0}, 0.f);
  // dy = 1 everywhere: dP[p] sums the rows whose position p exists: dP[0] = 2 (rows 0 and 1),
  // dP[1] = dP[2] = 1 (row 0 only).
  zero_grads(params);
  layer.backward(Tensor3(xt::ones<float>({3, 3, 2})), dx, &starts);
  check_close(Tensor1(xt::adapt(params[0].grad, 6, xt::no_ownership(), std::array<std::size_t, 1>{6})), {6},
              {2, 2, 1, 1, 1, 1}, 0.f);

  // Sinusoidal: the same shift; row 1's t = 2 gets PE[0] = [sin 0, cos 0, sin 0, cos 0].
  Tensor3 s = xt::zeros<float>({3, 3, 4});
  add_sinusoidal_positional_encoding(s, &starts);
  const Tensor2 pe = sinusoidal_positional_encoding(3, 4);
  for (std::size_t t = 0; t < 3; ++t) {
    for (std::size_t d = 0; d < 4; ++d) {
      CHECK(s(0, t, d) == pe(t, d));
      CHECK(s(1, t, d) == (t == 2 ? pe(0, d) : 0.f));
      CHECK(s(2, t, d) == 0.f);
    }
  }

  const std::vector<std::size_t> too_far = {0, 4, 0};
  CHECK_THROWS_WITH_AS(layer.forward(x, y, &too_far),
                       "LearnedPositionalEncoding::forward: starts[1] = 4 is past the 3 time steps", ShapeError);
  const std::vector<std::size_t> short_list = {0};
  CHECK_THROWS_WITH_AS(add_sinusoidal_positional_encoding(s, &short_list),
                       "add_sinusoidal_positional_encoding: starts has 1 entries for a batch of 3", ShapeError);
}

TEST_CASE("positional_encoding.learned_gradient_check_with_shifted_rows") {
  // Rows starting at 0, 1 and 3 of T = 4: each scatters its gradient to P[0 .. T − s_b − 1].
  Rng rng(6);
  LearnedPositionalEncoding layer(5, 3, rng);
  Tensor3 x = xt::empty<float>({3, 4, 3});
  for (auto& v : x) v = rng.uniform(-1.f, 1.f);
  const std::vector<std::size_t> starts = {0, 1, 3};
  Tensor3 y, dx;
  layer.forward(x, y, &starts);
  const Tensor3 r = attn::test::probe_weights(y, 7);
  ParameterList params;
  layer.parameters(params, "");
  zero_grads(params);
  layer.backward(r, dx, &starts);
  auto loss = [&] {
    Tensor3 out;
    layer.forward(x, out, &starts);
    return attn::test::probe_loss(out, r);
  };
  attn::test::GradCheckOptions all;
  all.max_probes = 15;
  attn::test::check_parameter_gradients(params, loss, all);
  attn::test::check_gradient("x", x.data(), dx.data(), x.size(), loss);
}

TEST_CASE("positional_encoding.cached_table_adds_the_same_values") {
  // The table path (a cache the encoder keeps between steps) must give the bits of the direct
  // path, with and without starts, and refill itself when T or D changes.
  Rng rng(11);
  Tensor2 table;
  for (const auto& [batch, time, dim] : {std::array<std::size_t, 3>{3, 7, 6}, {2, 9, 5}, {4, 4, 5}, {1, 1, 1}}) {
    Tensor3 direct = xt::empty<float>({batch, time, dim});
    for (float& v : direct) v = rng.uniform(-1.f, 1.f);
    std::vector<std::size_t> starts(batch);
    for (std::size_t b = 0; b < batch; ++b) starts[b] = (b * 3) % (time + 1);  // includes rows with no token
    const std::array<const std::vector<std::size_t>*, 2> cases{nullptr, &starts};
    for (const std::vector<std::size_t>* s : cases) {
      Tensor3 expected = direct, cached = direct;
      add_sinusoidal_positional_encoding(expected, s);
      add_sinusoidal_positional_encoding(cached, s, &table);
      CHECK(table.shape()[1] == dim);
      CHECK(table.shape()[0] >= time);
      CHECK(cached == expected);
    }
  }
}
