// A Transformer encoder–decoder (Vaswani et al. 2017) for translation, pre-norm (Xiong et al.
// 2020) like the project's encoder block, trained with teacher forcing of all target positions
// at once and decoded one position at a time with a key/value cache.
//
// Legend: B batch, Tx source length, Ty target length (BOS y1 .. yn EOS, then PAD), T = Ty − 1
// decoder positions, D model size, H heads, F feed-forward size, N_e / N_d encoder / decoder
// blocks, Vs / Vt source / target vocabulary.
//
// Token conventions are models/seq2seq.hpp's: PAD = 0, BOS = 1, EOS = 2, UNK = 3; sources carry
// no BOS/EOS and may be padded 'pre' or 'post' (only the mask is read); targets are padded 'post'.
//
//   e   = Dropout(√D · E_s[x] + PE)                 [B, Tx, D]  positions count from each source's
//                                                              first real token (positional_encoding)
//   m   = LN_e(Enc_{N_e}(… Enc_1(e)))               [B, Tx, D]  TransformerEncoderBlock, source padding
//   d   = Dropout(√D · E_t[y_{<t}] + PE)            [B, T, D]   decoder inputs target[:, :-1], a
//                                                              shorter row's EOS read as PAD
//   h   = LN_d(Dec_{N_d}(… Dec_1(d, m)))            [B, T, D]   TransformerDecoderBlock: causal +
//                                                              target padding, cross-attention on m
//   z   = h W_out + b_out                           [B·T, Vt]   ONE GEMM over all B·T positions;
//                                                              tied: W_out = E_tᵀ
//   L   = label-smoothed cross-entropy(z, target[:, 1:]), PAD targets ignored
//         (losses/label_smoothed_cross_entropy.hpp; smoothing 0 = plain cross-entropy)
//
// Options (TransformerSeq2SeqConfig):
//   share_embeddings — one table E for source and target (needs Vs == Vt; the parameter is then
//                      "embedding.weight"); its gradient sums both uses.
//   tie_output       — W_out = E_tᵀ (Press & Wolf 2017): no "output.w", only the bias "output.b".
//                      The PAD row of E_t is held at zero like every embedding's (its gradient from
//                      the output layer is dropped), so the PAD logit is b_out[PAD] alone; decoding
//                      never emits PAD anyway.
//   Both can be combined (three-way tying).
//
// Every matrix product goes through kernels::gemm (layers' linear / Dense / attention_heads).
// Dropout acts on the embeddings' sums and inside every block (training only).
//
// Decoding (the translator interface a shared search drives):
//   encode(source) -> TransformerDecodingState (m, the source mask, every decoder block's
//                     projections of m, and empty self-attention caches);
//   step(state, previous [B]) -> log p(y_t | y_<t, x) [B, Vt] and what every block attended to;
//                     it appends position t's keys / values to each block's cache (the prefix is
//                     never recomputed) and equals the teacher-forced forward's position t up to
//                     float rounding;
//   reorder(state, rows) -> the state of rows[0], rows[1], ... (repeats allowed): beam search
//                     expands one source into k hypotheses and reorders them after each step.
// Decoding never uses dropout.
//
// The decoder's self-attention mask (set_decoder_self_mask): causal by default; a caller may set
// its own L × L pattern (1 = query t may see position i), which the teacher-forced forward uses
// for every batch (its top-left T × T block, T <= L) and every decoding step t < L uses row t of
// (over the positions 0 .. t that exist when decoding). The course trains with a learner's mask
// (and with none) to show what peeking does: teacher-forced numbers stay good, decoding fails.
// The mask is a training choice, not a parameter: a model file does not store it.
//
// A step with the cross-attention from outside (begin_step / cross_attention / continue_step):
// the same computation as step(), cut open at every block's cross-attention, so a caller can
// hand in its own heads (the course runs a learner's crossAttention there). step() is built
// from these parts.
//
// As a TrainableTranslator (models/translator.hpp) the shared greedy / beam search, the seq2seq
// trainer, the metrics and the page's session drive it unchanged: a Translator decoding holds a
// TransformerDecodingState; a Translator step returns log p as its logits (a softmax of them is
// p) and, as its alignment [R, Tx], the LAST decoder block's cross-attention averaged over heads.
// Training is teacher forced at every position at once, so train_batch accepts only
// teacher_forcing_ratio 1 (std::invalid_argument otherwise: there is no previous prediction to
// feed back in a parallel forward).
//
// The model owns its training caches, so one model trains one batch at a time (not thread-safe;
// the const decoding functions use their own buffers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/io/settings_schema.hpp"
#include "attn/layers/activations.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/layers/transformer_decoder.hpp"
#include "attn/losses/softmax_cross_entropy.hpp"
#include "attn/models/translator.hpp"
#include "attn/random.hpp"

