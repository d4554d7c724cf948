#include "attn/layers/lstm.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "attn/kernels/gemm.hpp"
#include "attn/kernels/lstm_cell.hpp"
#include "recurrent_common.hpp"

namespace attn {
namespace {

using recurrent_detail::add_column_sums;
using recurrent_detail::batch_major_copy;
using recurrent_detail::copy_or_zeros;
using recurrent_detail::fill_rows;
using recurrent_detail::previous_states;
using recurrent_detail::require_sequence;
using recurrent_detail::require_state;
using recurrent_detail::time_major_copy;
using recurrent_detail::transpose_into;

}  // namespace

LSTM::LSTM(std::size_t input_size, std::size_t units, Rng& rng) : input_size_(input_size), units_(units) {
  if (input_size == 0 || units == 0) throw ShapeError("LSTM: input_size and units must be positive");
  const std::size_t g = 4 * units;
  const float glorot = std::sqrt(6.f / static_cast<float>(input_size + g));
  w_x = random_uniform(rng, input_size, g, -glorot, glorot);
  const float recurrent = 1.f / std::sqrt(static_cast<float>(units));
  w_h = random_uniform(rng, units, g, -recurrent, recurrent);
  b = xt::zeros<float>({g});
  for (std::size_t j = units; j < 2 * units; ++j) b(j) = 1.f;  // forget gate starts open
  dw_x = xt::zeros<float>(w_x.shape());
  dw_h = xt::zeros<float>(w_h.shape());
  db = xt::zeros<float>(b.shape());
}

void LSTM::parameters(ParameterList& out, const std::string& prefix) {
  add_parameter(out, prefix, "w_x", w_x, dw_x);
  add_parameter(out, prefix, "w_h", w_h, dw_h);
  add_parameter(out, prefix, "b", b, db);
}

// ---- step API ------------------------------------------------------------------------------

void LSTM::step_forward(const Tensor2& x_t, const Tensor2& h_prev, const Tensor2& c_prev, Tensor2& h, Tensor2& c,
                        LSTMStepCache& cache) const {
  const char* where = "LSTM.step_forward";
  const std::size_t u = units_, g = 4 * units_, d = input_size_;
  if (!(x_t.shape(1) == d && x_t.shape(0) > 0))
    throw_shape_error(where,
                      "x_t has shape " + shape_string(x_t.shape()) + " but must be [B, " + std::to_string(d) + "]");
  const std::size_t batch = x_t.shape(0);
  require_state(&h_prev, batch, u, where, "h_prev");
  require_state(&c_prev, batch, u, where, "c_prev");

  // Copies first, so h / c may alias h_prev / c_prev.
  copy_into(cache.x, x_t);
  copy_into(cache.h_prev, h_prev);
  copy_into(cache.c_prev, c_prev);
  const std::array<std::size_t, 2> gate_shape{batch, g}, state_shape{batch, u};
  ensure_shape(cache.gates, gate_shape);
  ensure_shape(cache.tanh_c, state_shape);
  ensure_shape(h, state_shape);
  ensure_shape(c, state_shape);

  float* gates = cache.gates.data();
  fill_rows(gates, batch, g, b);
  // pre = x_t · w_x + h_prev · w_h + b
  kernels::gemm(false, false, batch, g, d, 1.f, cache.x.data(), d, w_x.data(), g, 1.f, gates, g);
  kernels::gemm(false, false, batch, g, u, 1.f, cache.h_prev.data(), u, w_h.data(), g, 1.f, gates, g);
  for (std::size_t r = 0; r < batch; ++r) {
    kernels::lstm_cell_forward(gates + r * g, cache.c_prev.data() + r * u, c.data() + r * u,
                               cache.tanh_c.data() + r * u, h.data() + r * u, u);
  }
}

void LSTM::step_backward(const Tensor2& dh, const Tensor2& dc, const LSTMStepCache& cache, Tensor2& dx_t,
                         Tensor2& dh_prev, Tensor2& dc_prev) {
  const char* where = "LSTM.step_backward";
  const std::size_t u = units_, g = 4 * units_, d = input_size_;
  const std::size_t batch = cache.gates.shape(0);
  if (!(batch > 0 && cache.gates.shape(1) == g && cache.x.shape(1) == d))
    throw_shape_error(where, "the cache holds no step_forward of this layer");
  require_state(&dh, batch, u, where, "dh");
  require_state(&dc, batch, u, where, "dc");

  const std::array<std::size_t, 2> gate_shape{batch, g}, state_shape{batch, u};
  ensure_shape(dstep_, gate_shape);
  copy_into(dh_, dh);
  copy_into(dc_, dc);
  // The cell, row by row; dc_ becomes dL/dc_prev.
  for (std::size_t r = 0; r < batch; ++r) {
    kernels::lstm_cell_backward(dh_.data() + r * u, dc_.data() + r * u, cache.gates.data() + r * g,
                                cache.tanh_c.data() + r * u, cache.c_prev.data() + r * u, dstep_.data() + r * g, u);
  }
  ensure_shape(dx_t, std::array<std::size_t, 2>{batch, d});
  ensure_shape(dh_prev, state_shape);
  copy_into(dc_prev, dc_);
  // pre = x_t · w_x + h_prev · w_h + b
  const float* dgates = dstep_.data();
  kernels::gemm(false, true, batch, d, g, 1.f, dgates, g, w_x.data(), g, 0.f, dx_t.data(), d);
  kernels::gemm(false, true, batch, u, g, 1.f, dgates, g, w_h.data(), g, 0.f, dh_prev.data(), u);
  kernels::gemm(true, false, d, g, batch, 1.f, cache.x.data(), d, dgates, g, 1.f, dw_x.data(), g);
  kernels::gemm(true, false, u, g, batch, 1.f, cache.h_prev.data(), u, dgates, g, 1.f, dw_h.data(), g);
  add_column_sums(db, dgates, batch, g);
}

// ---- sequence API --------------------------------------------------------------------------

void LSTM::forward(const Tensor3& x, const Mask2* mask, bool reverse, Tensor3& h_seq, LSTMCache& cache,
                   const Tensor2* h0, const Tensor2* c0) const {
  const char* where = "LSTM.forward";
  const std::size_t u = units_, g = 4 * units_, d = input_size_;
  require_sequence(where, x, mask, d);
  const std::size_t batch = x.shape(0), steps = x.shape(1);
  require_state(h0, batch, u, where, "h0");
  require_state(c0, batch, u, where, "c0");

  const std::array<std::size_t, 2> state_shape{batch, u};
  const std::array<std::size_t, 3> state_seq_shape{steps, batch, u};
  cache.reverse = reverse;
  time_major_copy(cache.x, x);
  copy_mask_or_ones(mask, batch, steps, cache.mask);
  copy_or_zeros(cache.h0, h0, state_shape);
  copy_or_zeros(cache.c0, c0, state_shape);
  ensure_shape(cache.gates, std::array<std::size_t, 3>{steps, batch, g});
  ensure_shape(cache.h, state_seq_shape);
  ensure_shape(cache.c, state_seq_shape);
  ensure_shape(cache.tanh_c, state_seq_shape);
  ensure_shape(cache.h_last, state_shape);
  ensure_shape(cache.c_last, state_shape);
  ensure_shape(h_seq, std::array<std::size_t, 3>{batch, steps, u});

  // Input projection of every step at once: gates[T·B, 4U] = x[T·B, D] · w_x + b.
  float* gates = cache.gates.data();
  fill_rows(gates, steps * batch, g, b);
  kernels::gemm(false, false, steps * batch, g, d, 1.f, cache.x.data(), d, w_x.data(), g, 1.f, gates, g);

  // Time-major: step t's rows are one contiguous block of B rows (B·4U or B·U floats).
  const std::uint8_t* mask_rows = cache.mask.data();  // [B, T]
  for (std::size_t s = 0; s < steps; ++s) {
    const std::size_t t = reverse ? steps - 1 - s : s;
    const std::size_t t_prev = reverse ? t + 1 : t - 1;  // used only when s > 0
    const float* h_prev = s == 0 ? cache.h0.data() : cache.h.data() + t_prev * batch * u;
    const float* c_prev = s == 0 ? cache.c0.data() : cache.c.data() + t_prev * batch * u;
    float* gates_t = gates + t * batch * g;
    float* h_t = cache.h.data() + t * batch * u;
    float* c_t = cache.c.data() + t * batch * u;
    float* tanh_c_t = cache.tanh_c.data() + t * batch * u;
    // pre_t += h_{t-1} · w_h
    kernels::gemm(false, false, batch, g, u, 1.f, h_prev, u, w_h.data(), g, 1.f, gates_t, g);
    for (std::size_t r = 0; r < batch; ++r) {
      float* out = h_seq.data() + (r * steps + t) * u;
      if (mask_rows[r * steps + t] != 0) {
        kernels::lstm_cell_forward(gates_t + r * g, c_prev + r * u, c_t + r * u, tanh_c_t + r * u, h_t + r * u, u);
        std::copy(h_t + r * u, h_t + (r + 1) * u, out);
      } else {
        std::copy(h_prev + r * u, h_prev + (r + 1) * u, h_t + r * u);
        std::copy(c_prev + r * u, c_prev + (r + 1) * u, c_t + r * u);
        std::fill(out, out + u, 0.f);
      }
    }
  }
  const std::size_t t_last = reverse ? 0 : steps - 1;
  std::copy_n(cache.h.data() + t_last * batch * u, batch * u, cache.h_last.data());
  std::copy_n(cache.c.data() + t_last * batch * u, batch * u, cache.c_last.data());
}

void LSTM::backward(const Tensor3& dh_seq, const Tensor2* dh_last, const Tensor2* dc_last, const LSTMCache& cache,
                    Tensor3& dx, Tensor2* dh0, Tensor2* dc0) {
  const char* where = "LSTM.backward";
  const std::size_t u = units_, g = 4 * units_, d = input_size_;
  if (!(cache.h.size() > 0 && cache.gates.shape(2) == g && cache.x.shape(2) == d))
    throw_shape_error(where, "the cache holds no forward of this layer");
  const std::size_t steps = cache.h.shape(0), batch = cache.h.shape(1);
  const std::array<std::size_t, 3> seq_shape{batch, steps, u};
  if (!(dh_seq.shape() == seq_shape))
    throw_shape_error(where, "dh_seq has shape " + shape_string(dh_seq.shape()) +
                                 " but the forward output h_seq has shape " + shape_string(seq_shape));
  require_state(dh_last, batch, u, where, "dh_last");
  require_state(dc_last, batch, u, where, "dc_last");

  const std::array<std::size_t, 2> state_shape{batch, u};
  ensure_shape(dh_, state_shape);
  ensure_shape(dc_, state_shape);
  ensure_shape(dgates_, std::array<std::size_t, 3>{steps, batch, g});
  if (dh_last != nullptr)
    copy_into(dh_, *dh_last);
  else
    std::fill(dh_.begin(), dh_.end(), 0.f);
  if (dc_last != nullptr)
    copy_into(dc_, *dc_last);
  else
    std::fill(dc_.begin(), dc_.end(), 0.f);

  // w_hᵀ [4U, U], once per pass: the recurrence's dh product then reads it in place, with no
  // packing of a transposed operand at every step.
  transpose_into(w_h_t_, w_h);
  float* dgates = dgates_.data();                     // [T, B, 4U], like cache.gates
  const std::uint8_t* mask_rows = cache.mask.data();  // [B, T]
  for (std::size_t s = steps; s-- > 0;) {
    const std::size_t t = cache.reverse ? steps - 1 - s : s;
    const std::size_t t_prev = cache.reverse ? t + 1 : t - 1;
    const float* c_prev = s == 0 ? cache.c0.data() : cache.c.data() + t_prev * batch * u;
    const float* gates_t = cache.gates.data() + t * batch * g;
    const float* tanh_c_t = cache.tanh_c.data() + t * batch * u;
    float* dgates_t = dgates + t * batch * g;
    for (std::size_t r = 0; r < batch; ++r) {
      float* dh = dh_.data() + r * u;
      float* dgates_row = dgates_t + r * g;
      if (mask_rows[r * steps + t] == 0) {
        // State carried: dh / dc pass to t-1 untouched; h_seq[r, t] = 0 takes no gradient.
        std::fill(dgates_row, dgates_row + g, 0.f);
        continue;
      }
      const float* dh_out = dh_seq.data() + (r * steps + t) * u;
      for (std::size_t j = 0; j < u; ++j) dh[j] += dh_out[j];  // output and recurrence
      kernels::lstm_cell_backward(dh, dc_.data() + r * u, gates_t + r * g, tanh_c_t + r * u, c_prev + r * u, dgates_row,
                                  u);
      // Consumed; the gemm below writes dL/dh_{t-1} for this row.
      std::fill(dh, dh + u, 0.f);
    }
    // pre_t += h_{t-1} · w_h. Padded rows have zero dgates, so their carried dh is kept.
    kernels::gemm(false, false, batch, u, g, 1.f, dgates_t, g, w_h_t_.data(), u, 1.f, dh_.data(), u);
  }
  // dw_h += Σ_t h_{t-1}ᵀ · dgates_t as one product over all T·B rows: h_prev_[t] is the state
  // step t read (h0 at the first step), so row (t, b) of it pairs with row (t, b) of dgates.
  // Padded steps have zero dgates and add nothing.
  const std::size_t block = batch * u;
  ensure_shape(h_prev_, std::array<std::size_t, 3>{steps, batch, u});
  previous_states(cache.h.data(), cache.h0.data(), steps, block, cache.reverse, h_prev_.data());
  kernels::gemm(true, false, u, g, steps * batch, 1.f, h_prev_.data(), u, dgates, g, 1.f, dw_h.data(), g);

  // gates[T·B, 4U] = x[T·B, D] · w_x + b, all steps at once; dx comes out time-major and is
  // put back in [B, T, D] order.
  ensure_shape(dx_time_major_, std::array<std::size_t, 3>{steps, batch, d});
  kernels::gemm(false, true, steps * batch, d, g, 1.f, dgates, g, w_x.data(), g, 0.f, dx_time_major_.data(), d);
  batch_major_copy(dx, dx_time_major_);
  kernels::gemm(true, false, d, g, steps * batch, 1.f, cache.x.data(), d, dgates, g, 1.f, dw_x.data(), g);
  add_column_sums(db, dgates, steps * batch, g);
  if (dh0 != nullptr) copy_into(*dh0, dh_);
  if (dc0 != nullptr) copy_into(*dc0, dc_);
}

}  // namespace attn
