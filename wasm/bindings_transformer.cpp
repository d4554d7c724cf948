// The Transformer view's queries (see bindings_transformer.hpp). Conversion only: the work is
// attn::inspect_transformer / head_ablation / positional_encoding_table.
#include "bindings_transformer.hpp"

#include <cmath>

#include "attn/analysis/transformer_inspect.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

TransformerInspectOptions read_options(const val& options) {
  TransformerInspectOptions out;
  if (is_absent(options)) return out;
  out.causal = read_flag(options["causal"], "options.causal");
  const val ablated = options["ablated"];
  if (is_absent(ablated)) return out;
  if (!ablated.isArray()) throw std::invalid_argument("options.ablated must be an array of [layer, head] pairs");
  const auto n = ablated["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    const val pair = ablated[i];
    const std::string name = "options.ablated[" + std::to_string(i) + "]";
    if (!pair.isArray() || pair["length"].as<std::size_t>() != 2) {
      throw std::invalid_argument(name + " must be a [layer, head] pair");
    }
    out.ablated.emplace_back(read_whole(pair[0], name + "[0]", 1e6), read_whole(pair[1], name + "[1]", 1e6));
  }
  return out;
}

val floats(const float* data, std::size_t n) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

}  // namespace

val inspect_transformer_js(const SentimentSession& session, const std::string& text, const val& options) {
  return guarded([&] {
    const TransformerInspection r = inspect_transformer(session.model(), text, read_options(options));
    val tokens = val::array();
    for (const std::string& t : r.tokens) tokens.call<void>("push", t);
    val out = val::object();
    out.set("tokens", tokens);
    out.set("probability", r.probability);
    out.set("layers", static_cast<double>(r.layers));
    out.set("heads", static_cast<double>(r.heads));
    out.set("headDim", static_cast<double>(r.head_dim));
    out.set("attention", floats(r.attention.data(), r.attention.size()));
    out.set("scores", floats(r.scores.data(), r.scores.size()));
    return out;
  });
}

val head_ablation_js(const SentimentSession& session, double limit, const val& causal) {
  return guarded([&] {
    if (!(limit >= 0) || limit != std::floor(limit) || limit > 1e9) {
      throw std::invalid_argument("limit must be a whole number >= 0 (0 = the whole test set)");
    }
    const HeadAblation r = head_ablation(session.model(), session.test_set(), static_cast<std::size_t>(limit),
                                         read_flag(causal, "causal"));
    val heads = val::array();
    for (const HeadAblationEntry& e : r.heads) {
      val h = val::object();
      h.set("layer", static_cast<double>(e.layer));
      h.set("head", static_cast<double>(e.head));
      h.set("accuracy", e.accuracy);
      h.set("delta", e.delta);
      heads.call<void>("push", h);
    }
    val out = val::object();
    out.set("examples", static_cast<double>(r.examples));
    out.set("baselineAccuracy", r.baseline_accuracy);
    out.set("heads", heads);
    return out;
  });
}

val positional_encoding_js(const SentimentSession& session, double positions) {
  return guarded([&] {
    if (!(positions >= 1) || positions != std::floor(positions) || positions > 1e6) {
      throw std::invalid_argument("positions must be a whole number >= 1");
    }
    const SentimentModel& model = session.model();
    const Tensor2 table = positional_encoding_table(model, static_cast<std::size_t>(positions));
    val out = val::object();
    out.set("positions", static_cast<double>(table.shape()[0]));
    out.set("dim", static_cast<double>(table.shape()[1]));
    out.set("kind",
            std::string(model.classifier->config().positional == PositionalKind::learned ? "learned" : "sinusoidal"));
    out.set("values", floats(table.data(), table.size()));
    return out;
  });
}

}  // namespace attn::wasm
