#include "attn/data/parallel_split.hpp"

#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "attn/random.hpp"

namespace attn {

namespace {

// Group number of every example (in order of first appearance) and the number of groups. The
// hash map is only looked up, never iterated, so the numbering does not depend on its order.
std::vector<std::size_t> group_ids(const std::vector<ParallelExample>& examples, std::size_t& groups) {
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::size_t> ids;
  ids.reserve(examples.size());
  for (const ParallelExample& e : examples)
    ids.push_back(index.emplace(source_key(e.source), index.size()).first->second);
  groups = index.size();
  return ids;
}

void add_reference(ReferenceGroup& group, const std::string& target) {
  for (const std::string& r : group.references)
    if (r == target) return;
  group.references.push_back(target);
}

}  // namespace

LengthFilterResult filter_by_length(const std::vector<ParallelExample>& examples, std::size_t max_source_tokens,
                                    std::size_t max_target_tokens, const PairTokenization& tokenization) {
  LengthFilterResult result;
  for (const ParallelExample& e : examples) {
    if (max_source_tokens != 0 && mt_tokenize(e.source, tokenization.source).size() > max_source_tokens) {
      ++result.dropped_source;
    } else if (max_target_tokens != 0 && mt_tokenize(e.target, tokenization.target).size() > max_target_tokens) {
      ++result.dropped_target;
    } else {
      result.kept.push_back(e);
    }
  }
  return result;
}

std::string source_key(const std::string& source) {
  std::string key;
  for (const std::string& token : mt_tokenize(source, {MtLanguage::generic, true})) {
    if (!key.empty()) key += ' ';
    key += token;
  }
  return key;
}

std::vector<ReferenceGroup> group_references(const std::vector<ParallelExample>& examples) {
  std::size_t count = 0;
  const std::vector<std::size_t> ids = group_ids(examples, count);
  std::vector<ReferenceGroup> groups(count);
  for (std::size_t i = 0; i < examples.size(); ++i) {
    ReferenceGroup& g = groups[ids[i]];
    if (g.references.empty()) g.source = examples[i].source;
    add_reference(g, examples[i].target);
  }
  return groups;
}

namespace {

SourceSplit split_groups(const std::vector<ParallelExample>& examples, const std::vector<std::size_t>& ids,
                         std::size_t groups, std::size_t held_out_sources, std::uint64_t seed, std::uint64_t stream) {
  SourceSplit split;
  split.sources = groups;
  if (held_out_sources > split.sources) {
    throw std::invalid_argument("split_by_source: cannot hold out " + std::to_string(held_out_sources) +
                                " sources of " + std::to_string(split.sources));
  }
  std::vector<std::size_t> order(split.sources);
  for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
  Rng rng(seed, stream);
  for (std::size_t i = order.size(); i > 1; --i) {  // Fisher–Yates
    std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
  }
  // Held-out groups get slots 0..K-1 in order of first appearance; kNone marks training groups.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> slot(split.sources, kNone);
  for (std::size_t k = 0; k < held_out_sources; ++k) slot[order[k]] = 0;
  std::size_t next = 0;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    std::size_t& s = slot[ids[i]];
    if (s == kNone) {
      split.train.push_back(examples[i]);
      continue;
    }
    if (s == 0) {
      // First pair of this held-out group: give it the next slot (slots are 1-based here).
      s = ++next;
      split.held_out_groups.push_back({examples[i].source, {}});
    }
    add_reference(split.held_out_groups[s - 1], examples[i].target);
    split.held_out.push_back(examples[i]);
  }
  return split;
}

}  // namespace

SourceSplit split_by_source(const std::vector<ParallelExample>& examples, std::size_t held_out_sources,
                            std::uint64_t seed, std::uint64_t stream) {
  std::size_t groups = 0;
  const std::vector<std::size_t> ids = group_ids(examples, groups);
  return split_groups(examples, ids, groups, held_out_sources, seed, stream);
}

SourceSplit split_by_source_fraction(const std::vector<ParallelExample>& examples, double fraction, std::uint64_t seed,
                                     std::uint64_t stream) {
  if (!(fraction >= 0.0 && fraction < 1.0)) {
    throw std::invalid_argument("split_by_source: the held-out share must be in [0, 1), got " +
                                std::to_string(fraction));
  }
  std::size_t groups = 0;
  const std::vector<std::size_t> ids = group_ids(examples, groups);
  const auto held_out = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(groups)));
  return split_groups(examples, ids, groups, held_out, seed, stream);
}

}  // namespace attn
