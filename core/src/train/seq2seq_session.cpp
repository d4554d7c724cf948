#include "attn/train/seq2seq_session.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "attn/data/parallel_split.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/translator_file.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/translation_scores.hpp"

namespace attn {

Seq2SeqSessionConfig::Seq2SeqSessionConfig() {
  // Small enough to train in the browser in seconds (reverse) to a few minutes
  // (dates).
  model.embed = 16;
  model.units = 32;
  model.attention_dim = 32;
  model.cell = CellKind::gru;
  transformer.d_model = 64;
  transformer.heads = 4;
  transformer.ff_dim = 128;
  transformer.encoder_layers = transformer.decoder_layers = 2;
  transformer.dropout = 0.1f;
  transformer.label_smoothing = 0.1f;
  trainer.epochs = 10;
  trainer.batch = 32;
  trainer.learning_rate = 0.005f;
}

Seq2SeqSessionConfig Seq2SeqSessionConfig::from_json(const std::string &json) {
  const FlatJson j = FlatJson::parse(json);
  static const std::set<std::string> known = {"task",
                                              "train_size",
                                              "test_size",
                                              "min_len",
                                              "max_len",
                                              "test_min_len",
                                              "test_max_len",
                                              "attention",
                                              "score",
                                              "cell",
                                              "embed",
                                              "units",
                                              "attention_dim",
                                              "epochs",
                                              "batch",
                                              "learning_rate",
                                              "clip_norm",
                                              "validation_split",
                                              "early_stopping_patience",
                                              "seed",
                                              "source_vocab",
                                              "target_vocab",
                                              "model",
                                              "d_model",
                                              "heads",
                                              "layers",
                                              "ff",
                                              "dropout",
                                              "label_smoothing",
                                              "bleu_sentences"};
  for (const std::string &key : j.keys()) {
    if (!known.count(key)) throw std::invalid_argument("Seq2SeqSessionConfig: unknown setting '" + key + "'");
  }
  Seq2SeqSessionConfig c;
  if (j.has("task")) c.task = j.get_string("task");
  if (c.task != "reverse" && c.task != "dates" && c.task != "parallel") {
    throw std::invalid_argument("Seq2SeqSessionConfig: task must be 'reverse', 'dates' or 'parallel', got '" + c.task +
                                "'");
  }
  if (j.has("source_vocab")) c.source_vocab = j.get_size("source_vocab");
  if (j.has("target_vocab")) c.target_vocab = j.get_size("target_vocab");
  if (c.source_vocab < 5 || c.target_vocab < 5) {
    throw std::invalid_argument("Seq2SeqSessionConfig: source_vocab and target_vocab must be >= 5");
  }
  if (j.has("train_size")) c.train_size = j.get_size("train_size");
  if (j.has("test_size")) c.test_size = j.get_size("test_size");
  if (j.has("min_len")) c.min_len = j.get_size("min_len");
  if (j.has("max_len")) c.max_len = j.get_size("max_len");
  c.test_min_len = j.has("test_min_len") ? j.get_size("test_min_len") : c.min_len;
  c.test_max_len = j.has("test_max_len") ? j.get_size("test_max_len") : c.max_len;
  Seq2SeqConfig &m = c.model;
  if (j.has("attention")) m.attention = attention_form_from_name(j.get_string("attention"));
  // Bahdanau scores additively; Luong defaults to its "general" form.
  m.score = m.attention == AttentionForm::luong ? ScoreKind::general : ScoreKind::additive;
  if (j.has("score")) m.score = score_kind_from_name(j.get_string("score"));
  if (j.has("cell")) m.cell = cell_kind_from_name(j.get_string("cell"));
  if (j.has("embed")) m.embed = j.get_size("embed");
  if (j.has("units")) m.units = j.get_size("units");
  if (j.has("attention_dim")) m.attention_dim = j.get_size("attention_dim");
  if (j.has("model")) c.kind = j.get_string("model");
  if (c.kind != "rnn" && c.kind != "transformer") {
    throw std::invalid_argument("Seq2SeqSessionConfig: model must be 'rnn' or 'transformer', got '" + c.kind + "'");
  }
  TransformerSeq2SeqConfig &x = c.transformer;
  if (j.has("d_model")) x.d_model = j.get_size("d_model");
  x.ff_dim = j.has("ff") ? j.get_size("ff") : 2 * x.d_model;
  if (j.has("heads")) x.heads = j.get_size("heads");
  if (j.has("layers")) x.encoder_layers = x.decoder_layers = j.get_size("layers");
  if (j.has("dropout")) x.dropout = static_cast<float>(j.get_number("dropout"));
  if (j.has("label_smoothing")) x.label_smoothing = static_cast<float>(j.get_number("label_smoothing"));
  if (c.kind == "transformer") {
    TransformerSeq2SeqConfig sized = x;  // the vocabularies come from the data: check the rest now
    sized.source_vocab = sized.target_vocab = 4;
    sized.validate();
  }
  if (j.has("bleu_sentences")) c.bleu_sentences = j.get_size("bleu_sentences");
  Seq2SeqTrainerConfig &t = c.trainer;
  if (j.has("epochs")) t.epochs = j.get_size("epochs");
  if (j.has("batch")) t.batch = j.get_size("batch");
  // Adam without warm-up: the Transformer trains steadily at 0.001 (the CLI's default too).
  if (c.kind == "transformer") t.learning_rate = 0.001f;
  if (j.has("learning_rate")) t.learning_rate = static_cast<float>(j.get_number("learning_rate"));
  if (j.has("clip_norm")) t.clip_norm = static_cast<float>(j.get_number("clip_norm"));
  if (j.has("validation_split")) t.validation_split = static_cast<float>(j.get_number("validation_split"));
  if (j.has("early_stopping_patience")) t.early_stopping_patience = j.get_size("early_stopping_patience");
  if (j.has("seed")) c.seed = j.get_size("seed", 0xffffffffu);
  t.seed = c.seed;
  t.validate();
  return c;
}

Seq2SeqSession::Seq2SeqSession(const Seq2SeqSessionConfig &config) : config_(config) {
  if (config_.train_size == 0) throw std::invalid_argument("Seq2SeqSession: train_size must be >= 1, got 0");
  if (config_.task == "parallel") {
    throw std::invalid_argument("Seq2SeqSession: task 'parallel' needs the pairs: pass the text of a TSV file");
  }
  if (config_.task != "dates" && config_.task != "reverse") {
    throw std::invalid_argument("Seq2SeqSession: task must be 'reverse' or 'dates', got '" + config_.task + "'");
  }
  adopt(generate_seq2seq_data(data_spec()));
}

Seq2SeqSession::Seq2SeqSession(const Seq2SeqSessionConfig &config, const std::uint8_t *tsv, std::size_t size,
                               const std::string &name)
    : config_(config) {
  if (config_.task != "parallel") {
    throw std::invalid_argument("Seq2SeqSession: a TSV file is for task 'parallel', not '" + config_.task + "'");
  }
  if (config_.train_size == 0) throw std::invalid_argument("Seq2SeqSession: train_size must be >= 1, got 0");
  // train_size keeps its generated-task default (2000) unless set: a file is used up to it.
  adopt(parallel_seq2seq_data(load_parallel_text_bytes(tsv, size, name), name, data_spec()));
}

Seq2SeqDataSpec Seq2SeqSession::data_spec() const {
  Seq2SeqDataSpec spec;
  spec.task = config_.task;
  spec.train_size = config_.train_size;
  spec.test_size = config_.test_size;
  spec.min_len = config_.min_len;
  spec.max_len = config_.max_len;
  spec.test_min_len = config_.test_min_len;
  spec.test_max_len = config_.test_max_len;
  spec.source_vocab = config_.source_vocab;
  spec.target_vocab = config_.target_vocab;
  spec.seed = config_.seed;
  return spec;
}

void Seq2SeqSession::adopt(Seq2SeqData data) {
  data_ = std::move(data);
  config_.model.source_vocab = data_.vocabularies.source.size();
  config_.model.target_vocab = data_.vocabularies.target.size();
  config_.model.max_source_len = 64;
  config_.transformer.source_vocab = data_.vocabularies.source.size();
  config_.transformer.target_vocab = data_.vocabularies.target.size();
  if (is_transformer()) {
    model_ = std::make_unique<TransformerSeq2Seq>(config_.transformer, config_.seed);
  } else {
    model_ = std::make_unique<Seq2SeqModel>(config_.model, config_.seed);
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

Seq2SeqEncoding Seq2SeqSession::encode_texts(const std::vector<std::string> &texts,
                                             std::vector<std::vector<std::string>> *tokens) const {
  const char *where = "Seq2SeqSession::encode_texts";
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
  return rnn_model().encode(pad_to_longest(ids, PadMode::post, kPadId).ids);
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
  return score_translations(*model_, data_.vocabularies, groups, decode_limit()).bleu.score;
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
  out.teacher_forced_accuracy = teacher_forced_accuracy(*model_, sources, targets);
  const std::vector<ParallelExample> first(texts.begin(), texts.begin() + static_cast<std::ptrdiff_t>(n));
  const TranslationScores scores = score_translations(*model_, data_.vocabularies, group_references(first), max_len);
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
  data_.train_ids = encode_pairs(data_.train, data_.vocabularies);
  data_.test_ids = encode_pairs(data_.test, data_.vocabularies);
  if (const auto *transformer = dynamic_cast<const TransformerSeq2Seq *>(loaded.get())) {
    config_.kind = "transformer";
    config_.transformer = transformer->config();
  } else {
    config_.kind = "rnn";
    config_.model = static_cast<const Seq2SeqModel &>(*loaded).config();
  }
  model_ = std::move(loaded);
}

}  // namespace attn
