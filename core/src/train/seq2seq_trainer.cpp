#include "attn/train/seq2seq_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "attn/models/seq2seq_decoding.hpp"
#include "attn/optim/adam.hpp"
#include "attn/optim/clip.hpp"
#include "attn/optim/schedule.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/batching.hpp"
#include "attn/train/gradient_exchange.hpp"
#include "attn/train/run_guard.hpp"

namespace attn {
namespace {

using Clock = RunClock;

// rows[indices] -> [B, max(1, longest)] padded 'post' with PAD.
void gather(const Sequences &rows, const std::size_t *indices, std::size_t count, TokenIds &out) {
  gather_padded(rows, indices, count, padded_width(rows, indices, count), PadMode::post, out, nullptr);
}

void check_data(const TrainableTranslator &model, const Sequences &sources, const Sequences &targets,
                const char *which) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument(std::string("train_seq2seq: ") + which + " set has " + std::to_string(sources.size()) +
                                " sources but " + std::to_string(targets.size()) + " targets");
  }
  const auto vs = static_cast<int>(model.source_vocab()), vt = static_cast<int>(model.target_vocab());
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (int id : sources[i]) {
      if (id < 0 || id >= vs) {
        throw std::invalid_argument(std::string("train_seq2seq: ") + which + " source " + std::to_string(i) +
                                    " holds id " + std::to_string(id) + ", outside [0, " + std::to_string(vs) + ")");
      }
    }
    const std::vector<int> &t = targets[i];
    if (t.size() < 2 || t.front() != kBosId || t.back() != kEosId) {
      throw std::invalid_argument(std::string("train_seq2seq: ") + which + " target " + std::to_string(i) +
                                  " must be BOS y1 .. yn EOS (ids 1 ... 2)");
    }
    for (int id : t) {
      if (id < 0 || id >= vt) {
        throw std::invalid_argument(std::string("train_seq2seq: ") + which + " target " + std::to_string(i) +
                                    " holds id " + std::to_string(id) + ", outside [0, " + std::to_string(vt) + ")");
      }
    }
  }
}

// Teacher-forced mean token loss over a whole set (weighted by each batch's token count).
double dataset_loss(TrainableTranslator &model, const Sequences &sources, const Sequences &targets, std::size_t batch) {
  TokenIds src, tgt;
  std::vector<std::size_t> indices(sources.size());
  std::iota(indices.begin(), indices.end(), 0);
  double sum = 0;
  std::size_t tokens = 0;
  for (std::size_t begin = 0; begin < sources.size(); begin += batch) {
    const std::size_t count = std::min(batch, sources.size() - begin);
    gather(sources, indices.data() + begin, count, src);
    gather(targets, indices.data() + begin, count, tgt);
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += targets[begin + i].size() - 1;
    sum += static_cast<double>(model.loss(src, tgt)) * static_cast<double>(n);
    tokens += n;
  }
  return tokens > 0 ? sum / static_cast<double>(tokens) : 0.0;
}

// (exact match, token accuracy, −loss), compared lexicographically.
bool better(const Seq2SeqEpochProgress &a, const Seq2SeqEpochProgress &best) {
  if (a.validation.exact_match != best.validation.exact_match)
    return a.validation.exact_match > best.validation.exact_match;
  if (a.validation.token_accuracy != best.validation.token_accuracy) {
    return a.validation.token_accuracy > best.validation.token_accuracy;
  }
  return a.validation_loss < best.validation_loss;
}

}  // namespace

