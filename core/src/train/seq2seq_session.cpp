#include "attn/train/seq2seq_session.hpp"

#include <algorithm>
#include <stdexcept>

#include "attn/data/parallel_split.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/seq2seq_decoding.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/translation_scores.hpp"

namespace attn {

Seq2SeqSessionConfig::Seq2SeqSessionConfig() {
  // Small enough to train in the browser in seconds (reverse) to a few minutes (dates).
  model.embed = 16;
  model.units = 32;
  model.attention_dim = 32;
  model.cell = CellKind::gru;
  transformer.d_model = 64;
  transformer.heads = 4;
  transformer.encoder_layers = transformer.decoder_layers = 2;
  transformer.dropout = 0.1f;
  transformer.label_smoothing = 0.1f;
  trainer.epochs = 10;
  trainer.batch = 32;
  trainer.learning_rate = 0.005f;
}

const SettingsSchema<Seq2SeqSessionConfig> &seq2seq_session_settings() {
  using C = Seq2SeqSessionConfig;
  static const SettingsSchema<C> schema = [] {
    const auto rnn = [](C &c) -> Seq2SeqConfig & { return c.model; };
    const auto transformer = [](C &c) -> TransformerSeq2SeqConfig & { return c.transformer; };
    const auto trainer = [](C &c) -> Seq2SeqTrainerConfig & { return c.trainer; };
    std::vector<std::string> scores = {"auto"};
    for (const ScoreKind kind : all_score_kinds()) scores.push_back(score_kind_name(kind));
    // The tokenizer's names, the long one first (what is written back), then the short ones.
    const std::vector<std::pair<std::string, MtLanguage>> languages = {{"generic", MtLanguage::generic},
                                                                       {"english", MtLanguage::english},
                                                                       {"french", MtLanguage::french},
                                                                       {"en", MtLanguage::english},
                                                                       {"fr", MtLanguage::french}};
    std::vector<SettingField<C>> fields = {
        choice_setting<C>(
            "task", [](C & c) -> auto & { return c.task; }, {"reverse", "sort", "copy", "dates", "parallel"},
            "reverse / sort / copy a digit string, normalise a date, or translate a TSV file's pairs"),
        whole_setting<C>(
            "train_size", [](C & c) -> auto & { return c.train_size; }, whole_range(0, 1 << 24),
            "training pairs (parallel: at most this many, 0 = every pair)", "train-size"),
        whole_setting<C>(
            "test_size", [](C & c) -> auto & { return c.test_size; }, whole_range(1, 1 << 24),
            "held-out pairs (parallel: held-out source sentences, with all their translations)", "test-size"),
        whole_setting<C>(
            "min_len", [](C & c) -> auto & { return c.min_len; }, whole_range(1, 1000),
            "digit tasks: shortest training string", "min-len"),
        whole_setting<C>(
            "max_len", [](C & c) -> auto & { return c.max_len; }, whole_range(1, 1000),
            "digit tasks: longest training string", "max-len"),
        whole_setting<C>(
            "test_min_len", [](C & c) -> auto & { return c.test_min_len; }, whole_range(0, 1000),
            "digit tasks: shortest held-out string (0: min_len)", "test-min-len"),
        whole_setting<C>(
            "test_max_len", [](C & c) -> auto & { return c.test_max_len; }, whole_range(0, 1000),
            "digit tasks: longest held-out string (0: max_len)", "test-max-len"),
        whole_setting<C>(
            "max_train_tokens", [](C & c) -> auto & { return c.max_train_tokens; }, whole_range(0, 1 << 20),
            "parallel: training pairs with more tokens on either side are left out (0: no limit; held-out "
            "sentences are all kept)",
            "max-tokens"),
        whole_setting<C>(
            "source_vocab", [](C & c) -> auto & { return c.source_vocab; }, whole_range(5, 1 << 22),
            "parallel: most frequent source words kept", "vocab"),
        whole_setting<C>(
            "target_vocab", [](C & c) -> auto & { return c.target_vocab; }, whole_range(5, 1 << 22),
            "parallel: most frequent target words kept", "vocab"),
        enum_setting<C>(
            "source_language", [](C & c) -> auto & { return c.source_language; }, languages,
            "parallel: the source side's word rules (english: contractions, french: elisions and clitics)",
            "source-language"),
        enum_setting<C>(
            "target_language", [](C & c) -> auto & { return c.target_language; }, languages,
            "parallel: the target side's word rules, and how translations are written back as text", "target-language"),
        flag_setting<C>(
            "lowercase", [](C & c) -> auto & { return c.lowercase; },
            "parallel: lowercase both sides' words (BLEU is scored lowercased)", "lowercase"),
        choice_setting<C>(
            "model", [](C & c) -> auto & { return c.kind; }, {"rnn", "transformer"},
            "the RNN encoder-decoder (with `attention`) or the Transformer encoder-decoder"),
    };
    for (auto &f :
         nested_settings<C>(seq2seq_model_settings(), rnn, {"attention", "cell", "embed", "units", "attention_dim"}))
      fields.push_back(std::move(f));
    fields.push_back(choice_setting<C>(
        "score", [](C & c) -> auto & { return c.score; }, scores,
        "rnn attention score (auto: additive for bahdanau, general for luong)", "score"));
    for (auto &f : nested_settings<C>(transformer_seq2seq_settings(), transformer, {"d_model", "heads"}))
      fields.push_back(std::move(f));
    // One count for both stacks.
    SettingField<C> layers = whole_setting<C>(
        "layers", [](C & c) -> auto & { return c.transformer.encoder_layers; }, whole_range(1, 64),
        "Transformer encoder blocks and decoder blocks, each", "layers");
    layers.set = [set = layers.set](C &c, const SettingValue &v) {
      set(c, v);
      c.transformer.decoder_layers = c.transformer.encoder_layers;
    };
    fields.push_back(std::move(layers));
    fields.push_back(whole_setting<C>(
        "ff", [](C & c) -> auto & { return c.ff; }, whole_range(0, 16384),
        "Transformer feed-forward size (0: 2 x d_model)", "ff"));
    for (auto &f : nested_settings<C>(transformer_seq2seq_settings(), transformer, {"dropout", "label_smoothing"}))
      fields.push_back(std::move(f));
    fields.push_back(whole_setting<C>(
        "bleu_sentences", [](C & c) -> auto & { return c.bleu_sentences; }, whole_range(0, 1 << 24),
        "parallel: held-out sources decoded for each epoch's BLEU (0: none)"));
    fields.push_back(whole_setting<C>(
        "beam", [](C & c) -> auto & { return c.beam; }, whole_range(1, 64),
        "parallel: the held-out sentences' decoding for their BLEU (1: greedy; K: a beam search of K)", "beam"));
    fields.push_back(number_setting<C>(
        "length_alpha", [](C & c) -> auto & { return c.length_alpha; }, whole_range(0, 10),
        "parallel: the beam search's length penalty exponent (GNMT; 0: rank by log-probability)", "alpha"));
    for (auto &f : nested_settings<C>(seq2seq_trainer_settings(), trainer,
                                      {"epochs", "batch", "learning_rate", "schedule", "warmup_steps", "clip_norm",
                                       "validation_split", "early_stopping_patience", "restore_best"}))
      fields.push_back(std::move(f));
    fields.push_back(whole_setting<C>(
        "seed", [](C & c) -> auto & { return c.seed; }, seed_range(), "the data, the initialisation and training",
        "seed"));
    return SettingsSchema<C>("Seq2SeqSessionConfig", std::move(fields), [](C &c) {
      c.trainer.seed = c.seed;
      const Seq2SeqDataSpec spec = c.data_spec();
      const auto fail = [](const std::string &rule) { throw std::invalid_argument("Seq2SeqSessionConfig: " + rule); };
      if (spec.max_len < spec.min_len) {
        fail("max_len must be >= min_len (" + std::to_string(spec.min_len) + "), got " + std::to_string(spec.max_len));
      }
      if (spec.test_max_len < spec.test_min_len) {
        fail("test_max_len must be >= test_min_len (" + std::to_string(spec.test_min_len) + "), got " +
             std::to_string(spec.test_max_len));
      }
      // The vocabularies come from the data: check the rest of the chosen model now.
      if (c.is_transformer()) {
        c.transformer_config(5, 5).validate();
      } else {
        c.rnn_config(5, 5).validate();
      }
      c.trainer.validate();
    });
  }();
  return schema;
}

Seq2SeqSessionConfig Seq2SeqSessionConfig::from_json(const std::string &json) {
  return seq2seq_session_settings().read(json);
}

std::string Seq2SeqSessionConfig::to_json() const { return seq2seq_session_settings().write(*this); }

Seq2SeqConfig Seq2SeqSessionConfig::rnn_config(std::size_t source_vocab_ids, std::size_t target_vocab_ids) const {
  Seq2SeqConfig c = model;
  c.source_vocab = source_vocab_ids;
  c.target_vocab = target_vocab_ids;
  if (score == "auto") {
    // Bahdanau scores additively; Luong defaults to its "general" form.
    c.score = c.attention == AttentionForm::luong ? ScoreKind::general : ScoreKind::additive;
  } else {
    c.score = score_kind_from_name(score);
  }
  return c;
}

TransformerSeq2SeqConfig Seq2SeqSessionConfig::transformer_config(std::size_t source_vocab_ids,
                                                                  std::size_t target_vocab_ids) const {
  TransformerSeq2SeqConfig c = transformer;
  c.source_vocab = source_vocab_ids;
  c.target_vocab = target_vocab_ids;
  c.ff_dim = ff == 0 ? 2 * c.d_model : ff;
  return c;
}

Seq2SeqDataSpec Seq2SeqSessionConfig::data_spec() const {
  Seq2SeqDataSpec spec;
  spec.task = task;
  spec.train_size = train_size;
  spec.test_size = test_size;
  spec.min_len = min_len;
  spec.max_len = max_len;
  spec.test_min_len = test_min_len == 0 ? min_len : test_min_len;
  spec.test_max_len = test_max_len == 0 ? std::max(max_len, spec.test_min_len) : test_max_len;
  spec.source_vocab = source_vocab;
  spec.target_vocab = target_vocab;
  spec.tokenization.source = {source_language, lowercase};
  spec.tokenization.target = {target_language, lowercase};
  spec.max_train_tokens = max_train_tokens;
  spec.seed = seed;
  return spec;
}

Seq2SeqSession::Seq2SeqSession(const Seq2SeqSessionConfig &config) : config_(config) {
  if (config_.task == "parallel") {
    throw std::invalid_argument("Seq2SeqSession: task 'parallel' needs the pairs: pass the text of a TSV file");
  }
  if (config_.train_size == 0) throw std::invalid_argument("Seq2SeqSession: train_size must be >= 1, got 0");
  adopt(generate_seq2seq_data(config_.data_spec()));
}

Seq2SeqSession::Seq2SeqSession(const Seq2SeqSessionConfig &config, const std::uint8_t *tsv, std::size_t size,
                               const std::string &name)
    : config_(config) {
  if (config_.task != "parallel") {
    throw std::invalid_argument("Seq2SeqSession: a TSV file is for task 'parallel', not '" + config_.task + "'");
  }
  // train_size keeps its generated-task default (2000) unless set: a file is used up to it (0: whole).
  adopt(parallel_seq2seq_data(load_parallel_text_bytes(tsv, size, name), name, config_.data_spec()));
}

void Seq2SeqSession::adopt(Seq2SeqData data) {
  data_ = std::move(data);
  cross_state_.reset();
  cross_pending_ = false;
  const std::size_t vs = data_.vocabularies.source.size(), vt = data_.vocabularies.target.size();
  if (is_transformer()) {
    model_ = std::make_unique<TransformerSeq2Seq>(config_.transformer_config(vs, vt), config_.seed);
  } else {
    Seq2SeqConfig rnn = config_.rnn_config(vs, vt);
    rnn.max_source_len = 64;
    model_ = std::make_unique<Seq2SeqModel>(rnn, config_.seed);
  }
}

const Seq2SeqModel &Seq2SeqSession::rnn_model() const {
  const auto *rnn = dynamic_cast<const Seq2SeqModel *>(model_.get());
  if (rnn == nullptr) {
    throw std::invalid_argument(
        "Seq2SeqSession: the step API (stepEncode / stepAttend / decoderStep) is the RNN decoder's with Bahdanau "
        "attention; this session trains a Transformer");
  }
  return *rnn;
}

Seq2SeqSession::~Seq2SeqSession() = default;

void Seq2SeqSession::start_training() {
  run_.reset();
  cross_state_.reset();  // its keys and values are the old parameters'
  cross_pending_ = false;
  split_ = split_seq2seq_validation(data_.train_ids.sources, data_.train_ids.targets, config_.trainer.validation_split,
                                    config_.trainer.seed);
  run_ = std::make_unique<Seq2SeqTrainingRun>(*model_, split_.train_sources, split_.train_targets,
                                              split_.validation_sources, split_.validation_targets, config_.trainer);
  shard_buffers_ = ShardBuffers();
  if (config_.bleu_sentences > 0 && config_.task == "parallel") {
    run_->score_epochs_with([this](const Translator &) { return held_out_bleu(config_.bleu_sentences); });
  }
}

Seq2SeqSessionProgress Seq2SeqSession::run_steps(std::size_t max_steps) {
  if (!run_) throw std::logic_error("Seq2SeqSession::run_steps: start training first");
  return run_step_chunk(*run_, max_steps, &Seq2SeqTrainingRun::history);
}

std::size_t Seq2SeqSession::exchange_size() const {
  if (!run_) throw std::logic_error("Seq2SeqSession::exchange_size: start training first");
  return run_->exchange_size();
}

const std::vector<float> &Seq2SeqSession::shard_gradient(std::size_t shard, std::size_t shards) {
  return shard_gradient_into(run_.get(), shard_buffers_, "Seq2SeqSession", shard, shards);
}

Seq2SeqSessionProgress Seq2SeqSession::apply_gradient(const std::vector<std::vector<float>> &others) {
  return apply_shard_gradients(run_.get(), shard_buffers_, "Seq2SeqSession", others, &Seq2SeqTrainingRun::history);
}

void Seq2SeqSession::cancel_training() {
  if (!run_) throw std::logic_error("Seq2SeqSession::cancel_training: no training run");
  run_->finish(true);
}

bool Seq2SeqSession::training() const { return run_ && !run_->finished(); }

const Seq2SeqHistory &Seq2SeqSession::history() const {
  if (!run_) throw std::logic_error("Seq2SeqSession::history: no training run");
  return run_->history();
}

Seq2SeqTranslation Seq2SeqSession::translate(const std::string &text, std::size_t beam, std::size_t max_len) const {
  const std::vector<int> source = data_.vocabularies.source.encode(text);
  if (source.empty()) throw std::invalid_argument("Seq2SeqSession::translate: the text is empty");
  if (max_len == 0) max_len = decode_limit();
  constexpr float kLengthAlpha = 0.6f;
  const Translator &translator = *model_;
  const std::vector<Decoded> hypotheses = beam <= 1 ? greedy_search(translator, source_row(source), max_len)
                                                    : beam_search(translator, source, beam, kLengthAlpha, max_len);
  const Decoded &decoded = hypotheses.front();
  Seq2SeqTranslation out;
  out.output = data_.vocabularies.target.decode(decoded.tokens);
  out.source_tokens = data_.vocabularies.source.tokens_of(source);
  out.output_tokens = data_.vocabularies.target.tokens_of(decoded.tokens);
  if (decoded.finished) out.output_tokens.push_back("<eos>");
  out.alignment.assign(decoded.alignment.begin(), decoded.alignment.end());
  out.log_prob = decoded.log_prob;
  out.finished = decoded.finished;
  for (const Decoded &h : hypotheses) {
    const std::size_t steps = h.tokens.size() + (h.finished ? 1 : 0);
    out.candidates.push_back({data_.vocabularies.target.decode(h.tokens),
                              length_penalised_score(h.log_prob, steps, kLengthAlpha), h.log_prob, h.finished});
  }
  const auto *transformer = dynamic_cast<const TransformerSeq2Seq *>(model_.get());
  if (transformer != nullptr && !out.output_tokens.empty()) {
    std::vector<int> outputs = decoded.tokens;
    if (decoded.finished) outputs.push_back(kEosId);
    const TransformerAttentionMaps maps = transformer->attention_maps(source, outputs);
    out.cross_attention.assign(maps.cross.begin(), maps.cross.end());
    out.self_attention.assign(maps.self.begin(), maps.self.end());
    std::copy(maps.cross.shape().begin(), maps.cross.shape().end(), out.cross_shape.begin());
    std::copy(maps.self.shape().begin(), maps.self.shape().end(), out.self_shape.begin());
  }
  return out;
}

std::size_t Seq2SeqSession::decode_limit() const {
  std::size_t longest = 0;
  for (const auto &t : data_.test_ids.targets) longest = std::max(longest, t.size());
  for (const auto &t : data_.train_ids.targets) longest = std::max(longest, t.size());
  return longest + 4;
}

TokenIds Seq2SeqSession::encode_source_texts(const std::vector<std::string> &texts, const char *where,
                                             std::vector<std::vector<std::string>> *tokens) const {
  if (texts.empty()) throw std::invalid_argument(std::string(where) + ": no texts");
  std::vector<std::vector<std::int32_t>> ids;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::vector<int> source = data_.vocabularies.source.encode(texts[i]);
    if (source.empty()) throw std::invalid_argument(std::string(where) + ": text " + std::to_string(i) + " is empty");
    ids.emplace_back(source.begin(), source.end());
  }
  if (tokens != nullptr) {
    tokens->clear();
    for (const auto &row : ids) tokens->push_back(data_.vocabularies.source.tokens_of({row.begin(), row.end()}));
  }
  return pad_to_longest(ids, PadMode::post, kPadId).ids;
}

