// A complete small training run on a synthetic task (data/toy_tasks.hpp): the engine's
// end-to-end check. The doctest suite asserts it learns and attends to the decisive tokens; the
// node suite runs the same configuration in wasm and compares the per-step losses with the
// native ones (tests/fixtures/toy_run.json), which is how "same seed, same losses on both
// runtimes" is verified.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attn/data/toy_tasks.hpp"
#include "attn/models/sequence_classifier.hpp"

namespace attn {

struct ToyRunConfig {
  std::string task = "contains_token";  // or "first_of_two"
  ClassifierConfig model;               // model.vocab_size is set from vocab_size below
  std::size_t vocab_size = 20;
  std::size_t train_examples = 1000;
  std::size_t test_examples = 400;
  std::size_t min_len = 5;
  std::size_t max_len = 15;
  std::size_t steps = 300;
  std::size_t batch_size = 32;
  float learning_rate = 0.01f;
  float clip_norm = 5.f;
  Padding padding = Padding::post;
  std::uint64_t seed = 1;  // fixes data, initialisation, shuffling and dropout
};

struct ToyRunResult {
  std::vector<float> losses;         // training loss at every step
  float test_accuracy = 0.f;         // on freshly generated examples (another seed)
  float decisive_attention = 0.f;    // mean pooling weight on the decisive positions (test set)
  float decisive_argmax_rate = 0.f;  // share of test examples whose most-attended position is decisive
  std::size_t parameters = 0;
};

// ToyRunConfig's fields (io/settings_schema.hpp): task, vocab_size, train_examples,
// test_examples, min_len, max_len, steps, batch_size, learning_rate, clip_norm, padding
// ("pre"|"post"), seed, and the model's: encoder, pooling, score, embed_dim, units,
// attention_dim, layers, heads, ff_dim, dropout.
const SettingsSchema<ToyRunConfig>& toy_run_settings();
// Reads a flat JSON object; every key is optional and defaults as above. Unknown keys are an
// error (typos must not pass): "ToyRunConfig: unknown setting 'stepz'".
ToyRunConfig toy_run_config_from_json(const std::string& json);

// A toy run that trains in chunks of steps, so a caller (the browser worker) can answer other
// requests, or cancel, between chunks. Chunked or not, the steps are the same: run_toy_task
// drives this class, so the losses are bit-identical however the steps are grouped.
class ToyRun {
 public:
  // Generates the data and initialises the model; throws std::invalid_argument for a bad config.
  explicit ToyRun(const ToyRunConfig& config);
  ~ToyRun();
  ToyRun(const ToyRun&) = delete;
  ToyRun& operator=(const ToyRun&) = delete;

  // Up to max_steps optimiser steps (fewer when the schedule ends); returns their losses in order.
  // Throws std::runtime_error when the loss or gradient stops being finite.
  std::vector<float> run_steps(std::size_t max_steps);
  std::size_t step() const;
  std::size_t planned_steps() const;
  bool finished() const { return step() >= planned_steps(); }
  // Evaluates the model on the test set as it is now (after finished(): the run's result) and
  // returns every loss so far with the test numbers.
  ToyRunResult result();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// on_step(step, loss) is called after every optimisation step.
ToyRunResult run_toy_task(const ToyRunConfig& config, const std::function<void(std::size_t, float)>& on_step = nullptr);

}  // namespace attn
