#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attn/analysis/transformer_inspect.hpp"
#include "attn/data/builtin_reviews.hpp"
#include "attn/layers/multi_head_attention.hpp"
#include "attn/layers/positional_encoding.hpp"
#include "attn/layers/transformer_encoder.hpp"

using namespace attn;

namespace {

const char* kText = "a wonderful film but the ending was dull";

// An untrained Transformer sentiment model: 2 layers × 2 heads, d_model 8, on the built-in
// corpus's vocabulary. Its random weights already give distinct, non-uniform attention maps.
SentimentModel small_transformer(PositionalKind positional = PositionalKind::sinusoidal) {
  TextPipelineConfig pc;
  pc.num_words = 300;
  pc.maxlen = 40;
  TextPipeline pipeline(pc);
  pipeline.fit(builtin_split(false));
  ClassifierConfig c;
  c.encoder = EncoderKind::transformer;
  c.embed_dim = 8;
  c.layers = 2;
  c.heads = 2;
  c.ff_dim = 16;
  c.pooling = PoolingKind::mean;
  c.positional = positional;
  return make_sentiment_model(std::move(pipeline), c, 3);
}

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

}  // namespace

TEST_CASE("transformer_inspect.shapes_and_rows_sum_to_one") {
  const SentimentModel model = small_transformer();
  const TransformerInspection r = inspect_transformer(model, kText);
  // <start> + 8 words.
  REQUIRE(r.tokens.size() == 9);
  CHECK(r.tokens[0] == "<start>");
  CHECK(r.tokens[2] == "wonderful");
  CHECK(r.layers == 2);
  CHECK(r.heads == 2);
  REQUIRE(r.attention.shape() == std::array<std::size_t, 4>{2, 2, 9, 9});
  CHECK(r.probability > 0.f);
  CHECK(r.probability < 1.f);
  for (std::size_t l = 0; l < 2; ++l) {
    for (std::size_t h = 0; h < 2; ++h) {
      for (std::size_t q = 0; q < 9; ++q) {
        double sum = 0;
        for (std::size_t k = 0; k < 9; ++k) sum += r.attention(l, h, q, k);
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
      }
    }
  }
  // The two heads of layer 0 attend differently (not a copied map).
  double diff = 0;
  for (std::size_t q = 0; q < 9; ++q) {
    for (std::size_t k = 0; k < 9; ++k) diff += std::abs(r.attention(0, 0, q, k) - r.attention(0, 1, q, k));
  }
  CHECK(diff > 1e-3);
  // The probability is explain()'s (same forward pass), bit for bit.
  CHECK(bits(r.probability) == bits(explain(model, kText).probability));
}

TEST_CASE("transformer_inspect.scores_are_q_dot_k_over_sqrt_d") {
  // Worked check of one entry: s = Σ_j Q[q, h·d + j] K[k, h·d + j] / √d with d = 8 / 2 = 4, summed
  // here in double from the layer's cache (the last forward is this inspection's); and the
  // masked softmax of every row of scores gives back the attention row (1e-6), without and with
  // the causal mask (keys after the query excluded).
  const SentimentModel model = small_transformer();
  for (bool causal : {false, true}) {
    TransformerInspectOptions options;
    options.causal = causal;
    const TransformerInspection r = inspect_transformer(model, kText, options);
    REQUIRE(r.head_dim == 4);
    REQUIRE(r.scores.shape() == r.attention.shape());
    const std::size_t nt = r.tokens.size();
    const MultiHeadAttentionCache& cache = *model.classifier->attention_cache(1);
    const std::size_t h = 1, q = 3, k = 5;
    double dot = 0;
    for (std::size_t j = 0; j < 4; ++j) dot += double(cache.q(0, q, h * 4 + j)) * cache.k(0, k, h * 4 + j);
    CHECK(r.scores(1, h, q, k) == doctest::Approx(dot / 2.0).epsilon(1e-5));
    for (std::size_t l = 0; l < r.layers; ++l) {
      for (std::size_t hh = 0; hh < r.heads; ++hh) {
        for (std::size_t qq = 0; qq < nt; ++qq) {
          const std::size_t visible = causal ? qq + 1 : nt;
          double max = -1e30, sum = 0;
          for (std::size_t kk = 0; kk < visible; ++kk) max = std::max(max, double(r.scores(l, hh, qq, kk)));
          for (std::size_t kk = 0; kk < visible; ++kk) sum += std::exp(r.scores(l, hh, qq, kk) - max);
          for (std::size_t kk = 0; kk < visible; ++kk) {
            CHECK(std::exp(r.scores(l, hh, qq, kk) - max) / sum ==
                  doctest::Approx(r.attention(l, hh, qq, kk)).epsilon(1e-6));
          }
        }
      }
    }
  }
}

