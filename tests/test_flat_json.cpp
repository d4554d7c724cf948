#include <doctest/doctest.h>

#include "attn/io/flat_json.hpp"

using attn::FlatJson;

TEST_CASE("flat_json.round_trip") {
  FlatJson j;
  j.set("name", "bi\"lstm\n").set("units", 32.0).set("lr", 0.001).set("causal", true);
  const FlatJson back = FlatJson::parse(j.dump());
  CHECK(back.get_string("name") == "bi\"lstm\n");
  CHECK(back.get_size("units") == 32);
  CHECK(back.get_number("lr") == doctest::Approx(0.001));
  CHECK(back.get_bool("causal"));
  CHECK(back.dump() == j.dump());
}

TEST_CASE("flat_json.parses_whitespace_escapes_and_empty") {
  const FlatJson j = FlatJson::parse(" { \"a\" : -1.5e2 ,\"b\":\"\\u00e9\\t\", \"c\": false } ");
  CHECK(j.get_number("a") == -150.0);
  CHECK(j.get_string("b") == "\xc3\xa9\t");
  CHECK_FALSE(j.get_bool("c"));
  CHECK(FlatJson::parse("{}").keys().empty());
}

TEST_CASE("flat_json.errors_name_the_problem") {
  CHECK_THROWS_WITH_AS(FlatJson::parse("{\"a\": [1]}"),
                       "invalid JSON at offset 6: nested values are not supported in key 'a'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(FlatJson::parse("{\"a\": 1, \"a\": 2}"), doctest::Contains("duplicate key 'a'"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(FlatJson::parse("{\"a\": 1} x"), doctest::Contains("trailing characters"),
                       std::invalid_argument);
  CHECK_THROWS_AS(FlatJson::parse("{\"a\": \"unterminated}"), std::invalid_argument);
  CHECK_THROWS_AS(FlatJson::parse(""), std::invalid_argument);
  CHECK_THROWS_AS(FlatJson::parse("{\"a\": 1e999}"), std::invalid_argument);
  const FlatJson j = FlatJson::parse("{\"units\": 2.5, \"name\": \"x\"}");
  CHECK_THROWS_WITH_AS(j.get_size("units"),
                       "configuration value 'units' must be a whole number between 0 and 1073741824",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(j.get_number("name"), "configuration value 'name' must be a number", std::invalid_argument);
  CHECK_THROWS_WITH_AS(j.get_string("missing"), "configuration is missing 'missing'", std::invalid_argument);
}

TEST_CASE("flat_json.arrays_are_written_for_output") {
  FlatJson j;
  j.set("tokens", std::vector<std::string>{"don't", "say \"hi\""}).set("weights", std::vector<double>{0.25, 1e-3});
  CHECK(j.dump() == "{\"tokens\":[\"don't\",\"say \\\"hi\\\"\"],\"weights\":[0.25,0.001]}");
  CHECK_THROWS_WITH_AS(j.get_number("weights"), "configuration value 'weights' must be a number",
                       std::invalid_argument);
}

TEST_CASE("flat_json.whole_numbers_round_trip_exactly") {
  // Regression: numbers were written with 9 significant digits, so a vocabulary size of 2^30
  // came back as 1073741820 and a seed of 2^31 - 1 as 2147483650.
  FlatJson j;
  j.set("vocab", 1073741824.0)
      .set("seed", 2147483647.0)
      .set("big", 9007199254740992.0)
      .set("lr", 0.001)
      .set("neg", -3.0);
  CHECK(j.dump() == "{\"big\":9007199254740992,\"lr\":0.001,\"neg\":-3,\"seed\":2147483647,\"vocab\":1073741824}");
  const FlatJson back = FlatJson::parse(j.dump());
  CHECK(back.get_size("vocab") == 1073741824u);
  CHECK(back.get_number("seed") == 2147483647.0);
  CHECK(back.get_number("lr") == 0.001);
  // Beyond 2^53 and fractions keep the 9-digit form.
  j.set("huge", 1e300).set("third", 1.0 / 3.0);
  CHECK(j.dump().find("\"huge\":1e+300") != std::string::npos);
  CHECK(j.dump().find("\"third\":0.333333333") != std::string::npos);
}
