#include "attn/data/splits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "attn/random.hpp"

namespace attn {
namespace {

// The indices of the examples labelled `label`, in an order shuffled by `rng` (Fisher–Yates).
std::vector<std::size_t> shuffled_members(const std::vector<int>& labels, int label, Rng& rng) {
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] == label) members.push_back(i);
  }
  rng.shuffle(members);
  return members;
}

bool any_group(const std::vector<std::string>& groups) {
  return std::any_of(groups.begin(), groups.end(), [](const std::string& g) { return !g.empty(); });
}

// The examples' groups as numbers in order of first appearance (an example without a group is a
// group of its own), with each group's members and count per class.
struct GroupTable {
  std::vector<std::size_t> of_example;
  std::vector<std::array<std::size_t, 2>> counts;  // [group][class]
};

GroupTable group_table(const std::vector<int>& labels, const std::vector<std::string>& groups, const char* where) {
  if (groups.size() != labels.size()) {
    throw std::invalid_argument(std::string(where) + ": " + std::to_string(groups.size()) + " groups for " +
                                std::to_string(labels.size()) + " labels");
  }
  GroupTable t;
  std::unordered_map<std::string, std::size_t> index;
  t.of_example.reserve(labels.size());
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) {
      throw std::invalid_argument(std::string(where) + ": labels must be 0 or 1, got " + std::to_string(labels[i]));
    }
    std::size_t g = t.counts.size();
    if (!groups[i].empty()) g = index.emplace(groups[i], g).first->second;
    if (g == t.counts.size()) t.counts.push_back({0, 0});
    ++t.counts[g][static_cast<std::size_t>(labels[i])];
    t.of_example.push_back(g);
  }
  return t;
}

// 0 .. n-1 in an order shuffled by `rng` (Fisher–Yates, as shuffled_members).
std::vector<std::size_t> shuffled_order(std::size_t n, Rng& rng) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
  return order;
}

}  // namespace

bool has_groups(const std::vector<LabelledText>& examples) {
  return std::any_of(examples.begin(), examples.end(), [](const LabelledText& e) { return !e.group.empty(); });
}

std::size_t group_count(const std::vector<LabelledText>& examples) {
  std::unordered_set<std::string> names;
  for (const LabelledText& e : examples) {
    if (!e.group.empty()) names.insert(e.group);
  }
  return names.size();
}

std::vector<std::string> groups_of(const std::vector<LabelledText>& examples) {
  std::vector<std::string> out;
  out.reserve(examples.size());
  for (const LabelledText& e : examples) out.push_back(e.group);
  return out;
}

void clear_groups(std::vector<LabelledText>& examples) {
  for (LabelledText& e : examples) e.group.clear();
}

SplitRule split_rule(const std::vector<LabelledText>& examples) {
  return has_groups(examples) ? SplitRule::by_group : SplitRule::random;
}

const char* split_rule_name(SplitRule rule) { return rule == SplitRule::by_group ? "by group" : "random"; }

std::vector<bool> grouped_holdout(const std::vector<int>& labels, const std::vector<std::string>& groups,
                                  float fraction, std::uint64_t seed, std::uint64_t stream) {
  if (!any_group(groups)) return stratified_holdout(labels, fraction, seed, stream);
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("grouped_holdout: fraction must be in [0, 1), got " + std::to_string(fraction));
  }
  const GroupTable t = group_table(labels, groups, "grouped_holdout");
  std::array<std::size_t, 2> total{0, 0}, target{0, 0}, held{0, 0};
  for (const auto& c : t.counts) {
    total[0] += c[0];
    total[1] += c[1];
  }
  for (int c = 0; c < 2; ++c) {
    target[c] = static_cast<std::size_t>(std::lround(static_cast<double>(fraction) * static_cast<double>(total[c])));
  }
  Rng rng(seed, stream);
  const std::vector<std::size_t> order = shuffled_order(t.counts.size(), rng);
  std::vector<bool> group_held(t.counts.size(), false);
  for (const std::size_t g : order) {
    const auto& c = t.counts[g];
    if (held[0] + c[0] > target[0] || held[1] + c[1] > target[1]) continue;
    group_held[g] = true;
    held[0] += c[0];
    held[1] += c[1];
  }
  if (held[0] + held[1] == 0 && target[0] + target[1] > 0) {
    // Every group is larger than the share: hold out the first smallest one rather than nothing.
    std::size_t best = order.front();
    for (const std::size_t g : order) {
      if (t.counts[g][0] + t.counts[g][1] < t.counts[best][0] + t.counts[best][1]) best = g;
    }
    group_held[best] = true;
  }
  std::vector<bool> out(labels.size(), false);
  for (std::size_t i = 0; i < labels.size(); ++i) out[i] = group_held[t.of_example[i]];
  return out;
}

