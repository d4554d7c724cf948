// A sequence-to-sequence encoder–decoder with (optional) attention: RNNenc (Cho et al. 2014),
// RNNsearch (Bahdanau et al. 2015) and Luong et al. 2015's global attention, trained with teacher
// forcing (optionally scheduled sampling) and decoded greedily or with beam search.
//
// Legend: B batch, Tx source length, Ty target length (BOS y1 .. yn EOS, then PAD), T' = Ty − 1
// decoder steps, V vocabulary (Vs source, Vt target), E embedding size, U encoder units per
// direction, Dh = 2U annotation size, Ds = 2U decoder state size, A attention hidden size.
//
// Token conventions: PAD = 0, BOS = 1, EOS = 2, UNK = 3. Sources [B, Tx] carry no BOS/EOS and are
// padded 'post' (or 'pre': only the mask is read) with PAD; targets [B, Ty] are BOS y1 .. yn EOS,
// padded 'post' with PAD. Masks come from PAD.
//
// Encoder: Embedding(Vs, E) → BiLSTM | BiGRU(U): annotations h_i = [→h_i; ←h_i]   [B, Tx, 2U]
// Decoder (LSTM | GRU cell of Ds = 2U units, so `dot` scoring compares s_t and h_j directly):
//   bahdanau: s_0 = tanh(W_init ←h_1)                          (the backward RNN's state at i = 1)
//             c_t = attention(s_{t-1}, h)                        (additive scores)
//             s_t = cell([E y_{t-1}; c_t], s_{t-1});  logits_t = W_out [s_t; c_t] + b
//   luong:    s_0 = tanh(W_init [→h_Tx; ←h_1])
//             s_t = cell([E y_{t-1}; h̃_{t-1}], s_{t-1})        (h̃_0 = 0; without input feeding: E y_{t-1})
//             c_t = attention(s_t, h);  h̃_t = tanh(W_c [c_t; s_t]);  logits_t = W_out h̃_t + b
//   none:     s_0 = tanh(W_init [→h_Tx; ←h_1]);  s_t = cell(E y_{t-1}, s_{t-1});  logits_t = W_out s_t + b
// An LSTM decoder's cell state starts at 0.
//
// Valid configurations (Seq2SeqConfig::validate says which rule failed, verbatim as below):
//   * every size >= 1 (max_source_len only matters for luong + location), and target_vocab >= 4
//     ("Seq2SeqConfig: target_vocab must be >= 4 (PAD, BOS, EOS, UNK), got <n>");
//   * bahdanau needs score = additive ("Seq2SeqConfig: attention 'bahdanau' scores with the
//     previous decoder state through an additive layer, so score must be 'additive', got '<s>'");
//   * luong needs score in {dot, scaled_dot, general, concat, location} ("Seq2SeqConfig: attention
//     'luong' supports score dot, scaled_dot, general, concat or location, got '<s>'");
//   * input_feeding only with luong is read (ignored otherwise); score is ignored for none.
//   Because Ds = Dh = 2U, dot and scaled_dot never fail on sizes.
//
// Decoding: greedy and beam search (models/translator.hpp, written once for every translator) never emit PAD or BOS
// (their log-probabilities still come from the softmax over all Vt tokens). At most max_len decoder steps run; a
// hypothesis that has not produced EOS by then is returned as it is (its tokens, no EOS). Beam search ranks finished
// hypotheses by the GNMT length penalty (Wu et al. 2016):
//   score = log_prob / ((5 + len) / 6)^alpha,  len = decoder steps taken (tokens, + 1 with EOS);
// alpha = 0 ranks by log_prob. See beam() for the search itself.
//
// The model owns its layers' caches, so one model trains one batch at a time (not thread-safe;
// the const decoding functions use their own buffers and may run concurrently).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/attention/scores.hpp"
#include "attn/io/settings_schema.hpp"
#include "attn/layers/parameter.hpp"
#include "attn/models/sequence_encoder.hpp"
#include "attn/models/translator.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

// kPadId .. kUnkId, Decoded and the searches are models/translator.hpp's; CellKind is
// models/sequence_encoder.hpp's.
enum class AttentionForm { none, bahdanau, luong };