namespace attn {

struct TransformerSeq2SeqConfig {
  std::size_t source_vocab = 0, target_vocab = 0;  // Vs, Vt (both include PAD, BOS, EOS, UNK)
  std::size_t d_model = 64;                        // D
  std::size_t heads = 4;                           // H, divides D
  std::size_t ff_dim = 128;                        // F
  std::size_t encoder_layers = 2, decoder_layers = 2;
  float dropout = 0.1f;                      // in [0, 1)
  Activation activation = Activation::relu;  // the feed-forward's (relu: nn.Transformer's default)
  float label_smoothing = 0.f;               // ε in [0, 1)
  bool share_embeddings = false;             // needs source_vocab == target_vocab
  bool tie_output = false;                   // W_out = E_tᵀ

  // Throws std::invalid_argument "TransformerSeq2SeqConfig: ..." naming the rule that failed.
  void validate() const;
  // Flat JSON with "model": "transformer_seq2seq" and every field (transformer_seq2seq_settings());
  // from_json reads a model file's, requiring every field, and validates.
  std::string to_json() const;
  static TransformerSeq2SeqConfig from_json(const std::string& json);
};

// TransformerSeq2SeqConfig's fields (io/settings_schema.hpp): the model file's JSON follows it, and
// the seq2seq session's settings (train/seq2seq_session.hpp) take the ones a learner chooses.
const SettingsSchema<TransformerSeq2SeqConfig>& transformer_seq2seq_settings();

// Everything a decoding step needs, per batch row (opaque to a search: copy it, reorder it).
struct TransformerDecodingState {
  Tensor3 memory;                                    // [B, Tx, D] m
  Mask2 source_mask;                                 // [B, Tx] 1 = source token
  Tensor2 source_bias;                               // [B, Tx] 0 for a source token, −inf for PAD
  Mask1 source_padded;                               // [B] 1 when row b has PAD
  std::vector<TransformerDecoderLayerState> layers;  // N_d
  std::size_t length() const { return layers.empty() ? 0 : layers.front().length; }
  std::size_t batch() const { return memory.shape(0); }
};

struct TransformerStepResult {
  Tensor2 log_probs;                   // [B, Vt] log p(y_t | y_<t, x) over every target token
  std::vector<Tensor4> self_weights;   // N_d × [B, H, 1, t + 1] masked self-attention of the step
  std::vector<Tensor4> cross_weights;  // N_d × [B, H, 1, Tx] cross-attention (PAD columns 0)
};

// A decoding step cut open at a block's cross-attention (see begin_step).
struct TransformerPartialStep {
  std::size_t block = 0;         // the block whose cross-attention is pending; N_d once finished
  Tensor3 residual;              // [B, 1, D] a = x + SelfMHA(LN1(x)) of that block
  Tensor3 queries_input;         // [B, 1, D] LN2(a): its cross-attention projects the queries from it
  TransformerStepResult result;  // self / cross weights of the blocks done; log_probs once finished
  bool finished() const { return result.log_probs.size() > 0; }
};

// What every decoder block attended to over one whole decoding (for display): Ty output steps.
struct TransformerAttentionMaps {
  Tensor4 cross;  // [N_d, H, Ty, Tx] cross-attention of each step over the source (PAD columns 0)
  Tensor4 self;   // [N_d, H, Ty, Ty] masked self-attention; row t is 0 beyond column t
};

class TransformerSeq2Seq final : public TrainableTranslator {
 public:
  // Validates `config`; draws every initial weight from Rng(seed).
  TransformerSeq2Seq(const TransformerSeq2SeqConfig& config, std::uint64_t seed);
  ~TransformerSeq2Seq() override;
  TransformerSeq2Seq(TransformerSeq2Seq&&) noexcept;
  TransformerSeq2Seq& operator=(TransformerSeq2Seq&&) noexcept;

  const TransformerSeq2SeqConfig& config() const;
  // In order: "source_embedding.weight" and "target_embedding.weight" (or "embedding.weight"
  // shared), "encoder.<i>.*" (TransformerEncoderBlock), "encoder_norm.{gamma,beta}",
  // "decoder.<i>.*" (TransformerDecoderBlock), "decoder_norm.{gamma,beta}", "output.w" (untied)
  // and "output.b".
  ParameterList& parameters() override;
  const ParameterList& parameters() const;