const SettingsSchema<Seq2SeqTrainerConfig> &seq2seq_trainer_settings() {
  using C = Seq2SeqTrainerConfig;
  static const SettingsSchema<C> schema(
      "Seq2SeqTrainerConfig",
      {
          whole_setting<C>(
              "epochs", [](C & c) -> auto & { return c.epochs; }, whole_range(1, 1000),
              "passes over the training pairs", "epochs"),
          whole_setting<C>(
              "batch", [](C & c) -> auto & { return c.batch; }, whole_range(1, 65536), "minibatch size", "batch"),
          number_setting<C>(
              "learning_rate", [](C & c) -> auto & { return c.learning_rate; }, above(0), "Adam's learning rate", "lr"),
          choice_setting<C>(
              "schedule", [](C & c) -> auto & { return c.schedule; }, {"constant", "linear", "cosine", "inverse_sqrt"},
              "learning-rate schedule over the planned steps", "schedule"),
          whole_setting<C>(
              "warmup_steps", [](C & c) -> auto & { return c.warmup_steps; }, whole_range(0, 1 << 30),
              "steps of linear learning-rate warm-up from 0", "warmup"),
          number_setting<C>(
              "clip_norm", [](C & c) -> auto & { return c.clip_norm; }, {-std::numeric_limits<double>::infinity()},
              "global gradient-norm clipping (<= 0 disables it)"),
          number_setting<C>(
              "teacher_forcing_start", [](C & c) -> auto & { return c.teacher_forcing_start; }, {0, 1},
              "teacher-forcing ratio of the first epoch (1: always the gold token)"),
          number_setting<C>(
              "teacher_forcing_end", [](C & c) -> auto & { return c.teacher_forcing_end; }, {0, 1},
              "teacher-forcing ratio of the last epoch (linear in between)"),
          number_setting<C>(
              "validation_split", [](C & c) -> auto & { return c.validation_split; }, rate_range(),
              "share of the training pairs held out for early stopping", "validation-split"),
          whole_setting<C>(
              "early_stopping_patience", [](C & c) -> auto & { return c.early_stopping_patience; },
              whole_range(0, 1000), "epochs without a better validation exact match before stopping; 0 = off",
              "patience"),
          flag_setting<C>(
              "restore_best", [](C & c) -> auto & { return c.restore_best; },
              "at the end, the best validation epoch's parameters (false: the last epoch's)"),
          whole_setting<C>(
              "bucket_window", [](C & c) -> auto & { return c.bucket_window; }, whole_range(1, 1 << 20),
              "batches per shuffled window sorted by source length (1: no bucketing)"),
          whole_setting<C>(
              "max_decode_len", [](C & c) -> auto & { return c.max_decode_len; }, whole_range(0, 1 << 20),
              "validation decoding steps (0: the longest gold target + 2)"),
          whole_setting<C>(
              "seed", [](C & c) -> auto & { return c.seed; }, seed_range(),
              "the split, the shuffles and teacher forcing"),
      },
      [](C &c) { c.validate(); });
  return schema;
}

void Seq2SeqTrainerConfig::validate() const { seq2seq_trainer_settings().check(*this); }

float Seq2SeqTrainerConfig::teacher_forcing_at(std::size_t epoch) const {
  if (epochs <= 1) return teacher_forcing_start;
  const float f = static_cast<float>(std::min(epoch, epochs - 1)) / static_cast<float>(epochs - 1);
  return teacher_forcing_start + (teacher_forcing_end - teacher_forcing_start) * f;
}

