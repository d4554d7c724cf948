#include "attn/train/toy_run.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "attn/io/flat_json.hpp"
#include "attn/optim/adam.hpp"
#include "attn/train/classifier_step.hpp"

namespace attn {
namespace {

SequenceDataset make_task(const ToyRunConfig& c, std::size_t count, std::uint64_t seed) {
  if (c.task == "contains_token") {
    return make_contains_token_task(count, c.min_len, c.max_len, c.vocab_size, 7, seed);
  }
  if (c.task == "first_of_two") {
    return make_first_of_two_task(count, c.min_len, c.max_len, c.vocab_size, 5, 6, seed);
  }
  throw std::invalid_argument("unknown toy task '" + c.task + "'; valid: contains_token, first_of_two");
}

}  // namespace

const SettingsSchema<ToyRunConfig>& toy_run_settings() {
  using C = ToyRunConfig;
  static const SettingsSchema<C> schema = [] {
    std::vector<SettingField<C>> fields = {
        choice_setting<C>(
            "task", [](C & c) -> auto& { return c.task; }, {"contains_token", "first_of_two"},
            "the synthetic task (data/toy_tasks.hpp)"),
        whole_setting<C>(
            "vocab_size", [](C & c) -> auto& { return c.vocab_size; }, whole_range(4, 1 << 20),
            "token ids of the task"),
        whole_setting<C>(
            "train_examples", [](C & c) -> auto& { return c.train_examples; }, whole_range(1, 1 << 20),
            "training sequences"),
        whole_setting<C>(
            "test_examples", [](C & c) -> auto& { return c.test_examples; }, whole_range(1, 1 << 20),
            "test sequences (another seed)"),
        whole_setting<C>(
            "min_len", [](C & c) -> auto& { return c.min_len; }, whole_range(0, 100000), "shortest sequence"),
        whole_setting<C>(
            "max_len", [](C & c) -> auto& { return c.max_len; }, whole_range(0, 100000), "longest sequence"),
        whole_setting<C>(
            "steps", [](C & c) -> auto& { return c.steps; }, whole_range(0, 1 << 24), "optimiser steps"),
        whole_setting<C>(
            "batch_size", [](C & c) -> auto& { return c.batch_size; }, whole_range(1, 1 << 16), "minibatch size"),
        number_setting<C>(
            "learning_rate", [](C & c) -> auto& { return c.learning_rate; }, above(0), "Adam's learning rate"),
        number_setting<C>(
            "clip_norm", [](C & c) -> auto& { return c.clip_norm; }, {-std::numeric_limits<double>::infinity()},
            "global gradient-norm clipping"),
        enum_setting<C>(
            "padding", [](C & c) -> auto& { return c.padding; },
            std::vector<std::pair<std::string, Padding>>{{"pre", Padding::pre}, {"post", Padding::post}},
            "where batches put the padding"),
        whole_setting<C>(
            "seed", [](C & c) -> auto& { return c.seed; }, whole_range(0, 2147483648.0),
            "fixes data, initialisation, shuffling and dropout"),
    };
    for (SettingField<C>& f :
         nested_settings<C>(classifier_settings(), [](C& c) -> ClassifierConfig& { return c.model; },
                            {"encoder", "pooling", "score", "embed_dim", "units", "attention_dim", "layers", "heads",
                             "ff_dim", "dropout"})) {
      fields.push_back(std::move(f));
    }
    return SettingsSchema<C>("ToyRunConfig", std::move(fields),
                             [](C& c) { c.model.max_len = std::max<std::size_t>(c.max_len, 1); });
  }();
  return schema;
}

ToyRunConfig toy_run_config_from_json(const std::string& json) { return toy_run_settings().read(json); }

struct ToyRun::State {
  explicit State(const ToyRunConfig& c)
      : config(c),
        train(make_task(c, c.train_examples, c.seed * 2 + 1)),
        test(make_task(c, c.test_examples, c.seed * 2 + 2)),
        model(classifier_config(c), c.seed),
        optimizer(c.learning_rate),
        rng(c.seed, 2001),  // shuffling and dropout
        order(train.size()),
        cursor(train.size()),
        batch_size(std::min(c.batch_size, train.size())) {
    std::iota(order.begin(), order.end(), 0);
  }
  static ClassifierConfig classifier_config(const ToyRunConfig& c) {
    if (c.batch_size == 0) throw std::invalid_argument("batch_size must be >= 1");
    if (!(c.learning_rate > 0.f)) throw std::invalid_argument("learning_rate must be > 0");
    ClassifierConfig model_config = c.model;
    model_config.vocab_size = c.vocab_size;
    return model_config;
  }

