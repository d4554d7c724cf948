#include "attn/train/classifier_trainer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>

#include "attn/data/splits.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/optim/adam.hpp"
#include "attn/optim/schedule.hpp"
#include "attn/optim/sgd.hpp"
#include "attn/text/sequences.hpp"
#include "attn/train/batching.hpp"
#include "attn/train/classifier_step.hpp"
#include "attn/train/gradient_exchange.hpp"
#include "attn/train/run_guard.hpp"

namespace attn {
namespace {

using Clock = RunClock;

// Gathers data[indices[0..count)] into `out` (text/sequences.hpp's gather_padded): T = min(longest,
// maxlen), or `width` when not 0; longer sequences keep their last ids, as encode's default
// truncation does. Reuses `out`'s buffers when the shape repeats.
void gather_batch(const EncodedDataset& data, const std::size_t* indices, std::size_t count, std::size_t maxlen,
                  PadMode padding, ClassifierBatch& out, std::size_t width = 0) {
  if (width == 0) width = padded_width(data.sequences, indices, count, maxlen);
  gather_padded(data.sequences, indices, count, width, padding, out.ids, &out.mask);
  ensure_shape(out.labels, std::array<std::size_t, 1>{count});
  for (std::size_t b = 0; b < count; ++b) out.labels(b) = static_cast<float>(data.labels[indices[b]]);
}

std::unique_ptr<Optimizer> make_optimizer(const TrainerConfig& c) {
  if (c.optimizer == "adam") return std::make_unique<Adam>(c.learning_rate, 0.9f, 0.999f, 1e-8f, c.weight_decay);
  if (c.optimizer == "adamw") {
    return std::make_unique<AdamW>(c.learning_rate, 0.9f, 0.999f, 1e-8f, c.weight_decay, decay_matrices_only);
  }
  return std::make_unique<SGD>(c.learning_rate, 0.f, false, c.weight_decay);
}

void check_dataset(const EncodedDataset& data, const SequenceClassifier& model, const char* which) {
  if (data.labels.size() != data.sequences.size()) {
    throw std::invalid_argument(std::string("train_classifier: the ") + which + " set has " +
                                std::to_string(data.sequences.size()) + " sequences but " +
                                std::to_string(data.labels.size()) + " labels");
  }
  const std::int64_t vocab = static_cast<std::int64_t>(model.config().vocab_size);
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (data.labels[i] != 0 && data.labels[i] != 1) {
      throw std::invalid_argument(std::string("train_classifier: ") + which + " label " + std::to_string(i) +
                                  " must be 0 or 1, got " + std::to_string(data.labels[i]));
    }
    for (std::int32_t id : data.sequences[i]) {
      if (id < 0 || id >= vocab) {
        throw std::invalid_argument(std::string("train_classifier: ") + which + " sequence " + std::to_string(i) +
                                    " holds id " + std::to_string(id) + ", outside the model's vocabulary [0, " +
                                    std::to_string(vocab) + ")");
      }
    }
  }
}

float sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }

}  // namespace

EncodedDataset encode_dataset(const TextPipeline& pipeline, const std::vector<LabelledText>& examples) {
  EncodedDataset out;
  out.sequences = pipeline.encode_all(examples);
  out.labels.reserve(examples.size());
  for (const LabelledText& e : examples) out.labels.push_back(e.label);
  if (has_groups(examples)) out.groups = groups_of(examples);
  return out;
}

std::pair<EncodedDataset, EncodedDataset> stratified_split(const EncodedDataset& data, float fraction,
                                                           std::uint64_t seed) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("stratified_split: fraction must be in [0, 1), got " + number_text(fraction));
  }
  const std::vector<bool> held_out = grouped_holdout(data.labels, data.groups, fraction, seed);
  std::pair<EncodedDataset, EncodedDataset> out;
  for (std::size_t i = 0; i < data.size(); ++i) {
    EncodedDataset& part = held_out[i] ? out.second : out.first;
    part.sequences.push_back(data.sequences[i]);
    part.labels.push_back(data.labels[i]);
    if (!data.groups.empty()) part.groups.push_back(data.groups[i]);
  }
  return out;
}

