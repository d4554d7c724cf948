#include "attn/models/seq2seq.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/kernels/vector_math.hpp"
#include "attn/layers/bidirectional.hpp"
#include "attn/layers/decoder_attention.hpp"
#include "attn/layers/dense.hpp"
#include "attn/layers/embedding.hpp"
#include "attn/losses/softmax_cross_entropy.hpp"
#include "attn/models/seq2seq_decoding.hpp"

namespace attn {

// ---------------------------------------------------------------------------------------------
// Configuration

const char* cell_kind_name(CellKind kind) { return kind == CellKind::gru ? "gru" : "lstm"; }

CellKind cell_kind_from_name(const std::string& name) {
  if (name == "lstm") return CellKind::lstm;
  if (name == "gru") return CellKind::gru;
  throw std::invalid_argument("unknown cell '" + name + "'; valid: lstm, gru");
}

const char* attention_form_name(AttentionForm form) {
  switch (form) {
    case AttentionForm::none:
      return "none";
    case AttentionForm::bahdanau:
      return "bahdanau";
    case AttentionForm::luong:
      return "luong";
  }
  return "unknown";
}

AttentionForm attention_form_from_name(const std::string& name) {
  if (name == "none") return AttentionForm::none;
  if (name == "bahdanau") return AttentionForm::bahdanau;
  if (name == "luong") return AttentionForm::luong;
  throw std::invalid_argument("unknown attention '" + name + "'; valid: none, bahdanau, luong");
}

void Seq2SeqConfig::validate() const {
  auto positive = [](std::size_t value, const char* name) {
    if (value == 0) throw std::invalid_argument(std::string("Seq2SeqConfig: ") + name + " must be >= 1, got 0");
  };
  positive(source_vocab, "source_vocab");
  positive(target_vocab, "target_vocab");
  positive(embed, "embed");
  positive(units, "units");
  positive(attention_dim, "attention_dim");
  // The decoder needs EOS to stop and both sides reserve the special ids.
  if (target_vocab <= static_cast<std::size_t>(kUnkId)) {
    throw std::invalid_argument("Seq2SeqConfig: target_vocab must be >= 4 (PAD, BOS, EOS, UNK), got " +
                                std::to_string(target_vocab));
  }
  if (attention == AttentionForm::bahdanau && score != ScoreKind::additive) {
    throw std::invalid_argument(
        std::string("Seq2SeqConfig: attention 'bahdanau' scores with the previous decoder state through an additive "
                    "layer, so score must be 'additive', got '") +
        score_kind_name(score) + "'");
  }
  if (attention == AttentionForm::luong) {
    if (score == ScoreKind::additive || score == ScoreKind::cosine) {
      throw std::invalid_argument(
          std::string("Seq2SeqConfig: attention 'luong' supports score dot, scaled_dot, general, concat or location, "
                      "got '") +
          score_kind_name(score) + "'");
    }
    if (score == ScoreKind::location) positive(max_source_len, "max_source_len");
  }
}

std::string Seq2SeqConfig::to_json() const {
  FlatJson j;
  j.set("model", "seq2seq")
      .set("source_vocab", static_cast<double>(source_vocab))
      .set("target_vocab", static_cast<double>(target_vocab))
      .set("embed", static_cast<double>(embed))
      .set("units", static_cast<double>(units))
      .set("attention_dim", static_cast<double>(attention_dim))
      .set("cell", cell_kind_name(cell))
      .set("attention", attention_form_name(attention))
      .set("score", score_kind_name(score))
      .set("input_feeding", input_feeding)
      .set("max_source_len", static_cast<double>(max_source_len));
  return j.dump();
}

Seq2SeqConfig Seq2SeqConfig::from_json(const std::string& json) {
  const FlatJson j = FlatJson::parse(json);
  if (j.get_string("model") != "seq2seq") {
    throw std::invalid_argument("this file holds a '" + j.get_string("model") + "' model, not a seq2seq model");
  }
  Seq2SeqConfig c;
  c.source_vocab = j.get_size("source_vocab");
  c.target_vocab = j.get_size("target_vocab");
  c.embed = j.get_size("embed");
  c.units = j.get_size("units");
  c.attention_dim = j.get_size("attention_dim");
  c.cell = cell_kind_from_name(j.get_string("cell"));
  c.attention = attention_form_from_name(j.get_string("attention"));
  c.score = score_kind_from_name(j.get_string("score"));
  c.input_feeding = j.get_bool("input_feeding");
  c.max_source_len = j.get_size("max_source_len");
  c.validate();
  return c;
}

float length_penalised_score(float log_prob, std::size_t length, float alpha) {
  if (alpha == 0.f) return log_prob;
  return log_prob / std::pow((5.f + static_cast<float>(length)) / 6.f, alpha);
}

// ---------------------------------------------------------------------------------------------
// Buffers

namespace {

using Shape2 = std::array<std::size_t, 2>;
using Shape3 = std::array<std::size_t, 3>;

// Everything the encoder produces for one source batch.
struct EncoderState {
  EmbeddingCache embedding_cache;
  Tensor3 embedded;    // [B, Tx, E]
  Mask2 mask;          // [B, Tx]
  BiLSTM::Cache lstm;  // one of the two is used
  BiGRU::Cache gru;
  Tensor3 annotations;  // [B, Tx, 2U]
  Tensor2 init_in;      // [B, U] (bahdanau: ←h_1) or [B, 2U]
  DenseCache init_cache;
  Tensor2 s0;         // [B, Ds] tanh(init_in W + b)
  BahdanauKeys keys;  // bahdanau: [B, Tx, A]
};

// What backward needs from one decoder step.
struct StepCache {
  LSTMStepCache lstm;
  GRUStepCache gru;
  BahdanauStepCache bahdanau;
  LuongStepCache luong;
};

// The running decoder: state, inputs and the step's outputs, all [rows, ·].
struct DecoderState {
  Tensor2 h, c;         // [B, Ds] (c: LSTM only)
  Tensor2 feed;         // [B, Ds] luong input feeding: h̃_{t-1}
  Tensor2 embedded;     // [B, E] E y_{t-1}
  Tensor2 x;            // [B, Din] cell input
  Tensor2 context;      // [B, Dh]
  Tensor2 attentional;  // [B, Ds] luong h̃_t
  Tensor2 weights;      // [B, Tx]
};

void fill_zero(Tensor2& t, std::size_t rows, std::size_t cols) {
  ensure_shape(t, Shape2{rows, cols});
  std::fill(t.begin(), t.end(), 0.f);
}

// log Σ_v exp(z_v) of one logits row z [V], max-shifted: log p_v = z_v − log_normaliser(z).
float log_normaliser(const float* z, std::size_t n) {
  float m = z[0];
  for (std::size_t v = 1; v < n; ++v) m = std::max(m, z[v]);
  double sum = 0;
  for (std::size_t v = 0; v < n; ++v) sum += std::exp(static_cast<double>(z[v] - m));
  return m + static_cast<float>(std::log(sum));
}

bool emittable(std::size_t v) { return v != static_cast<std::size_t>(kPadId) && v != static_cast<std::size_t>(kBosId); }

// Concatenates row-wise: x[b] = [a[b]; c[b]] (a [rows, na], c [rows, nc]).
void join_rows(const Tensor2& a, const Tensor2& c, std::size_t rows, float* x) {
  const std::size_t na = a.shape(1), nc = c.shape(1);
  for (std::size_t b = 0; b < rows; ++b) {
    std::copy(a.data() + b * na, a.data() + (b + 1) * na, x + b * (na + nc));
    std::copy(c.data() + b * nc, c.data() + (b + 1) * nc, x + b * (na + nc) + na);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The model

struct Seq2SeqModel::Impl {
  Impl(const Seq2SeqConfig& c, Rng& rng);

  Seq2SeqConfig config;
  std::size_t ds, dh, din, dout;  // decoder state, annotation, cell input and output-layer input sizes
  Embedding source_embedding;
  std::unique_ptr<BiLSTM> encoder_lstm;
  std::unique_ptr<BiGRU> encoder_gru;
  Dense init;
  Embedding target_embedding;
  std::unique_ptr<LSTM> decoder_lstm;
  std::unique_ptr<GRU> decoder_gru;
  std::unique_ptr<BahdanauAttention> bahdanau;
  std::unique_ptr<LuongAttention> luong;
  Dense output;
  ParameterList params;

  // Training buffers (train_batch / loss), reused across batches.
  EncoderState enc;
  std::vector<StepCache> steps;
  DecoderState dec;
  TokenIds fed;                          // [B, T'] the decoder's input tokens
  EmbeddingCache fed_cache;              // ids = fed, for the target embedding's backward
  Tensor2 outs, logits, dlogits, douts;  // [T'·B, Dout], [T'·B, Vt], [T'·B, Vt], [T'·B, Dout]
  ClassIds targets;                      // [T'·B] time-major
  Tensor2 step_logits;                   // [B, Vt] when sampling
  std::vector<std::int32_t> sampled;     // [B] argmax of the previous step
  Tensor3 dembedded_target;              // [B, T', E]
  Tensor3 dannotations, dembedded_source;
  BahdanauKeysGrad dkeys;
  Tensor2 dstate, dcell, dfeed, dx, dcontext, ds_attention, dinit_pre, dinit_in, dfinal, dattentional;

  // source [B, Tx] -> enc (annotations, mask, s0, keys).
  void encode(const TokenIds& source, EncoderState& e) const;
  // Sets dec for `rows` rows at the start of decoding (s_0, c_0 = 0, h̃_0 = 0).
  void start(const EncoderState& e, DecoderState& d) const;
  // One decoder step: reads d.embedded (E y_{t-1}) and the state, advances it, writes the
  // output-layer input [rows, Dout] to `out` and the attention weights to d.weights.
  void step(const EncoderState& e, DecoderState& d, StepCache& cache, float* out) const;
  // Gathers the target embedding rows of `tokens` [rows] into d.embedded.
  void embed_tokens(const std::int32_t* tokens, std::size_t stride, std::size_t rows, DecoderState& d) const;

  float forward(const TokenIds& source, const TokenIds& target, float ratio, Rng* rng, bool want_grad);
  void backward(std::size_t batch, std::size_t steps_count);

  void check_batch(const TokenIds& source, const TokenIds& target, const char* where) const;
  std::vector<Decoded> decode_batch(const TokenIds& source, std::size_t max_len) const;
};

Seq2SeqModel::Impl::Impl(const Seq2SeqConfig& c, Rng& rng)
    : config(c),
      ds(2 * c.units),
      dh(2 * c.units),
      din(c.embed + (c.attention == AttentionForm::bahdanau
                         ? 2 * c.units
                         : (c.attention == AttentionForm::luong && c.input_feeding ? 2 * c.units : 0))),
      dout(c.attention == AttentionForm::bahdanau ? 4 * c.units : 2 * c.units),
      source_embedding(c.source_vocab, c.embed, rng, kPadId),
      encoder_lstm(c.cell == CellKind::lstm ? std::make_unique<BiLSTM>(c.embed, c.units, rng) : nullptr),
      encoder_gru(c.cell == CellKind::gru ? std::make_unique<BiGRU>(c.embed, c.units, rng) : nullptr),
      init(c.attention == AttentionForm::bahdanau ? c.units : 2 * c.units, 2 * c.units, rng),
      target_embedding(c.target_vocab, c.embed, rng, kPadId),
      decoder_lstm(c.cell == CellKind::lstm ? std::make_unique<LSTM>(din, ds, rng) : nullptr),
      decoder_gru(c.cell == CellKind::gru ? std::make_unique<GRU>(din, ds, rng) : nullptr),
      bahdanau(c.attention == AttentionForm::bahdanau
                   ? std::make_unique<BahdanauAttention>(ds, dh, c.attention_dim, rng)
                   : nullptr),
      luong(c.attention == AttentionForm::luong
                ? std::make_unique<LuongAttention>(c.score, ds, dh, c.max_source_len, rng)
                : nullptr),
      output(dout, c.target_vocab, rng) {
  source_embedding.parameters(params, "source_embedding.");
  if (encoder_lstm) encoder_lstm->parameters(params, "encoder.");
  if (encoder_gru) encoder_gru->parameters(params, "encoder.");
  init.parameters(params, "init.");
  target_embedding.parameters(params, "target_embedding.");
  if (decoder_lstm) decoder_lstm->parameters(params, "decoder.");
  if (decoder_gru) decoder_gru->parameters(params, "decoder.");
  if (bahdanau) bahdanau->parameters(params, "attention.");
  if (luong) luong->parameters(params, "attention.");
  output.parameters(params, "output.");
}

void Seq2SeqModel::Impl::encode(const TokenIds& source, EncoderState& e) const {
  const std::size_t nb = source.shape(0), nt = source.shape(1), u = config.units;
  source_embedding.forward(source, e.embedded, e.embedding_cache);
  ensure_shape(e.mask, Shape2{nb, nt});
  for (std::size_t i = 0; i < source.size(); ++i) e.mask.data()[i] = source.data()[i] != kPadId ? 1 : 0;
  const Tensor2* last = nullptr;
  if (encoder_lstm) {
    encoder_lstm->forward(e.embedded, &e.mask, e.annotations, e.lstm);
    last = &e.lstm.h_last;
  } else {
    encoder_gru->forward(e.embedded, &e.mask, e.annotations, e.gru);
    last = &e.gru.h_last;
  }
  // bahdanau: s_0 from ←h_1 (the backward RNN's state after reading the whole source);
  // otherwise from both final states.
  const bool backward_only = config.attention == AttentionForm::bahdanau;
  const std::size_t in = backward_only ? u : 2 * u;
  ensure_shape(e.init_in, Shape2{nb, in});
  for (std::size_t b = 0; b < nb; ++b) {
    const float* src = last->data() + b * 2 * u + (backward_only ? u : 0);
    std::copy(src, src + in, e.init_in.data() + b * in);
  }
  init.forward(e.init_in, e.s0, e.init_cache);
  kernels::tanh(e.s0.data(), e.s0.data(), e.s0.size());
  if (bahdanau) bahdanau->precompute(e.annotations, e.keys);
}

void Seq2SeqModel::Impl::start(const EncoderState& e, DecoderState& d) const {
  const std::size_t nb = e.s0.shape(0);
  copy_into(d.h, e.s0);
  fill_zero(d.c, nb, ds);
  fill_zero(d.feed, nb, ds);
  ensure_shape(d.x, Shape2{nb, din});
  ensure_shape(d.embedded, Shape2{nb, config.embed});
}

void Seq2SeqModel::Impl::embed_tokens(const std::int32_t* tokens, std::size_t stride, std::size_t rows,
                                      DecoderState& d) const {
  const std::size_t e = config.embed, v = config.target_vocab;
  ensure_shape(d.embedded, Shape2{rows, e});
  const Tensor2& table = target_embedding.weight();
  for (std::size_t b = 0; b < rows; ++b) {
    const std::int32_t id = tokens[b * stride];
    if (id < 0 || static_cast<std::size_t>(id) >= v) {
      throw std::invalid_argument("Seq2SeqModel: target id " + std::to_string(id) + " in row " + std::to_string(b) +
                                  " is outside the target vocabulary [0, " + std::to_string(v) + ")");
    }
    std::copy(table.data() + id * e, table.data() + (id + 1) * e, d.embedded.data() + b * e);
  }
}

void Seq2SeqModel::Impl::step(const EncoderState& e, DecoderState& d, StepCache& cache, float* out) const {
  const std::size_t nb = d.h.shape(0);
  const Mask2* mask = &e.mask;
  auto run_cell = [&] {
    if (decoder_lstm) {
      decoder_lstm->step_forward(d.x, d.h, d.c, d.h, d.c, cache.lstm);
    } else {
      decoder_gru->step_forward(d.x, d.h, d.h, cache.gru);
    }
  };
  switch (config.attention) {
    case AttentionForm::bahdanau:
      // c_t = attention(s_{t-1}, h);  s_t = cell([E y; c_t], s_{t-1});  out = [s_t; c_t]
      bahdanau->step_forward(d.h, e.annotations, e.keys, mask, d.context, d.weights, cache.bahdanau);
      join_rows(d.embedded, d.context, nb, d.x.data());
      run_cell();
      join_rows(d.h, d.context, nb, out);
      break;
    case AttentionForm::luong:
      // s_t = cell([E y; h̃_{t-1}], s_{t-1});  c_t, h̃_t = attention(s_t, h);  out = h̃_t
      if (config.input_feeding) {
        join_rows(d.embedded, d.feed, nb, d.x.data());
      } else {
        std::copy(d.embedded.begin(), d.embedded.end(), d.x.begin());
      }
      run_cell();
      luong->step_forward(d.h, e.annotations, mask, d.context, d.attentional, d.weights, cache.luong);
      std::copy(d.attentional.begin(), d.attentional.end(), d.feed.begin());
      std::copy(d.attentional.begin(), d.attentional.end(), out);
      break;
    case AttentionForm::none:
      // s_t = cell(E y, s_{t-1});  out = s_t
      std::copy(d.embedded.begin(), d.embedded.end(), d.x.begin());
      run_cell();
      std::copy(d.h.begin(), d.h.end(), out);
      break;
  }
}

void Seq2SeqModel::Impl::check_batch(const TokenIds& source, const TokenIds& target, const char* where) const {
  ATTN_REQUIRE(source.shape(0) > 0 && source.shape(1) > 0, where,
               "source has shape " + shape_string(source.shape()) + "; expected [B, Tx] with B, Tx >= 1");
  ATTN_REQUIRE(target.shape(0) == source.shape(0) && target.shape(1) >= 2, where,
               "target has shape " + shape_string(target.shape()) + " but source has shape " +
                   shape_string(source.shape()) + "; expected [B, Ty] with Ty >= 2 (BOS ... EOS)");
}

float Seq2SeqModel::Impl::forward(const TokenIds& source, const TokenIds& target, float ratio, Rng* rng,
                                  bool want_grad) {
  const std::size_t nb = source.shape(0), nsteps = target.shape(1) - 1, v = config.target_vocab;
  encode(source, enc);
  start(enc, dec);
  if (steps.size() < nsteps) steps.resize(nsteps);
  ensure_shape(fed, Shape2{nb, nsteps});
  ensure_shape(outs, Shape2{nsteps * nb, dout});
  ensure_shape(logits, Shape2{nsteps * nb, v});
  ensure_shape(targets, std::array<std::size_t, 1>{nsteps * nb});
  const bool sampling = ratio < 1.f;
  if (sampling) sampled.resize(nb);
  for (std::size_t t = 0; t < nsteps; ++t) {
    for (std::size_t b = 0; b < nb; ++b) {
      std::int32_t token = target(b, t);
      // Scheduled sampling: from step 1 on, feed the model's own previous argmax instead.
      if (sampling && t > 0 && !(ratio > 0.f && rng->uniform() < ratio)) token = sampled[b];
      fed(b, t) = token;
      targets(t * nb + b) = target(b, t + 1);
    }
    embed_tokens(fed.data() + t, nsteps, nb, dec);
    float* out = outs.data() + t * nb * dout;
    step(enc, dec, steps[t], out);
    if (sampling) {
      float* z = logits.data() + t * nb * v;
      output.forward_rows(out, nb, z);
      for (std::size_t b = 0; b < nb; ++b) sampled[b] = best_emittable_token(z + b * v, v);
    }
  }
  if (!sampling) output.forward_rows(outs.data(), nsteps * nb, logits.data());
  const float loss = softmax_cross_entropy(logits, targets, kPadId, want_grad ? &dlogits : nullptr);
  return loss;
}

void Seq2SeqModel::Impl::backward(std::size_t nb, std::size_t nsteps) {
  const std::size_t e = config.embed;
  // logits = outs W_out + b
  ensure_shape(douts, outs.shape());
  output.backward_rows(outs.data(), dlogits.data(), nsteps * nb, douts.data());

  ensure_shape(dannotations, enc.annotations.shape());
  std::fill(dannotations.begin(), dannotations.end(), 0.f);
  if (bahdanau) {
    ensure_shape(dkeys.projected, enc.keys.projected.shape());
    std::fill(dkeys.projected.begin(), dkeys.projected.end(), 0.f);
  }
  ensure_shape(dembedded_target, Shape3{nb, nsteps, e});
  fill_zero(dstate, nb, ds);
  fill_zero(dcell, nb, ds);
  fill_zero(dfeed, nb, ds);
  ensure_shape(dcontext, Shape2{nb, dh});
  ensure_shape(dattentional, Shape2{nb, ds});

  auto cell_backward = [&](StepCache& cache) {
    // dstate, dcell: gradients w.r.t. s_t (and c_t) -> dx [B, Din]; dstate, dcell become those w.r.t. s_{t-1}.
    if (decoder_lstm) {
      decoder_lstm->step_backward(dstate, dcell, cache.lstm, dx, dstate, dcell);
    } else {
      decoder_gru->step_backward(dstate, cache.gru, dx, dstate);
    }
  };
  auto take_embedding_grad = [&](std::size_t t) {
    for (std::size_t b = 0; b < nb; ++b) {
      std::copy(dx.data() + b * din, dx.data() + b * din + e, dembedded_target.data() + (b * nsteps + t) * e);
    }
  };

  for (std::size_t t = nsteps; t-- > 0;) {
    const float* dout_t = douts.data() + t * nb * dout;
    StepCache& cache = steps[t];
    switch (config.attention) {
      case AttentionForm::bahdanau: {
        // out = [s_t; c_t]
        for (std::size_t b = 0; b < nb; ++b) {
          for (std::size_t j = 0; j < ds; ++j) dstate(b, j) += dout_t[b * dout + j];
          for (std::size_t j = 0; j < dh; ++j) dcontext(b, j) = dout_t[b * dout + ds + j];
        }
        // s_t = cell([E y; c_t], s_{t-1})
        cell_backward(cache);
        take_embedding_grad(t);
        for (std::size_t b = 0; b < nb; ++b) {
          for (std::size_t j = 0; j < dh; ++j) dcontext(b, j) += dx(b, e + j);
        }
        // c_t = attention(s_{t-1}, h)
        bahdanau->step_backward(dcontext, cache.bahdanau, ds_attention, dannotations, dkeys);
        add_to(dstate, ds_attention);
        break;
      }
      case AttentionForm::luong: {
        // out = h̃_t, and h̃_t also feeds step t+1's input
        for (std::size_t i = 0; i < nb * ds; ++i) dattentional.data()[i] = dout_t[i] + dfeed.data()[i];
        // c_t, h̃_t = attention(s_t, h)
        luong->step_backward(dattentional, cache.luong, ds_attention, dannotations);
        add_to(dstate, ds_attention);
        // s_t = cell([E y; h̃_{t-1}], s_{t-1})
        cell_backward(cache);
        take_embedding_grad(t);
        if (config.input_feeding) {
          for (std::size_t b = 0; b < nb; ++b) {
            for (std::size_t j = 0; j < ds; ++j) dfeed(b, j) = dx(b, e + j);
          }
        }
        break;
      }
      case AttentionForm::none:
        // out = s_t;  s_t = cell(E y, s_{t-1})
        for (std::size_t i = 0; i < nb * ds; ++i) dstate.data()[i] += dout_t[i];
        cell_backward(cache);
        take_embedding_grad(t);
        break;
    }
  }
  // keys = h W2 (bahdanau's precompute)
  if (bahdanau) bahdanau->keys_backward(dkeys, enc.annotations, dannotations);
  // E y_{t-1}
  copy_into(fed_cache.ids, fed);
  target_embedding.backward(dembedded_target, fed_cache);
  // s_0 = tanh(init_in W + b)
  ensure_shape(dinit_pre, enc.s0.shape());
  for (std::size_t i = 0; i < dstate.size(); ++i) {
    const float s = enc.s0.data()[i];
    dinit_pre.data()[i] = dstate.data()[i] * (1.f - s * s);
  }
  init.backward(dinit_pre, enc.init_cache, dinit_in);
  // init_in = ←h_1 (bahdanau) or [→h_Tx; ←h_1]
  const std::size_t u = config.units;
  if (config.attention == AttentionForm::bahdanau) {
    fill_zero(dfinal, nb, 2 * u);
    for (std::size_t b = 0; b < nb; ++b) {
      std::copy(dinit_in.data() + b * u, dinit_in.data() + (b + 1) * u, dfinal.data() + b * 2 * u + u);
    }
  } else {
    copy_into(dfinal, dinit_in);
  }
  // h = BiRNN(E x)
  if (encoder_lstm) {
    encoder_lstm->backward(dannotations, &dfinal, enc.lstm, dembedded_source);
  } else {
    encoder_gru->backward(dannotations, &dfinal, enc.gru, dembedded_source);
  }
  source_embedding.backward(dembedded_source, enc.embedding_cache);
}

std::vector<Decoded> Seq2SeqModel::Impl::decode_batch(const TokenIds& source, std::size_t max_len) const {
  const std::size_t nb = source.shape(0), tx = source.shape(1), v = config.target_vocab;
  const bool attends = config.attention != AttentionForm::none;
  EncoderState e;
  DecoderState d;
  StepCache cache;
  encode(source, e);
  start(e, d);
  Tensor2 out({nb, dout}), z({nb, v});
  std::vector<std::int32_t> tokens(nb, kBosId);
  std::vector<Decoded> result(nb);
  std::vector<std::vector<float>> rows(nb);
  std::size_t live = nb;
  for (std::size_t t = 0; t < max_len && live > 0; ++t) {
    embed_tokens(tokens.data(), 1, nb, d);
    step(e, d, cache, out.data());
    output.forward_rows(out.data(), nb, z.data());
    for (std::size_t b = 0; b < nb; ++b) {
      Decoded& r = result[b];
      if (r.finished) continue;
      const float* zb = z.data() + b * v;
      const std::int32_t best = best_emittable_token(zb, v);
      r.log_prob += zb[best] - log_normaliser(zb, v);
      if (attends) rows[b].insert(rows[b].end(), d.weights.data() + b * tx, d.weights.data() + (b + 1) * tx);
      tokens[b] = best;
      if (best == kEosId) {
        r.finished = true;
        --live;
      } else {
        r.tokens.push_back(best);
      }
    }
  }
  for (std::size_t b = 0; b < nb; ++b) {
    Decoded& r = result[b];
    const std::size_t n = attends ? rows[b].size() / tx : 0;
    r.alignment = Tensor2({n, attends ? tx : 0});
    std::copy(rows[b].begin(), rows[b].end(), r.alignment.begin());
  }
  return result;
}

// ---------------------------------------------------------------------------------------------

namespace {
const Seq2SeqConfig& validated(const Seq2SeqConfig& c) {
  c.validate();
  return c;
}

void check_ratio(float ratio, const char* where) {
  if (!(ratio >= 0.f && ratio <= 1.f)) {
    throw std::invalid_argument(std::string(where) + ": teacher_forcing_ratio must be in [0, 1], got " +
                                std::to_string(ratio));
  }
}
}  // namespace

Seq2SeqModel::Seq2SeqModel(const Seq2SeqConfig& config, std::uint64_t seed) {
  Rng rng(seed);
  impl_ = std::make_unique<Impl>(validated(config), rng);
}
Seq2SeqModel::~Seq2SeqModel() = default;
Seq2SeqModel::Seq2SeqModel(Seq2SeqModel&&) noexcept = default;
Seq2SeqModel& Seq2SeqModel::operator=(Seq2SeqModel&&) noexcept = default;

const Seq2SeqConfig& Seq2SeqModel::config() const { return impl_->config; }
ParameterList& Seq2SeqModel::parameters() { return impl_->params; }
const ParameterList& Seq2SeqModel::parameters() const { return impl_->params; }

float Seq2SeqModel::train_batch(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng) {
  const char* where = "Seq2SeqModel::train_batch";
  impl_->check_batch(source, target, where);
  check_ratio(teacher_forcing_ratio, where);
  const float loss = impl_->forward(source, target, teacher_forcing_ratio, &rng, true);
  impl_->backward(source.shape(0), target.shape(1) - 1);
  return loss;
}

float Seq2SeqModel::loss(const TokenIds& source, const TokenIds& target) {
  impl_->check_batch(source, target, "Seq2SeqModel::loss");
  return impl_->forward(source, target, 1.f, nullptr, false);
}

float Seq2SeqModel::loss(const TokenIds& source, const TokenIds& target, float teacher_forcing_ratio, Rng& rng) {
  const char* where = "Seq2SeqModel::loss";
  impl_->check_batch(source, target, where);
  check_ratio(teacher_forcing_ratio, where);
  return impl_->forward(source, target, teacher_forcing_ratio, &rng, false);
}

Decoded Seq2SeqModel::greedy(const std::vector<int>& source, std::size_t max_len) const {
  TokenIds ids({1, std::max<std::size_t>(source.size(), 1)});
  ids.fill(kPadId);
  std::copy(source.begin(), source.end(), ids.begin());
  return std::move(impl_->decode_batch(ids, max_len)[0]);
}

std::vector<Decoded> Seq2SeqModel::greedy_batch(const TokenIds& source, std::size_t max_len) const {
  ATTN_REQUIRE(source.shape(0) > 0 && source.shape(1) > 0, "Seq2SeqModel::greedy_batch",
               "source has shape " + shape_string(source.shape()) + "; expected [B, Tx] with B, Tx >= 1");
  return impl_->decode_batch(source, max_len);
}

std::vector<Decoded> Seq2SeqModel::beam(const std::vector<int>& source, std::size_t width, float length_alpha,
                                        std::size_t max_len) const {
  if (width == 0) throw std::invalid_argument("Seq2SeqModel::beam: width must be >= 1, got 0");
  const Impl& m = *impl_;
  const std::size_t tx = std::max<std::size_t>(source.size(), 1), v = m.config.target_vocab;
  const bool attends = m.config.attention != AttentionForm::none;

  // Encode once, then tile the encoder outputs over the live hypotheses.
  TokenIds ids({1, tx});
  ids.fill(kPadId);
  std::copy(source.begin(), source.end(), ids.begin());
  EncoderState one, e;
  m.encode(ids, one);

  struct Hypothesis {
    std::vector<int> tokens;
    float log_prob = 0;
    std::vector<float> alignment;  // steps × Tx
    bool finished = false;
  };
  std::vector<Hypothesis> live(1), finished;
  DecoderState d;
  StepCache cache;
  Tensor2 out, z;
  std::vector<std::int32_t> inputs{kBosId};

  auto tile = [&](std::size_t rows) {
    const std::size_t dh = m.dh;
    ensure_shape(e.annotations, Shape3{rows, tx, dh});
    ensure_shape(e.mask, Shape2{rows, tx});
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy(one.annotations.begin(), one.annotations.end(), e.annotations.data() + r * tx * dh);
      std::copy(one.mask.begin(), one.mask.end(), e.mask.data() + r * tx);
    }
    if (m.bahdanau) {
      const std::size_t a = one.keys.projected.shape(2);
      ensure_shape(e.keys.projected, Shape3{rows, tx, a});
      for (std::size_t r = 0; r < rows; ++r) {
        std::copy(one.keys.projected.begin(), one.keys.projected.end(), e.keys.projected.data() + r * tx * a);
      }
    }
  };
  tile(1);
  copy_into(e.s0, one.s0);
  m.start(e, d);

  struct Candidate {
    float log_prob;
    std::size_t parent;
    std::int32_t token;
  };
  std::vector<Candidate> candidates;
  for (std::size_t t = 0; t < max_len && !live.empty() && finished.size() < width; ++t) {
    const std::size_t rows = live.size();
    m.embed_tokens(inputs.data(), 1, rows, d);
    ensure_shape(out, Shape2{rows, m.dout});
    ensure_shape(z, Shape2{rows, v});
    m.step(e, d, cache, out.data());
    m.output.forward_rows(out.data(), rows, z.data());
    candidates.clear();
    for (std::size_t r = 0; r < rows; ++r) {
      const float* zr = z.data() + r * v;
      const float norm = log_normaliser(zr, v);
      for (std::size_t k = 0; k < v; ++k) {
        if (emittable(k)) candidates.push_back({live[r].log_prob + (zr[k] - norm), r, static_cast<std::int32_t>(k)});
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.log_prob > b.log_prob; });
    if (candidates.size() > width) candidates.resize(width);

    std::vector<Hypothesis> next;
    std::vector<std::size_t> parents;
    for (const Candidate& c : candidates) {
      Hypothesis h;
      h.tokens = live[c.parent].tokens;
      h.log_prob = c.log_prob;
      h.alignment = live[c.parent].alignment;
      if (attends)
        h.alignment.insert(h.alignment.end(), d.weights.data() + c.parent * tx, d.weights.data() + (c.parent + 1) * tx);
      if (c.token == kEosId) {
        h.finished = true;
        finished.push_back(std::move(h));
      } else {
        h.tokens.push_back(c.token);
        next.push_back(std::move(h));
        parents.push_back(c.parent);
      }
    }
    live = std::move(next);
    if (live.empty()) break;
    // Reorder the decoder state rows to follow the surviving hypotheses.
    const std::size_t n = live.size();
    DecoderState gathered;
    auto gather = [&](const Tensor2& from, Tensor2& to) {
      const std::size_t cols = from.shape(1);
      ensure_shape(to, Shape2{n, cols});
      for (std::size_t i = 0; i < n; ++i) {
        std::copy(from.data() + parents[i] * cols, from.data() + (parents[i] + 1) * cols, to.data() + i * cols);
      }
    };
    gather(d.h, gathered.h);
    gather(d.c, gathered.c);
    gather(d.feed, gathered.feed);
    d.h = std::move(gathered.h);
    d.c = std::move(gathered.c);
    d.feed = std::move(gathered.feed);
    ensure_shape(d.x, Shape2{n, m.din});
    if (n != rows) tile(n);
    inputs.resize(n);
    for (std::size_t i = 0; i < n; ++i) inputs[i] = live[i].tokens.back();
  }
  for (Hypothesis& h : live) finished.push_back(std::move(h));

  std::vector<std::pair<float, std::size_t>> order;
  for (std::size_t i = 0; i < finished.size(); ++i) {
    const std::size_t length = finished[i].tokens.size() + (finished[i].finished ? 1 : 0);
    order.emplace_back(length_penalised_score(finished[i].log_prob, length, length_alpha), i);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (order.size() > width) order.resize(width);
  std::vector<Decoded> result;
  for (const auto& [score, i] : order) {
    Hypothesis& h = finished[i];
    Decoded r;
    r.tokens = std::move(h.tokens);
    r.log_prob = h.log_prob;
    r.finished = h.finished;
    const std::size_t steps = attends ? h.alignment.size() / tx : 0;
    r.alignment = Tensor2({steps, attends ? tx : 0});
    std::copy(h.alignment.begin(), h.alignment.end(), r.alignment.begin());
    result.push_back(std::move(r));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Model file

std::vector<std::uint8_t> save_seq2seq(const Seq2SeqModel& model, const std::string& extra_json) {
  FlatJson j = FlatJson::parse(model.config().to_json());
  j.set("extra", extra_json);
  return save_model(j.dump(), model.parameters());
}

Seq2SeqModel load_seq2seq(const std::vector<std::uint8_t>& bytes, std::string* extra_json) {
  const ModelFile file = read_model(bytes);
  Seq2SeqConfig config;
  std::string extra;
  try {
    const FlatJson j = FlatJson::parse(file.config_json);
    config = Seq2SeqConfig::from_json(file.config_json);
    extra = j.has("extra") ? j.get_string("extra") : std::string();
  } catch (const std::exception& e) {
    throw ModelFileError(std::string("this seq2seq model file has a damaged configuration: ") + e.what());
  }
  // Both embedding tables and the output layer's weights alone: a configuration that needs more
  // floats than the file holds is damaged, and is refused before the model is allocated.
  const double least =
      static_cast<double>(config.source_vocab + config.target_vocab) * static_cast<double>(config.embed) +
      static_cast<double>(config.target_vocab) * static_cast<double>(config.units);
  if (least > stored_floats(file)) {
    throw ModelFileError("this seq2seq model is inconsistent: its configuration describes a model larger than the " +
                         std::to_string(static_cast<std::uint64_t>(stored_floats(file))) +
                         " parameters the file holds");
  }
  require_usable_parameters(file, "seq2seq model");
  Seq2SeqModel model(config, 0);  // the seed is irrelevant: every parameter comes from the file
  load_parameters(file, model.parameters());
  if (extra_json != nullptr) *extra_json = extra;
  return model;
}

}  // namespace attn