const char* attention_form_name(AttentionForm form);  // "none", "bahdanau", "luong"
AttentionForm attention_form_from_name(const std::string& name);

struct Seq2SeqConfig {
  std::size_t source_vocab = 0, target_vocab = 0;  // Vs, Vt (both include the 4 special ids)
  std::size_t embed = 32;                          // E (source and target embeddings)
  std::size_t units = 64;                          // U per encoder direction; Ds = 2U
  std::size_t attention_dim = 64;                  // A (bahdanau)
  CellKind cell = CellKind::lstm;                  // encoder and decoder
  AttentionForm attention = AttentionForm::bahdanau;
  ScoreKind score = ScoreKind::additive;
  bool input_feeding = true;        // luong: feed h̃_{t-1} into the next step
  std::size_t max_source_len = 64;  // luong + location: longest source it can score

  // Throws std::invalid_argument "Seq2SeqConfig: ..." (see the header comment for the rules).
  void validate() const;
  // Flat JSON with "model": "seq2seq" and every field (seq2seq_model_settings()); from_json reads
  // a model file's, requiring every field, and validates.
  std::string to_json() const;
  static Seq2SeqConfig from_json(const std::string& json);
};

// Seq2SeqConfig's fields (io/settings_schema.hpp): the model file's JSON follows it, and the
// seq2seq session's settings (train/seq2seq_session.hpp) take the ones a learner chooses.
const SettingsSchema<Seq2SeqConfig>& seq2seq_model_settings();

// The decoder one step at a time, for attention computed outside the model (the course's
// in-model exercise: a learner's alignment network drives decoding). Bahdanau models only: their
// attention reads the PREVIOUS state s_{t-1}, so a step splits cleanly into
//   (weights, c_t) = attention(s_{t-1}, h)             any function; attend() is the model's own
//   s_t = cell([E y_{t-1}; c_t], s_{t-1}),  p(y_t) = softmax(W_out [s_t; c_t] + b)   decoder_step()
// Driving decoder_step with attend() and feeding back its tokens reproduces greedy_batch exactly.
struct Seq2SeqDecoderState {
  Tensor2 s;  // [B, Ds] s_t
  Tensor2 c;  // [B, Ds] an LSTM decoder's cell state (zeros, never read, for a GRU)
};

struct Seq2SeqEncoding {
  Tensor3 annotations;        // [B, Tx, Dh] h_j = [→h_j; ←h_j]
  Mask2 mask;                 // [B, Tx] 1 for a source token, 0 for PAD
  Seq2SeqDecoderState start;  // s_0 = tanh(W_init ←h_1), c_0 = 0
};

struct Seq2SeqAttention {
  Tensor2 weights;  // [B, Tx] softmax over time of the scores, PAD exactly 0
  Tensor2 context;  // [B, Dh] c_t = Σ_j a_j h_j
};

struct Seq2SeqStep {
  Seq2SeqDecoderState state;         // s_t, c_t
  Tensor2 probabilities;             // [B, Vt] p(y_t | y_<t, x), a softmax over the whole vocabulary
  std::vector<std::int32_t> tokens;  // [B] the greedy choice: best_emittable_token of each row
};

// A TrainableTranslator (models/translator.hpp): greedy(), greedy_batch() and beam() are
// greedy_search and beam_search over it, and train/seq2seq_trainer.hpp trains it through the
// interface.
class Seq2SeqModel final : public TrainableTranslator {
 public:
  // Validates `config`; draws every initial weight from Rng(seed).
  Seq2SeqModel(const Seq2SeqConfig& config, std::uint64_t seed);
  ~Seq2SeqModel() override;
  Seq2SeqModel(Seq2SeqModel&&) noexcept;
  Seq2SeqModel& operator=(Seq2SeqModel&&) noexcept;

  const Seq2SeqConfig& config() const;
  // Names: "source_embedding.weight", "encoder.{forward,backward}.*", "init.{w,b}",
  // "target_embedding.weight", "decoder.*", "attention.*" (not for none), "output.{w,b}".
  ParameterList& parameters() override;
  const ParameterList& parameters() const;  // the same views (values stay writable)

