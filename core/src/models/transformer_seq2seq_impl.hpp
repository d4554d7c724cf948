// Private: TransformerSeq2Seq's layers and training caches (transformer_seq2seq*.cpp only).
#pragma once

#include <memory>
#include <vector>

#include "attn/layers/dense.hpp"
#include "attn/layers/dropout.hpp"
#include "attn/layers/embedding.hpp"
#include "attn/layers/layer_norm.hpp"
#include "attn/layers/transformer_decoder.hpp"
#include "attn/layers/transformer_encoder.hpp"
#include "attn/models/transformer_seq2seq.hpp"

namespace attn {

struct TransformerSeq2Seq::Impl {
  Impl(const TransformerSeq2SeqConfig& config, std::uint64_t seed);

  TransformerSeq2SeqConfig config;
  Rng init;
  std::unique_ptr<Embedding> source_embedding;  // null when shared: target_embedding serves both
  Embedding target_embedding;
  Dropout embedding_dropout;
  std::vector<TransformerEncoderBlock> encoder;
  LayerNorm encoder_norm;
  std::vector<TransformerDecoderBlock> decoder;
  LayerNorm decoder_norm;
  std::unique_ptr<Dense> output;      // untied: W_out [D, Vt], b_out
  Tensor1 output_bias, doutput_bias;  // tied: b_out [Vt]
  float* tied_weight = nullptr;       // tied: E_t [Vt, D] and its gradient (target_embedding's)
  float* tied_grad = nullptr;
  Tensor2 positions;      // PE [L, D] for decoding steps (sinusoidal_positional_encoding)
  Mask2 self_mask;        // [L, L] the caller's decoder self-attention mask; empty: causal
  Mask2 self_mask_block;  // [T, T] its top-left block for the batch being trained
  ParameterList params;

  const Embedding& source_table() const { return source_embedding ? *source_embedding : target_embedding; }
  Embedding& source_table() { return source_embedding ? *source_embedding : target_embedding; }
  const float* output_weight() const;  // [D, Vt] untied, or E_t [Vt, D] tied
  // h [rows, D] -> z [rows, Vt] = h W_out + b_out (one GEMM).
  void project(const float* h, std::size_t rows, float* z) const;

  // --- training caches (forward -> backward) ---
  Mask2 source_mask, target_mask;  // [B, Tx], [B, T]
  std::vector<std::size_t> source_starts;
  EmbeddingCache source_lookup, target_lookup;
  DropoutCache source_drop, target_drop;
  std::vector<Tensor3> encoder_states;  // N_e + 1 × [B, Tx, D]: input, then each block's output
  std::vector<TransformerEncoderCache> encoder_caches;
  LayerNormCache encoder_norm_cache;
  Tensor3 memory;                       // [B, Tx, D]
  std::vector<Tensor3> decoder_states;  // N_d + 1 × [B, T, D]
  std::vector<TransformerDecoderCache> decoder_caches;
  LayerNormCache decoder_norm_cache;
  Tensor3 decoded;  // [B, T, D] h
  Tensor2 logits;   // [B·T, Vt]
  // backward scratch
  Tensor2 dlogits;
  Tensor3 d_decoded, d_state, d_next, d_memory_block, d_memory, d_embedded;
  TokenIds decoder_inputs;  // [B, T] target[:, :-1]
  ClassIds labels;          // [B·T] target[:, 1:]
  Tensor1 pad_row_grad;     // [D] tied: the PAD row's gradient, kept across the output's GEMM
};

}  // namespace attn
