// What a translator is to the code around it: encode a source, run one decoder step at a time,
// and say how big its target vocabulary is. Greedy and beam search (below) are written once
// against this interface, and so are the seq2seq trainer's validation (train/seq2seq_trainer.hpp)
// and the page's session: a new kind of encoder–decoder (the RNN of models/seq2seq.hpp today, a
// Transformer next) implements Translator and gets the searches, the metrics, the session, the
// binding and the view as they are.
//
// Legend: R rows (the rows of a source batch, or beam search's live hypotheses), Tx source
// length (padded), V target vocabulary.
//
// Token conventions (shared by every translator and vocabulary, text/seq2seq_vocabulary.hpp):
// PAD = 0, BOS = 1, EOS = 2, UNK = 3. Sources [R, Tx] carry no BOS/EOS and are padded 'post' with
// PAD; a decoder's first input is BOS; it stops at EOS.
//
// Contract of a decoding:
//   * start(source) encodes once and returns a Decoding that holds everything later steps read
//     (the encoder's outputs for every row, the decoder state, the step's scratch). The CALLER
//     owns it (a search keeps it for one decode and drops it); only the translator that made it
//     reads or changes its insides. The translator itself is not changed, so several decodings
//     may run at once on one const translator.
//   * step(decoding, previous, logits) feeds one token per row (previous [R]) and advances every
//     row by one step: logits [R, V] (resized by the step; unnormalised scores, a softmax gives
//     p(y_t | y_<t, x)). It returns the step's attention weights [R, Tx] over the source (PAD
//     columns 0), owned by the decoding and valid until its next call — or null when the
//     translator does not attend (attends() == false).
//   * reorder(decoding, parents) makes row i what row parents[i] was (the decoder state and the
//     encoder outputs follow their hypothesis); the decoding has parents.size() rows afterwards
//     (fewer or more than before). Beam search calls it after every step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "attn/layers/parameter.hpp"
#include "attn/random.hpp"
#include "attn/tensor.hpp"

namespace attn {

constexpr std::int32_t kPadId = 0, kBosId = 1, kEosId = 2, kUnkId = 3;

struct Decoded {
  std::vector<int> tokens;  // without BOS / EOS
  float log_prob = 0;       // Σ log p of the emitted tokens, EOS included when it was emitted
  bool finished = false;    // EOS was emitted (false: stopped at max_len)
  // [rows, Tx]: attention weights of every decoder step, rows = tokens.size() (+ 1 for the EOS
  // step when finished); shape [0, 0] for a translator that does not attend.
  Tensor2 alignment;
};

class Translator {
 public:
  // A decoding in progress (see the contract above); each translator derives its own.
  class Decoding {
   public:
    virtual ~Decoding() = default;
  };

  virtual ~Translator() = default;

  // V: the width of the logits a step writes (the 4 special ids included).
  virtual std::size_t target_vocab() const = 0;
  // Whether step() returns attention weights.
  virtual bool attends() const = 0;
  // source [R, Tx] (R, Tx >= 1; ids < the source vocabulary) -> a decoding of R rows before its
  // first step. Throws what the encoder throws for bad ids or shapes.
  virtual std::unique_ptr<Decoding> start(const TokenIds& source) const = 0;
  // previous [R] token ids (< V) -> logits [R, V]; returns the attention weights [R, Tx] or null.
  virtual const Tensor2* step(Decoding& decoding, const std::int32_t* previous, Tensor2& logits) const = 0;
  // Row i <- row parents[i] (parents[i] < the current rows); parents.size() rows from now on.
  virtual void reorder(Decoding& decoding, const std::vector<std::size_t>& parents) const = 0;
};

// A translator that learns: what the seq2seq trainer (train/seq2seq_trainer.hpp) and the page's
// session drive. Legend as above, B = R; Ty target length (BOS y1 .. yn EOS, then PAD).
class TrainableTranslator : public Translator {
 public:
  // Vs: source ids must be below it (the 4 special ids included).
  virtual std::size_t source_vocab() const = 0;
  // {name, value, grad} views in a stable order (layers/README.md); the trainer snapshots,
  // restores, clips and steps them.
  virtual ParameterList& parameters() = 0;
  // source [B, Tx], target [B, Ty] -> mean token cross-entropy over the non-PAD target[:, 1:].
  // Gradients ACCUMULATE into parameters() (the trainer zeroes them once per step). At each step
  // the decoder reads the gold previous token with probability teacher_forcing_ratio (drawn from
  // rng), else its own previous prediction; ratio 1 draws nothing.
  virtual float train_batch(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng) = 0;
  // The same loss, teacher forced, forward only (no gradients).
  virtual float loss(const TokenIds& source, const TokenIds& target) = 0;
};

// The decoding rules the searches share, for every translator: a decoder never emits PAD or BOS
// (log-probabilities still come from the softmax over all V tokens); at most max_len steps run,
// and a hypothesis without EOS by then is returned as it is (its tokens, no EOS).

// source [B, Tx] padded with PAD -> one Decoded per row: at every step each unfinished row emits
// its best emittable token (models/seq2seq_decoding.hpp) and reads it at the next step.
std::vector<Decoded> greedy_search(const Translator& translator, const TokenIds& source, std::size_t max_len);

// Beam search of `width` (>= 1, else std::invalid_argument) hypotheses over one source [Tx],
// best first, at most `width` results. Every step ranks all extensions (never PAD / BOS) of the
// live hypotheses by log_prob (ties: the earlier hypothesis, then the smaller id); of the best
// `width`, those ending in EOS are finished and the others stay live. The search stops when
// `width` hypotheses have finished, none is live or max_len steps ran (live ones are then
// returned unfinished); the results are sorted by length_penalised_score (length_alpha).
// width 1 is greedy.
std::vector<Decoded> beam_search(const Translator& translator, const std::vector<int>& source, std::size_t width,
                                 float length_alpha, std::size_t max_len);

// GNMT length-penalised score (Wu et al. 2016): log_prob / ((5 + length) / 6)^alpha, length =
// decoder steps taken (tokens, + 1 with EOS); alpha = 0 ranks by log_prob.
float length_penalised_score(float log_prob, std::size_t length, float alpha);

// How many steps `attn translate` (and the PyTorch export's model.py) lets a decoder run when the
// answer's length is unknown: kDecodeStepsPerSourceToken · Tx + kDecodeExtraSteps, generous for
// every task here; and the length penalty exponent its beam search uses unless told otherwise.
constexpr std::size_t kDecodeStepsPerSourceToken = 2, kDecodeExtraSteps = 10;
constexpr float kDefaultLengthAlpha = 0.6f;
inline std::size_t decode_step_limit(std::size_t source_tokens) {
  return kDecodeStepsPerSourceToken * source_tokens + kDecodeExtraSteps;
}

// A source [Tx] as a one-row batch [1, max(Tx, 1)] (an empty source is one PAD).
TokenIds source_row(const std::vector<int>& source);

}  // namespace attn
