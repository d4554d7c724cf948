// A review's prediction and attention must not depend on the reviews it is batched with: the
// same numbers alone (a batch of one, no padding), 'pre'-padded and 'post'-padded next to longer
// reviews, through every path that reads a model — batched predict, evaluate, explain, analyze,
// inspect_transformer — and the same parameter gradients in training. For every model kind:
// the recurrent encoders (which skip padded steps) and the Transformer with either positional
// encoding (whose positions count from each review's first real token).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/analysis/explanations.hpp"
#include "attn/analysis/transformer_inspect.hpp"
#include "attn/data/builtin_reviews.hpp"
#include "attn/train/sentiment_training.hpp"

using namespace attn;

namespace {

const char* kShort = "a wonderful film but the ending was dull";
const char* kLong1 =
    "the plot wanders for an hour and the acting is flat but the music and the photography are lovely and "
    "the last scene almost makes up for the slow start of this long and uneven film";
const char* kLong2 =
    "i went in expecting a dull costume drama and came out moved by the performances the writing and the "
    "quiet way the story lets its characters breathe one of the best films of the year";

struct Kind {
  const char* name;
  ClassifierConfig config;
};

std::vector<Kind> kinds() {
  auto base = [](EncoderKind encoder, PoolingKind pooling) {
    ClassifierConfig c;
    c.encoder = encoder;
    c.embed_dim = 8;
    c.units = 6;
    c.attention_dim = 6;
    c.pooling = pooling;
    c.layers = 2;
    c.heads = 2;
    c.ff_dim = 12;
    return c;
  };
  std::vector<Kind> out;
  out.push_back({"bilstm-attention", base(EncoderKind::bilstm, PoolingKind::attention)});
  ClassifierConfig gru = base(EncoderKind::bigru, PoolingKind::attention);
  gru.score = ScoreKind::general;
  out.push_back({"bigru-attention-general", gru});
  out.push_back({"bilstm-last", base(EncoderKind::bilstm, PoolingKind::last)});
  out.push_back({"bigru-mean", base(EncoderKind::bigru, PoolingKind::mean)});
  out.push_back({"transformer-sinusoidal-attention", base(EncoderKind::transformer, PoolingKind::attention)});
  ClassifierConfig learned = base(EncoderKind::transformer, PoolingKind::attention);
  learned.positional = PositionalKind::learned;
  out.push_back({"transformer-learned-attention", learned});
  ClassifierConfig mean = base(EncoderKind::transformer, PoolingKind::mean);
  mean.positional = PositionalKind::learned;
  out.push_back({"transformer-learned-mean", mean});
  ClassifierConfig causal = base(EncoderKind::transformer, PoolingKind::attention);
  causal.causal = true;
  out.push_back({"transformer-sinusoidal-causal", causal});
  return out;
}

// An untrained model on the built-in vocabulary. The learned position table starts at
// U(-0.05, 0.05); it is redrawn from U(-1, 1) here so that a wrong position shows in P.
SentimentModel make_model(const ClassifierConfig& config, PadMode padding) {
  TextPipelineConfig pc;
  pc.num_words = 300;
  pc.maxlen = 64;
  pc.padding = padding;
  TextPipeline pipeline(pc);
  pipeline.fit(builtin_split(false));
  SentimentModel model = make_sentiment_model(std::move(pipeline), config, 5);
  Rng rng(9);
  for (Parameter& p : model.classifier->parameters()) {
    if (p.name.find("positional") == std::string::npos) continue;
    for (std::size_t i = 0; i < p.size; ++i) p.value[i] = rng.uniform(-1.f, 1.f);
  }
  return model;
}

// The encoded texts as one batch padded on `padding`'s side to the longest.
void make_batch(const SentimentModel& model, const std::vector<std::string>& texts, PadMode padding, TokenIds& ids,
                Mask2& mask, std::vector<std::size_t>& offsets, std::vector<std::size_t>& lengths) {
  std::vector<std::vector<std::int32_t>> seqs;
  std::size_t longest = 0;
  for (const std::string& t : texts) {
    seqs.push_back(model.pipeline.encode(t));
    longest = std::max(longest, seqs.back().size());
  }
  ids = xt::zeros<std::int32_t>({texts.size(), longest});
  mask = xt::zeros<std::uint8_t>({texts.size(), longest});
  offsets.clear();
  lengths.clear();
  for (std::size_t b = 0; b < seqs.size(); ++b) {
    const std::size_t n = seqs[b].size(), offset = padding == PadMode::pre ? longest - n : 0;
    for (std::size_t t = 0; t < n; ++t) {
      ids(b, offset + t) = seqs[b][t];
      mask(b, offset + t) = 1;
    }
    offsets.push_back(offset);
    lengths.push_back(n);
  }
}

double bce(float p, int label) {
  const double q = std::min(std::max(static_cast<double>(p), 1e-7), 1.0 - 1e-7);
  return label == 1 ? -std::log(q) : -std::log(1.0 - q);
}

std::vector<float> gradients(SentimentModel& model, const TokenIds& ids, const Mask2& mask) {
  SequenceClassifier& c = *model.classifier;
  zero_grads(c.parameters());
  Rng rng(1);
  Tensor1 logits;
  c.forward(ids, mask, false, rng, logits);
  // d(Σ_b logit_b) / dθ: the sum of every review's own gradient, whatever its padding.
  Tensor1 dlogits = xt::ones<float>(logits.shape());
  c.backward(dlogits);
  std::vector<float> out;
  for (const Parameter& p : c.parameters()) out.insert(out.end(), p.grad, p.grad + p.size);
  return out;
}

}  // namespace

