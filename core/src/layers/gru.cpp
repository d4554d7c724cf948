#include "attn/layers/gru.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "attn/kernels/gemm.hpp"
#include "attn/kernels/vector_math.hpp"
#include "recurrent_common.hpp"

namespace attn {
namespace {

using recurrent_detail::add_column_sums;
using recurrent_detail::copy_or_zeros;
using recurrent_detail::fill_rows;
using recurrent_detail::previous_states;
using recurrent_detail::require_sequence;
using recurrent_detail::require_state;
using recurrent_detail::transpose_into;

// One row of the cell. `gates` [3U] holds xp on entry and the activations r, z, n on exit;
// hproj [3U] is hp; writes h [U].
void cell_forward(float* gates, const float* hproj, const float* h_prev, float* h, std::size_t units) {
  const std::size_t u = units;
  for (std::size_t j = 0; j < 2 * u; ++j) gates[j] += hproj[j];
  kernels::sigmoid(gates, gates, 2 * u);  // r, z
  const float* r = gates;
  const float* z = gates + u;
  float* n = gates + 2 * u;
  for (std::size_t j = 0; j < u; ++j) n[j] += r[j] * hproj[2 * u + j];
  kernels::tanh(n, n, u);
  for (std::size_t j = 0; j < u; ++j) h[j] = n[j] + z[j] * (h_prev[j] - n[j]);  // (1 − z) n + z h_prev
}

// One row of the cell backwards. dh [U] comes in as the total gradient w.r.t. h_t and leaves
// as the direct part of dL/dh_{t-1} (through z ⊙ h_prev); the part through hp is the caller's
// gemm (dhproj · w_hᵀ). Writes dL/dxp to dxproj [3U] and dL/dhp to dhproj [3U].
void cell_backward(float* dh, const float* gates, const float* hproj, const float* h_prev, float* dxproj, float* dhproj,
                   std::size_t units) {
  const std::size_t u = units;
  for (std::size_t j = 0; j < u; ++j) {
    const float r = gates[j], z = gates[u + j], n = gates[2 * u + j];
    // h = (1 − z) ⊙ n + z ⊙ h_prev
    const float dn = dh[j] * (1.f - z);
    const float dz = dh[j] * (h_prev[j] - n);
    dh[j] *= z;
    // n = tanh(xp_n + r ⊙ hp_n)
    const float dn_pre = dn * (1.f - n * n);
    const float dr = dn_pre * hproj[2 * u + j];
    // r, z = σ(xp + hp)
    const float dr_pre = dr * r * (1.f - r);
    const float dz_pre = dz * z * (1.f - z);
    dxproj[j] = dr_pre;
    dxproj[u + j] = dz_pre;
    dxproj[2 * u + j] = dn_pre;
    dhproj[j] = dr_pre;
    dhproj[u + j] = dz_pre;
    dhproj[2 * u + j] = dn_pre * r;
  }
}

}  // namespace

GRU::GRU(std::size_t input_size, std::size_t units, Rng& rng) : input_size_(input_size), units_(units) {
  if (input_size == 0 || units == 0) throw ShapeError("GRU: input_size and units must be positive");
  const std::size_t g = 3 * units;
  const float glorot = std::sqrt(6.f / static_cast<float>(input_size + g));
  w_x = random_uniform(rng, input_size, g, -glorot, glorot);
  const float recurrent = 1.f / std::sqrt(static_cast<float>(units));
  w_h = random_uniform(rng, units, g, -recurrent, recurrent);
  b_x = xt::zeros<float>({g});
  b_h = xt::zeros<float>({g});
  dw_x = xt::zeros<float>(w_x.shape());
  dw_h = xt::zeros<float>(w_h.shape());
  db_x = xt::zeros<float>({g});
  db_h = xt::zeros<float>({g});
}

void GRU::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w_x", w_x, dw_x);
  add_parameter(out, prefix, "w_h", w_h, dw_h);
  add_parameter(out, prefix, "b_x", b_x, db_x);
  add_parameter(out, prefix, "b_h", b_h, db_h);
}

