// "Is attention an explanation?" for the Embind SentimentSession
// (analysis/explanations.hpp): conversion only. bindings_sentiment.cpp exposes
// these as session methods (analyze, predictTokens, misclassified) because its
// JS handle class is private to that file. Every result is a COPY (fresh JS
// arrays / typed arrays), so the worker can transfer it. Errors are C++
// exceptions: the caller wraps each call in guarded().
#pragma once

#include <emscripten/val.h>

#include <string>

#include "attn/train/classifier_session.hpp"

namespace attn::wasm {

// options {shuffles = 20, seed = 1} (undefined/null for the defaults) ->
// ReviewAnalysis (d.ts).
emscripten::val analyze_review_js(const SentimentSession &session, const std::string &text,
                                  const emscripten::val &options);
// tokens: string[] -> {probability, tokens, ids, weights}.
emscripten::val predict_tokens_js(const SentimentSession &session, const emscripten::val &tokens);
// which: "test" | "train" (all loaded training data); limit 0 = all ->
// MisclassifiedReview[].
emscripten::val misclassified_js(const SentimentSession &session, const std::string &which, double limit);

// The course's "your pooling in the model": text -> {tokens, hidden [T, Dh] (OutTensor), query
// (Float32Array, empty unless dot / scaled_dot scoring), weights (Float32Array [T]), probability}.
emscripten::val pooling_probe_js(const SentimentSession &session, const std::string &text);
// P(positive) of text with the pooling weights given (one per token).
double probability_with_weights_js(const SentimentSession &session, const std::string &text,
                                   const emscripten::val &weights);

}  // namespace attn::wasm