Seq2SeqEncoding Seq2SeqSession::encode_texts(const std::vector<std::string> &texts,
                                             std::vector<std::vector<std::string>> *tokens) const {
  const TokenIds ids = encode_source_texts(texts, "Seq2SeqSession::encode_texts", tokens);
  return rnn_model().encode(ids);
}

const TransformerSeq2Seq &Seq2SeqSession::transformer_model(const char *where) const {
  const auto *transformer = dynamic_cast<const TransformerSeq2Seq *>(model_.get());
  if (transformer == nullptr) {
    throw std::invalid_argument(std::string(where) +
                                ": this is the Transformer's (model 'transformer'); this session trains an RNN");
  }
  return *transformer;
}

void Seq2SeqSession::set_decoder_mask(const Mask2 &mask) {
  const char *where = "Seq2SeqSession::set_decoder_mask";
  transformer_model(where);
  if (training()) throw std::logic_error(std::string(where) + ": a training run is in progress; set the mask first");
  const std::size_t needed = decode_limit();
  if (mask.size() > 0 && (mask.dimension() != 2 || mask.shape(0) < needed)) {
    throw std::invalid_argument(std::string(where) + ": the mask has shape " + shape_string(mask.shape()) +
                                "; this task needs at least " + std::to_string(needed) + " × " +
                                std::to_string(needed) + " (every decoder position of its longest decoding)");
  }
  dynamic_cast<TransformerSeq2Seq &>(*model_).set_decoder_self_mask(mask);
  cross_state_.reset();
  cross_pending_ = false;
}

