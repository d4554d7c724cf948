#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "attn/kernels/lstm_cell.hpp"
#include "attn/random.hpp"

namespace kernels = attn::kernels;

namespace {

std::vector<float> random_vector(attn::Rng& rng, std::size_t n, float spread) {
  std::vector<float> v(n);
  for (float& x : v) x = rng.uniform(-spread, spread);
  return v;
}

// |a - b| <= 1e-6 · (1 + |b|) elementwise: the fast σ / tanh are within 2.4e-7 relative of
// std::'s, and one multiply-add of such values stays well inside this bound.
void check_close_vectors(const std::vector<float>& a, const std::vector<float>& b, const char* what) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(what << "[" << i << "]: fast " << a[i] << " reference " << b[i]);
    CHECK(std::fabs(a[i] - b[i]) <= 1e-6f * (1.f + std::fabs(b[i])));
  }
}

}  // namespace

TEST_CASE("lstm_cell.forward_matches_reference") {
  // U = 1..9 cover rows with only a padded tail, the 4-wide body, and both; 32 is model (a)'s U.
  attn::Rng rng(11);
  for (std::size_t u : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 12u, 16u, 32u}) {
    INFO("units = " << u);
    // Pre-activations up to ±12 reach σ's and tanh's flat ends.
    const std::vector<float> pre = random_vector(rng, 4 * u, 12.f), c_prev = random_vector(rng, u, 3.f);
    std::vector<float> gates = pre, c(u), tanh_c(u), h(u);
    std::vector<float> gates_ref = pre, c_ref(u), tanh_c_ref(u), h_ref(u);
    kernels::lstm_cell_forward(gates.data(), c_prev.data(), c.data(), tanh_c.data(), h.data(), u);
    kernels::lstm_cell_forward_reference(gates_ref.data(), c_prev.data(), c_ref.data(), tanh_c_ref.data(), h_ref.data(),
                                         u);
    check_close_vectors(gates, gates_ref, "gates");
    check_close_vectors(c, c_ref, "c");
    check_close_vectors(tanh_c, tanh_c_ref, "tanh_c");
    check_close_vectors(h, h_ref, "h");
  }
}

TEST_CASE("lstm_cell.forward_by_hand") {
  // U = 1, pre = [i f g o] = [0, 0, 0, 0]: i = f = o = 1/2, g = 0, so c = c_prev / 2 = 1 and
  // h = tanh(1) / 2.
  float gates[4] = {0.f, 0.f, 0.f, 0.f};
  const float c_prev = 2.f;
  float c = 0.f, tanh_c = 0.f, h = 0.f;
  kernels::lstm_cell_forward(gates, &c_prev, &c, &tanh_c, &h, 1);
  CHECK(gates[0] == 0.5f);
  CHECK(gates[1] == 0.5f);
  CHECK(gates[2] == 0.f);
  CHECK(gates[3] == 0.5f);
  CHECK(c == 1.f);
  CHECK(tanh_c == doctest::Approx(std::tanh(1.0)).epsilon(1e-6));
  CHECK(h == doctest::Approx(std::tanh(1.0) / 2).epsilon(1e-6));
}

TEST_CASE("lstm_cell.backward_matches_reference") {
  attn::Rng rng(12);
  for (std::size_t u : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 32u}) {
    INFO("units = " << u);
    // Activations as a forward leaves them: i, f, o in (0, 1), g and tanh(c) in (-1, 1).
    std::vector<float> gates = random_vector(rng, 4 * u, 1.f);
    for (std::size_t j = 0; j < u; ++j) {
      gates[j] = 0.5f + 0.5f * gates[j];
      gates[u + j] = 0.5f + 0.5f * gates[u + j];
      gates[3 * u + j] = 0.5f + 0.5f * gates[3 * u + j];
    }
    const std::vector<float> tanh_c = random_vector(rng, u, 1.f), c_prev = random_vector(rng, u, 3.f);
    const std::vector<float> dh = random_vector(rng, u, 1.f), dc_in = random_vector(rng, u, 1.f);
    std::vector<float> dc = dc_in, dgates(4 * u), dc_ref = dc_in, dgates_ref(4 * u);
    kernels::lstm_cell_backward(dh.data(), dc.data(), gates.data(), tanh_c.data(), c_prev.data(), dgates.data(), u);
    kernels::lstm_cell_backward_reference(dh.data(), dc_ref.data(), gates.data(), tanh_c.data(), c_prev.data(),
                                          dgates_ref.data(), u);
    check_close_vectors(dc, dc_ref, "dc");
    check_close_vectors(dgates, dgates_ref, "dgates");
  }
}

TEST_CASE("lstm_cell.a_unit_does_not_depend_on_its_position") {
  // The same unit in the padded tail (U = 5, unit 4) and in the 4-wide body (U = 8, unit 4)
  // gives the same bits.
  const float pre5[20] = {0.3f,  -1, 2,    0.1f,  1.7f, 0.2f, 0.4f,  -2,   1,    -0.9f,
                          -0.5f, 3,  0.6f, -1.2f, 0.8f, 1.1f, -0.3f, 2.2f, 0.5f, -2.5f};
  const float c_prev5[5] = {0.5f, -0.25f, 1.5f, -2.f, 0.75f};
  std::vector<float> gates5(pre5, pre5 + 20), c5(5), tc5(5), h5(5);
  kernels::lstm_cell_forward(gates5.data(), c_prev5, c5.data(), tc5.data(), h5.data(), 5);
  // U = 8 with unit 4 holding unit 4 of the U = 5 row.
  std::vector<float> gates8(32, 0.f), c_prev8(8, 0.f), c8(8), tc8(8), h8(8);
  for (std::size_t q = 0; q < 4; ++q) gates8[q * 8 + 4] = pre5[q * 5 + 4];
  c_prev8[4] = c_prev5[4];
  kernels::lstm_cell_forward(gates8.data(), c_prev8.data(), c8.data(), tc8.data(), h8.data(), 8);
  for (std::size_t q = 0; q < 4; ++q) CHECK(gates8[q * 8 + 4] == gates5[q * 5 + 4]);
  CHECK(c8[4] == c5[4]);
  CHECK(tc8[4] == tc5[4]);
  CHECK(h8[4] == h5[4]);
}

TEST_CASE("lstm_cell.every_width_gives_the_same_bits") {
  // U = 20 runs natively through the AVX2 eight-unit blocks where the CPU has them, then the
  // four-unit path; U = 1 only through the padded tail. Each unit must come out the same.
  attn::Rng rng(13);
  const std::size_t u = 20;
  const std::vector<float> pre = random_vector(rng, 4 * u, 12.f), c_prev = random_vector(rng, u, 3.f);
  std::vector<float> gates = pre, c(u), tanh_c(u), h(u);
  kernels::lstm_cell_forward(gates.data(), c_prev.data(), c.data(), tanh_c.data(), h.data(), u);
  for (std::size_t k = 0; k < u; ++k) {
    INFO("unit " << k);
    float one[4] = {pre[k], pre[u + k], pre[2 * u + k], pre[3 * u + k]};
    float c1 = 0.f, tc1 = 0.f, h1 = 0.f;
    kernels::lstm_cell_forward(one, &c_prev[k], &c1, &tc1, &h1, 1);
    for (std::size_t q = 0; q < 4; ++q) CHECK(one[q] == gates[q * u + k]);
    CHECK(c1 == c[k]);
    CHECK(tc1 == tanh_c[k]);
    CHECK(h1 == h[k]);
  }
}
