// A seq2seq workspace for the browser: it prepares a task's data with the pipeline the CLI uses
// (data/seq2seq_data.hpp: dates, digit reversal or a TSV file's pairs), builds the model and trains it in chunks of
// optimiser steps so a caller (the browser worker) can pause, resume or cancel between chunks. Training is
// train_seq2seq's, step for step: both drive Seq2SeqTrainingRun (train/seq2seq_trainer.hpp) on the same validation
// split.
//
// Legend: Tx source tokens, Ty output tokens (EOS included when emitted), N
// examples.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/data/seq2seq_data.hpp"
#include "attn/models/transformer_seq2seq.hpp"
#include "attn/text/translation_metrics.hpp"
#include "attn/train/gradient_exchange.hpp"
#include "attn/train/seq2seq_trainer.hpp"
#include "attn/train/step_chunks.hpp"
#include "attn/train/translation_scores.hpp"

namespace attn {

// What Seq2SeqSession needs. One schema, seq2seq_session_settings(), reads and writes it (JSON,
// the page's settings objects, `attn train`'s flags), with every key optional (the default is the
// member's initialiser below); named settings per task and model are the recipes of
// train/seq2seq_recipes.hpp. Keys (snake_case; the page's camelCase):
//   task          reverse (default) | sort | copy | dates | parallel (a TSV file's pairs, handed to
//                 the constructor: test_size source sentences — at most half — held out with all
//                 their translations, shuffled by seed, word level, as `attn train --task parallel`)
//   train_size, test_size, min_len, max_len, test_min_len, test_max_len (0: min_len / max_len),
//   source_vocab, target_vocab, bleu_sentences, seed — the data and the run
//   beam, length_alpha — parallel: the held-out sentences' decoding for BLEU (1: greedy)
//   source_language, target_language (english | french | generic, or en | fr), lowercase —
//                 parallel: how each side is split into words (text/mt_tokenizer.hpp)
//   model         rnn (default) | transformer
//   rnn:          attention, score (auto: additive for bahdanau, general for luong), cell, embed,
//                 units, attention_dim (seq2seq_model_settings())
//   transformer:  d_model, heads, layers (encoder and decoder blocks, each), ff (0: 2·d_model),
//                 dropout, label_smoothing (transformer_seq2seq_settings())
//   epochs, batch, learning_rate, clip_norm, validation_split, early_stopping_patience,
//                 restore_best (seq2seq_trainer_settings())
// Errors have the schemas' one wording: "Seq2SeqSessionConfig: unknown setting 'x'",
// "Seq2SeqSessionConfig: <name> must be <rule>, got <value>".
struct Seq2SeqSessionConfig {
  std::string task = "reverse";
  std::size_t train_size = 2000, test_size = 200;  // parallel: train_size 0 = every pair
  std::size_t min_len = 3, max_len = 8;            // digit tasks
  std::size_t test_min_len = 0, test_max_len = 0;  // 0: min_len, and max(max_len, test_min_len)
  std::size_t source_vocab = 8000, target_vocab = 8000;
  // parallel: each side's word rules (English contractions, French elisions and clitics) and
  // lowercasing, both sides (BLEU is scored lowercased anyway).
  MtLanguage source_language = MtLanguage::english, target_language = MtLanguage::french;
  bool lowercase = true;
  std::size_t max_train_tokens = 0;  // parallel: longer training pairs left out (0: no limit)
  std::string kind = "rnn";          // "model": rnn | transformer
  // The parts of each model the settings choose (vocabulary sizes come from the data): rnn_config()
  // and transformer_config() are the models built.
  Seq2SeqConfig model;
  TransformerSeq2SeqConfig transformer;
  std::string score = "auto";  // rnn: auto = the attention's own (bahdanau additive, luong general)
  std::size_t ff = 0;          // transformer feed-forward size; 0 = 2·d_model
  std::size_t bleu_sentences = 200;
  // parallel: how the held-out sentences are decoded for their scores (each epoch's BLEU,
  // evaluate, `attn train`'s done line): beam 1 is greedy, K > 1 a beam search of K ranked with the
  // GNMT length penalty length_alpha (train/translation_scores.hpp).
  std::size_t beam = 1;
  float length_alpha = kDefaultLengthAlpha;
  Seq2SeqTrainerConfig trainer;
  std::uint64_t seed = 1;  // data, initialisation and training (trainer.seed follows it)

