#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "attn/data/parallel_split.hpp"

using namespace attn;

namespace {

// 7 distinct English sources (after normalisation), 12 pairs; "Run!" and "Go." have several
// translations, written in different ways.
std::vector<ParallelExample> pairs() {
  return {{"Go.", "Va !"},
          {"Run!", "Cours !"},
          {"Run!", "Courez !"},
          {"Who?", "Qui ?"},
          {"go .", "Vas-y !"},
          {"Wow!", "Ça alors !"},
          {"I see.", "Je comprends."},
          {"Run!", "Cours !"},  // the same pair twice: one reference
          {"Fire!", "Au feu !"},
          {"Help!", "À l'aide !"},
          {"GO.", "Allez !"},
          {"Help!", "Au secours !"}};
}

std::set<std::string> keys(const std::vector<ParallelExample>& examples) {
  std::set<std::string> out;
  for (const auto& e : examples) out.insert(source_key(e.source));
  return out;
}

}  // namespace

TEST_CASE("parallel_split.source_key_normalises_case_spacing_and_nfc") {
  CHECK(source_key("Go.") == "go .");
  CHECK(source_key("GO.") == source_key("go ."));
  CHECK(source_key("  Go\xC2\xA0. ") == "go .");
  CHECK(source_key("Cafe\xCC\x81!") == source_key("Caf\xC3\xA9 !"));
  CHECK(source_key("Go!") != source_key("Go."));
}

TEST_CASE("parallel_split.groups_gather_every_distinct_reference_in_file_order") {
  const std::vector<ReferenceGroup> groups = group_references(pairs());
  REQUIRE(groups.size() == 7);
  CHECK(groups[0].source == "Go.");
  CHECK(groups[0].references == std::vector<std::string>{"Va !", "Vas-y !", "Allez !"});
  CHECK(groups[1].source == "Run!");
  CHECK(groups[1].references == std::vector<std::string>{"Cours !", "Courez !"});
  CHECK(groups[6].source == "Help!");
}

TEST_CASE("parallel_split.every_source_lands_on_one_side_with_all_its_pairs") {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    const SourceSplit split = split_by_source(pairs(), 3, seed);
    CHECK(split.sources == 7);
    CHECK(split.train.size() + split.held_out.size() == 12);
    REQUIRE(split.held_out_groups.size() == 3);
    const std::set<std::string> train = keys(split.train), held_out = keys(split.held_out);
    CHECK(held_out.size() == 3);
    CHECK(train.size() == 4);
    for (const std::string& k : held_out) CHECK(train.count(k) == 0);
    // Every held-out pair's target is a reference of its group.
    std::size_t references = 0;
    for (const ReferenceGroup& g : split.held_out_groups) {
      references += g.references.size();
      CHECK(held_out.count(source_key(g.source)) == 1);
    }
    std::set<std::pair<std::string, std::string>> distinct;
    for (const auto& e : split.held_out) distinct.insert({source_key(e.source), e.target});
    CHECK(references == distinct.size());
  }
}

TEST_CASE("parallel_split.seeded_and_deterministic") {
  // The same seed gives the same split; this exact one is the PCG32 stream's (the same natively and
  // in wasm: no hash-map order or addresses are involved). Seed 1, 3 of 7 held out.
  const SourceSplit a = split_by_source(pairs(), 3, 1);
  const SourceSplit b = split_by_source(pairs(), 3, 1);
  REQUIRE(a.held_out_groups.size() == 3);
  std::vector<std::string> sources;
  for (const auto& g : a.held_out_groups) sources.push_back(g.source);
  std::vector<std::string> again;
  for (const auto& g : b.held_out_groups) again.push_back(g.source);
  CHECK(sources == again);
  CHECK(sources == std::vector<std::string>{"Go.", "Who?", "Wow!"});
  CHECK(a.held_out.size() == 5);  // Go. / go . / GO., Who?, Wow!
  CHECK(a.train.size() == 7);
  // Another seed gives another split (for these seeds).
  std::set<std::vector<std::string>> seen;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    std::vector<std::string> s;
    for (const auto& g : split_by_source(pairs(), 3, seed).held_out_groups) s.push_back(g.source);
    seen.insert(s);
  }
  CHECK(seen.size() > 3);
}

TEST_CASE("parallel_split.fraction_rounds_and_bad_arguments_are_errors") {
  CHECK(split_by_source_fraction(pairs(), 0.3, 5).held_out_groups.size() == 2);  // round(0.3 · 7) = 2
  CHECK(split_by_source_fraction(pairs(), 0.0, 5).held_out.empty());
  CHECK_THROWS_WITH(split_by_source_fraction(pairs(), 1.0, 5), doctest::Contains("must be in [0, 1), got 1"));
  CHECK_THROWS_WITH(split_by_source(pairs(), 8, 5), doctest::Contains("cannot hold out 8 sources of 7"));
}

TEST_CASE("parallel_split.length_filter_counts_what_it_drops") {
  const std::vector<ParallelExample> examples = {
      {"I don't know.", "Je ne sais pas."},                     // 5 / 5 tokens (do n't split off; English)
      {"Go.", "Va-t'en d'ici tout de suite, s'il te plaît !"},  // target too long
      {"This sentence is far too long for us.", "Non."},        // source too long
  };
  const LengthFilterResult r = filter_by_length(examples, 5, 6);
  REQUIRE(r.kept.size() == 1);
  CHECK(r.kept[0].source == "I don't know.");
  CHECK(r.dropped_source == 1);
  CHECK(r.dropped_target == 1);
  CHECK(r.dropped() == 2);
  CHECK(filter_by_length(examples, 0, 0).kept.size() == 3);  // 0 = no limit
}
