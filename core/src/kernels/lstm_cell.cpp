#include "attn/kernels/lstm_cell.hpp"

#include "attn/kernels/vector_math.hpp"
#include "lstm_cell_x86.hpp"
#include "simd4_math.hpp"

namespace attn::kernels {

void lstm_cell_forward_reference(float* gates, const float* c_prev, float* c, float* tanh_c, float* h,
                                 std::size_t units) {
  const std::size_t u = units;
  sigmoid_reference(gates, gates, 2 * u);              // i, f
  tanh_reference(gates + 2 * u, gates + 2 * u, u);     // g
  sigmoid_reference(gates + 3 * u, gates + 3 * u, u);  // o
  const float* i = gates;
  const float* f = gates + u;
  const float* g = gates + 2 * u;
  const float* o = gates + 3 * u;
  for (std::size_t j = 0; j < u; ++j) c[j] = f[j] * c_prev[j] + i[j] * g[j];
  tanh_reference(c, tanh_c, u);
  for (std::size_t j = 0; j < u; ++j) h[j] = o[j] * tanh_c[j];
}

void lstm_cell_backward_reference(const float* dh, float* dc, const float* gates, const float* tanh_c,
                                  const float* c_prev, float* dgates, std::size_t units) {
  const std::size_t u = units;
  for (std::size_t j = 0; j < u; ++j) {
    const float i = gates[j], f = gates[u + j], g = gates[2 * u + j], o = gates[3 * u + j];
    const float tc = tanh_c[j];
    // h = o ⊙ tanh(c)
    const float d_o = dh[j] * tc;
    const float d_c = dc[j] + dh[j] * o * (1.f - tc * tc);
    // c = f ⊙ c_prev + i ⊙ g
    const float d_i = d_c * g;
    const float d_f = d_c * c_prev[j];
    const float d_g = d_c * i;
    dc[j] = d_c * f;
    // [i f g o] = [σ σ tanh σ](pre)
    dgates[j] = d_i * i * (1.f - i);
    dgates[u + j] = d_f * f * (1.f - f);
    dgates[2 * u + j] = d_g * (1.f - g * g);
    dgates[3 * u + j] = d_o * o * (1.f - o);
  }
}

namespace {

using namespace simd4;

// Four units of the backward; the same expressions as lstm_cell_backward_reference.
ATTN_SIMD4_INLINE void backward4(const float* dh_p, float* dc_p, const float* const (&gates)[4], const float* tanh_c,
                                 const float* c_prev, float* const (&dgates)[4]) {
  const F4 one = splat(1.f);
  const F4 i = load(gates[0]), f = load(gates[1]), g = load(gates[2]), o = load(gates[3]);
  const F4 tc = load(tanh_c);
  const F4 dh = load(dh_p);
  const F4 d_o = dh * tc;
  const F4 d_c = load(dc_p) + dh * o * (one - tc * tc);
  const F4 d_i = d_c * g;
  const F4 d_f = d_c * load(c_prev);
  const F4 d_g = d_c * i;
  store(dc_p, d_c * f);
  store(dgates[0], d_i * i * (one - i));
  store(dgates[1], d_f * f * (one - f));
  store(dgates[2], d_g * (one - g * g));
  store(dgates[3], d_o * o * (one - o));
}

}  // namespace

void lstm_cell_forward(float* gates, const float* c_prev, float* c, float* tanh_c, float* h, std::size_t units) {
  const std::size_t u = units;
  std::size_t j = 0;
#if defined(ATTN_GEMM_X86)
  // Natively, eight units at a time where the CPU has AVX2 (the same bits as the path below).
  static const bool avx2 = x86::cpu_has_avx2_fma();
  if (avx2) j = x86::lstm_cell_forward_avx2(gates, c_prev, c, tanh_c, h, u);
#endif
  for (; j + 4 <= u; j += 4) {
    float* const g4[4] = {gates + j, gates + u + j, gates + 2 * u + j, gates + 3 * u + j};
    lanes::lstm_cell_forward(F4{}, g4, c_prev + j, c + j, tanh_c + j, h + j);
  }
  if (j == u) return;
  // The last u - j < 4 units, zero-padded: [gates i f g o | c_prev | c | tanh_c | h].
  float pad[8][4] = {};
  const std::size_t n = u - j;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t q = 0; q < 4; ++q) pad[q][k] = gates[q * u + j + k];
    pad[4][k] = c_prev[j + k];
  }
  float* const g4[4] = {pad[0], pad[1], pad[2], pad[3]};
  lanes::lstm_cell_forward(F4{}, g4, pad[4], pad[5], pad[6], pad[7]);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t q = 0; q < 4; ++q) gates[q * u + j + k] = pad[q][k];
    c[j + k] = pad[5][k];
    tanh_c[j + k] = pad[6][k];
    h[j + k] = pad[7][k];
  }
}

void lstm_cell_backward(const float* dh, float* dc, const float* gates, const float* tanh_c, const float* c_prev,
                        float* dgates, std::size_t units) {
  const std::size_t u = units;
  std::size_t j = 0;
  for (; j + 4 <= u; j += 4) {
    const float* const g4[4] = {gates + j, gates + u + j, gates + 2 * u + j, gates + 3 * u + j};
    float* const d4[4] = {dgates + j, dgates + u + j, dgates + 2 * u + j, dgates + 3 * u + j};
    backward4(dh + j, dc + j, g4, tanh_c + j, c_prev + j, d4);
  }
  if (j == u) return;
  // The last u - j < 4 units, zero-padded: [gates i f g o | tanh_c | c_prev | dh | dc | dgates i f g o].
  float pad[12][4] = {};
  const std::size_t n = u - j;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t q = 0; q < 4; ++q) pad[q][k] = gates[q * u + j + k];
    pad[4][k] = tanh_c[j + k];
    pad[5][k] = c_prev[j + k];
    pad[6][k] = dh[j + k];
    pad[7][k] = dc[j + k];
  }
  const float* const g4[4] = {pad[0], pad[1], pad[2], pad[3]};
  float* const d4[4] = {pad[8], pad[9], pad[10], pad[11]};
  backward4(pad[6], pad[7], g4, pad[4], pad[5], d4);
  for (std::size_t k = 0; k < n; ++k) {
    dc[j + k] = pad[7][k];
    for (std::size_t q = 0; q < 4; ++q) dgates[q * u + j + k] = pad[8 + q][k];
  }
}

}  // namespace attn::kernels