std::vector<std::size_t> grouped_folds(const std::vector<int>& labels, const std::vector<std::string>& groups,
                                       std::size_t k, std::uint64_t seed, std::uint64_t stream) {
  if (!any_group(groups)) return stratified_folds(labels, k, seed, stream);
  // The class-size checks and messages of the ungrouped rule first.
  if (k < 2) throw std::invalid_argument("k-fold cross-validation needs at least 2 folds, got " + std::to_string(k));
  const GroupTable t = group_table(labels, groups, "grouped_folds");
  std::array<std::size_t, 2> total{0, 0};
  for (const auto& c : t.counts) {
    total[0] += c[0];
    total[1] += c[1];
  }
  const std::size_t smaller = total[0] <= total[1] ? 0 : 1;
  if (k > total[smaller]) {
    throw std::invalid_argument(std::to_string(k) + " folds need at least " + std::to_string(k) +
                                " examples of each class; class " + std::to_string(smaller) + " has " +
                                std::to_string(total[smaller]));
  }
  if (k > t.counts.size()) {
    throw std::invalid_argument(std::to_string(k) + " folds that keep each group in one fold need at least " +
                                std::to_string(k) + " groups; the data has " + std::to_string(t.counts.size()));
  }
  Rng rng(seed, stream);
  std::vector<std::array<std::size_t, 2>> fill(k, {0, 0});
  std::vector<std::size_t> group_fold(t.counts.size(), 0);
  for (const std::size_t g : shuffled_order(t.counts.size(), rng)) {
    const auto& c = t.counts[g];
    std::size_t best = 0;
    double best_cost = 0;
    for (std::size_t f = 0; f < k; ++f) {
      double cost = 0;
      for (int cls = 0; cls < 2; ++cls) {
        cost = std::max(cost, static_cast<double>(fill[f][cls] + c[cls]) / static_cast<double>(total[cls]));
      }
      const std::size_t size = fill[f][0] + fill[f][1], best_size = fill[best][0] + fill[best][1];
      if (f == 0 || cost < best_cost || (cost == best_cost && size < best_size)) {
        best = f;
        best_cost = cost;
      }
    }
    group_fold[g] = best;
    fill[best][0] += c[0];
    fill[best][1] += c[1];
  }
  std::vector<std::size_t> out(labels.size(), 0);
  for (std::size_t i = 0; i < labels.size(); ++i) out[i] = group_fold[t.of_example[i]];
  return out;
}

std::vector<bool> stratified_holdout(const std::vector<int>& labels, float fraction, std::uint64_t seed,
                                     std::uint64_t stream) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("stratified_holdout: fraction must be in [0, 1), got " + std::to_string(fraction));
  }
  Rng rng(seed, stream);
  std::vector<bool> held_out(labels.size(), false);
  for (int label = 0; label <= 1; ++label) {
    const std::vector<std::size_t> members = shuffled_members(labels, label, rng);
    const auto take = static_cast<std::size_t>(std::lround(static_cast<double>(fraction) * members.size()));
    for (std::size_t k = 0; k < take; ++k) held_out[members[k]] = true;
  }
  return held_out;
}

TrainTestSplit hold_out(std::vector<LabelledText> examples, float fraction, std::uint64_t seed) {
  if (!(fraction >= 0.f && fraction < 1.f)) {
    throw std::invalid_argument("hold_out: the test share must be in [0, 1), got " + std::to_string(fraction));
  }
  std::vector<int> labels;
  labels.reserve(examples.size());
  for (const LabelledText& e : examples) labels.push_back(e.label);
  const std::vector<bool> held = grouped_holdout(labels, groups_of(examples), fraction, seed);
  TrainTestSplit out;
  for (std::size_t i = 0; i < examples.size(); ++i) (held[i] ? out.test : out.train).push_back(std::move(examples[i]));
  return out;
}

std::vector<std::size_t> stratified_folds(const std::vector<int>& labels, std::size_t k, std::uint64_t seed,
                                          std::uint64_t stream) {
  if (k < 2) throw std::invalid_argument("k-fold cross-validation needs at least 2 folds, got " + std::to_string(k));
  std::size_t class_size[2] = {0, 0};
  for (const int label : labels) {
    if (label != 0 && label != 1) {
      throw std::invalid_argument("stratified_folds: labels must be 0 or 1, got " + std::to_string(label));
    }
    ++class_size[label];
  }
  const int smaller = class_size[0] <= class_size[1] ? 0 : 1;
  if (k > class_size[smaller]) {
    throw std::invalid_argument(std::to_string(k) + " folds need at least " + std::to_string(k) +
                                " examples of each class; class " + std::to_string(smaller) + " has " +
                                std::to_string(class_size[smaller]));
  }
  Rng rng(seed, stream);
  std::vector<std::size_t> fold(labels.size(), 0);
  std::size_t next = 0;  // class 1 continues the deal where class 0 stopped: fold sizes differ by <= 1
  for (int label = 0; label <= 1; ++label) {
    for (const std::size_t i : shuffled_members(labels, label, rng)) {
      fold[i] = next;
      next = (next + 1) % k;
    }
  }
  return fold;
}

TrainTestSplit fold_split(const std::vector<LabelledText>& examples, const std::vector<std::size_t>& folds,
                          std::size_t fold) {
  if (folds.size() != examples.size()) {
    throw std::invalid_argument("fold_split: " + std::to_string(folds.size()) + " fold numbers for " +
                                std::to_string(examples.size()) + " examples");
  }
  TrainTestSplit out;
  for (std::size_t i = 0; i < examples.size(); ++i) (folds[i] == fold ? out.test : out.train).push_back(examples[i]);
  return out;
}

}  // namespace attn
