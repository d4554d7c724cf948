#include "attn/train/toy_run.hpp"

#include <algorithm>
#include <numeric>
#include <set>

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

ToyRunConfig toy_run_config_from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  static const std::set<std::string> known = {
      "task",          "vocab_size",    "train_examples", "test_examples", "min_len", "max_len", "steps", "batch_size",
      "learning_rate", "clip_norm",     "padding",        "seed",          "encoder", "pooling", "score", "embed_dim",
      "units",         "attention_dim", "layers",         "heads",         "ff_dim",  "dropout"};
  for (const std::string& key : j.keys()) {
    if (!known.count(key)) throw std::invalid_argument("unknown toy-run setting '" + key + "'");
  }
  ToyRunConfig c;
  auto size = [&](const char* key, std::size_t& into, std::size_t max) {
    if (j.has(key)) into = j.get_size(key, max);
  };
  if (j.has("task")) c.task = j.get_string("task");
  size("vocab_size", c.vocab_size, 1u << 20);
  size("train_examples", c.train_examples, 1u << 20);
  size("test_examples", c.test_examples, 1u << 20);
  size("min_len", c.min_len, 100000);
  size("max_len", c.max_len, 100000);
  size("steps", c.steps, 1u << 24);
  size("batch_size", c.batch_size, 1u << 16);
  if (j.has("learning_rate")) c.learning_rate = static_cast<float>(j.get_number("learning_rate"));
  if (j.has("clip_norm")) c.clip_norm = static_cast<float>(j.get_number("clip_norm"));
  if (j.has("padding")) {
    const std::string p = j.get_string("padding");
    if (p != "pre" && p != "post") throw std::invalid_argument("padding must be 'pre' or 'post', got '" + p + "'");
    c.padding = p == "pre" ? Padding::pre : Padding::post;
  }
  if (j.has("seed")) c.seed = j.get_size("seed", 1u << 31);
  if (j.has("encoder")) c.model.encoder = encoder_kind_from_name(j.get_string("encoder"));
  if (j.has("pooling")) c.model.pooling = pooling_kind_from_name(j.get_string("pooling"));
  if (j.has("score")) c.model.score = score_kind_from_name(j.get_string("score"));
  size("embed_dim", c.model.embed_dim, 4096);
  size("units", c.model.units, 4096);
  size("attention_dim", c.model.attention_dim, 4096);
  size("layers", c.model.layers, 64);
  size("heads", c.model.heads, 64);
  size("ff_dim", c.model.ff_dim, 16384);
  if (j.has("dropout")) c.model.dropout = static_cast<float>(j.get_number("dropout"));
  c.model.max_len = std::max<std::size_t>(c.max_len, 1);
  return c;
}

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