  // The session's own sizes for the nested parts (the constructor, seq2seq_session.cpp).
  Seq2SeqSessionConfig();
  // JSON over the defaults (seq2seq_session_settings().read), checked and finished.
  static Seq2SeqSessionConfig from_json(const std::string &json);
  std::string to_json() const;

  // What the settings build, every "follows" resolved: the RNN (score), the Transformer (ff,
  // both layer counts), each with the given vocabulary sizes; the data spec (test lengths).
  Seq2SeqConfig rnn_config(std::size_t source_vocab_ids, std::size_t target_vocab_ids) const;
  TransformerSeq2SeqConfig transformer_config(std::size_t source_vocab_ids, std::size_t target_vocab_ids) const;
  Seq2SeqDataSpec data_spec() const;
  TranslationSearch search() const { return {beam, length_alpha}; }
  bool is_transformer() const { return kind == "transformer"; }
};

// Seq2SeqSessionConfig's fields: its own, and those of the RNN's, the Transformer's and the
// trainer's schemas that a learner chooses (io/settings_schema.hpp). Several fields may share a
// command-line flag (--embed sizes embed and d_model, --vocab both vocabularies): each model
// reads its own. The finish step checks the chosen model with placeholder vocabularies, the
// lengths and the trainer, so bad settings fail before any data is read.
const SettingsSchema<Seq2SeqSessionConfig> &seq2seq_session_settings();

// What one run_steps call did.
using Seq2SeqSessionProgress = ChunkProgress<Seq2SeqStepProgress, Seq2SeqEpochProgress>;  // see train/step_chunks.hpp

// One hypothesis of a beam (or the greedy output).
struct Seq2SeqCandidate {
  std::string text;
  float score = 0;  // length_penalised_score(log_prob, steps, 0.6)
  float log_prob = 0;
  bool finished = false;
};

// One decoding, ready to show: the tokens as text and the attention of every
// output step.
struct Seq2SeqTranslation {
  std::string output;                      // the decoded text
  std::vector<std::string> source_tokens;  // [Tx] one per source character ("<unk>" if unknown)
  std::vector<std::string> output_tokens;  // [Ty] the decoded tokens, then "<eos>" when finished
  std::vector<float> alignment;            // [Ty, Tx] row-major; empty for attention "none"
  float log_prob = 0;
  bool finished = false;
  std::vector<Seq2SeqCandidate> candidates;  // best first; candidates[0] is the output
  // Transformer only (empty for the RNN): every decoder block's attention of the output,
  // row-major, cross [L, H, Ty, Tx] and masked self [L, H, Ty, Ty] (TransformerAttentionMaps).
  std::vector<float> cross_attention, self_attention;
  std::array<std::size_t, 4> cross_shape{}, self_shape{};
};

// Held-out translation quality (text/translation_metrics.hpp, lowercased): greedy output of each
// distinct source against all its references.
struct Seq2SeqEvaluation {
  Seq2SeqMetrics pairs;  // per pair, against its own target (evaluate_seq2seq)
  // BLEU needs words: the built-in tasks' outputs are one 13a token each (no 2-gram, BLEU 0), so
  // bleu and by_length are only computed for task "parallel".
  bool has_bleu = false;
  std::size_t sentences = 0;            // distinct sources scored
  double bleu = 0, chrf = 0;            // corpus BLEU-4 and chrF2, in [0, 100]
  double exact_match = 0;               // share of sources whose output equals one of its references
  std::vector<LengthBucket> by_length;  // BLEU by source length (five buckets)
  double teacher_forced_accuracy = 0;   // teacher_forced_accuracy over the pairs
};

// One decoder block's cross-attention projections (copies): Q = x W_q + b_q from the decoder,
// K = m W_k + b_k and V = m W_v + b_v from the encoder's output; [D, D] and [D], heads side by side.
struct TransformerCrossWeights {
  Tensor2 w_q, w_k, w_v;
  Tensor1 b_q, b_k, b_v;
};

// What Seq2SeqSession::cross_start hands out for a batch of texts (Transformer sessions).
struct TransformerCrossEncoding {
  std::vector<std::vector<std::string>> source_tokens;  // [B] each text's tokens ("<unk>" if unknown)
  std::vector<std::size_t> source_lengths;              // [B] real tokens; the batch is padded 'post'
  Tensor3 memory;                                       // [B, Tx, D] m, what the keys and values come from
  std::vector<TransformerCrossWeights> blocks;          // N_d
  std::size_t heads = 0;                                // H: each head owns D / H columns
  std::size_t max_len = 0;                              // decode_limit()
};

class Seq2SeqSession {
 public:
  // Generates the data, fits the vocabularies and builds a fresh model
  // (Rng(config.seed)). Throws std::invalid_argument for a bad task or
  // configuration.
  explicit Seq2SeqSession(const Seq2SeqSessionConfig &config);
  // Task "parallel": the pairs come from `tsv` (a "source<TAB>target" file; `name` is what its
  // DataError messages "<name>:<line>: ..." call it). Throws std::invalid_argument for another
  // task; DataError for a bad file or fewer than 2 pairs with word tokens.
  Seq2SeqSession(const Seq2SeqSessionConfig &config, const std::uint8_t *tsv, std::size_t size,
                 const std::string &name);
  ~Seq2SeqSession();
  Seq2SeqSession(const Seq2SeqSession &) = delete;
  Seq2SeqSession &operator=(const Seq2SeqSession &) = delete;

