#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "attn/data/seq2seq_tasks.hpp"

using attn::Date;
using attn::DateFormat;
using attn::ParallelExample;

TEST_CASE("seq2seq_tasks.calendar_arithmetic_and_known_weekdays") {
  CHECK(attn::days_from_civil(Date{1970, 1, 1}) == 0);
  CHECK(attn::days_from_civil(Date{2000, 3, 1}) == 11017);  // 30 years (7 leap days) + Jan 31 + Feb 29 = 10957 + 60
  CHECK(attn::days_in_month(2000, 2) == 29);                // divisible by 400
  CHECK(attn::days_in_month(1900, 2) == 28);                // by 100 but not 400
  CHECK(attn::days_in_month(1996, 2) == 29);
  // Known weekdays (0 = Monday): the brief's example and a few well-known dates.
  CHECK(attn::weekday(Date{1979, 5, 3}) == 3);    // Thursday
  CHECK(attn::weekday(Date{1969, 7, 20}) == 6);   // Sunday (Moon landing)
  CHECK(attn::weekday(Date{2000, 1, 1}) == 5);    // Saturday
  CHECK(attn::weekday(Date{1989, 11, 9}) == 3);   // Thursday (fall of the Berlin Wall)
  CHECK(attn::weekday(Date{2049, 12, 31}) == 4);  // Friday
  for (long d = -40000; d < 40000; d += 7) {      // civil_from_days inverts days_from_civil
    const Date date = attn::civil_from_days(d);
    REQUIRE(attn::days_from_civil(date) == d);
    REQUIRE(date.day <= attn::days_in_month(date.year, date.month));
  }
}

TEST_CASE("seq2seq_tasks.every_format_of_3_may_1979") {
  const Date may3{1979, 5, 3};
  const char* const expected[attn::kDateFormatCount] = {"3 May 1979",
                                                        "Thursday, May 3rd 1979",
                                                        "03/05/79",
                                                        "may 3 79",
                                                        "1979-05-03",
                                                        "1979/5/3",
                                                        "Thu 3 May, 1979",
                                                        "3.5.1979",
                                                        "May the 3rd, 1979",
                                                        "May 3, 1979",
                                                        "03-May-79",
                                                        "3 MAY 1979",
                                                        "thursday 03/05/1979",
                                                        "3rd of May 1979"};
  for (std::size_t f = 0; f < attn::kDateFormatCount; ++f) {
    CHECK(attn::format_date(may3, static_cast<DateFormat>(f)) == expected[f]);
  }
  CHECK(attn::format_date(Date{2012, 2, 22}, DateFormat::weekday_month_ordinal) == "Wednesday, February 22nd 2012");
  CHECK(attn::format_date(Date{2011, 11, 11}, DateFormat::ordinal_of_month) == "11th of November 2011");
  CHECK(attn::format_date(Date{2001, 9, 21}, DateFormat::month_the_ordinal) == "September the 21st, 2001");
}

TEST_CASE("seq2seq_tasks.every_format_round_trips") {
  // Every 13th day of 1950..2049 (covers all months, weekdays and leap days over the century) in
  // every format: generate -> parse -> the same date.
  const long first = attn::days_from_civil(Date{1950, 1, 1}), last = attn::days_from_civil(Date{2049, 12, 31});
  std::size_t checked = 0;
  for (long d = first; d <= last; d += 13) {
    const Date date = attn::civil_from_days(d);
    for (std::size_t f = 0; f < attn::kDateFormatCount; ++f) {
      const std::string text = attn::format_date(date, static_cast<DateFormat>(f));
      const Date back = attn::parse_date(text, 1950);
      if (!(back == date)) FAIL_CHECK(text << " read back as " << attn::iso_date(back));
      ++checked;
    }
  }
  CHECK(checked > 2800 * attn::kDateFormatCount);
  // Generated examples round-trip too: the target is the ISO form of the parsed source.
  for (const ParallelExample& e : attn::make_date_examples(2000, {}, 7)) {
    REQUIRE(attn::iso_date(attn::parse_date(e.source, 1950)) == e.target);
  }
}