const SettingsSchema<TrainerConfig>& trainer_settings() {
  using C = TrainerConfig;
  static const SettingsSchema<C> schema(
      "TrainerConfig",
      {
          whole_setting<C>(
              "epochs", [](C & c) -> auto& { return c.epochs; }, whole_range(1, 1000), "passes over the training data",
              "epochs"),
          whole_setting<C>(
              "batch_size", [](C & c) -> auto& { return c.batch_size; }, whole_range(1, 65536), "minibatch size",
              "batch"),
          number_setting<C>(
              "learning_rate", [](C & c) -> auto& { return c.learning_rate; }, above(0), "learning rate", "lr"),
          choice_setting<C>(
              "optimizer", [](C & c) -> auto& { return c.optimizer; }, {"adam", "adamw", "sgd"},
              "optimiser (sgd: plain, no momentum)", "optimizer"),
          number_setting<C>(
              "weight_decay", [](C & c) -> auto& { return c.weight_decay; }, at_least(0),
              "adam/sgd L2 penalty; adamw decoupled decay of weight matrices", "weight-decay"),
          number_setting<C>(
              "clip_norm", [](C & c) -> auto& { return c.clip_norm; }, {-std::numeric_limits<double>::infinity()},
              "global gradient-norm clipping (<= 0 disables it)"),
          choice_setting<C>(
              "schedule", [](C & c) -> auto& { return c.schedule; }, {"constant", "linear", "cosine", "inverse_sqrt"},
              "learning-rate schedule", "schedule"),
          whole_setting<C>(
              "warmup_steps", [](C & c) -> auto& { return c.warmup_steps; }, whole_range(0, 1 << 30),
              "steps of linear learning-rate warm-up", "warmup"),
          number_setting<C>(
              "validation_split", [](C & c) -> auto& { return c.validation_split; }, rate_range(),
              "share of the training data held out for early stopping", "validation-split"),
          whole_setting<C>(
              "early_stopping_patience", [](C & c) -> auto& { return c.early_stopping_patience; }, whole_range(0, 1000),
              "epochs without validation improvement before stopping; 0 = off", "patience"),
          flag_setting<C>(
              "bucket_by_length", [](C & c) -> auto& { return c.bucket_by_length; },
              "batches of similar lengths (less padding)"),
          whole_setting<C>(
              "seed", [](C & c) -> auto& { return c.seed; }, seed_range(),
              "shuffling, dropout and the validation split"),
      },
      [](C& c) { c.validate(); });
  return schema;
}

void TrainerConfig::validate() const { trainer_settings().check(*this); }

std::string TrainerConfig::to_json() const { return trainer_settings().write(*this); }

TrainerConfig TrainerConfig::from_json(const std::string& json) { return trainer_settings().read(json); }

ClassificationMetrics metrics_from_counts(std::size_t tp, std::size_t fp, std::size_t tn, std::size_t fn, double loss) {
  ClassificationMetrics m;
  m.tp = tp, m.fp = fp, m.tn = tn, m.fn = fn, m.loss = loss;
  const double total = static_cast<double>(tp + fp + tn + fn);
  m.accuracy = total > 0 ? static_cast<double>(tp + tn) / total : 0.0;
  m.precision = tp + fp > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fp) : 0.0;
  m.recall = tp + fn > 0 ? static_cast<double>(tp) / static_cast<double>(tp + fn) : 0.0;
  m.f1 = m.precision + m.recall > 0 ? 2 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
  return m;
}

ClassificationMetrics classification_metrics(const std::vector<float>& probabilities, const std::vector<int>& labels) {
  if (probabilities.size() != labels.size()) {
    throw std::invalid_argument("classification_metrics: " + std::to_string(probabilities.size()) +
                                " probabilities but " + std::to_string(labels.size()) + " labels");
  }
  std::size_t tp = 0, fp = 0, tn = 0, fn = 0;
  double loss = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const bool predicted = probabilities[i] > 0.5f, actual = labels[i] == 1;
    tp += predicted && actual, fp += predicted && !actual, tn += !predicted && !actual, fn += !predicted && actual;
    const double p = std::min(std::max(static_cast<double>(probabilities[i]), 1e-7), 1 - 1e-7);
    loss -= actual ? std::log(p) : std::log(1 - p);
  }
  return metrics_from_counts(tp, fp, tn, fn, labels.empty() ? 0.0 : loss / static_cast<double>(labels.size()));
}

