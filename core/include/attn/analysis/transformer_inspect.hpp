// Looking inside a Transformer sentiment classifier: self-attention per layer and head, what-if
// runs with a causal mask or with heads ablated, the accuracy each head is worth, and the
// positional encodings the model adds to its embeddings.
//
// Legend: L Transformer blocks (layers), H heads, T tokens of one review (<start> included),
// D model size (d_model), P positions asked for, N examples.
//
// Every function here runs inference only and leaves the model as it found it: the causal
// override and the head mask (MultiHeadSelfAttention::head_enabled) are restored on return, also
// when an exception leaves early.
//
// What-ifs, both for inference only:
//   causal  — run with the causal mask (query t sees keys 0..t) although the model may have been
//             trained without it: it shows how the trained heads behave when blinded to the
//             future, not what a causally trained model would learn. A model trained with the
//             causal mask always runs with it (causal = false does not lift it).
//   ablated — the listed (layer, head) pairs contribute O_h = 0 to the concatenated heads before
//             the output projection W_o, so the block's attention branch is C W_o + b_o with those
//             columns of C zero; the residual path around attention is untouched (ablating every
//             head of a block leaves a = x + b_o). The ablated heads' attention maps are still
//             reported: they show what the head would have attended to.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "attn/tensor.hpp"
#include "attn/train/sentiment_training.hpp"

namespace attn {

struct TransformerInspectOptions {
  bool causal = false;
  std::vector<std::pair<std::size_t, std::size_t>> ablated;  // (layer, head) pairs
};

struct TransformerInspection {
  std::vector<std::string> tokens;  // [T] "<start>" and the words as written
  float probability = 0.f;          // P(positive)
  std::size_t layers = 0, heads = 0;
  std::size_t head_dim = 0;  // d = D / H
  Tensor4 attention;         // [L, H, T, T]: row t = query t's weights over the keys
  // [L, H, T, T]: S_h = Q_h K_hᵀ / √d before the mask (masked keys keep their score; their
  // weight is 0), computed by the same kernel call as the layer's, so masked softmax of a row
  // gives back its attention row.
  Tensor4 scores;
};

// text -> tokens, P(positive), every head's attention map and scores (a batch of one review, so
// no padding). Throws std::invalid_argument when the model is not a Transformer:
// "inspect_transformer: the model's encoder is bilstm: the Transformer view needs a transformer model"
// and for an ablated pair out of range ("... layer 3 out of range (the model has 2)").
TransformerInspection inspect_transformer(const SentimentModel& model, const std::string& text,
                                          const TransformerInspectOptions& options = {});

struct HeadAblationEntry {
  std::size_t layer = 0, head = 0;
  double accuracy = 0;  // with this head ablated
  double delta = 0;     // accuracy - baseline
};

struct HeadAblation {
  std::size_t examples = 0;  // N actually evaluated (min(limit, examples.size()), 0 limit = all)
  double baseline_accuracy = 0;
  std::vector<HeadAblationEntry> heads;  // [L · H], layer-major
};

// Accuracy on examples[0, limit) with no head ablated, then with each (layer, head) ablated alone
// (L · H + 1 evaluations). `causal` as in TransformerInspectOptions. Errors as inspect_transformer
// ("head_ablation: ..."); std::invalid_argument for an empty example set.
HeadAblation head_ablation(const SentimentModel& model, const std::vector<LabelledText>& examples, std::size_t limit,
                           bool causal = false);

// -> [P, D]: the positional term the encoder adds to position p's scaled embedding — the
// sinusoidal table, or the learned table's first P rows. P must be 1..max_len.
Tensor2 positional_encoding_table(const SentimentModel& model, std::size_t positions);

}  // namespace attn