TEST_CASE("seq2seq_tasks.parse_date_fields_reports_the_field_spans") {
  using attn::TextSpan;
  // "Thursday, May 3rd 1979": T0..y7 ,8 ␣9 M10 a11 y12 ␣13 3 14 r15 d16 ␣17 1 18 9 19 7 20 9 21.
  attn::DateFields f = attn::parse_date_fields("Thursday, May 3rd 1979", 1950);
  CHECK(f.date == Date{1979, 5, 3});
  CHECK(f.day == TextSpan{14, 15});  // "3" without its suffix "rd"
  CHECK(f.month == TextSpan{10, 13});
  CHECK(f.year == TextSpan{18, 22});
  CHECK_FALSE(f.two_digit_year);
  // "03/05/79": day first, two-digit year.
  f = attn::parse_date_fields("03/05/79", 1950);
  CHECK(f.day == TextSpan{0, 2});
  CHECK(f.month == TextSpan{3, 5});
  CHECK(f.year == TextSpan{6, 8});
  CHECK(f.two_digit_year);
  // "1979/5/3": year first, unpadded.
  f = attn::parse_date_fields("1979/5/3", 1950);
  CHECK(f.year == TextSpan{0, 4});
  CHECK(f.month == TextSpan{5, 6});
  CHECK(f.day == TextSpan{7, 8});
  // "3rd of May 1979" and "may 3 79": the month name between or before the numbers.
  f = attn::parse_date_fields("3rd of May 1979", 1950);
  CHECK(f.day == TextSpan{0, 1});
  CHECK(f.month == TextSpan{7, 10});
  CHECK(f.year == TextSpan{11, 15});
  f = attn::parse_date_fields("may 3 79", 1950);
  CHECK(f.month == TextSpan{0, 3});
  CHECK(f.day == TextSpan{4, 5});
  CHECK(f.year == TextSpan{6, 8});
  CHECK(f.two_digit_year);
  // Spans of every format over many dates hold the date's own numbers / month name.
  const long first = attn::days_from_civil(Date{1950, 1, 1});
  for (long d = first; d < first + 36500; d += 97) {
    const Date date = attn::civil_from_days(d);
    for (std::size_t k = 0; k < attn::kDateFormatCount; ++k) {
      const std::string text = attn::format_date(date, static_cast<DateFormat>(k));
      const attn::DateFields g = attn::parse_date_fields(text, 1950);
      const auto at = [&](TextSpan s) { return text.substr(s.begin, s.size()); };
      CHECK(std::stoi(at(g.day)) == date.day);
      CHECK(std::stoi(at(g.year)) == (g.two_digit_year ? date.year % 100 : date.year));
      const std::string month = at(g.month);
      if (std::isdigit(static_cast<unsigned char>(month[0]))) {
        CHECK(std::stoi(month) == date.month);
      } else {
        CHECK(attn::parse_date("1 " + month + " 2000", 1950).month == date.month);
      }
    }
  }
}