// ---- step API ------------------------------------------------------------------------------

void GRU::step_forward(const Tensor2& x_t, const Tensor2& h_prev, Tensor2& h, GRUStepCache& cache) const {
  const char* where = "GRU.step_forward";
  const std::size_t u = units_, g = 3 * units_, d = input_size_;
  if (!(x_t.shape(1) == d && x_t.shape(0) > 0))
    throw_shape_error(where,
                      "x_t has shape " + shape_string(x_t.shape()) + " but must be [B, " + std::to_string(d) + "]");
  const std::size_t batch = x_t.shape(0);
  require_state(&h_prev, batch, u, where, "h_prev");

  // Copies first, so h may alias h_prev.
  copy_into(cache.x, x_t);
  copy_into(cache.h_prev, h_prev);
  const std::array<std::size_t, 2> gate_shape{batch, g};
  ensure_shape(cache.gates, gate_shape);
  ensure_shape(cache.hproj, gate_shape);
  ensure_shape(h, std::array<std::size_t, 2>{batch, u});

  // xp = x_t · w_x + b_x, hp = h_prev · w_h + b_h
  fill_rows(cache.gates.data(), batch, g, b_x);
  kernels::gemm(false, false, batch, g, d, 1.f, cache.x.data(), d, w_x.data(), g, 1.f, cache.gates.data(), g);
  fill_rows(cache.hproj.data(), batch, g, b_h);
  kernels::gemm(false, false, batch, g, u, 1.f, cache.h_prev.data(), u, w_h.data(), g, 1.f, cache.hproj.data(), g);
  for (std::size_t r = 0; r < batch; ++r) {
    cell_forward(cache.gates.data() + r * g, cache.hproj.data() + r * g, cache.h_prev.data() + r * u, h.data() + r * u,
                 u);
  }
}

void GRU::step_backward(const Tensor2& dh, const GRUStepCache& cache, Tensor2& dx_t, Tensor2& dh_prev) {
  const char* where = "GRU.step_backward";
  const std::size_t u = units_, g = 3 * units_, d = input_size_;
  const std::size_t batch = cache.gates.shape(0);
  if (!(batch > 0 && cache.gates.shape(1) == g && cache.x.shape(1) == d))
    throw_shape_error(where, "the cache holds no step_forward of this layer");
  require_state(&dh, batch, u, where, "dh");

  const std::array<std::size_t, 2> gate_shape{batch, g};
  ensure_shape(dxstep_, gate_shape);
  ensure_shape(dhstep_, gate_shape);
  copy_into(dh_, dh);
  for (std::size_t r = 0; r < batch; ++r) {
    cell_backward(dh_.data() + r * u, cache.gates.data() + r * g, cache.hproj.data() + r * g,
                  cache.h_prev.data() + r * u, dxstep_.data() + r * g, dhstep_.data() + r * g, u);
  }
  // hp = h_prev · w_h + b_h (dh_ holds the direct z ⊙ h_prev part)
  kernels::gemm(false, true, batch, u, g, 1.f, dhstep_.data(), g, w_h.data(), g, 1.f, dh_.data(), u);
  kernels::gemm(true, false, u, g, batch, 1.f, cache.h_prev.data(), u, dhstep_.data(), g, 1.f, dw_h.data(), g);
  add_column_sums(db_h, dhstep_.data(), batch, g);
  copy_into(dh_prev, dh_);
  // xp = x_t · w_x + b_x
  ensure_shape(dx_t, std::array<std::size_t, 2>{batch, d});
  kernels::gemm(false, true, batch, d, g, 1.f, dxstep_.data(), g, w_x.data(), g, 0.f, dx_t.data(), d);
  kernels::gemm(true, false, d, g, batch, 1.f, cache.x.data(), d, dxstep_.data(), g, 1.f, dw_x.data(), g);
  add_column_sums(db_x, dxstep_.data(), batch, g);
}

// ---- sequence API --------------------------------------------------------------------------

