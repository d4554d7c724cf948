// Embind bindings for the seq2seq decoding rules (core/include/attn/models/seq2seq_decoding.hpp),
// for the course's exercises. Conversion only: every computation happens in attn_core. See
// attn_engine.d.ts for the JS-side types.
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/models/seq2seq_decoding.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

val to_js_ids(const std::vector<std::int32_t>& ids) {
  val out = val::array();
  for (const std::int32_t id : ids) out.call<void>("push", static_cast<double>(id));
  return out;
}

// greedyDecodeTable(stepTable [V, V], maxLen) -> tokens: greedy decoding over the step whose
// logits for the next token are row `previous` of the table.
val js_greedy_decode_table(const val& step_table, double max_len) {
  return guarded([&] {
    const Tensor2 table = to_tensor<2>(step_table, "stepTable");
    const std::size_t v = table.shape(1);
    if (table.shape(0) != v) throw ShapeError("stepTable must be square [V, V], got " + shape_string(table.shape()));
    if (!(max_len >= 0) || max_len != std::floor(max_len) || max_len > 1e5) {
      throw std::invalid_argument("maxLen must be a whole number between 0 and 100000");
    }
    const DecoderStep step = [&](std::int32_t previous, float* logits) {
      std::copy(&table(previous, 0), &table(previous, 0) + v, logits);
    };
    return to_js_ids(greedy_decode(step, v, static_cast<std::size_t>(max_len)));
  });
}

// decoderInputTokens(target [Ty], logits [Ty-1, V], teacherForcing) -> tokens [Ty-1]
val js_decoder_input_tokens(const val& target, const val& logits, bool teacher_forcing) {
  return guarded([&] {
    const Tensor1 t = to_tensor<1>(target, "target");
    std::vector<std::int32_t> ids;
    for (const float id : t) {
      if (!(id >= 0) || id != std::floor(id)) throw std::invalid_argument("target must hold whole token ids >= 0");
      ids.push_back(static_cast<std::int32_t>(id));
    }
    return to_js_ids(decoder_input_tokens(ids, to_tensor<2>(logits, "logits"), teacher_forcing));
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(decoding) {
  using namespace attn::wasm;
  emscripten::function("greedyDecodeTable", &js_greedy_decode_table);
  emscripten::function("decoderInputTokens", &js_decoder_input_tokens);
}