Seq2SeqMetrics evaluate_seq2seq(const Translator &translator, const Sequences &sources, const Sequences &targets,
                                std::size_t max_len, std::size_t batch) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument("evaluate_seq2seq: " + std::to_string(sources.size()) + " sources but " +
                                std::to_string(targets.size()) + " targets");
  }
  if (batch == 0) throw std::invalid_argument("evaluate_seq2seq: batch must be >= 1, got 0");
  // Decode in order of source length so each batch pads little.
  const std::vector<std::size_t> order = length_order(sources);
  Seq2SeqMetrics m;
  std::map<std::size_t, Seq2SeqLengthMetrics> by_length;
  std::size_t exact = 0, hits = 0, positions = 0;
  TokenIds src;
  for (std::size_t begin = 0; begin < order.size(); begin += batch) {
    const std::size_t count = std::min(batch, order.size() - begin);
    gather(sources, order.data() + begin, count, src);
    const std::vector<Decoded> decoded = greedy_search(translator, src, max_len);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t index = order[begin + i];
      const std::vector<int> &gold = targets[index];  // BOS y EOS
      const std::vector<int> want(gold.begin() + 1, gold.end() - (gold.size() >= 2 && gold.back() == kEosId ? 1 : 0));
      std::vector<int> got = decoded[i].tokens;
      const bool same = got == want;
      exact += same ? 1 : 0;
      if (decoded[i].finished) got.push_back(kEosId);
      // y1 .. yn EOS against the decoded tokens (+ EOS), position by position.
      for (std::size_t p = 1; p < gold.size(); ++p) hits += (p - 1 < got.size() && got[p - 1] == gold[p]) ? 1 : 0;
      positions += gold.size() - 1;
      Seq2SeqLengthMetrics &l = by_length[sources[index].size()];
      l.source_length = sources[index].size();
      ++l.count;
      l.exact += same ? 1 : 0;
    }
  }
  m.count = sources.size();
  m.exact_match = m.count > 0 ? static_cast<double>(exact) / static_cast<double>(m.count) : 0.0;
  m.token_accuracy = positions > 0 ? static_cast<double>(hits) / static_cast<double>(positions) : 0.0;
  for (const auto &entry : by_length) m.by_source_length.push_back(entry.second);
  return m;
}

double teacher_forced_accuracy(const Translator &translator, const Sequences &sources, const Sequences &targets,
                               std::size_t batch) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument("teacher_forced_accuracy: " + std::to_string(sources.size()) + " sources but " +
                                std::to_string(targets.size()) + " targets");
  }
  if (batch == 0) throw std::invalid_argument("teacher_forced_accuracy: batch must be >= 1, got 0");
  const std::vector<std::size_t> order = length_order(sources);
  const std::size_t nv = translator.target_vocab();
  std::size_t hits = 0, positions = 0;
  TokenIds src;
  Tensor2 logits;
  std::vector<std::int32_t> previous;
  for (std::size_t begin = 0; begin < order.size(); begin += batch) {
    const std::size_t count = std::min(batch, order.size() - begin);
    gather(sources, order.data() + begin, count, src);
    std::size_t longest = 0;
    for (std::size_t i = 0; i < count; ++i) longest = std::max(longest, targets[order[begin + i]].size());
    const std::unique_ptr<Translator::Decoding> decoding = translator.start(src);
    previous.assign(count, kPadId);
    // Step t reads the gold y_t (BOS at t = 0) and predicts y_{t+1}; finished rows read PAD.
    for (std::size_t t = 0; t + 1 < longest; ++t) {
      for (std::size_t i = 0; i < count; ++i) {
        const std::vector<int> &gold = targets[order[begin + i]];
        previous[i] = t + 1 < gold.size() ? gold[t] : kPadId;
      }
      translator.step(*decoding, previous.data(), logits);
      for (std::size_t i = 0; i < count; ++i) {
        const std::vector<int> &gold = targets[order[begin + i]];
        if (t + 1 >= gold.size()) continue;
        hits += best_emittable_token(logits.data() + i * nv, nv) == gold[t + 1] ? 1 : 0;
        ++positions;
      }
    }
  }
  return positions > 0 ? static_cast<double>(hits) / static_cast<double>(positions) : 0.0;
}

