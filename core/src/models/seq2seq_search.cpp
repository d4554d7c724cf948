// Greedy and beam-search decoding of the seq2seq model (the rules they follow are in
// attn/models/seq2seq.hpp and attn/models/seq2seq_decoding.hpp).
#include <algorithm>
#include <array>
#include <cmath>

#include "attn/models/seq2seq.hpp"
#include "attn/models/seq2seq_decoding.hpp"
#include "seq2seq_impl.hpp"

namespace attn {

using namespace seq2seq_detail;

float length_penalised_score(float log_prob, std::size_t length, float alpha) {
  if (alpha == 0.f) return log_prob;
  return log_prob / std::pow((5.f + static_cast<float>(length)) / 6.f, alpha);
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

}  // namespace attn