  ToyRunConfig config;
  SequenceDataset train, test;
  SequenceClassifier model;
  Adam optimizer;
  Rng rng;
  std::vector<std::size_t> order;
  std::size_t cursor;
  std::size_t batch_size;
  ClassifierBatch batch;
  StepBuffers buffers;
  std::vector<float> losses;
};

ToyRun::ToyRun(const ToyRunConfig& config) : state_(std::make_unique<State>(config)) {}
ToyRun::~ToyRun() = default;

std::size_t ToyRun::step() const { return state_->losses.size(); }
std::size_t ToyRun::planned_steps() const { return state_->config.steps; }

std::vector<float> ToyRun::run_steps(std::size_t max_steps) {
  State& s = *state_;
  std::vector<float> out;
  while (out.size() < max_steps && !finished()) {
    if (s.cursor + s.batch_size > s.order.size()) {  // new epoch
      s.rng.shuffle(s.order);
      s.cursor = 0;
    }
    make_batch(s.train, s.order.data() + s.cursor, s.batch_size, s.config.padding, s.batch);
    s.cursor += s.batch_size;
    const BatchStats stats = train_step(s.model, s.optimizer, s.batch, s.config.clip_norm, s.rng, s.buffers);
    s.losses.push_back(stats.loss);
    out.push_back(stats.loss);
  }
  return out;
}

ToyRunResult ToyRun::result() {
  State& s = *state_;
  const ToyRunConfig& config = s.config;
  const SequenceDataset& test = s.test;
  ClassifierBatch& batch = s.batch;
  ToyRunResult result;
  result.losses = s.losses;
  result.parameters = parameter_count(s.model.parameters());
  std::size_t correct = 0, attended = 0, examined = 0;
  double decisive_weight = 0.0;
  for (std::size_t start = 0; start < test.size(); start += s.batch_size) {
    const std::size_t count = std::min(s.batch_size, test.size() - start);
    std::vector<std::size_t> indices(count);
    std::iota(indices.begin(), indices.end(), start);
    make_batch(test, indices.data(), count, config.padding, batch);
    correct += evaluate_batch(s.model, batch, s.rng, s.buffers).correct;
    const Tensor2& weights = s.model.pooling_weights();
    if (weights.size() == 0) continue;
    for (std::size_t b = 0; b < count; ++b) {
      const auto& decisive = test.decisive[indices[b]];
      if (std::find(decisive.begin(), decisive.end(), 1) == decisive.end()) continue;  // nothing decisive
      const std::size_t offset = config.padding == Padding::pre ? batch.ids.shape(1) - decisive.size() : 0;
      std::size_t best = 0;
      double on_decisive = 0.0;
      for (std::size_t t = 0; t < decisive.size(); ++t) {
        if (weights(b, offset + t) > weights(b, offset + best)) best = t;
        if (decisive[t]) on_decisive += weights(b, offset + t);
      }
      decisive_weight += on_decisive;
      attended += decisive[best] ? 1 : 0;
      ++examined;
    }
  }
  result.test_accuracy = static_cast<float>(correct) / static_cast<float>(test.size());
  if (examined > 0) {
    result.decisive_attention = static_cast<float>(decisive_weight / static_cast<double>(examined));
    result.decisive_argmax_rate = static_cast<float>(attended) / static_cast<float>(examined);
  }
  return result;
}

ToyRunResult run_toy_task(const ToyRunConfig& config, const std::function<void(std::size_t, float)>& on_step) {
  ToyRun run(config);
  while (!run.finished()) {
    const std::size_t step = run.step();
    const float loss = run.run_steps(1).front();
    if (on_step) on_step(step, loss);
  }
  return run.result();
}

}  // namespace attn
