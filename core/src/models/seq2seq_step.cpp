// The seq2seq step API (attn/models/seq2seq.hpp, Seq2SeqStep): the encoder, the model's own
// attention and one decoder step given a context, each on its own, for attention computed outside
// the model. The step runs the same code as greedy decoding (Impl::bahdanau_cell), so driving it
// with attend() reproduces greedy_batch bit for bit.
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/attention/softmax.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/models/seq2seq_decoding.hpp"
#include "seq2seq_impl.hpp"

namespace attn {

using namespace seq2seq_detail;

namespace {

void require_bahdanau(const Seq2SeqConfig& config, const char* where) {
  if (config.attention != AttentionForm::bahdanau) {
    throw std::invalid_argument(std::string(where) +
                                ": the step API takes the attention from the previous decoder state, which only "
                                "'bahdanau' models read; this model's attention is '" +
                                attention_form_name(config.attention) + "'");
  }
}

void require_finite(const Tensor2& t, const char* where, const char* name) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!std::isfinite(t.data()[i])) {
      throw std::invalid_argument(std::string(where) + ": " + name + " holds a non-finite value at [" +
                                  std::to_string(i / t.shape(1)) + ", " + std::to_string(i % t.shape(1)) + "]");
    }
  }
}

void require_shape(const Tensor2& t, std::size_t rows, std::size_t cols, const char* where, const char* name) {
  if (t.shape(0) != rows || t.shape(1) != cols) {
    throw_shape_error(where, std::string(name) + " has shape " + shape_string(t.shape()) + "; expected [" +
                                 std::to_string(rows) + ", " + std::to_string(cols) + "]");
  }
}

}  // namespace

Seq2SeqEncoding Seq2SeqModel::encode(const TokenIds& source) const {
  const char* where = "Seq2SeqModel::encode";
  const Impl& m = *impl_;
  require_bahdanau(m.config, where);
  ATTN_REQUIRE(source.shape(0) > 0 && source.shape(1) > 0, where,
               "source has shape " + shape_string(source.shape()) + "; expected [B, Tx] with B, Tx >= 1");
  EncoderState e;
  DecoderState d;
  m.encode(source, e);
  m.start(e, d);
  Seq2SeqEncoding out;
  out.annotations = std::move(e.annotations);
  out.mask = std::move(e.mask);
  out.start.s = std::move(d.h);
  out.start.c = std::move(d.c);
  return out;
}

Seq2SeqAttention Seq2SeqModel::attend(const Seq2SeqEncoding& encoding, const Tensor2& s) const {
  const char* where = "Seq2SeqModel::attend";
  const Impl& m = *impl_;
  require_bahdanau(m.config, where);
  const Tensor3& h = encoding.annotations;
  const std::size_t nb = h.shape(0), tx = h.shape(1);
  ATTN_REQUIRE(nb > 0 && tx > 0 && h.shape(2) == m.dh, where,
               "annotations have shape " + shape_string(h.shape()) + "; expected [B, Tx, " + std::to_string(m.dh) +
                   "] with B, Tx >= 1");
  ATTN_REQUIRE(encoding.mask.shape(0) == nb && encoding.mask.shape(1) == tx, where,
               "mask has shape " + shape_string(encoding.mask.shape()) + " but annotations " + shape_string(h.shape()));
  require_shape(s, nb, m.ds, where, "the decoder state s");
  require_finite(s, where, "the decoder state s");
  BahdanauKeys keys;
  BahdanauStepCache cache;
  Seq2SeqAttention out;
  m.bahdanau->precompute(h, keys);
  m.bahdanau->step_forward(s, h, keys, &encoding.mask, out.context, out.weights, cache);
  return out;
}

Seq2SeqStep Seq2SeqModel::decoder_step(const std::vector<std::int32_t>& previous, const Seq2SeqDecoderState& state,
                                       const Tensor2& context) const {
  const char* where = "Seq2SeqModel::decoder_step";
  const Impl& m = *impl_;
  require_bahdanau(m.config, where);
  const std::size_t nb = previous.size(), v = m.config.target_vocab;
  ATTN_REQUIRE(nb > 0, where, "previous holds no tokens; expected one per row (B >= 1)");
  require_shape(state.s, nb, m.ds, where, "the state s");
  require_shape(state.c, nb, m.ds, where, "the cell state c");
  require_shape(context, nb, m.dh, where, "the context");
  require_finite(state.s, where, "the state s");
  require_finite(state.c, where, "the cell state c");
  require_finite(context, where, "the context");

  DecoderState d;
  StepCache cache;
  copy_into(d.h, state.s);
  copy_into(d.c, state.c);
  copy_into(d.context, context);
  ensure_shape(d.x, Shape2{nb, m.din});
  m.embed_tokens(previous.data(), 1, nb, d);  // checks the ids
  Tensor2 out({nb, m.dout}), logits({nb, v});
  m.bahdanau_cell(d, cache, out.data());
  m.output.forward_rows(out.data(), nb, logits.data());

  Seq2SeqStep step;
  step.tokens.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) step.tokens[b] = best_emittable_token(logits.data() + b * v, v);
  step.probabilities = softmax(logits);
  step.state.s = std::move(d.h);
  step.state.c = std::move(d.c);
  return step;
}

ScoreParams Seq2SeqModel::alignment_parameters() const {
  const Impl& m = *impl_;
  require_bahdanau(m.config, "Seq2SeqModel::alignment_parameters");
  // The layer multiplies on the right (s W1, W1 [Ds, A]); attention/scores on the left (w1 s, w1 [A, Ds]).
  const BahdanauAttention& layer = *m.bahdanau;
  ScoreParams p;
  p.w1 = xt::transpose(layer.w1);
  p.w2 = xt::transpose(layer.w2);
  p.v = layer.v;
  const std::size_t a = p.v.size(), ds = p.w1.shape(1), dh = p.w2.shape(1);
  p.w = Tensor2({a, ds + dh});
  for (std::size_t i = 0; i < a; ++i) {
    std::copy(&p.w1(i, 0), &p.w1(i, 0) + ds, &p.w(i, 0));
    std::copy(&p.w2(i, 0), &p.w2(i, 0) + dh, &p.w(i, ds));
  }
  return p;
}

}  // namespace attn