  // source [B, Tx] (ids < Vs), target [B, Ty] (ids < Vt, Ty >= 2) -> mean token cross-entropy
  // over the non-PAD tokens target[:, 1:]. Gradients ACCUMULATE into parameters() (zero them
  // once per step). teacher_forcing_ratio in [0, 1]: at every step t >= 1 and row b the input is
  // the gold token target[b, t] with probability ratio, else the argmax of the model's previous
  // logits (never PAD / BOS), drawn as rng.uniform() < ratio per (t, b); ratio 1 and 0 draw
  // nothing. Sampled inputs are constants for the gradient (scheduled sampling, Bengio et al. 2015).
  float train_batch(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng) override;
  // Forward only, teacher forced: the same loss, no gradients.
  float loss(const TokenIds& source, const TokenIds& target) override;
  // Forward only with train_batch's scheduled sampling (same draws from rng): the function whose
  // gradient train_batch computes, for gradient checks at ratio < 1.
  float loss(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng);

  // source [Tx] -> the argmax decoding of at most max_len steps.
  Decoded greedy(const std::vector<int>& source, std::size_t max_len) const;
  // source [B, Tx] padded with PAD -> one Decoded per row, as greedy would give (alignments
  // [rows, Tx] over the padded Tx).
  std::vector<Decoded> greedy_batch(const TokenIds& source, std::size_t max_len) const;
  // Beam search of `width` (>= 1) hypotheses, best first, at most `width` results. Every step
  // ranks all extensions (never PAD / BOS) of the live hypotheses by log_prob; of the best
  // `width`, those ending in EOS are finished and the others stay live. The search stops when
  // `width` hypotheses have finished, none is live or max_len steps ran (live ones are then
  // returned unfinished); the results are sorted by the length-penalised score (length_alpha).
  // width 1 is greedy; a width at least the number of live extensions explores every sequence.
  std::vector<Decoded> beam(const std::vector<int>& source, std::size_t width, float length_alpha,
                            std::size_t max_len) const;

  // The step API (see Seq2SeqStep above). Every call throws std::invalid_argument for a model
  // whose attention is not 'bahdanau', and ShapeError / std::invalid_argument for shapes, token ids
  // or non-finite values that do not fit; the model is never changed.
  // source [B, Tx] padded with PAD (ids < Vs) -> the annotations, mask and s_0.
  Seq2SeqEncoding encode(const TokenIds& source) const;
  // The model's own attention for decoder states s [B, Ds] over `encoding` (what greedy reads).
  Seq2SeqAttention attend(const Seq2SeqEncoding& encoding, const Tensor2& s) const;
  // One decoder step: previous [B] tokens (BOS first; ids < Vt), the state before the step, the
  // context c_t [B, Dh] -> the state after it, p(y_t) and the greedy tokens.
  Seq2SeqStep decoder_step(const std::vector<std::int32_t>& previous, const Seq2SeqDecoderState& state,
                           const Tensor2& context) const;
  // The alignment network as attention/scores.hpp parameters: the same function of (s, h) both as
  // additive (w1 [A, Ds], w2 [A, Dh], v [A]) and as concat (w = [w1 w2] [A, Ds + Dh], the same v):
  // scores(additive, ...) and scores(concat, ...) give attend()'s scores before the softmax.
  ScoreParams alignment_parameters() const;

  // Translator: a decoding holds the encoder's outputs and the decoder state (seq2seq_search.cpp).
  std::size_t source_vocab() const override;
  std::size_t target_vocab() const override;
  bool attends() const override;  // attention is not 'none'
  std::unique_ptr<Decoding> start(const TokenIds& source) const override;
  const Tensor2* step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const override;
  void reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const override;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The model file (io/model_file.hpp): config JSON (with `extra_json`, any text, stored as the
// string field "extra") and every parameter.
std::vector<std::uint8_t> save_seq2seq(const Seq2SeqModel& model, const std::string& extra_json = "");
// Throws ModelFileError for a damaged or foreign file, std::invalid_argument for a bad config.
Seq2SeqModel load_seq2seq(const std::vector<std::uint8_t>& bytes, std::string* extra_json = nullptr);

}  // namespace attn
