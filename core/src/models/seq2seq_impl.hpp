// The seq2seq model's insides, shared by its sources (private to core/src/models): the model
// and training (seq2seq.cpp), greedy and beam search (seq2seq_search.cpp). The legend and the
// equations are in attn/models/seq2seq.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "attn/layers/decoder_attention.hpp"
#include "attn/layers/dense.hpp"
#include "attn/layers/embedding.hpp"
#include "attn/layers/gru.hpp"
#include "attn/layers/lstm.hpp"
#include "attn/losses/softmax_cross_entropy.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/sequence_encoder.hpp"

namespace attn {
namespace seq2seq_detail {

using Shape2 = std::array<std::size_t, 2>;
using Shape3 = std::array<std::size_t, 3>;

// Everything the encoder produces for one source batch.
struct EncoderState {
  EmbeddingCache embedding_cache;
  Tensor3 embedded;                              // [B, Tx, E]
  Mask2 mask;                                    // [B, Tx]
  std::unique_ptr<RecurrentEncoder::Cache> rnn;  // the encoder's, made on the first encode
  Tensor3 annotations;                           // [B, Tx, 2U]
  Tensor2 init_in;                               // [B, U] (bahdanau: ←h_1) or [B, 2U]
  DenseCache init_cache;
  Tensor2 s0;         // [B, Ds] tanh(init_in W + b)
  BahdanauKeys keys;  // bahdanau: [B, Tx, A]
};

// What backward needs from one decoder step.
struct StepCache {
  LSTMStepCache lstm;
  GRUStepCache gru;
  BahdanauStepCache bahdanau;
  LuongStepCache luong;
};

// The running decoder: state, inputs and the step's outputs, all [rows, ·].
struct DecoderState {
  Tensor2 h, c;         // [B, Ds] (c: LSTM only)
  Tensor2 feed;         // [B, Ds] luong input feeding: h̃_{t-1}
  Tensor2 embedded;     // [B, E] E y_{t-1}
  Tensor2 x;            // [B, Din] cell input
  Tensor2 context;      // [B, Dh]
  Tensor2 attentional;  // [B, Ds] luong h̃_t
  Tensor2 weights;      // [B, Tx]
};

inline void fill_zero(Tensor2& t, std::size_t rows, std::size_t cols) {
  ensure_shape(t, Shape2{rows, cols});
  std::fill(t.begin(), t.end(), 0.f);
}

// Concatenates row-wise: x[b] = [a[b]; c[b]] (a [rows, na], c [rows, nc]).
inline void join_rows(const Tensor2& a, const Tensor2& c, std::size_t rows, float* x) {
  const std::size_t na = a.shape(1), nc = c.shape(1);
  for (std::size_t b = 0; b < rows; ++b) {
    std::copy(a.data() + b * na, a.data() + (b + 1) * na, x + b * (na + nc));
    std::copy(c.data() + b * nc, c.data() + (b + 1) * nc, x + b * (na + nc) + na);
  }
}

}  // namespace seq2seq_detail

struct Seq2SeqModel::Impl {
  using EncoderState = seq2seq_detail::EncoderState;
  using DecoderState = seq2seq_detail::DecoderState;
  using StepCache = seq2seq_detail::StepCache;

  Impl(const Seq2SeqConfig& c, Rng& rng);

  Seq2SeqConfig config;
  std::size_t ds, dh, din, dout;  // decoder state, annotation, cell input and output-layer input sizes
  Embedding source_embedding;
  std::unique_ptr<RecurrentEncoder> encoder;  // BiLSTM | BiGRU (config.cell)
  Dense init;
  Embedding target_embedding;
  std::unique_ptr<LSTM> decoder_lstm;
  std::unique_ptr<GRU> decoder_gru;
  std::unique_ptr<BahdanauAttention> bahdanau;
  std::unique_ptr<LuongAttention> luong;
  Dense output;
  ParameterList params;

  // Training buffers (train_batch / loss), reused across batches.
  EncoderState enc;
  std::vector<StepCache> steps;
  DecoderState dec;
  TokenIds fed;                          // [B, T'] the decoder's input tokens
  EmbeddingCache fed_cache;              // ids = fed, for the target embedding's backward
  Tensor2 outs, logits, dlogits, douts;  // [T'·B, Dout], [T'·B, Vt], [T'·B, Vt], [T'·B, Dout]
  ClassIds targets;                      // [T'·B] time-major
  Tensor2 step_logits;                   // [B, Vt] when sampling
  std::vector<std::int32_t> sampled;     // [B] argmax of the previous step
  Tensor3 dembedded_target;              // [B, T', E]
  Tensor3 dannotations, dembedded_source;
  BahdanauKeysGrad dkeys;
  Tensor2 dstate, dcell, dfeed, dx, dcontext, ds_attention, dinit_pre, dinit_in, dfinal, dattentional;

  // source [B, Tx] -> enc (annotations, mask, s0, keys).
  void encode(const TokenIds& source, EncoderState& e) const;
  // Sets dec for `rows` rows at the start of decoding (s_0, c_0 = 0, h̃_0 = 0).
  void start(const EncoderState& e, DecoderState& d) const;
  // One decoder step: reads d.embedded (E y_{t-1}) and the state, advances it, writes the
  // output-layer input [rows, Dout] to `out` and the attention weights to d.weights.
  void step(const EncoderState& e, DecoderState& d, StepCache& cache, float* out) const;
  // The decoder cell on d.x, advancing d.h (and d.c for an LSTM).
  void run_cell(DecoderState& d, StepCache& cache) const;
  // Bahdanau's step once c_t is in d.context: s_t = cell([E y_{t-1}; c_t], s_{t-1}) and
  // out = [s_t; c_t] [rows, Dout]. step() and the step API (seq2seq_step.cpp) both end here.
  void bahdanau_cell(DecoderState& d, StepCache& cache, float* out) const;
  // Gathers the target embedding rows of `tokens` [rows] into d.embedded.
  void embed_tokens(const std::int32_t* tokens, std::size_t stride, std::size_t rows, DecoderState& d) const;

  float forward(const TokenIds& source, const TokenIds& target, float ratio, Rng* rng, bool want_grad);
  void backward(std::size_t batch, std::size_t steps_count);

  void check_batch(const TokenIds& source, const TokenIds& target, const char* where) const;
};

}  // namespace attn
