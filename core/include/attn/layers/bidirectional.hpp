// A bidirectional recurrent layer (Schuster & Paliwal 1997): one RNN reads the sequence left to
// right, a second, independent one reads it right to left, and their outputs are concatenated
// at every step.
//
// Legend: B batch, T time, D input features (model dim), U units per direction.
//
//   h_seq[b, t] = [→h_t ; ←h_t]                          [B, T, 2U]
//   h_last      = [→h after t = T-1 ; ←h after t = 0]    [B, 2U]
//
// One template, instantiated for LSTM and GRU only (BiLSTM, BiGRU); the definitions live in
// bidirectional.cpp. Both directions read the same mask, so with pre- or post-padding each
// direction's final state is its state after its last real token. For LSTM the final state is
// h only; the cell states are in cache.forward.c_last / cache.backward.c_last but receive no
// gradient. Contract as in layers/README.md.
#pragma once

#include <cstddef>
#include <string>

#include "attn/layers/gru.hpp"
#include "attn/layers/lstm.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

template <class RNN>
struct BidirectionalCache {
  typename RNN::Cache forward;   // left-to-right direction
  typename RNN::Cache backward;  // right-to-left direction
  Tensor3 h_forward;             // [B, T, U]
  Tensor3 h_backward;            // [B, T, U]
  Tensor2 h_last;                // [B, 2U] final state, [→h_last ; ←h_last]
};

template <class RNN>
class Bidirectional {
 public:
  using Cache = BidirectionalCache<RNN>;

  // Initialises forward_layer, then backward_layer, from `rng` (each as RNN(D, U, rng)).
  Bidirectional(std::size_t input_size, std::size_t units, Rng& rng);

  std::size_t input_size() const { return forward_layer.input_size(); }
  std::size_t units() const { return forward_layer.units(); }
  std::size_t output_size() const { return 2 * forward_layer.units(); }

  // Appends forward_layer's parameters as prefix + "forward." + name, then backward_layer's as
  // prefix + "backward." + name.
  void parameters(ParameterList& out, const std::string& prefix = "");

  // x [B, T, D], mask [B, T] (1 = real, may be null) -> h_seq [B, T, 2U]; final state in
  // cache.h_last [B, 2U]. Initial states are zero.
  void forward(const Tensor3& x, const Mask2* mask, Tensor3& h_seq, Cache& cache) const;
  // dh_seq [B, T, 2U], dfinal [B, 2U] (gradient w.r.t. cache.h_last; null = 0) -> dx [B, T, D]
  // (overwritten; the sum of both directions'). Accumulates both directions' parameter grads.
  void backward(const Tensor3& dh_seq, const Tensor2* dfinal, const Cache& cache, Tensor3& dx);

  RNN forward_layer;
  RNN backward_layer;

 private:
  // Backward scratch: the two halves of dh_seq / dfinal and the second direction's dx.
  Tensor3 dh_forward_;      // [B, T, U]
  Tensor3 dh_backward_;     // [B, T, U]
  Tensor2 dlast_forward_;   // [B, U]
  Tensor2 dlast_backward_;  // [B, U]
  Tensor3 dx_backward_;     // [B, T, D]
};

// The join of the two directions: h_forward [B, T, U], h_backward [B, T, U] (both stored by
// source position t, as each direction's forward writes them) -> h_seq [B, T, 2U] with
// h_seq[b, t] = [→h_t ; ←h_t]. Throws ShapeError when the two shapes differ. Bidirectional::
// forward joins its directions with it.
void concat_directions(const Tensor3& h_forward, const Tensor3& h_backward, Tensor3& h_seq);

extern template class Bidirectional<LSTM>;
extern template class Bidirectional<GRU>;
using BiLSTM = Bidirectional<LSTM>;
using BiGRU = Bidirectional<GRU>;

}  // namespace attn