TEST_CASE("padding_invariance.every_path_every_model_kind") {
  for (const Kind& kind : kinds()) {
    for (PadMode padding : {PadMode::pre, PadMode::post}) {
      const std::string kind_name = kind.name, padding_name = pad_mode_name(padding);
      CAPTURE(kind_name);
      CAPTURE(padding_name);
      SentimentModel model = make_model(kind.config, padding);
      const bool transformer = kind.config.encoder == EncoderKind::transformer;
      const bool attention_pooling = kind.config.pooling == PoolingKind::attention;

      // Alone: a batch of one review, no padding.
      const float alone = predict(model, {kShort})[0];
      const float alone1 = predict(model, {kLong1})[0];
      const float alone2 = predict(model, {kLong2})[0];
      // Batched predict: the short review padded to the longest.
      const std::vector<float> batched = predict(model, {kLong1, kShort, kLong2});
      CHECK(std::fabs(batched[1] - alone) <= 1e-5f);
      CHECK(std::fabs(batched[0] - alone1) <= 1e-5f);
      CHECK(std::fabs(batched[2] - alone2) <= 1e-5f);

      // evaluate: mean BCE over a padded batch = mean of the reviews' losses alone.
      const std::vector<LabelledText> labelled = {{kLong1, 0, ""}, {kShort, 1, ""}, {kLong2, 1, ""}};
      const double expected_loss = (bce(alone1, 0) + bce(alone, 1) + bce(alone2, 1)) / 3.0;
      CHECK(evaluate(model, labelled).loss == doctest::Approx(expected_loss).epsilon(1e-5));

      // explain and analyze (one review, unpadded).
      const Explanation e = explain(model, kShort);
      CHECK(std::fabs(e.probability - alone) <= 1e-5f);
      AnalysisOptions no_shuffles;
      no_shuffles.shuffles = 0;
      CHECK(std::fabs(analyze_review(model, kShort, no_shuffles).explanation.probability - alone) <= 1e-5f);

      // The attention of the padded batch, read from the classifier, against explain /
      // inspect_transformer of the review alone.
      TokenIds ids;
      Mask2 mask;
      std::vector<std::size_t> offsets, lengths;
      make_batch(model, {kLong1, kShort, kLong2}, padding, ids, mask, offsets, lengths);
      Rng rng(1);
      Tensor1 logits;
      model.classifier->forward(ids, mask, false, rng, logits);
      CHECK(std::fabs(1.f / (1.f + std::exp(-logits(1))) - alone) <= 1e-5f);
      const std::size_t o = offsets[1], n = lengths[1];
      if (attention_pooling) {
        const Tensor2& w = model.classifier->pooling_weights();
        REQUIRE(e.weights.size() == n);
        for (std::size_t t = 0; t < n; ++t) CHECK(std::fabs(w(1, o + t) - e.weights[t]) <= 1e-5f);
      }
      if (transformer) {
        std::vector<Tensor4> batch_attention;
        for (std::size_t l = 0; l < kind.config.layers; ++l)
          batch_attention.push_back(*model.classifier->self_attention(l));
        const TransformerInspection inspection = inspect_transformer(model, kShort);
        CHECK(std::fabs(inspection.probability - alone) <= 1e-5f);
        REQUIRE(inspection.attention.shape(2) == n);
        double worst = 0;
        for (std::size_t l = 0; l < kind.config.layers; ++l)
          for (std::size_t h = 0; h < kind.config.heads; ++h)
            for (std::size_t q = 0; q < n; ++q)
              for (std::size_t k = 0; k < n; ++k)
                worst = std::max(worst, static_cast<double>(std::fabs(batch_attention[l](1, h, o + q, o + k) -
                                                                      inspection.attention(l, h, q, k))));
        CHECK(worst <= 1e-5);
      }

      // Training: the parameter gradients of a padded batch are the sum of its reviews' own.
      const std::vector<float> together = gradients(model, ids, mask);
      std::vector<float> separate(together.size(), 0.f);
      for (const char* text : {kLong1, kShort, kLong2}) {
        make_batch(model, {text}, padding, ids, mask, offsets, lengths);
        const std::vector<float> g = gradients(model, ids, mask);
        for (std::size_t i = 0; i < g.size(); ++i) separate[i] += g[i];
      }
      double worst = 0, largest = 0;
      for (std::size_t i = 0; i < together.size(); ++i) {
        worst = std::max(worst, static_cast<double>(std::fabs(together[i] - separate[i])));
        largest = std::max(largest, static_cast<double>(std::fabs(separate[i])));
      }
      CHECK(worst <= 1e-5 * std::max(1.0, largest));
    }
  }
}

TEST_CASE("padding_invariance.pre_and_post_padded_models_agree") {
  // The same parameters read their reviews identically whichever side the padding is on.
  for (const Kind& kind : kinds()) {
    const std::string kind_name = kind.name;
    CAPTURE(kind_name);
    const SentimentModel pre = make_model(kind.config, PadMode::pre);
    const SentimentModel post = make_model(kind.config, PadMode::post);
    const std::vector<float> a = predict(pre, {kLong1, kShort, kLong2});
    const std::vector<float> b = predict(post, {kLong1, kShort, kLong2});
    for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(a[i] - b[i]) <= 1e-5f);
  }
}
