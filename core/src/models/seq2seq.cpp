// The seq2seq model: its layers, the encoder, one decoder step, and teacher-forced (or scheduled-
// sampling) training forward and backward. Greedy and beam search are in seq2seq_search.cpp, the
// configuration in seq2seq_config.cpp, the model file in seq2seq_file.cpp.
#include "attn/models/seq2seq.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "attn/kernels/vector_math.hpp"
#include "attn/losses/softmax_cross_entropy.hpp"
#include "attn/models/seq2seq_decoding.hpp"
#include "seq2seq_impl.hpp"

namespace attn {

using namespace seq2seq_detail;

Seq2SeqModel::Impl::Impl(const Seq2SeqConfig& c, Rng& rng)
    : config(c),
      ds(2 * c.units),
      dh(2 * c.units),
      din(c.embed + (c.attention == AttentionForm::bahdanau
                         ? 2 * c.units
                         : (c.attention == AttentionForm::luong && c.input_feeding ? 2 * c.units : 0))),
      dout(c.attention == AttentionForm::bahdanau ? 4 * c.units : 2 * c.units),
      source_embedding(c.source_vocab, c.embed, rng, kPadId),
      encoder(make_recurrent_encoder(c.cell, c.embed, c.units, rng)),
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
  encoder->parameters(params, "encoder.");
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
  if (!e.rnn) e.rnn = encoder->make_cache();
  const Tensor2* last = &encoder->encode(e.embedded, &e.mask, e.annotations, *e.rnn);
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

void Seq2SeqModel::Impl::run_cell(DecoderState& d, StepCache& cache) const {
  if (decoder_lstm) {
    decoder_lstm->step_forward(d.x, d.h, d.c, d.h, d.c, cache.lstm);
  } else {
    decoder_gru->step_forward(d.x, d.h, d.h, cache.gru);
  }
}

void Seq2SeqModel::Impl::bahdanau_cell(DecoderState& d, StepCache& cache, float* out) const {
  // s_t = cell([E y; c_t], s_{t-1});  out = [s_t; c_t]
  const std::size_t nb = d.h.shape(0);
  join_rows(d.embedded, d.context, nb, d.x.data());
  run_cell(d, cache);
  join_rows(d.h, d.context, nb, out);
}

void Seq2SeqModel::Impl::step(const EncoderState& e, DecoderState& d, StepCache& cache, float* out) const {
  const std::size_t nb = d.h.shape(0);
  const Mask2* mask = &e.mask;
  switch (config.attention) {
    case AttentionForm::bahdanau:
      // c_t = attention(s_{t-1}, h), then the cell and the output-layer input
      bahdanau->step_forward(d.h, e.annotations, e.keys, mask, d.context, d.weights, cache.bahdanau);
      bahdanau_cell(d, cache, out);
      break;
    case AttentionForm::luong:
      // s_t = cell([E y; h̃_{t-1}], s_{t-1});  c_t, h̃_t = attention(s_t, h);  out = h̃_t
      if (config.input_feeding) {
        join_rows(d.embedded, d.feed, nb, d.x.data());
      } else {
        std::copy(d.embedded.begin(), d.embedded.end(), d.x.begin());
      }
      run_cell(d, cache);
      luong->step_forward(d.h, e.annotations, mask, d.context, d.attentional, d.weights, cache.luong);
      std::copy(d.attentional.begin(), d.attentional.end(), d.feed.begin());
      std::copy(d.attentional.begin(), d.attentional.end(), out);
      break;
    case AttentionForm::none:
      // s_t = cell(E y, s_{t-1});  out = s_t
      std::copy(d.embedded.begin(), d.embedded.end(), d.x.begin());
      run_cell(d, cache);
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
  encoder->encode_backward(dannotations, &dfinal, *enc.rnn, dembedded_source);
  source_embedding.backward(dembedded_source, enc.embedding_cache);
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

}  // namespace attn