  const Seq2SeqSessionConfig &config() const { return config_; }
  // The model, whichever kind (its parameters stay writable through it, as ParameterList's views are).
  TrainableTranslator &model() const { return *model_; }
  // The RNN model, for the step API; std::invalid_argument for a Transformer session.
  const Seq2SeqModel &rnn_model() const;
  bool is_transformer() const { return config_.is_transformer(); }
  const ParallelVocabularies &vocabularies() const { return data_.vocabularies; }
  const std::vector<ParallelExample> &train_set() const { return data_.train; }
  const std::vector<ParallelExample> &test_set() const { return data_.test; }
  // Training pairs max_train_tokens left out (task parallel).
  std::size_t train_too_long() const { return data_.train_too_long; }
  // The share of each side's tokens and sentences the vocabularies turn into <unk>, in the
  // training and the held-out pairs (recomputed when load_model replaces the vocabularies).
  const PairUnknownRates &train_unknown() const { return data_.train_unknown; }
  const PairUnknownRates &test_unknown() const { return data_.test_unknown; }

  // Starts a run from the model's current parameters (replacing a previous
  // run), holding out config.trainer.validation_split of the training pairs.
  void start_training();
  // Up to max_steps optimiser steps; a completed epoch is validated at once.
  // After divergence (std::runtime_error, parameters restored) the run is over.
  // std::logic_error without a run.
  Seq2SeqSessionProgress run_steps(std::size_t max_steps);
  // Data-parallel training (Seq2SeqTrainingRun::shard_gradient, docs/data-parallel.md): the
  // exchange buffer's length; shard `shard` of `shards` of the next batch (the buffer is kept
  // until the step is applied: send a copy to the other replicas); and one optimiser step from
  // this replica's buffer and `others` (the other K - 1 shards', in shard order), added in shard
  // order (the epoch closed when it completes, as run_steps does). std::logic_error without a run,
  // after it finished, or without a shard gradient for the step; std::invalid_argument for another
  // count or length of buffers (ShardBuffers::in_order).
  std::size_t exchange_size() const;
  const std::vector<float> &shard_gradient(std::size_t shard, std::size_t shards);
  Seq2SeqSessionProgress apply_gradient(const std::vector<std::vector<float>> &others);
  // Ends the run now; the model gets the best validation epoch's parameters (if
  // one completed and restore_best is on).
  void cancel_training();
  bool training() const;
  const Seq2SeqHistory &history() const;  // std::logic_error without a run

  // Greedy (beam <= 1) or beam-search decoding of `text` (at most max_len
  // steps; 0 = the longest test target + 4). Unknown characters become <unk>;
  // empty text throws std::invalid_argument.
  Seq2SeqTranslation translate(const std::string &text, std::size_t beam, std::size_t max_len = 0) const;
  // The step API (Seq2SeqModel::encode / attend / decoder_step) on texts: each text encoded with
  // the source vocabulary (unknown characters become <unk>), the batch padded 'post' with PAD.
  // `tokens`, when given, receives each text's source tokens. Throws std::invalid_argument for no
  // texts or an empty one, and what Seq2SeqModel::encode throws (a model that is not 'bahdanau').
  Seq2SeqEncoding encode_texts(const std::vector<std::string> &texts,
                               std::vector<std::vector<std::string>> *tokens = nullptr) const;
  // The Transformer's decoder self-attention mask (TransformerSeq2Seq::set_decoder_self_mask),
  // used from the next training run on and by every decoding: L × L, L >= decode_limit() (every
  // training batch's decoder positions and every decoding step); an empty mask restores the
  // causal one. std::invalid_argument for an RNN session, a smaller or non-0/1 mask;
  // std::logic_error while a run is in progress. load_model drops it (files hold causal models).
  void set_decoder_mask(const Mask2 &mask);