TransformerCrossEncoding Seq2SeqSession::cross_start(const std::vector<std::string> &texts) {
  const char *where = "Seq2SeqSession::cross_start";
  const TransformerSeq2Seq &model = transformer_model(where);
  TransformerCrossEncoding out;
  const TokenIds ids = encode_source_texts(texts, where, &out.source_tokens);
  for (const auto &row : out.source_tokens) out.source_lengths.push_back(row.size());
  cross_state_ = std::make_unique<TransformerDecodingState>(model.encode(ids));
  cross_pending_ = false;
  out.memory = cross_state_->memory;
  // Each block's cross-attention projections, read from the published parameter list by name.
  const ParameterList &params = model.parameters();
  auto find = [&](const std::string &name) -> const Parameter & {
    for (const Parameter &p : params) {
      if (p.name == name) return p;
    }
    throw std::logic_error(std::string(where) + ": the model has no parameter " + name);
  };
  const std::size_t d = model.config().d_model;
  for (std::size_t i = 0; i < model.config().decoder_layers; ++i) {
    const std::string prefix = "decoder." + std::to_string(i) + ".cross_attention.";
    auto matrix = [&](const char *name) {
      const Parameter &p = find(prefix + name);
      return Tensor2(xt::adapt(p.value, p.size, xt::no_ownership(), std::array<std::size_t, 2>{d, d}));
    };
    auto vector = [&](const char *name) {
      const Parameter &p = find(prefix + name);
      return Tensor1(xt::adapt(p.value, p.size, xt::no_ownership(), std::array<std::size_t, 1>{d}));
    };
    out.blocks.push_back({matrix("w_q"), matrix("w_k"), matrix("w_v"), vector("b_q"), vector("b_k"), vector("b_v")});
  }
  out.heads = model.config().heads;
  out.max_len = decode_limit();
  return out;
}