TEST_CASE("transformer_inspect.causal_zeroes_the_upper_triangle") {
  const SentimentModel model = small_transformer();
  TransformerInspectOptions causal;
  causal.causal = true;
  const TransformerInspection r = inspect_transformer(model, kText, causal);
  const std::size_t nt = r.tokens.size();
  for (std::size_t l = 0; l < r.layers; ++l) {
    for (std::size_t h = 0; h < r.heads; ++h) {
      for (std::size_t q = 0; q < nt; ++q) {
        double sum = 0;
        for (std::size_t k = 0; k < nt; ++k) {
          if (k > q) CHECK(r.attention(l, h, q, k) == 0.f);
          sum += r.attention(l, h, q, k);
        }
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
      }
      // The first query sees only itself.
      CHECK(r.attention(l, h, 0, 0) == doctest::Approx(1.0).epsilon(1e-6));
    }
  }
  // A what-if only: the model was trained without the mask and keeps it off afterwards.
  const TransformerInspection after = inspect_transformer(model, kText);
  CHECK(after.attention(0, 0, 0, nt - 1) > 0.f);
  CHECK(bits(after.probability) == bits(explain(model, kText).probability));
  CHECK(bits(after.probability) != bits(r.probability));
}

TEST_CASE("transformer_inspect.ablation_identities") {
  const SentimentModel model = small_transformer();
  const TransformerInspection base = inspect_transformer(model, kText);
  SUBCASE("ablating no head is the normal forward, bit for bit") {
    TransformerInspectOptions none;
    const TransformerInspection r = inspect_transformer(model, kText, none);
    CHECK(bits(r.probability) == bits(base.probability));
    CHECK(r.attention == base.attention);
  }
  SUBCASE("ablating a head changes the output, then the model is restored") {
    for (std::size_t l = 0; l < 2; ++l) {
      for (std::size_t h = 0; h < 2; ++h) {
        TransformerInspectOptions one;
        one.ablated = {{l, h}};
        const TransformerInspection r = inspect_transformer(model, kText, one);
        CHECK(std::abs(r.probability - base.probability) > 1e-6f);
        // The ablated head's own map is still reported (what it would have attended to); a
        // head in the same layer sees the same input, so its map is unchanged too.
        for (std::size_t q = 0; q < r.tokens.size(); ++q) {
          for (std::size_t k = 0; k < r.tokens.size(); ++k) {
            CHECK(r.attention(l, 0, q, k) == base.attention(l, 0, q, k));
            CHECK(r.attention(l, 1, q, k) == base.attention(l, 1, q, k));
          }
        }
      }
    }
    for (std::size_t l = 0; l < 2; ++l) {
      for (bool on : model.classifier->attention_layer(l)->head_enabled) CHECK(on);
    }
    CHECK(bits(inspect_transformer(model, kText).probability) == bits(base.probability));
  }
  SUBCASE("ablating layer 0's heads changes layer 1's maps (its input changed)") {
    TransformerInspectOptions layer0;
    layer0.ablated = {{0, 0}, {0, 1}};
    const TransformerInspection r = inspect_transformer(model, kText, layer0);
    double diff = 0;
    for (std::size_t q = 0; q < r.tokens.size(); ++q) {
      for (std::size_t k = 0; k < r.tokens.size(); ++k) {
        diff += std::abs(r.attention(1, 0, q, k) - base.attention(1, 0, q, k));
      }
    }
    CHECK(diff > 1e-4);
    CHECK(std::isfinite(r.probability));
  }
}

TEST_CASE("transformer_inspect.all_heads_ablated_leaves_the_residual_path") {
  // Block level: with every head off, C = 0, so the attention branch is C W_o + b_o = b_o and
  // a = x + b_o exactly (an addition of the same floats); the feed-forward branch still runs.
  Rng rng(7);
  TransformerEncoderConfig config;
  config.d_model = 4;
  config.heads = 2;
  config.ff_dim = 6;
  TransformerEncoderBlock block(config, rng);
  MultiHeadSelfAttention& mha = block.attention();
  for (std::size_t j = 0; j < 4; ++j) mha.b_o(j) = rng.uniform(-0.5f, 0.5f);
  mha.head_enabled = {false, false};
  Tensor3 x({2, 3, 4});
  for (float& v : x) v = rng.uniform(-1.f, 1.f);
  Tensor3 y;
  TransformerEncoderCache cache;
  block.forward(x, nullptr, false, false, rng, y, cache);
  for (std::size_t b = 0; b < 2; ++b) {
    for (std::size_t t = 0; t < 3; ++t) {
      for (std::size_t j = 0; j < 4; ++j) {
        CHECK(cache.attention_out(b, t, j) == mha.b_o(j));
        CHECK(cache.a(b, t, j) == x(b, t, j) + mha.b_o(j));
      }
    }
  }
}

