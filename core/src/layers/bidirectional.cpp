#include "attn/layers/bidirectional.hpp"

#include <algorithm>
#include <array>

namespace attn {
namespace {

// The final state is h only, so an LSTM direction gets no gradient for its cell state.
void direction_backward(LSTM& layer, const Tensor3& dh_seq, const Tensor2* dh_last, const LSTMCache& cache,
                        Tensor3& dx) {
  layer.backward(dh_seq, dh_last, nullptr, cache, dx);
}

void direction_backward(GRU& layer, const Tensor3& dh_seq, const Tensor2* dh_last, const GRUCache& cache, Tensor3& dx) {
  layer.backward(dh_seq, dh_last, cache, dx);
}

// out[r] = [f[r] ; b[r]] for `rows` rows of u floats each.
void join_rows(const float* f, const float* b, std::size_t rows, std::size_t u, float* out) {
  for (std::size_t row = 0; row < rows; ++row) {
    std::copy(f + row * u, f + (row + 1) * u, out + row * 2 * u);
    std::copy(b + row * u, b + (row + 1) * u, out + row * 2 * u + u);
  }
}

}  // namespace

void concat_directions(const Tensor3& h_forward, const Tensor3& h_backward, Tensor3& h_seq) {
  if (!(h_forward.shape() == h_backward.shape())) {
    throw_shape_error("concat_directions", "h_forward has shape " + shape_string(h_forward.shape()) +
                                               " but h_backward has shape " + shape_string(h_backward.shape()));
  }
  const std::size_t batch = h_forward.shape(0), steps = h_forward.shape(1), u = h_forward.shape(2);
  ensure_shape(h_seq, std::array<std::size_t, 3>{batch, steps, 2 * u});
  join_rows(h_forward.data(), h_backward.data(), batch * steps, u, h_seq.data());
}

template <class RNN>
Bidirectional<RNN>::Bidirectional(std::size_t input_size, std::size_t units, Rng& rng)
    : forward_layer(input_size, units, rng), backward_layer(input_size, units, rng) {}

template <class RNN>
void Bidirectional<RNN>::parameters(ParameterList& out, const std::string& prefix) {
  forward_layer.parameters(out, prefix + "forward.");
  backward_layer.parameters(out, prefix + "backward.");
}

template <class RNN>
void Bidirectional<RNN>::forward(const Tensor3& x, const Mask2* mask, Tensor3& h_seq, Cache& cache) const {
  // Each direction checks x and mask (its message names that direction's layer type).
  forward_layer.forward(x, mask, false, cache.h_forward, cache.forward);
  backward_layer.forward(x, mask, true, cache.h_backward, cache.backward);
  const std::size_t batch = x.shape(0), u = units();
  concat_directions(cache.h_forward, cache.h_backward, h_seq);  // h_seq[b, t] = [→h_t ; ←h_t]
  ensure_shape(cache.h_last, std::array<std::size_t, 2>{batch, 2 * u});
  join_rows(cache.forward.h_last.data(), cache.backward.h_last.data(), batch, u, cache.h_last.data());
}

template <class RNN>
void Bidirectional<RNN>::backward(const Tensor3& dh_seq, const Tensor2* dfinal, const Cache& cache, Tensor3& dx) {
  const char* where = "Bidirectional.backward";
  if (!(cache.h_forward.size() > 0)) throw_shape_error(where, "the cache holds no forward of this layer");
  const std::size_t batch = cache.h_forward.shape(0), steps = cache.h_forward.shape(1), u = units();
  const std::array<std::size_t, 3> seq_shape{batch, steps, u};
  if (!(dh_seq.shape() == (std::array<std::size_t, 3>{batch, steps, 2 * u})))
    throw_shape_error(where, "dh_seq has shape " + shape_string(dh_seq.shape()) +
                                 " but the forward output h_seq has shape " +
                                 shape_string(std::array<std::size_t, 3>{batch, steps, 2 * u}));
  if (dfinal != nullptr) {
    if (!(dfinal->shape() == cache.h_last.shape()))
      throw_shape_error(where, "dfinal has shape " + shape_string(dfinal->shape()) + " but the final state has shape " +
                                   shape_string(cache.h_last.shape()));
  }
  // h_seq[b, t] = [→h_t ; ←h_t]: split the gradient back into the two halves.
  ensure_shape(dh_forward_, seq_shape);
  ensure_shape(dh_backward_, seq_shape);
  for (std::size_t row = 0; row < batch * steps; ++row) {
    const float* src = dh_seq.data() + row * 2 * u;
    std::copy(src, src + u, dh_forward_.data() + row * u);
    std::copy(src + u, src + 2 * u, dh_backward_.data() + row * u);
  }
  const Tensor2* dlast_forward = nullptr;
  const Tensor2* dlast_backward = nullptr;
  if (dfinal != nullptr) {
    ensure_shape(dlast_forward_, std::array<std::size_t, 2>{batch, u});
    ensure_shape(dlast_backward_, std::array<std::size_t, 2>{batch, u});
    for (std::size_t r = 0; r < batch; ++r) {
      const float* src = dfinal->data() + r * 2 * u;
      std::copy(src, src + u, dlast_forward_.data() + r * u);
      std::copy(src + u, src + 2 * u, dlast_backward_.data() + r * u);
    }
    dlast_forward = &dlast_forward_;
    dlast_backward = &dlast_backward_;
  }
  direction_backward(forward_layer, dh_forward_, dlast_forward, cache.forward, dx);
  direction_backward(backward_layer, dh_backward_, dlast_backward, cache.backward, dx_backward_);
  // Both directions read the same x.
  float* out = dx.data();
  const float* other = dx_backward_.data();
  for (std::size_t i = 0; i < dx.size(); ++i) out[i] += other[i];
}

template class Bidirectional<LSTM>;
template class Bidirectional<GRU>;

}  // namespace attn