const TransformerPartialStep &Seq2SeqSession::cross_begin(const std::vector<std::int32_t> &previous) {
  const char *where = "Seq2SeqSession::cross_begin";
  const TransformerSeq2Seq &model = transformer_model(where);
  if (!cross_state_) throw std::logic_error(std::string(where) + ": start a decoding first (cross_start)");
  if (cross_pending_) {
    throw std::logic_error(std::string(where) + ": block " + std::to_string(cross_partial_.block) +
                           "'s cross-attention is still pending; finish the step first (cross_continue)");
  }
  cross_partial_ = model.begin_step(*cross_state_, previous);
  cross_pending_ = true;
  return cross_partial_;
}

void Seq2SeqSession::cross_attention(Tensor3 &heads, Tensor4 &weights) const {
  const char *where = "Seq2SeqSession::cross_attention";
  const TransformerSeq2Seq &model = transformer_model(where);
  if (!cross_state_ || !cross_pending_) {
    throw std::logic_error(std::string(where) + ": no cross-attention is pending; begin a step first (cross_begin)");
  }
  model.cross_attention(*cross_state_, cross_partial_, heads, weights);
}

const TransformerPartialStep &Seq2SeqSession::cross_continue(const Tensor3 &heads, const Tensor4 *weights) {
  const char *where = "Seq2SeqSession::cross_continue";
  const TransformerSeq2Seq &model = transformer_model(where);
  if (!cross_state_ || !cross_pending_) {
    throw std::logic_error(std::string(where) + ": no cross-attention is pending; begin a step first (cross_begin)");
  }
  model.continue_step(*cross_state_, cross_partial_, heads, weights);
  cross_pending_ = !cross_partial_.finished();
  return cross_partial_;
}

