// Embind bindings for the attention maths (core/include/attn/attention/). Conversion only:
// every computation happens in attn_core. See attn_engine.d.ts for the JS-side types.
#include <emscripten/bind.h>

#include <algorithm>

#include "attn/attention/attend.hpp"
#include "attn/attention/context.hpp"
#include "attn/attention/masks.hpp"
#include "attn/attention/scaled_dot_product.hpp"
#include "attn/attention/scores.hpp"
#include "attn/attention/softmax.hpp"
#include "attn/kernels/gemm.hpp"
#include "attn/linalg.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

ScoreParams read_score_params(const val& params) {
  ScoreParams p;
  if (is_absent(params)) return p;
  if (!is_absent(params["w"])) p.w = to_tensor<2>(params["w"], "params.w");
  if (!is_absent(params["w1"])) p.w1 = to_tensor<2>(params["w1"], "params.w1");
  if (!is_absent(params["w2"])) p.w2 = to_tensor<2>(params["w2"], "params.w2");
  if (!is_absent(params["v"])) p.v = to_tensor<1>(params["v"], "params.v");
  return p;
}

val score_params_to_js(const ScoreParams& p) {
  val out = val::object();
  if (p.w.size() > 0) out.set("w", to_js(p.w));
  if (p.w1.size() > 0) out.set("w1", to_js(p.w1));
  if (p.w2.size() > 0) out.set("w2", to_js(p.w2));
  if (p.v.size() > 0) out.set("v", to_js(p.v));
  return out;
}

val js_version() { return val("attention-playground 0.1.0"); }

bool js_simd_enabled() {
#ifdef __wasm_simd128__
  return true;
#else
  return false;
#endif
}

val js_gemm_implementation() { return val(std::string(kernels::gemm_implementation())); }

bool option_flag(const val& options, const char* key) {
  return !is_absent(options) && read_flag(options[key], std::string("options.") + key);
}

// matmul(a [M, K], b [K, N]) -> [M, N], through the GEMM kernel every layer uses.
val js_matmul(const val& a, const val& b) {
  return guarded([&] { return to_js(matmul(to_tensor<2>(a, "a"), to_tensor<2>(b, "b"))); });
}

// gemm(a, b, {transposeA, transposeB, alpha}) -> alpha · op(a) · op(b), the same kernel with
// every flag (the tests reach each of its paths through it).
val js_gemm(const val& a, const val& b, const val& options) {
  return guarded([&] {
    return to_js(matmul_general(to_tensor<2>(a, "a"), to_tensor<2>(b, "b"), option_flag(options, "transposeA"),
                                option_flag(options, "transposeB"),
                                static_cast<float>(option_number(options, "alpha", 1))));
  });
}

val js_score_kinds() {
  val out = val::array();
  for (ScoreKind kind : all_score_kinds()) {
    val entry = val::object();
    entry.set("name", val(score_kind_name(kind)));
    entry.set("hasParameters", val(score_kind_has_parameters(kind)));
    out.call<void>("push", entry);
  }
  return out;
}

// scores(kind, queries [Q, Ds] or query [Ds], keys [T, Dh], params?) -> [Q, T] or [T]
val js_scores(const std::string& kind, const val& queries, const val& keys, const val& params) {
  return guarded([&] {
    const ScoreKind k = score_kind_from_name(kind);
    const Tensor2 key_tensor = to_tensor<2>(keys, "keys");
    if (rank_of(queries, "query") == 1) {
      return to_js(scores(k, to_tensor<1>(queries, "query"), key_tensor, read_score_params(params)));
    }
    return to_js(scores(k, to_tensor<2>(queries, "queries"), key_tensor, read_score_params(params)));
  });
}

template <std::size_t N>
val softmax_rank(const val& x, const val& options) {
  const auto tensor = to_tensor<N>(x, "x", NonFinite::masked_scores);
  const auto temperature = static_cast<float>(option_number(options, "temperature", 1));
  const auto axis_number = static_cast<float>(option_number(options, "axis", static_cast<double>(N - 1)));
  if (axis_number < 0 || axis_number != static_cast<float>(static_cast<std::size_t>(axis_number))) {
    throw std::invalid_argument("options.axis must be a whole number >= 0");
  }
  const auto axis = static_cast<std::size_t>(axis_number);
  if (!is_absent(options) && !is_absent(options["mask"])) {
    return to_js(masked_softmax(tensor, to_mask<N>(options["mask"], "options.mask"), axis, temperature));
  }
  return to_js(softmax(tensor, axis, temperature));
}

// softmax(x, {axis?, temperature?, mask?}) for tensors of rank 1 to 4.
val js_softmax(const val& x, const val& options) {
  return guarded([&] {
    switch (rank_of(x, "x")) {
      case 1:
        return softmax_rank<1>(x, options);
      case 2:
        return softmax_rank<2>(x, options);
      case 3:
        return softmax_rank<3>(x, options);
      case 4:
        return softmax_rank<4>(x, options);
      default:
        throw ShapeError("softmax: x must have 1 to 4 dimensions");
    }
  });
}

// contextVector(weights [T] or [Q, T], annotations [T, D]) -> [D] or [Q, D]
val js_context_vector(const val& weights, const val& annotations) {
  return guarded([&] {
    const Tensor2 ann = to_tensor<2>(annotations, "annotations");
    if (rank_of(weights, "weights") == 1) return to_js(context_vector(to_tensor<1>(weights, "weights"), ann));
    return to_js(context_vectors(to_tensor<2>(weights, "weights"), ann));
  });
}

val js_weighted_annotations(const val& weights, const val& annotations) {
  return guarded([&] {
    return to_js(weighted_annotations(to_tensor<1>(weights, "weights"), to_tensor<2>(annotations, "annotations")));
  });
}