ClassificationMetrics evaluate_classifier(SequenceClassifier& model, const TextPipeline& pipeline,
                                          const EncodedDataset& data, std::size_t batch_size) {
  if (batch_size < 1) throw std::invalid_argument("evaluate_classifier: batch_size must be >= 1, got 0");
  const std::vector<std::size_t> order = length_order(data.sequences);
  ClassifierBatch batch;
  StepBuffers buffers;
  Rng rng(0);  // inference draws nothing
  std::size_t tp = 0, fp = 0, tn = 0, fn = 0;
  double loss_sum = 0;
  for (std::size_t start = 0; start < order.size(); start += batch_size) {
    const std::size_t count = std::min(batch_size, order.size() - start);
    gather_batch(data, order.data() + start, count, pipeline.config().maxlen, pipeline.config().padding, batch);
    const BatchStats stats = evaluate_batch(model, batch, rng, buffers);
    loss_sum += static_cast<double>(stats.loss) * static_cast<double>(count);
    for (std::size_t b = 0; b < count; ++b) {
      const bool predicted = buffers.logits(b) > 0.f, actual = batch.labels(b) > 0.5f;
      tp += predicted && actual, fp += predicted && !actual, tn += !predicted && !actual, fn += !predicted && actual;
    }
  }
  return metrics_from_counts(tp, fp, tn, fn, data.size() ? loss_sum / static_cast<double>(data.size()) : 0.0);
}

TrainingResult train_classifier(SequenceClassifier& model, const TextPipeline& pipeline, const EncodedDataset& train,
                                const TrainerConfig& config, const TrainingCallbacks& callbacks) {
  config.validate();
  const auto parts = stratified_split(train, config.validation_split, config.seed);
  return train_classifier(model, pipeline, parts.first, parts.second, config, callbacks);
}

struct ClassifierTrainingRun::State {
  SequenceClassifier& model;
  const TextPipeline& pipeline;
  const EncodedDataset& train;
  const EncodedDataset& validation;
  TrainerConfig config;
  std::size_t batches_per_epoch = 0;
  LearningRateSchedule schedule;
  std::unique_ptr<Optimizer> optimizer;
  Rng order_rng, dropout_rng;
  ClassifierBatch batch;
  StepBuffers buffers;
  RunGuard guard;  // the last step's parameters with a finite loss
  BestEpoch best;  // the lowest validation loss; early stopping

  TrainingResult result;
  bool finished = false;   // no more steps: schedule done, early stop, divergence or finish()
  bool finalised = false;  // finish() ran (or divergence): the model holds its final parameters
  double best_loss = std::numeric_limits<double>::infinity();
  std::size_t examples_seen = 0;
  double active_seconds = 0;  // time spent inside step/end_epoch (pauses excluded)

  // The current epoch: its batches (drawn when its first step runs) and running sums.
  std::size_t epoch = 0;
  std::vector<std::vector<std::size_t>> batches;
  std::size_t next_batch = 0;
  bool batches_drawn = false;
  double loss_sum = 0;
  std::size_t correct = 0, seen = 0;
  double epoch_seconds = 0;
  EpochProgress last_epoch;

  State(SequenceClassifier& m, const TextPipeline& p, const EncodedDataset& t, const EncodedDataset& v,
        const TrainerConfig& c)
      : model(m),
        pipeline(p),
        train(t),
        validation(v),
        config(c),
        batches_per_epoch((t.size() + c.batch_size - 1) / c.batch_size),
        schedule(
            LearningRateSchedule::planned(c.schedule, c.learning_rate, c.warmup_steps, batches_per_epoch * c.epochs)),
        optimizer(make_optimizer(c)),
        order_rng(c.seed, 0x0de5),
        dropout_rng(c.seed, 0xd20f),
        guard(m.parameters()),
        best(c.early_stopping_patience) {}