TEST_CASE("transformer_inspect.head_ablation_lists_every_head") {
  const SentimentModel model = small_transformer();
  const std::vector<LabelledText> test = builtin_split(true);
  const HeadAblation r = head_ablation(model, test, 40);
  CHECK(r.examples == 40);
  const std::vector<LabelledText> first(test.begin(), test.begin() + 40);
  CHECK(r.baseline_accuracy == evaluate(model, first).accuracy);
  REQUIRE(r.heads.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(r.heads[i].layer == i / 2);
    CHECK(r.heads[i].head == i % 2);
    CHECK(r.heads[i].accuracy >= 0.0);
    CHECK(r.heads[i].accuracy <= 1.0);
    CHECK(r.heads[i].delta == r.heads[i].accuracy - r.baseline_accuracy);
  }
  // Restored afterwards.
  CHECK(evaluate(model, first).accuracy == r.baseline_accuracy);
  CHECK(head_ablation(model, test, 0).examples == test.size());
  CHECK_THROWS_WITH_AS(head_ablation(model, {}, 10), "head_ablation: no examples to evaluate", std::invalid_argument);
}

TEST_CASE("transformer_inspect.positional_table_is_the_layers") {
  SUBCASE("sinusoidal") {
    const SentimentModel model = small_transformer();
    const Tensor2 table = positional_encoding_table(model, 5);
    REQUIRE(table.shape() == std::array<std::size_t, 2>{5, 8});
    const Tensor2 pe = sinusoidal_positional_encoding(5, 8);
    CHECK(table == pe);
    // PE[1, 0] = sin(1), PE[1, 1] = cos(1).
    CHECK(table(1, 0) == doctest::Approx(std::sin(1.0)).epsilon(1e-6));
    CHECK(table(1, 1) == doctest::Approx(std::cos(1.0)).epsilon(1e-6));
  }
  SUBCASE("learned: the model's own parameter") {
    const SentimentModel model = small_transformer(PositionalKind::learned);
    const Tensor2 table = positional_encoding_table(model, 6);
    REQUIRE(table.shape() == std::array<std::size_t, 2>{6, 8});
    const Parameter* position = nullptr;
    for (const Parameter& p : model.classifier->parameters()) {
      if (p.name.size() >= 19 && p.name.compare(p.name.size() - 19, 19, "positional.position") == 0) position = &p;
    }
    REQUIRE(position != nullptr);
    for (std::size_t i = 0; i < 6 * 8; ++i) CHECK(table.data()[i] == position->value[i]);
  }
  const SentimentModel model = small_transformer();
  CHECK_THROWS_WITH_AS(positional_encoding_table(model, 0),
                       "positional_encoding_table: positions must be between 1 and max_len 512, got 0",
                       std::invalid_argument);
}

TEST_CASE("transformer_inspect.errors") {
  TextPipeline pipeline;
  ClassifierConfig c;
  c.vocab_size = 10;
  c.embed_dim = 4;
  c.units = 4;
  c.attention_dim = 4;
  SentimentModel bilstm = make_sentiment_model(pipeline, c, 1);
  CHECK_THROWS_WITH_AS(inspect_transformer(bilstm, "good"),
                       "inspect_transformer: the model's encoder is bilstm: the Transformer view needs a "
                       "transformer model",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(head_ablation(bilstm, builtin_split(true), 5),
                       "head_ablation: the model's encoder is bilstm: the Transformer view needs a transformer model",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(positional_encoding_table(bilstm, 3),
                       "positional_encoding_table: the model's encoder is bilstm: the Transformer view needs a "
                       "transformer model",
                       std::invalid_argument);
  const SentimentModel model = small_transformer();
  TransformerInspectOptions bad;
  bad.ablated = {{0, 1}, {2, 0}};
  CHECK_THROWS_WITH_AS(inspect_transformer(model, "good", bad),
                       "inspect_transformer: ablated layer 2 out of range (the model has 2)", std::invalid_argument);
  bad.ablated = {{1, 5}};
  CHECK_THROWS_WITH_AS(inspect_transformer(model, "good", bad),
                       "inspect_transformer: ablated head 5 out of range (the model has 2)", std::invalid_argument);
  // A failed call leaves no head switched off.
  for (bool on : model.classifier->attention_layer(0)->head_enabled) CHECK(on);
}