// attend(kind, query [Ds], annotations [T, Dh], {params?, temperature?, mask? [T]})
val js_attend(const std::string& kind, const val& query, const val& annotations, const val& options) {
  return guarded([&] {
    const ScoreParams params = is_absent(options) ? ScoreParams{} : read_score_params(options["params"]);
    const auto temperature = static_cast<float>(option_number(options, "temperature", 1));
    Mask1 mask;
    const bool has_mask = !is_absent(options) && !is_absent(options["mask"]);
    if (has_mask) mask = to_mask<1>(options["mask"], "options.mask");
    const AttendResult r =
        attend(score_kind_from_name(kind), to_tensor<1>(query, "query"), to_tensor<2>(annotations, "annotations"),
               params, temperature, has_mask ? &mask : nullptr);
    val out = val::object();
    out.set("scores", to_js(r.scores));
    out.set("weights", to_js(r.weights));
    out.set("weighted", to_js(r.weighted));
    out.set("context", to_js(r.context));
    return out;
  });
}

val js_init_score_params(const std::string& kind, double ds, double dh, double t, double attention_dim, double seed) {
  return guarded([&] {
    auto size = [](double x, const char* name) {
      if (!(x >= 0) || x != std::floor(x) || x > 1e6) {
        throw std::invalid_argument(std::string(name) + " must be a whole number between 0 and 1e6");
      }
      return static_cast<std::size_t>(x);
    };
    // The largest parameter tables are A×ds, A×dh and ds×dh (wasm32: their products must fit).
    check_value_count({attention_dim, std::max(ds, dh)}, "initScoreParams: attentionDim × max(ds, dh)");
    check_value_count({ds, dh}, "initScoreParams: ds × dh");
    return score_params_to_js(init_score_params(score_kind_from_name(kind), size(ds, "ds"), size(dh, "dh"),
                                                size(t, "t"), size(attention_dim, "attentionDim"),
                                                static_cast<std::uint64_t>(size(seed, "seed"))));
  });
}

// scaledDotProductAttention(q, k, v, {mask?}): rank 2 ([T, d]) or rank 3 ([H, T, d]).
val js_scaled_dot_product_attention(const val& q, const val& k, const val& v, const val& options) {
  return guarded([&] {
    const bool has_mask = !is_absent(options) && !is_absent(options["mask"]);
    const Mask2 mask = has_mask ? to_mask<2>(options["mask"], "options.mask") : Mask2{};
    val out = val::object();
    if (rank_of(q, "q") == 3) {
      const MultiHeadAttentionResult r = scaled_dot_product_attention(to_tensor<3>(q, "q"), to_tensor<3>(k, "k"),
                                                                      to_tensor<3>(v, "v"), has_mask ? &mask : nullptr);
      out.set("output", to_js(r.output));
      out.set("weights", to_js(r.weights));
      return out;
    }
    const Tensor2 q2 = to_tensor<2>(q, "q"), k2 = to_tensor<2>(k, "k"), v2 = to_tensor<2>(v, "v");
    const AttentionResult r =
        has_mask ? scaled_dot_product_attention(q2, k2, v2, mask) : scaled_dot_product_attention(q2, k2, v2);
    out.set("output", to_js(r.output));
    out.set("weights", to_js(r.weights));
    return out;
  });
}

std::size_t whole(double x, const char* name) {
  if (!(x >= 0) || x != std::floor(x) || x > 1e5) {
    throw std::invalid_argument(std::string(name) + " must be a whole number between 0 and 100000");
  }
  return static_cast<std::size_t>(x);
}

val js_causal_mask(double n) {
  return guarded([&] {
    const std::size_t size = whole(n, "n");
    check_value_count({n, n}, "causalMask: n × n");
    return to_js(causal_mask(size));
  });
}

val js_padding_mask(double tq, double tk, double valid) {
  return guarded([&] {
    const std::size_t rows = whole(tq, "tq"), cols = whole(tk, "tk");
    check_value_count({tq, tk}, "paddingMask: tq × tk");
    return to_js(padding_mask(rows, cols, whole(valid, "validKeys")));
  });
}

val js_combine_masks(const val& a, const val& b) {
  return guarded([&] { return to_js(combine_masks(to_mask<2>(a, "a"), to_mask<2>(b, "b"))); });
}

val js_split_heads(const val& x, double heads) {
  return guarded([&] { return to_js(split_heads(to_tensor<2>(x, "x"), whole(heads, "heads"))); });
}

val js_merge_heads(const val& x) {
  return guarded([&] { return to_js(merge_heads(to_tensor<3>(x, "x"))); });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(attention) {
  using namespace attn::wasm;
  emscripten::function("version", &js_version);
  emscripten::function("simdEnabled", &js_simd_enabled);
  emscripten::function("gemmImplementation", &js_gemm_implementation);
  emscripten::function("matmul", &js_matmul);
  emscripten::function("gemm", &js_gemm);
  emscripten::function("scoreKinds", &js_score_kinds);
  emscripten::function("scores", &js_scores);
  emscripten::function("softmax", &js_softmax);
  emscripten::function("contextVector", &js_context_vector);
  emscripten::function("weightedAnnotations", &js_weighted_annotations);
  emscripten::function("attend", &js_attend);
  emscripten::function("initScoreParams", &js_init_score_params);
  emscripten::function("scaledDotProductAttention", &js_scaled_dot_product_attention);
  emscripten::function("causalMask", &js_causal_mask);
  emscripten::function("paddingMask", &js_padding_mask);
  emscripten::function("combineMasks", &js_combine_masks);
  emscripten::function("splitHeads", &js_split_heads);
  emscripten::function("mergeHeads", &js_merge_heads);
}