std::vector<std::int32_t> Seq2SeqSession::best_tokens() const {
  if (!cross_partial_.finished()) {
    throw std::logic_error("Seq2SeqSession::best_tokens: the step is not finished (cross_continue every block first)");
  }
  const Tensor2 &z = cross_partial_.result.log_probs;
  std::vector<std::int32_t> out(z.shape(0));
  for (std::size_t b = 0; b < out.size(); ++b) out[b] = best_emittable_token(z.data() + b * z.shape(1), z.shape(1));
  return out;
}

std::vector<std::string> Seq2SeqSession::target_tokens(const std::vector<int> &ids) const {
  return data_.vocabularies.target.tokens_of(ids);
}

std::string Seq2SeqSession::target_text(const std::vector<int> &ids) const {
  return data_.vocabularies.target.decode(ids);
}

double Seq2SeqSession::held_out_bleu(std::size_t sources) const {
  std::vector<ReferenceGroup> groups = group_references(data_.test);
  if (groups.size() > sources) groups.resize(sources);
  return score_translations(*model_, data_.vocabularies, groups, decode_limit(), config_.search()).bleu.score;
}

Seq2SeqEvaluation Seq2SeqSession::evaluate(const std::string &which, std::size_t limit) const {
  if (which != "test" && which != "train") {
    throw std::invalid_argument("Seq2SeqSession::evaluate: which must be 'test' or 'train', got '" + which + "'");
  }
  const EncodedPairs &pairs = which == "test" ? data_.test_ids : data_.train_ids;
  const std::vector<ParallelExample> &texts = which == "test" ? data_.test : data_.train;
  const std::size_t n = limit == 0 ? pairs.sources.size() : std::min(limit, pairs.sources.size());
  const Sequences sources(pairs.sources.begin(), pairs.sources.begin() + static_cast<std::ptrdiff_t>(n));
  const Sequences targets(pairs.targets.begin(), pairs.targets.begin() + static_cast<std::ptrdiff_t>(n));
  std::size_t max_len = 0;
  for (const auto &t : targets) max_len = std::max(max_len, t.size());
  Seq2SeqEvaluation out;
  out.pairs = evaluate_seq2seq(*model_, sources, targets, max_len);
  // A Transformer with its own decoder mask: the teacher-forced forward it was trained with (the
  // step-by-step pass cannot see later positions); under the causal mask the two are equal.
  auto *transformer = dynamic_cast<TransformerSeq2Seq *>(model_.get());
  out.teacher_forced_accuracy = transformer != nullptr && transformer->decoder_self_mask().size() > 0
                                    ? parallel_teacher_forced_accuracy(*transformer, sources, targets)
                                    : teacher_forced_accuracy(*model_, sources, targets);
  const std::vector<ParallelExample> first(texts.begin(), texts.begin() + static_cast<std::ptrdiff_t>(n));
  const TranslationScores scores =
      score_translations(*model_, data_.vocabularies, group_references(first), max_len, config_.search());
  out.has_bleu = config_.task == "parallel";
  out.sentences = scores.sentences;
  out.bleu = scores.bleu.score;
  out.chrf = scores.chrf.score;
  out.exact_match = scores.exact.rate();
  if (out.has_bleu) out.by_length = scores.by_length;
  return out;
}

