// Embind bindings for training runs. Conversion only: the run itself is attn::run_toy_task.
#include <emscripten/bind.h>

#include "attn/train/recipes.hpp"
#include "attn/train/toy_run.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

// runToyTask(configJson, onStep?) -> {losses: Float32Array, testAccuracy, decisiveAttention,
// decisiveArgmaxRate, parameters}. onStep(step, loss) is called synchronously after each step.
val js_run_toy_task(const std::string& config_json, const val& on_step) {
  return guarded([&] {
    const ToyRunConfig config = toy_run_config_from_json(config_json);
    std::function<void(std::size_t, float)> callback;
    if (!is_absent(on_step)) {
      callback = [&on_step](std::size_t step, float loss) { on_step(val(static_cast<double>(step)), val(loss)); };
    }
    const ToyRunResult r = run_toy_task(config, callback);
    Tensor1 losses = xt::adapt(r.losses, {r.losses.size()});
    val out = val::object();
    out.set("losses", to_js(losses)["data"]);
    out.set("testAccuracy", val(r.test_accuracy));
    out.set("decisiveAttention", val(r.decisive_attention));
    out.set("decisiveArgmaxRate", val(r.decisive_argmax_rate));
    out.set("parameters", val(static_cast<double>(r.parameters)));
    return out;
  });
}

// sentimentRecipes() -> [{model, epochs, learningRate, dropout, wordDropout, schedule, pooling,
// numWords, maxlen, batchSize, patience}]: the table of train/recipes.hpp, a copy.
val js_sentiment_recipes() {
  return guarded([] {
    val out = val::array();
    for (const SentimentRecipe& r : sentiment_recipes()) {
      val recipe = val::object();
      recipe.set("model", r.model);
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
      out.call<void>("push", recipe);
    }
    return out;
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(training) {
  emscripten::function("runToyTask", &attn::wasm::js_run_toy_task);
  emscripten::function("sentimentRecipes", &attn::wasm::js_sentiment_recipes);
}
