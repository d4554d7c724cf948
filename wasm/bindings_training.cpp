// Embind bindings for toy training runs. Conversion only: the run itself is attn::ToyRun
// (core/include/attn/train/toy_run.hpp).
#include <emscripten/bind.h>

#include <memory>

#include "attn/train/recipes.hpp"
#include "attn/train/seq2seq_session.hpp"
#include "attn/train/toy_run.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

val losses_to_js(const std::vector<float>& losses) {
  Tensor1 copy = xt::adapt(losses, {losses.size()});
  return to_js(copy)["data"];
}

val result_to_js(const ToyRunResult& r) {
  val out = val::object();
  out.set("losses", losses_to_js(r.losses));
  out.set("testAccuracy", val(r.test_accuracy));
  out.set("decisiveAttention", val(r.decisive_attention));
  out.set("decisiveArgmaxRate", val(r.decisive_argmax_rate));
  out.set("parameters", val(static_cast<double>(r.parameters)));
  return out;
}

// runToyTask(configJson, onStep?) -> {losses: Float32Array, testAccuracy, decisiveAttention,
// decisiveArgmaxRate, parameters}. onStep(step, loss) is called synchronously after each step.
val js_run_toy_task(const std::string& config_json, const val& on_step) {
  return guarded([&] {
    const ToyRunConfig config = toy_run_config_from_json(config_json);
    std::function<void(std::size_t, float)> callback;
    if (!is_absent(on_step)) {
      callback = [&on_step](std::size_t step, float loss) { on_step(val(static_cast<double>(step)), val(loss)); };
    }
    return result_to_js(run_toy_task(config, callback));
  });
}

// sentimentRecipes() -> [{model, data, epochs, learningRate, dropout, wordDropout, schedule, pooling,
// numWords, maxlen, batchSize, patience, bigramBuckets}]: the table of train/recipes.hpp, a copy.
val js_sentiment_recipes() {
  return guarded([] {
    val out = val::array();
    for (const SentimentRecipe& r : sentiment_recipes()) {
      val recipe = val::object();
      recipe.set("model", r.model);
      recipe.set("data", r.data);
      recipe.set("epochs", static_cast<double>(r.epochs));
      recipe.set("learningRate", r.learning_rate);
      recipe.set("dropout", r.dropout);
      recipe.set("wordDropout", r.word_dropout);
      recipe.set("schedule", r.schedule);
      recipe.set("pooling", r.pooling);
      recipe.set("numWords", static_cast<double>(r.num_words));
      recipe.set("maxlen", static_cast<double>(r.maxlen));
      recipe.set("batchSize", static_cast<double>(r.batch_size));
      recipe.set("patience", static_cast<double>(r.patience));
      recipe.set("bigramBuckets", static_cast<double>(r.bigram_buckets));
      out.call<void>("push", recipe);
    }
    return out;
  });
}

// settingsSchemas() -> {sentimentModel, trainer, toyRun, seq2seqSession, seq2seqModel,
// transformerSeq2seqModel, seq2seqTrainer}: each settings struct's fields (name,
// key, type, default, min, max, minOpen, maxOpen, choices, help, flag, rule), the contract the
// page's hand-written settings are tested against (tests/js/settings_schema.test.mjs).
val js_settings_schemas() {
  return guarded([] {
    val out = val::object();
    out.set("sentimentModel", schema_to_js(sentiment_model_settings()));
    out.set("trainer", schema_to_js(trainer_settings()));
    out.set("toyRun", schema_to_js(toy_run_settings()));
    out.set("seq2seqSession", schema_to_js(seq2seq_session_settings()));
    out.set("seq2seqModel", schema_to_js(seq2seq_model_settings()));
    out.set("transformerSeq2seqModel", schema_to_js(transformer_seq2seq_settings()));
    out.set("seq2seqTrainer", schema_to_js(seq2seq_trainer_settings()));
    return out;
  });
}

val recipe_settings_to_js(const SentimentModelConfig& model, const TrainerConfig& trainer) {
  val out = val::object();
  out.set("model", settings_to_js(sentiment_model_settings(), model));
  out.set("trainer", settings_to_js(trainer_settings(), trainer));
  return out;
}

// sentimentRecipeSettings(model, data) -> {model, trainer}: every field one recipe trains
// (recipe_settings, what `attn train --model <model>` trains), camelCase keys.
val js_sentiment_recipe_settings(const std::string& model, const std::string& data) {
  return guarded([&] {
    const RecipeSettings s = recipe_settings(sentiment_recipe(model, data));
    return recipe_settings_to_js(s.model, s.trainer);
  });
}

// resolveSentimentSettings(model, trainer) -> {model, trainer}: what SentimentSession.createModel
// and startTraining make of these settings objects, every field filled in.
val js_resolve_sentiment_settings(const val& model, const val& trainer) {
  return guarded([&] {
    return recipe_settings_to_js(settings_from_js(sentiment_model_settings(), model, "model"),
                                 settings_from_js(trainer_settings(), trainer, "trainer"));
  });
}

// new ToyRun(configJson): the same run in chunks of steps (the engine worker trains the course's
// demos with it and answers other requests between chunks).
class JsToyRun {
 public:
  explicit JsToyRun(const std::string& config_json)
      : run_(guarded([&] { return std::make_unique<ToyRun>(toy_run_config_from_json(config_json)); })) {}

  // runSteps(n) -> {losses: Float32Array (a copy), step, plannedSteps, done}
  val run_steps(double steps) {
    return guarded([&] {
      const std::vector<float> losses = run_->run_steps(whole_number(steps, "steps", 1e9));
      val out = val::object();
      out.set("losses", losses_to_js(losses));
      out.set("step", static_cast<double>(run_->step()));
      out.set("plannedSteps", static_cast<double>(run_->planned_steps()));
      out.set("done", run_->finished());
      return out;
    });
  }

  // result() -> as runToyTask, evaluated on the test set now.
  val result() {
    return guarded([&] { return result_to_js(run_->result()); });
  }

 private:
  std::unique_ptr<ToyRun> run_;
};

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(training) {
  emscripten::function("runToyTask", &attn::wasm::js_run_toy_task);
  emscripten::function("sentimentRecipes", &attn::wasm::js_sentiment_recipes);
  emscripten::function("settingsSchemas", &attn::wasm::js_settings_schemas);
  emscripten::function("sentimentRecipeSettings", &attn::wasm::js_sentiment_recipe_settings);
  emscripten::function("resolveSentimentSettings", &attn::wasm::js_resolve_sentiment_settings);
  emscripten::class_<attn::wasm::JsToyRun>("ToyRun")
      .constructor<const std::string&>()
      .function("runSteps", &attn::wasm::JsToyRun::run_steps)
      .function("result", &attn::wasm::JsToyRun::result);
}