double parallel_teacher_forced_accuracy(TransformerSeq2Seq &model, const Sequences &sources, const Sequences &targets,
                                        std::size_t batch) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument("parallel_teacher_forced_accuracy: " + std::to_string(sources.size()) +
                                " sources but " + std::to_string(targets.size()) + " targets");
  }
  if (batch == 0) throw std::invalid_argument("parallel_teacher_forced_accuracy: batch must be >= 1, got 0");
  const std::vector<std::size_t> order = length_order(sources);
  const std::size_t nv = model.target_vocab();
  std::size_t hits = 0, positions = 0;
  TokenIds src, tgt, inputs;
  Rng unused(0);  // no dropout: nothing is drawn
  for (std::size_t begin = 0; begin < order.size(); begin += batch) {
    const std::size_t count = std::min(batch, order.size() - begin);
    gather(sources, order.data() + begin, count, src);
    gather(targets, order.data() + begin, count, tgt);
    // logits of target[:, :-1] at once; row i·T + t predicts y_{t+1}
    const std::size_t nt = tgt.shape(1) - 1;
    inputs = xt::view(tgt, xt::all(), xt::range(0, nt));
    for (std::int32_t &id : inputs) id = id == kEosId ? kPadId : id;  // as train_batch reads them
    const Tensor2 &logits = model.forward(src, inputs, false, unused);
    for (std::size_t i = 0; i < count; ++i) {
      const std::vector<int> &gold = targets[order[begin + i]];
      for (std::size_t t = 0; t + 1 < gold.size(); ++t) {
        hits += best_emittable_token(logits.data() + (i * nt + t) * nv, nv) == gold[t + 1] ? 1 : 0;
        ++positions;
      }
    }
  }
  return positions > 0 ? static_cast<double>(hits) / static_cast<double>(positions) : 0.0;
}

Seq2SeqSplit split_seq2seq_validation(const Sequences &sources, const Sequences &targets, float share,
                                      std::uint64_t seed) {
  if (sources.size() != targets.size()) {
    throw std::invalid_argument("train_seq2seq: training set has " + std::to_string(sources.size()) + " sources but " +
                                std::to_string(targets.size()) + " targets");
  }
  // Seeded split: the last round(share · N) of a shuffled order are held out.
  const std::size_t n = sources.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(seed, 0x5011);
  rng.shuffle(order);
  const auto held = static_cast<std::size_t>(std::lround(static_cast<double>(share) * n));
  std::vector<std::size_t> train_idx(order.begin(), order.end() - static_cast<std::ptrdiff_t>(held));
  std::vector<std::size_t> val_idx(order.end() - static_cast<std::ptrdiff_t>(held), order.end());
  std::sort(train_idx.begin(), train_idx.end());
  std::sort(val_idx.begin(), val_idx.end());
  Seq2SeqSplit split;
  for (std::size_t i : train_idx) {
    split.train_sources.push_back(sources[i]);
    split.train_targets.push_back(targets[i]);
  }
  for (std::size_t i : val_idx) {
    split.validation_sources.push_back(sources[i]);
    split.validation_targets.push_back(targets[i]);
  }
  return split;
}

struct Seq2SeqTrainingRun::State {
  TrainableTranslator &model;
  const Sequences &sources, &targets, &validation_sources, &validation_targets;
  Seq2SeqTrainerConfig config;
  std::size_t max_decode = 0;
  Adam optimizer;
  LearningRateSchedule schedule;  // over the planned steps: set once the first epoch's batches are known
  Rng order_rng, forcing_rng;
  TokenIds src, tgt;
  RunGuard guard;  // the last step's parameters with a finite loss
  BestEpoch best;  // by validation exact match, token accuracy, loss; early stopping
  Seq2SeqHistory history;
  Seq2SeqEpochProgress best_progress, last_epoch;
  std::size_t examples_seen = 0;
  Clock::time_point start, epoch_start;
  // The current epoch: its batches, the next one to step, its loss sum over
  // target tokens.
  std::size_t epoch = 0, next_batch = 0, tokens = 0;
  std::vector<std::vector<std::size_t>> batches;
  double loss_sum = 0;
  float ratio = 1;
  bool finished = false, finalised = false;
  std::function<double(const Translator &)> scorer;

  State(TrainableTranslator &m, const Sequences &s, const Sequences &t, const Sequences &vs, const Sequences &vt,
        const Seq2SeqTrainerConfig &c)
      : model(m),
        sources(s),
        targets(t),
        validation_sources(vs),
        validation_targets(vt),
        config(c),
        optimizer(c.learning_rate),
        order_rng(c.seed, 0x0de5),
        forcing_rng(c.seed, 0xf0ce),
        guard(m.parameters()),
        best(c.early_stopping_patience) {}

