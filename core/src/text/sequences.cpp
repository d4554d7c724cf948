#include "attn/text/sequences.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attn {

PaddedBatch pad_sequences(const std::vector<std::vector<std::int32_t>>& seqs, std::size_t maxlen, PadMode padding,
                          PadMode truncating, std::int32_t value) {
  if (maxlen == 0) {
    throw std::invalid_argument("pad_sequences: maxlen must be at least 1 (use pad_to_longest for Keras' maxlen=None)");
  }
  const std::size_t n = seqs.size();
  PaddedBatch out;
  out.ids = xt::empty<std::int32_t>({n, maxlen});
  out.mask = xt::zeros<std::uint8_t>({n, maxlen});
  std::fill(out.ids.begin(), out.ids.end(), value);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& seq = seqs[i];
    const std::size_t kept = std::min(seq.size(), maxlen);
    const std::size_t from = truncating == PadMode::pre ? seq.size() - kept : 0;  // first id kept
    const std::size_t to = padding == PadMode::pre ? maxlen - kept : 0;           // its column
    std::int32_t* ids = out.ids.data() + i * maxlen + to;
    std::uint8_t* mask = out.mask.data() + i * maxlen + to;
    for (std::size_t t = 0; t < kept; ++t) {
      ids[t] = seq[from + t];
      mask[t] = 1;
    }
  }
  return out;
}

PaddedBatch pad_to_longest(const std::vector<std::vector<std::int32_t>>& seqs, PadMode padding, std::int32_t value) {
  std::size_t longest = 0;
  for (const auto& seq : seqs) longest = std::max(longest, seq.size());
  if (longest == 0) {
    PaddedBatch out;
    out.ids = xt::empty<std::int32_t>({seqs.size(), std::size_t{0}});
    out.mask = xt::empty<std::uint8_t>({seqs.size(), std::size_t{0}});
    return out;
  }
  return pad_sequences(seqs, longest, padding, PadMode::pre, value);
}

void gather_padded(const std::vector<std::vector<std::int32_t>>& seqs, const std::size_t* indices, std::size_t count,
                   std::size_t width, PadMode padding, TokenIds& ids, Mask2* mask) {
  const std::array<std::size_t, 2> shape{count, width};
  ensure_shape(ids, shape);
  std::fill(ids.begin(), ids.end(), 0);
  if (mask != nullptr) {
    ensure_shape(*mask, shape);
    std::fill(mask->begin(), mask->end(), std::uint8_t{0});
  }
  for (std::size_t b = 0; b < count; ++b) {
    ATTN_REQUIRE(
        indices[b] < seqs.size(), "gather_padded",
        "index " + std::to_string(indices[b]) + " is out of range for " + std::to_string(seqs.size()) + " sequences");
    const std::vector<std::int32_t>& seq = seqs[indices[b]];
    const std::size_t n = std::min(seq.size(), width);
    const std::size_t skip = seq.size() - n;
    const std::size_t offset = b * width + (padding == PadMode::pre ? width - n : 0);
    std::copy(seq.begin() + static_cast<std::ptrdiff_t>(skip), seq.end(), ids.data() + offset);
    if (mask != nullptr) std::fill(mask->data() + offset, mask->data() + offset + n, std::uint8_t{1});
  }
}

std::size_t padded_width(const std::vector<std::vector<std::int32_t>>& seqs, const std::size_t* indices,
                         std::size_t count, std::size_t maxlen) {
  std::size_t longest = 0;
  for (std::size_t b = 0; b < count; ++b) {
    ATTN_REQUIRE(
        indices[b] < seqs.size(), "padded_width",
        "index " + std::to_string(indices[b]) + " is out of range for " + std::to_string(seqs.size()) + " sequences");
    longest = std::max(longest, seqs[indices[b]].size());
  }
  return std::max<std::size_t>(1, std::min(longest, maxlen));
}

std::vector<std::size_t> sequence_lengths(const std::vector<std::vector<std::int32_t>>& seqs) {
  std::vector<std::size_t> lengths;
  lengths.reserve(seqs.size());
  for (const auto& seq : seqs) lengths.push_back(seq.size());
  return lengths;
}

std::size_t nearest_rank_percentile(const std::vector<std::size_t>& sorted, double percent) {
  if (sorted.empty()) throw std::invalid_argument("nearest_rank_percentile: no lengths");
  if (!(percent > 0 && percent <= 100)) {
    throw std::invalid_argument("nearest_rank_percentile: percent is " + std::to_string(percent) +
                                " but must be in (0, 100]");
  }
  // The 1e-9 keeps e.g. 0.9 * 100 = 90.00000000000001 from rounding up to rank 91.
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()) - 1e-9);
  const auto index = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

LengthStats length_stats(const std::vector<std::size_t>& lengths, std::size_t bins) {
  if (bins == 0) throw std::invalid_argument("length_stats: bins must be at least 1");
  LengthStats stats;
  stats.histogram.assign(bins, 0);
  stats.sorted = lengths;
  std::sort(stats.sorted.begin(), stats.sorted.end());
  stats.count = lengths.size();
  if (stats.count == 0) return stats;
  stats.min = stats.sorted.front();
  stats.max = stats.sorted.back();
  double sum = 0;
  for (std::size_t length : lengths) sum += static_cast<double>(length);
  stats.mean = sum / static_cast<double>(stats.count);
  stats.p50 = nearest_rank_percentile(stats.sorted, 50);
  stats.p90 = nearest_rank_percentile(stats.sorted, 90);
  stats.p95 = nearest_rank_percentile(stats.sorted, 95);
  stats.p99 = nearest_rank_percentile(stats.sorted, 99);
  stats.bin_width = (stats.max + 1 + bins - 1) / bins;
  for (std::size_t length : lengths) ++stats.histogram[length / stats.bin_width];
  return stats;
}

std::size_t LengthStats::truncated_at(std::size_t maxlen) const {
  return static_cast<std::size_t>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), maxlen));
}

std::size_t LengthStats::tokens_dropped_at(std::size_t maxlen) const {
  std::size_t dropped = 0;
  for (auto it = std::upper_bound(sorted.begin(), sorted.end(), maxlen); it != sorted.end(); ++it) {
    dropped += *it - maxlen;
  }
  return dropped;
}

double share_longer_than(const std::vector<std::size_t>& lengths, std::size_t maxlen) {
  if (lengths.empty()) return 0.0;
  const auto longer = std::count_if(lengths.begin(), lengths.end(), [maxlen](std::size_t n) { return n > maxlen; });
  return static_cast<double>(longer) / static_cast<double>(lengths.size());
}

}  // namespace attn
