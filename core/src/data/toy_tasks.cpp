#include "attn/data/toy_tasks.hpp"

#include <algorithm>
#include <array>

#include "attn/random.hpp"
#include "attn/text/sequences.hpp"

namespace attn {
namespace {

void check_task(std::size_t count, std::size_t min_len, std::size_t max_len, std::size_t vocab_size,
                std::initializer_list<std::int32_t> special, std::size_t min_needed, const char* where) {
  if (count == 0) throw std::invalid_argument(std::string(where) + ": count must be >= 1");
  if (min_len < min_needed || max_len < min_len || max_len > 100000) {
    throw std::invalid_argument(std::string(where) + ": need " + std::to_string(min_needed) +
                                " <= min_len <= max_len <= 100000, got " + std::to_string(min_len) + ".." +
                                std::to_string(max_len));
  }
  if (vocab_size < 4 + special.size() + 1) {
    throw std::invalid_argument(std::string(where) + ": vocab_size " + std::to_string(vocab_size) + " is too small");
  }
  for (std::int32_t t : special) {
    if (t < 4 || static_cast<std::size_t>(t) >= vocab_size) {
      throw std::invalid_argument(std::string(where) + ": special token " + std::to_string(t) + " must be in [4, " +
                                  std::to_string(vocab_size) + ")");
    }
  }
}

// A token from [4, vocab) other than the excluded ones.
std::int32_t filler(Rng& rng, std::size_t vocab_size, std::initializer_list<std::int32_t> excluded) {
  for (;;) {
    const auto t = static_cast<std::int32_t>(4 + rng.below(static_cast<std::uint32_t>(vocab_size - 4)));
    if (std::find(excluded.begin(), excluded.end(), t) == excluded.end()) return t;
  }
}

std::size_t draw_length(Rng& rng, std::size_t min_len, std::size_t max_len) {
  return min_len + rng.below(static_cast<std::uint32_t>(max_len - min_len + 1));
}

}  // namespace

SequenceDataset make_contains_token_task(std::size_t count, std::size_t min_len, std::size_t max_len,
                                         std::size_t vocab_size, std::int32_t target, std::uint64_t seed) {
  check_task(count, min_len, max_len, vocab_size, {target}, 1, "make_contains_token_task");
  Rng rng(seed, 1001);
  SequenceDataset data;
  data.vocab_size = vocab_size;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t len = draw_length(rng, min_len, max_len);
    std::vector<std::int32_t> seq(len);
    for (auto& t : seq) t = filler(rng, vocab_size, {target});
    std::vector<std::uint8_t> decisive(len, 0);
    const bool positive = (i % 2) == 0;  // balanced classes
    if (positive) {
      const std::size_t at = rng.below(static_cast<std::uint32_t>(len));
      seq[at] = target;
      decisive[at] = 1;
    }
    data.tokens.push_back(std::move(seq));
    data.labels.push_back(positive ? 1.f : 0.f);
    data.decisive.push_back(std::move(decisive));
  }
  return data;
}

SequenceDataset make_first_of_two_task(std::size_t count, std::size_t min_len, std::size_t max_len,
                                       std::size_t vocab_size, std::int32_t token_a, std::int32_t token_b,
                                       std::uint64_t seed) {
  check_task(count, min_len, max_len, vocab_size, {token_a, token_b}, 2, "make_first_of_two_task");
  if (token_a == token_b) throw std::invalid_argument("make_first_of_two_task: token_a and token_b must differ");
  Rng rng(seed, 1002);
  SequenceDataset data;
  data.vocab_size = vocab_size;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t len = draw_length(rng, min_len, max_len);
    std::vector<std::int32_t> seq(len);
    for (auto& t : seq) t = filler(rng, vocab_size, {token_a, token_b});
    std::size_t first = rng.below(static_cast<std::uint32_t>(len));
    std::size_t second = rng.below(static_cast<std::uint32_t>(len - 1));
    if (second >= first) ++second;
    if (first > second) std::swap(first, second);
    const bool positive = (i % 2) == 0;
    seq[first] = positive ? token_a : token_b;
    seq[second] = positive ? token_b : token_a;
    std::vector<std::uint8_t> decisive(len, 0);
    decisive[first] = decisive[second] = 1;
    data.tokens.push_back(std::move(seq));
    data.labels.push_back(positive ? 1.f : 0.f);
    data.decisive.push_back(std::move(decisive));
  }
  return data;
}

void make_batch(const SequenceDataset& data, const std::size_t* indices, std::size_t count, Padding padding,
                ClassifierBatch& out) {
  ATTN_REQUIRE(count > 0, "make_batch", "count must be >= 1");
  std::size_t longest = 1;
  for (std::size_t i = 0; i < count; ++i) {
    ATTN_REQUIRE(
        indices[i] < data.size(), "make_batch",
        "index " + std::to_string(indices[i]) + " is out of range for " + std::to_string(data.size()) + " examples");
    longest = std::max(longest, data.tokens[indices[i]].size());
  }
  gather_padded(data.tokens, indices, count, longest, padding == Padding::pre ? PadMode::pre : PadMode::post, out.ids,
                &out.mask);
  ensure_shape(out.labels, std::array<std::size_t, 1>{count});
  for (std::size_t b = 0; b < count; ++b) out.labels(b) = data.labels[indices[b]];
}

}  // namespace attn