void GRU::forward(const Tensor3& x, const Mask2* mask, bool reverse, Tensor3& h_seq, GRUCache& cache,
                  const Tensor2* h0) const {
  const char* where = "GRU.forward";
  const std::size_t u = units_, g = 3 * units_, d = input_size_;
  require_sequence(where, x, mask, d);
  const std::size_t batch = x.shape(0), steps = x.shape(1);
  require_state(h0, batch, u, where, "h0");

  const std::array<std::size_t, 2> state_shape{batch, u};
  const std::array<std::size_t, 3> seq_shape{batch, steps, u}, gate_shape{batch, steps, g};
  cache.reverse = reverse;
  copy_into(cache.x, x);
  copy_mask_or_ones(mask, batch, steps, cache.mask);
  copy_or_zeros(cache.h0, h0, state_shape);
  ensure_shape(cache.gates, gate_shape);
  ensure_shape(cache.hproj, gate_shape);
  ensure_shape(cache.h, seq_shape);
  ensure_shape(cache.h_last, state_shape);
  ensure_shape(h_seq, seq_shape);

  // Input projection of every step at once: xp[B·T, 3U] = x[B·T, D] · w_x + b_x.
  float* gates = cache.gates.data();
  fill_rows(gates, batch * steps, g, b_x);
  kernels::gemm(false, false, batch * steps, g, d, 1.f, cache.x.data(), d, w_x.data(), g, 1.f, gates, g);

  // Rows of step t sit T·(3U) (or T·U) floats apart; the gemms read and write them in place.
  const std::size_t gate_ld = steps * g, state_ld = steps * u;
  for (std::size_t s = 0; s < steps; ++s) {
    const std::size_t t = reverse ? steps - 1 - s : s;
    const std::size_t t_prev = reverse ? t + 1 : t - 1;  // used only when s > 0
    const float* h_prev = s == 0 ? cache.h0.data() : cache.h.data() + t_prev * u;
    const std::size_t prev_ld = s == 0 ? u : state_ld;
    float* gates_t = gates + t * g;
    float* hproj_t = cache.hproj.data() + t * g;
    // hp_t = h_{t-1} · w_h + b_h
    fill_rows(hproj_t, batch, gate_ld, b_h);
    kernels::gemm(false, false, batch, g, u, 1.f, h_prev, prev_ld, w_h.data(), g, 1.f, hproj_t, gate_ld);
    for (std::size_t r = 0; r < batch; ++r) {
      const std::size_t at = (r * steps + t) * u;
      float* h_t = cache.h.data() + at;
      float* out = h_seq.data() + at;
      const float* h_prev_row = h_prev + r * prev_ld;
      if (cache.mask(r, t) != 0) {
        cell_forward(gates_t + r * gate_ld, hproj_t + r * gate_ld, h_prev_row, h_t, u);
        std::copy(h_t, h_t + u, out);
      } else {
        std::copy(h_prev_row, h_prev_row + u, h_t);
        std::fill(out, out + u, 0.f);
      }
    }
  }
  const std::size_t t_last = reverse ? 0 : steps - 1;
  for (std::size_t r = 0; r < batch; ++r) {
    const std::size_t at = (r * steps + t_last) * u;
    std::copy(cache.h.data() + at, cache.h.data() + at + u, cache.h_last.data() + r * u);
  }
}