  void begin_epoch() {
    epoch_start = Clock::now();
    ratio = config.teacher_forcing_at(epoch);
    batches = epoch_batches(sources, {config.batch, config.bucket_window, true}, order_rng);
    next_batch = 0;
    loss_sum = 0;
    tokens = 0;
  }

  // The next batch's indices; std::logic_error "<who>: ..." when none is due.
  const std::vector<std::size_t> &next_indices(const char *who) const;
  // Σ (|target| - 1) over rows `indices`: the target tokens their loss averages over.
  std::size_t target_tokens(const std::size_t *indices, std::size_t count) const;
  // The step epilogue of step() and apply_gradient(), with the gradients in place: divergence
  // checks, clipping, Adam, and the batch's bookkeeping.
  Seq2SeqStepProgress apply(float loss);

  [[noreturn]] void diverged(const std::string &what) {
    guard.restore(model.parameters());
    finished = finalised = true;
    throw std::runtime_error(RunGuard::divergence_message(epoch, history.steps, what, config.learning_rate));
  }
};

Seq2SeqTrainingRun::Seq2SeqTrainingRun(TrainableTranslator &model, const Sequences &sources, const Sequences &targets,
                                       const Sequences &validation_sources, const Sequences &validation_targets,
                                       const Seq2SeqTrainerConfig &config) {
  config.validate();
  check_data(model, sources, targets, "training");
  check_data(model, validation_sources, validation_targets, "validation");
  if (sources.empty()) throw std::invalid_argument("train_seq2seq: the training set is empty");
  state_ = std::make_unique<State>(model, sources, targets, validation_sources, validation_targets, config);
  State &s = *state_;
  s.max_decode = config.max_decode_len;
  if (s.max_decode == 0) {
    for (const auto &t : validation_targets) s.max_decode = std::max(s.max_decode, t.size());  // n + 2 = |BOS y EOS|
  }
  s.history.train_examples = sources.size();
  s.history.validation_examples = validation_sources.size();
  s.start = Clock::now();
  s.begin_epoch();
  // Every epoch splits the same pairs into as many batches as the first. The warm-up is at most
  // half the planned steps: a recipe sized for a large file still trains a small one.
  s.schedule = LearningRateSchedule::planned(config.schedule, config.learning_rate,
                                             std::min(config.warmup_steps, planned_steps() / 2), planned_steps());
}

Seq2SeqTrainingRun::~Seq2SeqTrainingRun() = default;

bool Seq2SeqTrainingRun::finished() const { return state_->finished; }

bool Seq2SeqTrainingRun::epoch_complete() const {
  return !state_->finished && state_->next_batch == state_->batches.size();
}

std::size_t Seq2SeqTrainingRun::batches_per_epoch() const { return state_->batches.size(); }

std::size_t Seq2SeqTrainingRun::planned_steps() const { return state_->config.epochs * state_->batches.size(); }

const Seq2SeqHistory &Seq2SeqTrainingRun::history() const { return state_->history; }

const std::vector<std::size_t> &Seq2SeqTrainingRun::State::next_indices(const char *who) const {
  if (finished || next_batch == batches.size()) {
    throw std::logic_error(std::string(who) + ": the run is finished or the epoch needs end_epoch()");
  }
  return batches[next_batch];
}

Seq2SeqStepProgress Seq2SeqTrainingRun::State::apply(float loss) {
  const ParameterList &params = model.parameters();
  if (!std::isfinite(loss)) diverged("the loss is " + number_text(loss));
  const float norm =
      config.clip_norm > 0 ? clip_grad_norm(params, config.clip_norm) : static_cast<float>(grad_norm(params));
  if (!std::isfinite(norm)) diverged("the gradient norm is " + number_text(norm));
  optimizer.set_learning_rate(schedule.at(history.steps));
  optimizer.step(params);
  guard.step_succeeded();
  const std::vector<std::size_t> &indices = batches[next_batch++];
  ++history.steps;
  const std::size_t count = target_tokens(indices.data(), indices.size());
  loss_sum += static_cast<double>(loss) * static_cast<double>(count);
  tokens += count;
  examples_seen += indices.size();
  Seq2SeqStepProgress p;
  p.step = history.steps;
  p.epoch = epoch;
  p.loss = loss;
  p.learning_rate = optimizer.learning_rate();
  p.elapsed = seconds_since(start);
  p.examples_seen = examples_seen;
  p.examples_per_second = p.elapsed > 0 ? static_cast<double>(examples_seen) / p.elapsed : 0.0;
  return p;
}

