// The Transformer view's queries on a sentiment session (analysis/transformer_inspect.hpp):
// free functions on the session, bound as SentimentSession methods in bindings_sentiment.cpp.
// Every result is a copy (fresh typed arrays), never a view over wasm memory.
#pragma once

#include <emscripten/val.h>

#include "attn/train/classifier_session.hpp"

namespace attn::wasm {

// (text, {causal?: boolean, ablated?: [layer, head][]}) ->
// {tokens, probability, layers, heads, headDim, attention, scores: Float32Array [L·H·T·T]}.
emscripten::val inspect_transformer_js(const SentimentSession& session, const std::string& text,
                                       const emscripten::val& options);
// (limit: 0 = the whole test set) -> {examples, baselineAccuracy, heads: [{layer, head, accuracy, delta}]}.
emscripten::val head_ablation_js(const SentimentSession& session, double limit, const emscripten::val& causal);
// (positions) -> {positions, dim, kind: 'sinusoidal' | 'learned', values: Float32Array [P·D]}.
emscripten::val positional_encoding_js(const SentimentSession& session, double positions);

}  // namespace attn::wasm