  const std::vector<std::size_t>& next_indices(const char* who);
  StepProgress record(const BatchStats& stats, Clock::time_point start);

  [[noreturn]] void diverged(const std::string& what) {
    guard.restore(model.parameters());
    finished = finalised = true;
    throw std::runtime_error(RunGuard::divergence_message(epoch, result.steps, what, config.learning_rate));
  }

  // The step epilogue of step() and apply_gradient(): snapshot the parameters about to change,
  // run `update` (train_step or apply_gradients), turn a non-finite loss or gradient (or a layer
  // refusing NaN/Inf input on the way, e.g. softmax's invalid_argument) into divergence. A
  // ShapeError is a bug in the caller or the model, not divergence: it ends the run as it is.
  template <class Update>
  void guarded(Update&& update) {
    optimizer->set_learning_rate(schedule.at(result.steps));
    guard.before_step(model.parameters());
    try {
      update();
    } catch (const ShapeError&) {
      finished = finalised = true;
      throw;
    } catch (const std::exception& e) {
      diverged(e.what());
    }
  }
};

namespace {
// Validates before State's members (schedule, optimiser) are built from the config.
const TrainerConfig& checked(const TrainerConfig& config, const EncodedDataset& train, const EncodedDataset& validation,
                             const SequenceClassifier& model) {
  config.validate();
  if (train.size() == 0) throw std::invalid_argument("train_classifier: the training set is empty");
  check_dataset(train, model, "training");
  check_dataset(validation, model, "validation");
  return config;
}
}  // namespace

ClassifierTrainingRun::ClassifierTrainingRun(SequenceClassifier& model, const TextPipeline& pipeline,
                                             const EncodedDataset& train, const EncodedDataset& validation,
                                             const TrainerConfig& config)
    : state_(std::make_unique<State>(model, pipeline, train, validation, checked(config, train, validation, model))) {
  state_->result.train_examples = train.size();
  state_->result.validation_examples = validation.size();
}

ClassifierTrainingRun::~ClassifierTrainingRun() = default;

bool ClassifierTrainingRun::finished() const { return state_->finished; }

bool ClassifierTrainingRun::epoch_complete() const {
  return state_->batches_drawn && state_->next_batch == state_->batches.size();
}

const TrainingResult& ClassifierTrainingRun::result() const { return state_->result; }
std::size_t ClassifierTrainingRun::planned_steps() const { return state_->batches_per_epoch * state_->config.epochs; }
std::size_t ClassifierTrainingRun::batches_per_epoch() const { return state_->batches_per_epoch; }

// The next batch's indices, drawing the epoch's batches on its first step.
const std::vector<std::size_t>& ClassifierTrainingRun::State::next_indices(const char* who) {
  if (finished) throw std::logic_error(std::string(who) + ": the run has finished");
  if (batches_drawn && next_batch == batches.size()) {
    throw std::logic_error(std::string(who) + ": end_epoch() is due first");
  }
  if (!batches_drawn) {
    // Bucketing sorts windows of 50 batches by length and shuffles the batch order.
    const EpochBatching how{config.batch_size, config.bucket_by_length ? 50u : 1u, config.bucket_by_length};
    batches = epoch_batches(train.sequences, how, order_rng);
    batches_drawn = true;
  }
  return batches[next_batch];
}

// Bookkeeping after a successful optimiser step: stats of the whole batch.
StepProgress ClassifierTrainingRun::State::record(const BatchStats& stats, Clock::time_point start) {
  guard.step_succeeded();
  ++next_batch;
  ++result.steps;
  loss_sum += static_cast<double>(stats.loss) * static_cast<double>(stats.count);
  correct += stats.correct;
  seen += stats.count;
  examples_seen += stats.count;
  const double seconds = seconds_since(start);
  active_seconds += seconds;
  epoch_seconds += seconds;

  StepProgress p;
  p.step = result.steps;
  p.epoch = epoch;
  p.loss = stats.loss;
  p.running_loss = loss_sum / static_cast<double>(seen);
  p.running_accuracy = static_cast<double>(correct) / static_cast<double>(seen);
  p.examples_seen = examples_seen;
  p.elapsed = active_seconds;
  p.examples_per_second = p.elapsed > 0 ? static_cast<double>(examples_seen) / p.elapsed : 0.0;
  return p;
}

