// Greedy and beam search over any Translator (the rules are in attn/models/translator.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/models/seq2seq_decoding.hpp"
#include "attn/models/translator.hpp"

namespace attn {
namespace {

// log Σ_v exp(z_v) of one logits row z [V], max-shifted: log p_v = z_v − log_normaliser(z).
float log_normaliser(const float* z, std::size_t n) {
  float m = z[0];
  for (std::size_t v = 1; v < n; ++v) m = std::max(m, z[v]);
  double sum = 0;
  for (std::size_t v = 0; v < n; ++v) sum += std::exp(static_cast<double>(z[v] - m));
  return m + static_cast<float>(std::log(sum));
}

bool emittable(std::size_t v) { return v != static_cast<std::size_t>(kPadId) && v != static_cast<std::size_t>(kBosId); }

// Steps × Tx weights gathered during a search -> Decoded::alignment [steps, Tx] ([0, 0] without attention).
Tensor2 alignment_of(const std::vector<float>& rows, std::size_t tx, bool attends) {
  const std::size_t steps = attends ? rows.size() / tx : 0;
  Tensor2 out({steps, attends ? tx : 0});
  std::copy(rows.begin(), rows.end(), out.begin());
  return out;
}

}  // namespace

float length_penalised_score(float log_prob, std::size_t length, float alpha) {
  if (alpha == 0.f) return log_prob;
  return log_prob / std::pow((5.f + static_cast<float>(length)) / 6.f, alpha);
}

TokenIds source_row(const std::vector<int>& source) {
  TokenIds ids({1, std::max<std::size_t>(source.size(), 1)});
  ids.fill(kPadId);
  std::copy(source.begin(), source.end(), ids.begin());
  return ids;
}

std::vector<Decoded> greedy_search(const Translator& translator, const TokenIds& source, std::size_t max_len) {
  const std::size_t nb = source.shape(0), tx = source.shape(1), v = translator.target_vocab();
  const bool attends = translator.attends();
  const std::unique_ptr<Translator::Decoding> decoding = translator.start(source);
  Tensor2 z;
  std::vector<std::int32_t> tokens(nb, kBosId);
  std::vector<Decoded> result(nb);
  std::vector<std::vector<float>> rows(nb);
  std::size_t live = nb;
  for (std::size_t t = 0; t < max_len && live > 0; ++t) {
    const Tensor2* weights = translator.step(*decoding, tokens.data(), z);
    for (std::size_t b = 0; b < nb; ++b) {
      Decoded& r = result[b];
      if (r.finished) continue;
      const float* zb = z.data() + b * v;
      const std::int32_t best = best_emittable_token(zb, v);
      r.log_prob += zb[best] - log_normaliser(zb, v);
      if (attends) rows[b].insert(rows[b].end(), weights->data() + b * tx, weights->data() + (b + 1) * tx);
      tokens[b] = best;
      if (best == kEosId) {
        r.finished = true;
        --live;
      } else {
        r.tokens.push_back(best);
      }
    }
  }
  for (std::size_t b = 0; b < nb; ++b) result[b].alignment = alignment_of(rows[b], tx, attends);
  return result;
}

std::vector<Decoded> beam_search(const Translator& translator, const std::vector<int>& source, std::size_t width,
                                 float length_alpha, std::size_t max_len) {
  if (width == 0) throw std::invalid_argument("beam search: width must be >= 1, got 0");
  const TokenIds ids = source_row(source);
  const std::size_t tx = ids.shape(1), v = translator.target_vocab();
  const bool attends = translator.attends();
  const std::unique_ptr<Translator::Decoding> decoding = translator.start(ids);

  struct Hypothesis {
    std::vector<int> tokens;
    float log_prob = 0;
    std::vector<float> alignment;  // steps × Tx
    bool finished = false;
  };
  struct Candidate {
    float log_prob;
    std::size_t parent;
    std::int32_t token;
  };
  std::vector<Hypothesis> live(1), finished;
  std::vector<Candidate> candidates;
  std::vector<std::int32_t> inputs{kBosId};
  Tensor2 z;
  for (std::size_t t = 0; t < max_len && !live.empty() && finished.size() < width; ++t) {
    const std::size_t rows = live.size();
    const Tensor2* weights = translator.step(*decoding, inputs.data(), z);
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
      if (attends) {
        h.alignment.insert(h.alignment.end(), weights->data() + c.parent * tx, weights->data() + (c.parent + 1) * tx);
      }
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
    // The decoding's rows follow the surviving hypotheses.
    translator.reorder(*decoding, parents);
    inputs.resize(live.size());
    for (std::size_t i = 0; i < live.size(); ++i) inputs[i] = live[i].tokens.back();
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
    r.alignment = alignment_of(h.alignment, tx, attends);
    result.push_back(std::move(r));
  }
  return result;
}

}  // namespace attn