  // The Transformer's step API with the cross-attention from outside, one decoding held by the
  // session (TransformerSeq2Seq::begin_step / cross_attention / continue_step):
  //   cross_start(texts): encodes the texts as one batch padded 'post' and starts a decoding;
  //   cross_begin(previous [B]): the next step up to block 0's cross-attention;
  //   cross_attention(): the engine's own heads [B, 1, D] and weights [B, H, 1, Tx] for the pending block;
  //   cross_continue(heads [B, 1, D], weights or null): finishes that block and runs the next one up to
  //   its cross-attention, or the output: the returned partial is then finished() (log p in its
  //   result), and best_tokens() holds each row's greedy choice (best_emittable_token, as translate).
  // std::invalid_argument for an RNN session or no texts / an empty one; std::logic_error for a
  // call out of order (no decoding, no pending cross-attention).
  TransformerCrossEncoding cross_start(const std::vector<std::string> &texts);
  const TransformerPartialStep &cross_begin(const std::vector<std::int32_t> &previous);
  void cross_attention(Tensor3 &heads, Tensor4 &weights) const;
  const TransformerPartialStep &cross_continue(const Tensor3 &heads, const Tensor4 *weights);
  std::vector<std::int32_t> best_tokens() const;

  // Decoded target ids -> their tokens ("<eos>" for EOS, "<unk>" for UNK) and their text.
  std::vector<std::string> target_tokens(const std::vector<int> &ids) const;
  std::string target_text(const std::vector<int> &ids) const;
  // The longest decoding translate runs by default: the longest target in the data + 4.
  std::size_t decode_limit() const;

  // On the first `limit` (0 = all) pairs of "test" or "train": per-pair greedy metrics, BLEU /
  // chrF / exact match / BLEU by length over their distinct sources (references: every target of
  // the source among those pairs) and the teacher-forced token accuracy.
  Seq2SeqEvaluation evaluate(const std::string &which, std::size_t limit = 0) const;
  // Greedy corpus BLEU of the first `sources` held-out sources (each against all its references).
  double held_out_bleu(std::size_t sources) const;

  // The model file (save_translator: either kind) with the vocabularies in its extra JSON, in the CLI's format
  // ({"task", "source_*", "target_*"}): `attn translate` reads it, and load_model reads the CLI's.
  std::vector<std::uint8_t> save_model() const;
  // Replaces the model and the vocabularies with a saved file's (ending any run); the session's
  // pairs are re-encoded with the file's vocabularies and tokenizers (unknown tokens become
  // <unk>), and source_language / target_language / lowercase take the file's. Throws what
  // load_translator throws (ModelFileError: damaged, foreign, checksum) or std::invalid_argument for
  // a file without vocabularies; the session is unchanged then.
  void load_model(const std::vector<std::uint8_t> &bytes);

 private:
  // texts -> source ids [B, Tx] padded 'post' (tokens: each text's source tokens).
  TokenIds encode_source_texts(const std::vector<std::string> &texts, const char *where,
                               std::vector<std::vector<std::string>> *tokens) const;
  const TransformerSeq2Seq &transformer_model(const char *where) const;
  // Taking the data (and a fresh model) in.
  void adopt(Seq2SeqData data);

  Seq2SeqSessionConfig config_;
  Seq2SeqData data_;  // pairs, vocabularies, ids (data/seq2seq_data.hpp, as the CLI's)
  std::unique_ptr<TrainableTranslator> model_;
  Seq2SeqSplit split_;  // the run borrows it
  std::unique_ptr<Seq2SeqTrainingRun> run_;
  // The cross-attention step API's decoding (cross_start .. cross_continue).
  std::unique_ptr<TransformerDecodingState> cross_state_;
  TransformerPartialStep cross_partial_;
  bool cross_pending_ = false;  // a cross-attention is waiting for cross_continue
  ShardBuffers shard_buffers_;  // this replica's side of a data-parallel step
};

}  // namespace attn