StepProgress ClassifierTrainingRun::step() {
  State& s = *state_;
  const Clock::time_point start = Clock::now();
  const std::vector<std::size_t>& indices = s.next_indices("ClassifierTrainingRun::step");
  gather_batch(s.train, indices.data(), indices.size(), s.pipeline.config().maxlen, s.pipeline.config().padding,
               s.batch);
  BatchStats stats;
  s.guarded([&] { stats = train_step(s.model, *s.optimizer, s.batch, s.config.clip_norm, s.dropout_rng, s.buffers); });
  return s.record(stats, start);
}

std::size_t ClassifierTrainingRun::exchange_size() const { return parameter_count(state_->model.parameters()) + 2; }

namespace {
constexpr const char* kExchangeLayout = "parameters + loss sum + correct count";
}  // namespace

void ClassifierTrainingRun::shard_gradient(std::size_t shard, std::size_t shards, float* out, std::size_t size) {
  const char* who = "ClassifierTrainingRun::shard_gradient";
  check_shard(who, shard, shards);
  check_exchange_size(who, size, exchange_size(), kExchangeLayout);
  State& s = *state_;
  const std::vector<std::size_t>& indices = s.next_indices(who);
  const std::size_t B = indices.size();
  const ShardRows rows = shard_rows(who, shard, shards, B);
  std::fill(out, out + size, 0.f);
  if (rows.empty()) return;
  // Every shard is padded to the whole batch's width, so the shards compute what the batch would.
  const std::size_t width = padded_width(s.train.sequences, indices.data(), B, s.pipeline.config().maxlen);
  gather_batch(s.train, indices.data() + rows.first, rows.size(), s.pipeline.config().maxlen,
               s.pipeline.config().padding, s.batch, width);
  Rng rng = shard_rng(s.config.seed, 0xd20f, s.result.steps, shard, shards);
  BatchStats stats;
  try {
    stats = batch_gradient(s.model, s.batch, true, rng, s.buffers);
  } catch (const ShapeError&) {
    throw;
  } catch (const std::exception&) {
    std::fill(out, out + size, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  float* at = pack_gradients(s.model.parameters(), 1.f, out);
  at[0] = stats.loss * static_cast<float>(stats.count);
  at[1] = static_cast<float>(stats.correct);
}

StepProgress ClassifierTrainingRun::apply_gradient(const std::vector<const float*>& parts, std::size_t size) {
  const char* who = "ClassifierTrainingRun::apply_gradient";
  check_exchange_size(who, size, exchange_size(), kExchangeLayout);
  State& s = *state_;
  const Clock::time_point start = Clock::now();
  const std::size_t B = s.next_indices(who).size();
  const float scale = static_cast<float>(B);
  const std::size_t at = unpack_gradients(s.model.parameters(), parts, scale);
  BatchStats stats;
  stats.loss = sum_in_order(parts, at) / scale;
  stats.correct = static_cast<std::size_t>(std::max(0.f, sum_in_order(parts, at + 1)));
  stats.count = B;
  if (!std::isfinite(stats.loss)) s.diverged("training diverged: the loss is not finite");
  s.guarded([&] { stats.grad_norm = apply_gradients(s.model, *s.optimizer, s.config.clip_norm); });
  return s.record(stats, start);
}

const EpochProgress& ClassifierTrainingRun::end_epoch() {
  State& s = *state_;
  if (!epoch_complete()) throw std::logic_error("ClassifierTrainingRun::end_epoch: the epoch has batches left");
  const Clock::time_point start = Clock::now();
  EpochProgress& progress = s.last_epoch;
  progress = EpochProgress{};
  progress.epoch = s.epoch;
  progress.train_loss = s.loss_sum / static_cast<double>(s.seen);
  progress.train_accuracy = static_cast<double>(s.correct) / static_cast<double>(s.seen);
  bool stop = false;
  if (s.validation.size() > 0) {
    progress.has_validation = true;
    progress.validation = evaluate_classifier(s.model, s.pipeline, s.validation);
    if (!std::isfinite(progress.validation.loss)) s.diverged("the validation loss is not finite");
    const bool improved = progress.validation.loss < s.best_loss;
    if (improved) {
      s.best_loss = progress.validation.loss;
      s.result.best_epoch = static_cast<int>(s.epoch);
      s.result.best_validation = progress.validation;
    }
    stop = s.best.judge(improved, s.epoch, s.model.parameters());
    if (stop) s.result.early_stopped = true;
  }
  const double seconds = seconds_since(start);
  s.active_seconds += seconds;
  progress.seconds = s.epoch_seconds + seconds;
  s.result.history.push_back(progress);
  ++s.epoch;
  s.batches_drawn = false;
  s.next_batch = 0;
  s.loss_sum = 0;
  s.correct = s.seen = 0;
  s.epoch_seconds = 0;
  // finish() (by the caller) restores the best epoch, so on_epoch still sees this epoch's parameters.
  if (stop || s.epoch == s.config.epochs) s.finished = true;
  return progress;
}

const TrainingResult& ClassifierTrainingRun::finish(bool cancelled) {
  State& s = *state_;
  // A caller's stop counts as a cancellation even right after the last epoch, as it always has.
  if (cancelled) s.result.cancelled = true;
  if (s.finalised) return s.result;
  s.finished = s.finalised = true;
  s.best.restore(s.model.parameters());
  s.result.seconds = s.active_seconds;
  return s.result;
}

TrainingResult train_classifier(SequenceClassifier& model, const TextPipeline& pipeline, const EncodedDataset& train,
                                const EncodedDataset& validation, const TrainerConfig& config,
                                const TrainingCallbacks& callbacks) {
  ClassifierTrainingRun run(model, pipeline, train, validation, config);
  while (!run.finished()) {
    const StepProgress p = run.step();
    if (callbacks.on_step && !callbacks.on_step(p)) return run.finish(true);
    if (run.epoch_complete()) {
      const EpochProgress& e = run.end_epoch();
      if (callbacks.on_epoch && !callbacks.on_epoch(e)) return run.finish(true);
    }
  }
  return run.finish();
}

std::vector<float> predict(SequenceClassifier& model, const TextPipeline& pipeline,
                           const std::vector<std::string>& texts) {
  EncodedDataset data;
  data.sequences.reserve(texts.size());
  for (const std::string& text : texts) data.sequences.push_back(pipeline.encode(text));
  data.labels.assign(texts.size(), 0);
  const std::vector<std::size_t> order = length_order(data.sequences);
  std::vector<float> out(texts.size());
  ClassifierBatch batch;
  Tensor1 logits;
  Rng rng(0);
  const std::size_t batch_size = 64;
  for (std::size_t start = 0; start < order.size(); start += batch_size) {
    const std::size_t count = std::min(batch_size, order.size() - start);
    gather_batch(data, order.data() + start, count, pipeline.config().maxlen, pipeline.config().padding, batch);
    model.forward(batch.ids, batch.mask, false, rng, logits);
    for (std::size_t b = 0; b < count; ++b) out[order[start + b]] = sigmoid(logits(b));
  }
  return out;
}

Explanation explain(SequenceClassifier& model, const TextPipeline& pipeline, const std::string& text) {
  Explanation out;
  out.ids = pipeline.encode(text, &out.tokens);
  EncodedDataset data;
  data.sequences.push_back(out.ids);
  data.labels.push_back(0);
  const std::size_t index = 0;
  ClassifierBatch batch;
  gather_batch(data, &index, 1, pipeline.config().maxlen, pipeline.config().padding, batch);
  Tensor1 logits;
  Rng rng(0);
  model.forward(batch.ids, batch.mask, false, rng, logits);
  out.probability = sigmoid(logits(0));
  const Tensor2& weights = model.pooling_weights();
  if (weights.size() > 0) {
    // The batch holds exactly this review (T = its length), so no padding to skip.
    out.weights.assign(weights.begin(), weights.begin() + static_cast<std::ptrdiff_t>(out.ids.size()));
  }
  return out;
}

}  // namespace attn
