// The encoders of the models, behind one interface: what turns embedded tokens x [B, T, E] into
// one vector per position h [B, T, Dh] (and, for recurrent encoders, a final state). The
// classifier (models/sequence_classifier.hpp) reads h through its pooling; the seq2seq model
// (models/seq2seq.hpp) attends over h and starts its decoder from the final state.
//
// Legend: B batch, T time, E input (embedding) size, U recurrent units per direction, Dh output
// size (2U for recurrent encoders, E for the Transformer).
//
// Two ways to hold a forward's cache, one implementation:
//   * SequenceEncoder::forward / backward keep the cache inside the encoder (the classifier
//     trains one batch at a time);
//   * RecurrentEncoder::encode / encode_backward take a cache the CALLER owns (make_cache()), so
//     the seq2seq model's const decoding functions can encode several sources at once.
// Parameter gradients accumulate (+=) as in layers/README.md; the model zeroes them per step.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

class MultiHeadSelfAttention;
struct MultiHeadAttentionCache;
class LearnedPositionalEncoding;

class SequenceEncoder {
 public:
  virtual ~SequenceEncoder() = default;
  // x [B, T, E], mask [B, T] -> h [B, T, Dh]; final_state [B, Dh] for recurrent encoders ([0, 0]
  // otherwise). `training` enables dropout, drawn from rng.
  virtual void forward(const Tensor3& x, const Mask2& mask, bool training, Rng& rng, Tensor3& h,
                       Tensor2& final_state) = 0;
  // dh [B, T, Dh], dfinal [B, Dh] or null -> dx [B, T, E]; parameter gradients accumulate.
  virtual void backward(const Tensor3& dh, const Tensor2* dfinal, Tensor3& dx) = 0;
  virtual void parameters(ParameterList& out, const std::string& prefix) = 0;
  virtual std::size_t output_dim() const = 0;
  // Self-attention weights of Transformer block `layer` from the last forward: [B, H, T, T].
  virtual const Tensor4* self_attention(std::size_t layer) const;
  // Inference what-ifs (analysis/transformer_inspect.hpp); null / no-op for recurrent encoders.
  virtual MultiHeadSelfAttention* attention_layer(std::size_t layer);
  virtual const MultiHeadAttentionCache* attention_cache(std::size_t layer) const;
  virtual const LearnedPositionalEncoding* learned_positional() const;
  virtual void set_causal(bool causal);
};

// The recurrent cell of an encoder (and of the seq2seq decoder).
enum class CellKind { lstm, gru };
const char* cell_kind_name(CellKind kind);              // "lstm", "gru"
CellKind cell_kind_from_name(const std::string& name);  // throws std::invalid_argument

// A bidirectional LSTM or GRU (layers/bidirectional.hpp, Schuster & Paliwal 1997):
//   h[b, t] = [→h_t ; ←h_t]   [B, T, 2U]        final state = [→h_T ; ←h_1]   [B, 2U]
// Both directions read the mask, so with any padding each direction's final state is its state
// after its last real token.
class RecurrentEncoder : public SequenceEncoder {
 public:
  // One forward's activations, of the encoder's own kind (make_cache gives an empty one).
  class Cache {
   public:
    virtual ~Cache() = default;
  };
  virtual std::unique_ptr<Cache> make_cache() const = 0;
  // x [B, T, E], mask [B, T] (null = every position real) -> h [B, T, 2U]; returns the final
  // state [B, 2U], held by `cache` (valid until its next encode).
  virtual const Tensor2& encode(const Tensor3& x, const Mask2* mask, Tensor3& h, Cache& cache) const = 0;
  // dh [B, T, 2U], dfinal [B, 2U] (gradient w.r.t. the final state; null = 0), the cache of the
  // forward -> dx [B, T, E] (overwritten); parameter gradients accumulate.
  virtual void encode_backward(const Tensor3& dh, const Tensor2* dfinal, const Cache& cache, Tensor3& dx) = 0;
  virtual std::size_t units() const = 0;
};

// Draws the forward direction's weights, then the backward one's, from rng (as Bidirectional).
std::unique_ptr<RecurrentEncoder> make_recurrent_encoder(CellKind cell, std::size_t input_size, std::size_t units,
                                                         Rng& rng);

}  // namespace attn