std::vector<std::uint8_t> Seq2SeqSession::save_model() const {
  return save_translator(*model_, seq2seq_extra_json(config_.task, data_.vocabularies));
}

void Seq2SeqSession::load_model(const std::vector<std::uint8_t> &bytes) {
  std::string extra_json;
  std::unique_ptr<TrainableTranslator> loaded = load_translator(bytes, &extra_json);
  ParallelVocabularies vocabularies;
  try {
    vocabularies = read_seq2seq_vocabularies(extra_json);
  } catch (const std::exception &error) {
    throw std::invalid_argument(
        std::string("Seq2SeqSession::load_model: the file has no usable vocabularies (save it from this app or "
                    "`attn train --save`): ") +
        error.what());
  }
  if (vocabularies.source.size() != loaded->source_vocab() || vocabularies.target.size() != loaded->target_vocab()) {
    throw std::invalid_argument("Seq2SeqSession::load_model: the file's vocabularies do not match its model");
  }
  // Nothing below throws (bar allocation): the session changes only once the file is accepted.
  run_.reset();
  data_.vocabularies = std::move(vocabularies);
  encode_seq2seq_parts(data_);
  const WordTokenizer &source = data_.vocabularies.source.tokenizer(), &target = data_.vocabularies.target.tokenizer();
  if (source.scheme == WordTokenizer::Scheme::mt && target.scheme == WordTokenizer::Scheme::mt) {
    config_.source_language = source.mt.language;
    config_.target_language = target.mt.language;
    config_.lowercase = source.mt.lowercase;
  }
  if (const auto *transformer = dynamic_cast<const TransformerSeq2Seq *>(loaded.get())) {
    config_.kind = "transformer";
    config_.transformer = transformer->config();
    config_.ff = config_.transformer.ff_dim;
  } else {
    config_.kind = "rnn";
    config_.model = static_cast<const Seq2SeqModel &>(*loaded).config();
    config_.score = score_kind_name(config_.model.score);
  }
  model_ = std::move(loaded);
  cross_state_.reset();
  cross_pending_ = false;
}

}  // namespace attn
