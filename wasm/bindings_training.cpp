// Embind bindings for training runs. Conversion only: the run itself is attn::run_toy_task.
#include <emscripten/bind.h>

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

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(training) { emscripten::function("runToyTask", &attn::wasm::js_run_toy_task); }