  // Teacher forcing. source [B, Tx] (ids < Vs), decoder_input [B, T] (BOS y1 .., ids < Vt)
  // -> logits [B·T, Vt] (row b·T + t: position t of row b); the model's own buffer, valid until
  // the next call. training: dropout on, drawing from rng (nothing is drawn otherwise).
  const Tensor2& forward(const TokenIds& source, const TokenIds& decoder_input, bool training, Rng& rng);
  // dlogits [B·T, Vt] of the last forward -> parameter gradients ACCUMULATE (zero once per step).
  void backward(const Tensor2& dlogits);
  // target [B, Ty >= 2]: forward(source, target[:, :-1]), the label-smoothed loss against
  // target[:, 1:] (PAD ignored; loss, counted tokens, correct argmaxes), then backward.
  CrossEntropyResult train_batch(const TokenIds& source, const TokenIds& target, Rng& rng);
  // The same loss, forward only, dropout off, no gradients.
  CrossEntropyResult evaluate(const TokenIds& source, const TokenIds& target);
  // The function train_batch differentiates (training forward with rng's draws), for checks.
  CrossEntropyResult loss(const TokenIds& source, const TokenIds& target, bool training, Rng& rng);

  // Decoding (see the header comment). Shapes and ids are checked; the model never changes.
  TransformerDecodingState encode(const TokenIds& source) const;
  // previous [B]: the tokens at position t − 1 (BOS at t = 0), ids < Vt.
  TransformerStepResult step(TransformerDecodingState& state, const std::vector<std::int32_t>& previous) const;
  // The step in parts. begin_step: the step's input and block 0 up to its cross-attention
  // (state's self-attention caches grow by position t). cross_attention: the engine's own heads
  // [B, 1, D] (each head's P_h V_h in its columns, before W_o) and weights [B, H, 1, Tx] for the
  // pending block. continue_step: heads [B, 1, D] finish the pending block (W_o, residual,
  // feed-forward), then the next block runs up to its cross-attention, or the output's log p is
  // computed (finished()); cross_weights [B, H, 1, Tx], when given, are recorded in the result as
  // the block's (else zeros of that shape). std::invalid_argument for a finished step or heads of another shape.
  TransformerPartialStep begin_step(TransformerDecodingState& state, const std::vector<std::int32_t>& previous) const;
  void cross_attention(const TransformerDecodingState& state, const TransformerPartialStep& partial, Tensor3& heads,
                       Tensor4& weights) const;
  void continue_step(TransformerDecodingState& state, TransformerPartialStep& partial, const Tensor3& heads,
                     const Tensor4* cross_weights = nullptr) const;

  // The decoder's self-attention mask: mask [L, L] with L >= 1 and 0/1 entries (std::invalid_argument
  // otherwise); an empty mask ({0, 0}) restores the causal one. decoder_self_mask(): empty when causal.
  void set_decoder_self_mask(const Mask2& mask);
  const Mask2& decoder_self_mask() const;

  // state row i := old row rows[i] (each < B); B becomes rows.size() (>= 1).
  static void reorder(TransformerDecodingState& state, const std::vector<std::size_t>& rows);
  // source [Tx] (one sentence, ids < Vs, Tx >= 1), outputs [Ty] (ids < Vt, Ty >= 1: the decoded
  // tokens, EOS last when it was emitted) -> the weights of the Ty steps that fed BOS, outputs[0],
  // .., outputs[Ty - 2] (row t: the step that produced outputs[t]).
  TransformerAttentionMaps attention_maps(const std::vector<int>& source, const std::vector<int>& outputs) const;

  // TrainableTranslator (see the header comment).
  std::size_t source_vocab() const override;
  std::size_t target_vocab() const override;
  bool attends() const override { return true; }
  std::unique_ptr<Decoding> start(const TokenIds& source) const override;
  const Tensor2* step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const override;
  void reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const override;
  // train_batch(source, target, rng).loss; teacher_forcing_ratio must be 1.
  float train_batch(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng) override;
  // evaluate(source, target).loss (label smoothed when the config smooths).
  float loss(const TokenIds& source, const TokenIds& target) override;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The model file (io/model_file.hpp): config JSON (with `extra_json` stored as the string field
// "extra") and every parameter.
std::vector<std::uint8_t> save_transformer_seq2seq(const TransformerSeq2Seq& model, const std::string& extra_json = "");
// Throws ModelFileError for a damaged or foreign file.
TransformerSeq2Seq load_transformer_seq2seq(const std::vector<std::uint8_t>& bytes, std::string* extra_json = nullptr);

}  // namespace attn
