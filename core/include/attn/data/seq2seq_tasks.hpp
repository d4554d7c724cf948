// Synthetic sequence-to-sequence tasks with known answers, for training and measuring encoder-
// decoder models (models/seq2seq.hpp) in seconds to minutes:
//   dates   — a date written in one of many human formats -> ISO 8601 ("Thu 3 May, 1979" ->
//             "1979-05-03"), the task of the Keras / deeplearning.ai attention tutorials;
//   reverse — a digit string -> the same digits backwards ("4071" -> "1704");
//   sort    — a digit string -> its digits in ascending order ("4071" -> "0147");
//   copy    — a digit string -> itself.
// Both sides are text (ParallelExample); character-level vocabularies turn them into ids
// (text/seq2seq_vocabulary.hpp), so the legend (B, T, ...) applies only after encoding. All
// randomness comes from attn::Rng, so a seed gives the same data natively and in wasm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/data/parallel_text.hpp"

namespace attn {

// A day of the proleptic Gregorian calendar.
struct Date {
  int year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..days_in_month
};
bool operator==(const Date& a, const Date& b);

int days_in_month(int year, int month);
// Days since 1970-01-01 (negative before), and back.
long days_from_civil(const Date& date);
Date civil_from_days(long days);
// 0 = Monday .. 6 = Sunday.
int weekday(const Date& date);
// "1979-05-03". Years outside 0..9999 throw std::invalid_argument.
std::string iso_date(const Date& date);

// The human formats of the generator, shown for 3 May 1979 (a Thursday). Numeric formats put the
// day first, then the month (d/m/y, the European order), or the year first (ISO-like); two-digit
// years need a year range of at most 100 years to be read back.
enum class DateFormat {
  day_month_year,           // 3 May 1979
  weekday_month_ordinal,    // Thursday, May 3rd 1979
  numeric_dmy_short,        // 03/05/79
  lower_month_day_short,    // may 3 79
  iso,                      // 1979-05-03
  iso_slashes_unpadded,     // 1979/5/3
  short_weekday_day_month,  // Thu 3 May, 1979
  dotted_dmy,               // 3.5.1979
  month_the_ordinal,        // May the 3rd, 1979
  month_day_comma_year,     // May 3, 1979
  dd_mon_yy,                // 03-May-79
  upper_day_month_year,     // 3 MAY 1979
  weekday_numeric_dmy,      // thursday 03/05/1979
  ordinal_of_month,         // 3rd of May 1979
};
constexpr std::size_t kDateFormatCount = 14;

std::string format_date(const Date& date, DateFormat format);
// Reads any of the formats above back (case-insensitive; separators ' ' , . / - interchangeable).
// Two-digit years resolve into [first_year, first_year + 99]. A weekday, when written, must match
// the date. Throws std::invalid_argument naming the text and the problem ("unknown word 'mai'",
// "day 31 is not in 4/1979", "'Friday' does not match 1979-05-03, a Thursday", ...).
Date parse_date(const std::string& text, int first_year);

// Characters [begin, end) of one field in a date's text (byte offsets; every format is ASCII, so
// they are also character-level token positions).
struct TextSpan {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
  bool contains(std::size_t i) const { return i >= begin && i < end; }
};
bool operator==(const TextSpan& a, const TextSpan& b);

// Where a date's fields are written: the digits of the day (an ordinal's suffix "rd" is not part
// of it), the month's digits or name ("May", "may", "MAY", "Sept"), the year's 2 or 4 digits.
struct DateFields {
  Date date;
  TextSpan day, month, year;
  bool two_digit_year = false;  // "79": the century of the ISO output is written nowhere
};
// parse_date that also reports the spans (same rules, same errors), so the spans of any source
// string of the generator — held-out sets included — can be recovered from its text alone.
DateFields parse_date_fields(const std::string& text, int first_year);

struct DateTaskConfig {
  int first_year = 1950;  // dates are uniform over the days of [first_year, last_year]
  int last_year = 2049;
  // std::invalid_argument unless 1 <= first_year <= last_year <= 9999 and the range spans at most
  // 100 years (two-digit years must be unambiguous).
  void validate() const;
};

struct TaskSplit {
  std::vector<ParallelExample> train;
  std::vector<ParallelExample> test;
};

// `count` date examples (source: a human format drawn uniformly; target: ISO), all sources
// distinct and none in `exclude` (may be null). Throws std::invalid_argument when that many
// distinct sources cannot be found (a tiny year range).
std::vector<ParallelExample> make_date_examples(std::size_t count, const DateTaskConfig& config, std::uint64_t seed,
                                                const std::vector<ParallelExample>* exclude = nullptr);
// Training set from `seed`; the held-out set from the same generator under another random stream
// of the same seed, excluding every training source (no overlap).
TaskSplit make_date_split(std::size_t train_size, std::size_t test_size, const DateTaskConfig& config,
                          std::uint64_t seed);

enum class DigitTask { reverse, sort, copy };
const char* digit_task_name(DigitTask task);
// "reverse" | "sort" | "copy"; std::invalid_argument otherwise.
DigitTask digit_task_from_name(const std::string& name);
// The answer for a digit string.
std::string digit_task_target(DigitTask task, const std::string& digits);

// `count` digit strings with lengths uniform in [min_len, max_len] (1 <= min_len <= max_len),
// digits uniform in 0..9, none equal to a source in `exclude` (duplicates within the set are
// allowed: short lengths have few strings).
std::vector<ParallelExample> make_digit_examples(DigitTask task, std::size_t count, std::size_t min_len,
                                                 std::size_t max_len, std::uint64_t seed,
                                                 const std::vector<ParallelExample>* exclude = nullptr);
// Training lengths [min_len, max_len]; the held-out set uses [test_min_len, test_max_len] (longer
// for length generalisation), another random stream, and no training source.
TaskSplit make_digit_split(DigitTask task, std::size_t train_size, std::size_t test_size, std::size_t min_len,
                           std::size_t max_len, std::size_t test_min_len, std::size_t test_max_len, std::uint64_t seed);

}  // namespace attn
