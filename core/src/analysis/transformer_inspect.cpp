#include "attn/analysis/transformer_inspect.hpp"

#include <cmath>
#include <stdexcept>

#include "attn/kernels/gemm.hpp"
#include "attn/layers/multi_head_attention.hpp"
#include "attn/layers/positional_encoding.hpp"

namespace attn {
namespace {

// The classifier, checked to be a Transformer; `who` names the caller in messages.
SequenceClassifier& transformer_of(const SentimentModel& model, const char* who) {
  if (!model.classifier) throw std::invalid_argument(std::string(who) + ": the sentiment model has no classifier");
  SequenceClassifier& c = *model.classifier;
  if (c.config().encoder != EncoderKind::transformer) {
    throw std::invalid_argument(std::string(who) + ": the model's encoder is " + encoder_kind_name(c.config().encoder) +
                                ": the Transformer view needs a transformer model");
  }
  return c;
}

// Applies the what-ifs on construction and puts the trained state back on destruction, so an
// exception thrown half-way never leaves a head switched off.
class WhatIf {
 public:
  WhatIf(SequenceClassifier& c, const char* who, bool causal,
         const std::vector<std::pair<std::size_t, std::size_t>>& ablated)
      : c_(c) {
    const std::size_t layers = c.config().layers, heads = c.config().heads;
    for (const auto& [layer, head] : ablated) {
      if (layer >= layers) {
        throw std::invalid_argument(std::string(who) + ": ablated layer " + std::to_string(layer) +
                                    " out of range (the model has " + std::to_string(layers) + ")");
      }
      if (head >= heads) {
        throw std::invalid_argument(std::string(who) + ": ablated head " + std::to_string(head) +
                                    " out of range (the model has " + std::to_string(heads) + ")");
      }
    }
    for (std::size_t l = 0; l < layers; ++l) saved_.push_back(c.attention_layer(l)->head_enabled);
    // The what-if adds the causal mask; a model trained with it keeps it (without, inspection
    // would not show the model's own prediction).
    c.set_causal(causal || c.config().causal);
    for (const auto& [layer, head] : ablated) c.attention_layer(layer)->head_enabled[head] = false;
  }
  ~WhatIf() {
    c_.set_causal(c_.config().causal);
    for (std::size_t l = 0; l < saved_.size(); ++l) c_.attention_layer(l)->head_enabled = saved_[l];
  }
  WhatIf(const WhatIf&) = delete;
  WhatIf& operator=(const WhatIf&) = delete;

 private:
  SequenceClassifier& c_;
  std::vector<std::vector<bool>> saved_;
};

EncodedDataset first_examples(const SentimentModel& model, const std::vector<LabelledText>& examples,
                              std::size_t limit) {
  const std::size_t n = limit == 0 ? examples.size() : std::min(limit, examples.size());
  const std::vector<LabelledText> subset(examples.begin(), examples.begin() + static_cast<std::ptrdiff_t>(n));
  return encode_dataset(model.pipeline, subset);
}

}  // namespace

TransformerInspection inspect_transformer(const SentimentModel& model, const std::string& text,
                                          const TransformerInspectOptions& options) {
  SequenceClassifier& c = transformer_of(model, "inspect_transformer");
  const WhatIf what_if(c, "inspect_transformer", options.causal, options.ablated);
  TransformerInspection out;
  const std::vector<std::int32_t> ids = model.pipeline.encode(text, &out.tokens);
  const std::size_t nt = ids.size();  // >= 1: <start> is always there
  TokenIds batch({1, nt});
  Mask2 mask({1, nt});
  for (std::size_t t = 0; t < nt; ++t) {
    batch(0, t) = ids[t];
    mask(0, t) = 1;
  }
  Tensor1 logits;
  Rng rng(0);  // inference: dropout is off and draws nothing
  c.forward(batch, mask, false, rng, logits);
  out.probability = 1.f / (1.f + std::exp(-logits(0)));
  out.layers = c.config().layers;
  out.heads = c.config().heads;
  out.head_dim = c.config().embed_dim / out.heads;
  out.attention.resize({out.layers, out.heads, nt, nt});
  out.scores.resize({out.layers, out.heads, nt, nt});
  const std::size_t d = c.config().embed_dim, hd = out.head_dim;
  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (std::size_t l = 0; l < out.layers; ++l) {
    const Tensor4& w = *c.self_attention(l);  // [1, H, T, T]
    const MultiHeadAttentionCache& cache = *c.attention_cache(l);
    for (std::size_t h = 0; h < out.heads; ++h) {
      for (std::size_t q = 0; q < nt; ++q) {
        for (std::size_t k = 0; k < nt; ++k) out.attention(l, h, q, k) = w(0, h, q, k);
      }
      // S_h = Q_h K_hᵀ / √d: the layer's own call (multi_head_attention.cpp), same operands.
      kernels::gemm(false, true, nt, nt, hd, scale, cache.q.data() + h * hd, d, cache.k.data() + h * hd, d, 0.f,
                    &out.scores(l, h, 0, 0), nt);
    }
  }
  return out;
}

HeadAblation head_ablation(const SentimentModel& model, const std::vector<LabelledText>& examples, std::size_t limit,
                           bool causal) {
  SequenceClassifier& c = transformer_of(model, "head_ablation");
  if (examples.empty()) throw std::invalid_argument("head_ablation: no examples to evaluate");
  const EncodedDataset data = first_examples(model, examples, limit);
  HeadAblation out;
  out.examples = data.sequences.size();
  {
    const WhatIf none(c, "head_ablation", causal, {});
    out.baseline_accuracy = evaluate_classifier(c, model.pipeline, data).accuracy;
  }
  for (std::size_t l = 0; l < c.config().layers; ++l) {
    for (std::size_t h = 0; h < c.config().heads; ++h) {
      const WhatIf ablate(c, "head_ablation", causal, {{l, h}});
      HeadAblationEntry e;
      e.layer = l;
      e.head = h;
      e.accuracy = evaluate_classifier(c, model.pipeline, data).accuracy;
      e.delta = e.accuracy - out.baseline_accuracy;
      out.heads.push_back(e);
    }
  }
  return out;
}

Tensor2 positional_encoding_table(const SentimentModel& model, std::size_t positions) {
  const SequenceClassifier& c = transformer_of(model, "positional_encoding_table");
  const std::size_t max_len = c.config().max_len, dim = c.config().embed_dim;
  if (positions < 1 || positions > max_len) {
    throw std::invalid_argument("positional_encoding_table: positions must be between 1 and max_len " +
                                std::to_string(max_len) + ", got " + std::to_string(positions));
  }
  const LearnedPositionalEncoding* learned = c.learned_positional();
  if (!learned) return sinusoidal_positional_encoding(positions, dim);
  Tensor2 out({positions, dim});
  for (std::size_t p = 0; p < positions; ++p) {
    for (std::size_t d = 0; d < dim; ++d) out(p, d) = learned->position()(p, d);
  }
  return out;
}

}  // namespace attn