void GRU::backward(const Tensor3& dh_seq, const Tensor2* dh_last, const GRUCache& cache, Tensor3& dx, Tensor2* dh0) {
  const char* where = "GRU.backward";
  const std::size_t u = units_, g = 3 * units_, d = input_size_;
  if (!(cache.h.size() > 0 && cache.gates.shape(2) == g && cache.x.shape(2) == d))
    throw_shape_error(where, "the cache holds no forward of this layer");
  const std::size_t batch = cache.h.shape(0), steps = cache.h.shape(1);
  if (!(dh_seq.shape() == cache.h.shape()))
    throw_shape_error(where, "dh_seq has shape " + shape_string(dh_seq.shape()) +
                                 " but the forward output h_seq has shape " + shape_string(cache.h.shape()));
  require_state(dh_last, batch, u, where, "dh_last");

  const std::array<std::size_t, 3> gate_shape{batch, steps, g};
  ensure_shape(dh_, std::array<std::size_t, 2>{batch, u});
  ensure_shape(dxproj_, gate_shape);
  ensure_shape(dhproj_, gate_shape);
  if (dh_last != nullptr)
    copy_into(dh_, *dh_last);
  else
    std::fill(dh_.begin(), dh_.end(), 0.f);

  // w_hᵀ [3U, U], once per pass: the dh product then reads it in place at every step.
  transpose_into(w_h_t_, w_h);
  const std::size_t gate_ld = steps * g, state_ld = steps * u;
  for (std::size_t s = steps; s-- > 0;) {
    const std::size_t t = cache.reverse ? steps - 1 - s : s;
    const std::size_t t_prev = cache.reverse ? t + 1 : t - 1;
    const float* h_prev = s == 0 ? cache.h0.data() : cache.h.data() + t_prev * u;
    const std::size_t prev_ld = s == 0 ? u : state_ld;
    float* dxproj_t = dxproj_.data() + t * g;
    float* dhproj_t = dhproj_.data() + t * g;
    for (std::size_t r = 0; r < batch; ++r) {
      float* dxproj_row = dxproj_t + r * gate_ld;
      float* dhproj_row = dhproj_t + r * gate_ld;
      if (cache.mask(r, t) == 0) {
        // State carried: dh passes to t-1 untouched; h_seq[r, t] = 0 takes no gradient.
        std::fill(dxproj_row, dxproj_row + g, 0.f);
        std::fill(dhproj_row, dhproj_row + g, 0.f);
        continue;
      }
      const std::size_t at = (r * steps + t) * u;
      float* dh = dh_.data() + r * u;
      for (std::size_t j = 0; j < u; ++j) dh[j] += dh_seq.data()[at + j];  // output and recurrence
      const std::size_t gate_at = (r * steps + t) * g;
      cell_backward(dh, cache.gates.data() + gate_at, cache.hproj.data() + gate_at, h_prev + r * prev_ld, dxproj_row,
                    dhproj_row, u);
    }
    // hp_t = h_{t-1} · w_h + b_h. Padded rows have zero dhproj, so their carried dh is kept.
    kernels::gemm(false, false, batch, u, g, 1.f, dhproj_t, gate_ld, w_h_t_.data(), u, 1.f, dh_.data(), u);
  }
  // dw_h += Σ_t h_{t-1}ᵀ · dhproj_t as one product over all B·T rows: h_prev_[b, t] is the state
  // step t read, so row (b, t) of it pairs with row (b, t) of dhproj. Padded steps add nothing.
  ensure_shape(h_prev_, std::array<std::size_t, 3>{batch, steps, u});
  for (std::size_t r = 0; r < batch; ++r) {
    previous_states(cache.h.data() + r * state_ld, cache.h0.data() + r * u, steps, u, cache.reverse,
                    h_prev_.data() + r * state_ld);
  }
  kernels::gemm(true, false, u, g, batch * steps, 1.f, h_prev_.data(), u, dhproj_.data(), g, 1.f, dw_h.data(), g);
  add_column_sums(db_h, dhproj_.data(), batch * steps, g);

  // xp[B·T, 3U] = x[B·T, D] · w_x + b_x, all steps at once.
  ensure_shape(dx, std::array<std::size_t, 3>{batch, steps, d});
  kernels::gemm(false, true, batch * steps, d, g, 1.f, dxproj_.data(), g, w_x.data(), g, 0.f, dx.data(), d);
  kernels::gemm(true, false, d, g, batch * steps, 1.f, cache.x.data(), d, dxproj_.data(), g, 1.f, dw_x.data(), g);
  add_column_sums(db_x, dxproj_.data(), batch * steps, g);
  if (dh0 != nullptr) copy_into(*dh0, dh_);
}

}  // namespace attn