std::size_t Seq2SeqTrainingRun::State::target_tokens(const std::size_t *indices, std::size_t count) const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < count; ++i) n += targets[indices[i]].size() - 1;
  return n;
}

Seq2SeqStepProgress Seq2SeqTrainingRun::step() {
  State &s = *state_;
  const std::vector<std::size_t> &indices = s.next_indices("Seq2SeqTrainingRun::step");
  const ParameterList &params = s.model.parameters();
  gather(s.sources, indices.data(), indices.size(), s.src);
  gather(s.targets, indices.data(), indices.size(), s.tgt);
  s.guard.before_step(params);
  zero_grads(params);
  float loss = 0;
  try {
    loss = s.model.train_batch(s.src, s.tgt, s.ratio, s.forcing_rng);
  } catch (const ShapeError &) {
    throw;
  } catch (const std::exception &e) {
    s.diverged(e.what());
  }
  return s.apply(loss);
}

namespace {
constexpr const char *kExchangeLayout = "parameters + loss sum + target-token count";
}  // namespace

std::size_t Seq2SeqTrainingRun::exchange_size() const { return parameter_count(state_->model.parameters()) + 2; }

void Seq2SeqTrainingRun::shard_gradient(std::size_t shard, std::size_t shards, float *out, std::size_t size) {
  const char *who = "Seq2SeqTrainingRun::shard_gradient";
  State &s = *state_;
  check_shard(who, shard, shards);
  check_exchange_size(who, size, exchange_size(), kExchangeLayout);
  const std::vector<std::size_t> &indices = s.next_indices(who);
  const std::size_t B = indices.size();
  const ShardRows mine = shard_rows(who, shard, shards, B);
  std::fill(out, out + size, 0.f);
  if (mine.empty()) return;
  // Each shard is padded to the whole batch's widths, so it computes what the batch would.
  const std::size_t *first = indices.data() + mine.first;
  gather_padded(s.sources, first, mine.size(), padded_width(s.sources, indices.data(), B), PadMode::post, s.src,
                nullptr);
  gather_padded(s.targets, first, mine.size(), padded_width(s.targets, indices.data(), B), PadMode::post, s.tgt,
                nullptr);
  const std::size_t count = s.target_tokens(first, mine.size());
  Rng rng = shard_rng(s.config.seed, 0xf0ce, s.history.steps, shard, shards);
  const ParameterList &params = s.model.parameters();
  zero_grads(params);
  float loss = 0;
  try {
    loss = s.model.train_batch(s.src, s.tgt, s.ratio, rng);
  } catch (const ShapeError &) {
    throw;
  } catch (const std::exception &) {
    loss = std::numeric_limits<float>::quiet_NaN();
  }
  if (!std::isfinite(loss)) {
    std::fill(out, out + size, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  // The model's gradient is of the shard's mean token loss: × its tokens gives the sum's.
  const float tokens = static_cast<float>(count);
  float *at = pack_gradients(params, tokens, out);
  at[0] = loss * tokens;
  at[1] = tokens;
}

Seq2SeqStepProgress Seq2SeqTrainingRun::apply_gradient(const std::vector<const float *> &parts, std::size_t size) {
  const char *who = "Seq2SeqTrainingRun::apply_gradient";
  check_exchange_size(who, size, exchange_size(), kExchangeLayout);
  State &s = *state_;
  const std::vector<std::size_t> &indices = s.next_indices(who);
  const ParameterList &params = s.model.parameters();
  const float tokens = static_cast<float>(s.target_tokens(indices.data(), indices.size()));
  s.guard.before_step(params);
  const std::size_t at = unpack_gradients(params, parts, tokens);
  return s.apply(sum_in_order(parts, at) / tokens);
}

void Seq2SeqTrainingRun::score_epochs_with(std::function<double(const Translator &)> scorer) {
  state_->scorer = std::move(scorer);
}

const Seq2SeqEpochProgress &Seq2SeqTrainingRun::end_epoch() {
  State &s = *state_;
  if (!epoch_complete()) throw std::logic_error("Seq2SeqTrainingRun::end_epoch: the epoch is not complete");
  Seq2SeqEpochProgress progress;
  progress.epoch = s.epoch;
  progress.teacher_forcing = s.ratio;
  progress.train_loss = s.tokens > 0 ? s.loss_sum / static_cast<double>(s.tokens) : 0.0;
  bool stop = false;
  if (!s.validation_sources.empty()) {
    progress.has_validation = true;
    progress.validation_loss = dataset_loss(s.model, s.validation_sources, s.validation_targets, 256);
    if (!std::isfinite(progress.validation_loss)) s.diverged("the validation loss is not finite");
    progress.validation = evaluate_seq2seq(s.model, s.validation_sources, s.validation_targets, s.max_decode);
    const bool improved = s.history.best_epoch < 0 || better(progress, s.best_progress);
    if (improved) {
      s.best_progress = progress;
      s.history.best_epoch = static_cast<int>(s.epoch);
    }
    stop = s.best.judge(improved, s.epoch, s.model.parameters());
    if (stop) s.history.early_stopped = true;
  }
  progress.seconds = seconds_since(s.epoch_start);
  if (s.scorer) {
    progress.has_score = true;
    progress.score = s.scorer(s.model);
  }
  s.history.epochs.push_back(progress);
  ++s.epoch;
  if (stop || s.epoch >= s.config.epochs) {
    s.finished = true;
  } else {
    s.begin_epoch();
  }
  s.last_epoch = progress;
  return s.last_epoch;
}

const Seq2SeqHistory &Seq2SeqTrainingRun::finish(bool cancelled) {
  State &s = *state_;
  if (s.finalised) return s.history;
  s.finished = s.finalised = true;
  s.history.cancelled = cancelled;
  if (s.config.restore_best) s.best.restore(s.model.parameters());
  s.history.seconds = seconds_since(s.start);
  return s.history;
}

Seq2SeqHistory train_seq2seq(TrainableTranslator &model, const Sequences &sources, const Sequences &targets,
                             const Seq2SeqTrainerConfig &config, const Seq2SeqCallbacks &callbacks) {
  config.validate();
  if (sources.size() != targets.size()) check_data(model, sources, targets, "training");
  const Seq2SeqSplit split = split_seq2seq_validation(sources, targets, config.validation_split, config.seed);
  return train_seq2seq(model, split.train_sources, split.train_targets, split.validation_sources,
                       split.validation_targets, config, callbacks);
}

Seq2SeqHistory train_seq2seq(TrainableTranslator &model, const Sequences &sources, const Sequences &targets,
                             const Sequences &validation_sources, const Sequences &validation_targets,
                             const Seq2SeqTrainerConfig &config, const Seq2SeqCallbacks &callbacks) {
  Seq2SeqTrainingRun run(model, sources, targets, validation_sources, validation_targets, config);
  bool cancelled = false;
  while (!run.finished() && !cancelled) {
    const Seq2SeqStepProgress p = run.step();
    if (callbacks.on_step && !callbacks.on_step(p)) {
      cancelled = true;
      break;
    }
    if (run.epoch_complete()) {
      const Seq2SeqEpochProgress &e = run.end_epoch();
      if (callbacks.on_epoch && !callbacks.on_epoch(e)) cancelled = true;
    }
  }
  return run.finish(cancelled);
}

}  // namespace attn