TEST_CASE("seq2seq_tasks.parse_date_rejects_inconsistent_text") {
  CHECK_THROWS_WITH_AS(attn::parse_date("Friday, May 3rd 1979", 1950),
                       "parse_date: cannot read 'Friday, May 3rd 1979': 'friday' does not match 1979-05-03, a Thursday",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(attn::parse_date("31 April 1979", 1950),
                       "parse_date: cannot read '31 April 1979': day 31 is not in 4/1979", std::invalid_argument);
  CHECK_THROWS_WITH_AS(attn::parse_date("3 Mai 1979", 1950), "parse_date: cannot read '3 Mai 1979': unknown word 'mai'",
                       std::invalid_argument);
  CHECK_THROWS_AS(attn::parse_date("3/13/79", 1950), std::invalid_argument);  // no month 13 (d/m/y order)
  CHECK_THROWS_AS(attn::parse_date("29.2.1900", 1950), std::invalid_argument);
  // Two-digit years resolve into the 100 years from first_year.
  CHECK(attn::parse_date("03/05/79", 1950) == Date{1979, 5, 3});
  CHECK(attn::parse_date("03/05/79", 1980) == Date{2079, 5, 3});
  CHECK(attn::parse_date("03/05/49", 1950) == Date{2049, 5, 3});
}

TEST_CASE("seq2seq_tasks.date_split_is_seeded_in_range_and_disjoint") {
  attn::DateTaskConfig config;
  config.first_year = 1990;
  config.last_year = 1999;
  const attn::TaskSplit split = attn::make_date_split(3000, 1000, config, 5);
  REQUIRE(split.train.size() == 3000);
  REQUIRE(split.test.size() == 1000);
  std::set<std::string> train_sources, test_sources;
  std::set<std::size_t> lengths;
  for (const ParallelExample& e : split.train) train_sources.insert(e.source);
  for (const ParallelExample& e : split.test) test_sources.insert(e.source);
  CHECK(train_sources.size() == 3000);  // distinct within each set
  CHECK(test_sources.size() == 1000);
  for (const std::string& s : test_sources) REQUIRE(train_sources.count(s) == 0);
  for (const auto* set : {&split.train, &split.test}) {
    for (const ParallelExample& e : *set) {
      const Date d = attn::parse_date(e.source, config.first_year);
      REQUIRE(d.year >= 1990);
      REQUIRE(d.year <= 1999);
      lengths.insert(e.source.size());
    }
  }
  CHECK(lengths.size() > 8);  // many formats drawn
  // Same seed, same data; another seed, other data.
  const attn::TaskSplit again = attn::make_date_split(3000, 1000, config, 5);
  CHECK(again.train[123].source == split.train[123].source);
  CHECK(again.test[999].source == split.test[999].source);
  CHECK(attn::make_date_split(10, 10, config, 6).train[0].source != split.train[0].source);
  // Too many distinct examples for the range, and invalid ranges.
  config.last_year = 1990;
  CHECK_THROWS_AS(attn::make_date_examples(365 * 14 + 1, config, 1), std::invalid_argument);
  config.last_year = 2090;
  CHECK_THROWS_WITH_AS(
      config.validate(),
      "DateTaskConfig: years must satisfy 1 <= first_year <= last_year <= 9999 within 100 years (two-digit "
      "years must be unambiguous), got 1990..2090",
      std::invalid_argument);
}

TEST_CASE("seq2seq_tasks.digit_targets") {
  CHECK(attn::digit_task_target(attn::DigitTask::reverse, "40719") == "91704");
  CHECK(attn::digit_task_target(attn::DigitTask::sort, "40719") == "01479");
  CHECK(attn::digit_task_target(attn::DigitTask::copy, "40719") == "40719");
  CHECK(attn::digit_task_from_name("sort") == attn::DigitTask::sort);
  CHECK_THROWS_AS(attn::digit_task_from_name("dates"), std::invalid_argument);
  for (const auto task : {attn::DigitTask::reverse, attn::DigitTask::sort, attn::DigitTask::copy}) {
    const attn::TaskSplit split = attn::make_digit_split(task, 500, 200, 5, 20, 21, 30, 3);
    std::set<std::size_t> train_lengths;
    for (const ParallelExample& e : split.train) {
      REQUIRE(e.source.size() >= 5);
      REQUIRE(e.source.size() <= 20);
      REQUIRE(e.source.find_first_not_of("0123456789") == std::string::npos);
      train_lengths.insert(e.source.size());
      std::string expected = e.source;
      if (task == attn::DigitTask::reverse) std::reverse(expected.begin(), expected.end());
      if (task == attn::DigitTask::sort) std::sort(expected.begin(), expected.end());
      REQUIRE(e.target == expected);
    }
    CHECK(train_lengths.size() == 16);  // every length of [5, 20] drawn
    for (const ParallelExample& e : split.test) {
      REQUIRE(e.source.size() >= 21);
      REQUIRE(e.source.size() <= 30);
      REQUIRE(e.target == attn::digit_task_target(task, e.source));
    }
  }
  // Held-out digit strings never repeat a training source, even when lengths overlap.
  const attn::TaskSplit split = attn::make_digit_split(attn::DigitTask::copy, 500, 500, 1, 3, 1, 3, 9);
  std::set<std::string> train;
  for (const ParallelExample& e : split.train) train.insert(e.source);
  for (const ParallelExample& e : split.test) REQUIRE(train.count(e.source) == 0);
  CHECK_THROWS_WITH_AS(attn::make_digit_examples(attn::DigitTask::copy, 1, 3, 2, 1),
                       "make_digit_examples: lengths must satisfy 1 <= min_len <= max_len, got [3, 2]",
                       std::invalid_argument);
}
