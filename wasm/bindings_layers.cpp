// Embind bindings for single layers' steps (core/include/attn/layers/), for the course's exercises:
// the sinusoidal positional encoding, the join of a bidirectional layer's two directions and one
// step of Luong's global attention with given weights. Conversion and shape checks only: every
// computation happens in attn_core. See attn_engine.d.ts for the JS-side types.
#include <emscripten/bind.h>

#include <cmath>
#include <string>

#include "attn/layers/bidirectional.hpp"
#include "attn/layers/decoder_attention.hpp"
#include "attn/layers/positional_encoding.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

// sinusoidalPositionalEncoding(maxLen, dim) -> [maxLen, dim]
val js_sinusoidal_positional_encoding(double max_len, double dim) {
  return guarded([&] {
    for (const double x : {max_len, dim}) {
      if (!(x >= 1) || x != std::floor(x) || x > 1e5) {
        throw std::invalid_argument("maxLen and dim must be whole numbers between 1 and 100000");
      }
    }
    check_value_count({max_len, dim}, "sinusoidalPositionalEncoding: maxLen × dim");
    return to_js(sinusoidal_positional_encoding(static_cast<std::size_t>(max_len), static_cast<std::size_t>(dim)));
  });
}

// concatDirections(hForward [B, T, U], hBackward [B, T, U]) -> [B, T, 2U]
val js_concat_directions(const val& h_forward, const val& h_backward) {
  return guarded([&] {
    Tensor3 out;
    concat_directions(to_tensor<3>(h_forward, "hForward"), to_tensor<3>(h_backward, "hBackward"), out);
    return to_js(out);
  });
}

template <std::size_t N>
void assign_parameter(xt::xtensor<float, N>& target, const val& params, const char* key) {
  if (is_absent(params) || is_absent(params[key])) {
    if (target.size() == 0) return;
    throw std::invalid_argument(std::string("params.") + key + " is required (shape " + shape_string(target.shape()) +
                                ")");
  }
  xt::xtensor<float, N> value = to_tensor<N>(params[key], std::string("params.") + key);
  if (!(value.shape() == target.shape())) {
    throw ShapeError(std::string("params.") + key + " has shape " + shape_string(value.shape()) +
                     "; this layer needs " + shape_string(target.shape()));
  }
  target = std::move(value);
}

// luongAttentionStep(kind, s [B, Ds], annotations [B, T, Dh], {wA?, vA?, wC}, mask? [B, T])
//   -> {weights [B, T], context [B, Dh], attentional [B, Ds]}; matrices are [in, out] as in the layer.
val js_luong_attention_step(const std::string& kind, const val& s, const val& annotations, const val& params,
                            const val& mask) {
  return guarded([&] {
    const Tensor2 state = to_tensor<2>(s, "s");
    const Tensor3 h = to_tensor<3>(annotations, "annotations");
    Rng rng(0);  // the initial weights are all replaced below
    LuongAttention layer(score_kind_from_name(kind), state.shape(1), h.shape(2), h.shape(1), rng);
    assign_parameter(layer.w_a, params, "wA");
    assign_parameter(layer.v_a, params, "vA");
    assign_parameter(layer.w_c, params, "wC");
    const bool has_mask = !is_absent(mask);
    const Mask2 m = has_mask ? to_mask<2>(mask, "mask") : Mask2{};
    Tensor2 context, attentional, weights;
    LuongStepCache cache;
    layer.step_forward(state, h, has_mask ? &m : nullptr, context, attentional, weights, cache);
    val out = val::object();
    out.set("weights", to_js(weights));
    out.set("context", to_js(context));
    out.set("attentional", to_js(attentional));
    return out;
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(layers) {
  using namespace attn::wasm;
  emscripten::function("sinusoidalPositionalEncoding", &js_sinusoidal_positional_encoding);
  emscripten::function("concatDirections", &js_concat_directions);
  emscripten::function("luongAttentionStep", &js_luong_attention_step);
}
