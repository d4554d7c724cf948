#include "attn/data/seq2seq_tasks.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <unordered_set>

#include "attn/random.hpp"

namespace attn {

namespace {

const char* const kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                               "July",    "August",   "September", "October", "November", "December"};
const char* const kWeekdays[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

// The held-out set draws from this stream of the same seed: another sequence, same generator.
constexpr std::uint64_t kHeldOutStream = 0x5eed0fdeadbeefULL;

std::string two_digits(int n) {
  std::string s = std::to_string(n % 100);
  return s.size() == 1 ? "0" + s : s;
}

std::string four_digits(int n) {
  std::string s = std::to_string(n);
  return std::string(s.size() < 4 ? 4 - s.size() : 0, '0') + s;
}

std::string ordinal(int day) {
  const char* suffix = "th";
  if (day % 100 < 11 || day % 100 > 13) {
    if (day % 10 == 1) suffix = "st";
    if (day % 10 == 2) suffix = "nd";
    if (day % 10 == 3) suffix = "rd";
  }
  return std::to_string(day) + suffix;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string abbreviation(const char* name) { return std::string(name, 3); }

[[noreturn]] void parse_failure(const std::string& text, const std::string& problem) {
  throw std::invalid_argument("parse_date: cannot read '" + text + "': " + problem);
}

// 1..12 for a month name or its 3-letter abbreviation ("sept" too), else 0.
int month_number(const std::string& word) {
  for (int m = 0; m < 12; ++m) {
    const std::string full = lower(kMonths[m]);
    if (word == full || word == full.substr(0, 3) || (m == 8 && word == "sept")) return m + 1;
  }
  return 0;
}

// 0..6 for a weekday name or its 3-letter abbreviation, else -1.
int weekday_number(const std::string& word) {
  for (int w = 0; w < 7; ++w) {
    const std::string full = lower(kWeekdays[w]);
    if (word == full || word == full.substr(0, 3)) return w;
  }
  return -1;
}

using SourceSet = std::unordered_set<std::string>;

SourceSet sources_of(const std::vector<ParallelExample>* examples) {
  SourceSet set;
  if (examples != nullptr) {
    set.reserve(examples->size());
    for (const ParallelExample& e : *examples) set.insert(e.source);
  }
  return set;
}

void require_lengths(std::size_t min_len, std::size_t max_len, const char* function) {
  if (min_len < 1 || min_len > max_len) {
    throw std::invalid_argument(std::string(function) + ": lengths must satisfy 1 <= min_len <= max_len, got [" +
                                std::to_string(min_len) + ", " + std::to_string(max_len) + "]");
  }
}

// Draws until `count` accepted examples, giving up after many rejections in a row (the space of
// sources is exhausted) rather than looping forever.
template <typename Draw>
std::vector<ParallelExample> draw_examples(std::size_t count, const Draw& draw, SourceSet& taken, bool distinct,
                                           const char* function) {
  std::vector<ParallelExample> out;
  out.reserve(count);
  std::size_t rejected_in_a_row = 0;
  while (out.size() < count) {
    ParallelExample e = draw();
    const bool fresh = distinct ? taken.insert(e.source).second : taken.count(e.source) == 0;
    if (!fresh) {
      if (++rejected_in_a_row > 10000) {
        throw std::invalid_argument(std::string(function) + ": found only " + std::to_string(out.size()) + " of " +
                                    std::to_string(count) + " new examples; the task has too few distinct sources");
      }
      continue;
    }
    rejected_in_a_row = 0;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

bool operator==(const Date& a, const Date& b) { return a.year == b.year && a.month == b.month && a.day == b.day; }

int days_in_month(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12)
    throw std::invalid_argument("days_in_month: month " + std::to_string(month) + " is not in 1..12");
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Howard Hinnant's days_from_civil / civil_from_days: the year is shifted to start in March so the
// leap day is the last day of the (shifted) year, and eras of 400 years repeat exactly.
long days_from_civil(const Date& date) {
  const long y = date.year - (date.month <= 2 ? 1 : 0);
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long year_of_era = y - era * 400;
  const long day_of_year = (153 * (date.month > 2 ? date.month - 3 : date.month + 9) + 2) / 5 + date.day - 1;
  const long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

Date civil_from_days(long days) {
  days += 719468;
  const long era = (days >= 0 ? days : days - 146096) / 146097;
  const long day_of_era = days - era * 146097;
  const long year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const long shifted_month = (5 * day_of_year + 2) / 153;
  Date date;
  date.day = static_cast<int>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
  date.month = static_cast<int>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
  date.year = static_cast<int>(year_of_era + era * 400 + (date.month <= 2 ? 1 : 0));
  return date;
}

int weekday(const Date& date) {
  // 1970-01-01 was a Thursday (3 with Monday = 0).
  const long w = (days_from_civil(date) + 3) % 7;
  return static_cast<int>(w < 0 ? w + 7 : w);
}

std::string iso_date(const Date& date) {
  if (date.year < 0 || date.year > 9999)
    throw std::invalid_argument("iso_date: year " + std::to_string(date.year) + " is not in 0..9999");
  return four_digits(date.year) + "-" + two_digits(date.month) + "-" + two_digits(date.day);
}

std::string format_date(const Date& date, DateFormat format) {
  const std::string month = kMonths[date.month - 1];
  const std::string day_name = kWeekdays[weekday(date)];
  const std::string d = std::to_string(date.day), m = std::to_string(date.month), y = std::to_string(date.year);
  switch (format) {
    case DateFormat::day_month_year:
      return d + " " + month + " " + y;
    case DateFormat::weekday_month_ordinal:
      return day_name + ", " + month + " " + ordinal(date.day) + " " + y;
    case DateFormat::numeric_dmy_short:
      return two_digits(date.day) + "/" + two_digits(date.month) + "/" + two_digits(date.year);
    case DateFormat::lower_month_day_short:
      return lower(abbreviation(month.c_str())) + " " + d + " " + two_digits(date.year);
    case DateFormat::iso:
      return iso_date(date);
    case DateFormat::iso_slashes_unpadded:
      return y + "/" + m + "/" + d;
    case DateFormat::short_weekday_day_month:
      return abbreviation(day_name.c_str()) + " " + d + " " + month + ", " + y;
    case DateFormat::dotted_dmy:
      return d + "." + m + "." + y;
    case DateFormat::month_the_ordinal:
      return month + " the " + ordinal(date.day) + ", " + y;
    case DateFormat::month_day_comma_year:
      return month + " " + d + ", " + y;
    case DateFormat::dd_mon_yy:
      return two_digits(date.day) + "-" + abbreviation(month.c_str()) + "-" + two_digits(date.year);
    case DateFormat::upper_day_month_year:
      return d + " " + upper(month) + " " + y;
    case DateFormat::weekday_numeric_dmy:
      return lower(day_name) + " " + two_digits(date.day) + "/" + two_digits(date.month) + "/" + four_digits(date.year);
    case DateFormat::ordinal_of_month:
      return ordinal(date.day) + " of " + month + " " + y;
  }
  throw std::invalid_argument("format_date: unknown format " + std::to_string(static_cast<int>(format)));
}

bool operator==(const TextSpan& a, const TextSpan& b) { return a.begin == b.begin && a.end == b.end; }

DateFields parse_date_fields(const std::string& text, int first_year) {
  // Split into runs of digits and runs of letters; everything else separates.
  std::vector<std::string> numbers, words;
  std::vector<TextSpan> number_spans, word_spans;
  std::vector<bool> word_follows_number;
  const std::string t = lower(text);
  for (std::size_t i = 0; i < t.size();) {
    const auto c = static_cast<unsigned char>(t[i]);
    std::size_t j = i;
    if (std::isdigit(c)) {
      while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
      numbers.push_back(t.substr(i, j - i));
      number_spans.push_back({i, j});
    } else if (std::isalpha(c)) {
      while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      words.push_back(t.substr(i, j - i));
      word_spans.push_back({i, j});
      word_follows_number.push_back(i > 0 && std::isdigit(static_cast<unsigned char>(t[i - 1])));
    } else if (c == ' ' || c == ',' || c == '.' || c == '/' || c == '-') {
      j = i + 1;
    } else {
      parse_failure(text, std::string("unexpected character '") + t[i] + "'");
    }
    i = j;
  }
  int month = 0, written_weekday = -1;
  std::string weekday_word;
  DateFields fields;
  for (std::size_t k = 0; k < words.size(); ++k) {
    const std::string& w = words[k];
    const bool suffix = w == "st" || w == "nd" || w == "rd" || w == "th";
    if (suffix && word_follows_number[k]) continue;
    if (w == "the" || w == "of") continue;
    if (const int m = month_number(w); m != 0) {
      if (month != 0) parse_failure(text, "two month names");
      month = m;
      fields.month = word_spans[k];
    } else if (const int wd = weekday_number(w); wd >= 0) {
      if (written_weekday >= 0) parse_failure(text, "two weekday names");
      written_weekday = wd;
      weekday_word = w;
    } else {
      parse_failure(text, "unknown word '" + w + "'");
    }
  }
  std::string day_text, month_text, year_text;
  if (month != 0) {
    if (numbers.size() != 2) parse_failure(text, "expected a day and a year next to the month name");
    day_text = numbers[0];
    year_text = numbers[1];
    fields.day = number_spans[0];
    fields.year = number_spans[1];
  } else {
    if (numbers.size() != 3) parse_failure(text, "expected three numbers (day, month, year) or a month name");
    if (numbers[0].size() == 4) {  // year first: ISO-like y-m-d
      year_text = numbers[0], month_text = numbers[1], day_text = numbers[2];
      fields.year = number_spans[0], fields.month = number_spans[1], fields.day = number_spans[2];
    } else {  // day first: d/m/y
      day_text = numbers[0], month_text = numbers[1], year_text = numbers[2];
      fields.day = number_spans[0], fields.month = number_spans[1], fields.year = number_spans[2];
    }
    if (month_text.size() > 2) parse_failure(text, "month '" + month_text + "' has more than two digits");
    month = std::stoi(month_text);
  }
  if (day_text.size() > 2) parse_failure(text, "day '" + day_text + "' has more than two digits");
  Date date;
  date.month = month;
  date.day = std::stoi(day_text);
  if (year_text.size() == 4) {
    date.year = std::stoi(year_text);
  } else if (year_text.size() == 2) {
    // The one year in [first_year, first_year + 99] ending in these two digits.
    const int two = std::stoi(year_text);
    date.year = first_year + ((two - first_year % 100) % 100 + 100) % 100;
    fields.two_digit_year = true;
  } else {
    parse_failure(text, "year '" + year_text + "' has neither 2 nor 4 digits");
  }
  if (date.month < 1 || date.month > 12)
    parse_failure(text, "month " + std::to_string(date.month) + " is not in 1..12");
  if (date.day < 1 || date.day > days_in_month(date.year, date.month)) {
    parse_failure(text, "day " + std::to_string(date.day) + " is not in " + std::to_string(date.month) + "/" +
                            std::to_string(date.year));
  }
  if (written_weekday >= 0 && written_weekday != weekday(date)) {
    parse_failure(text, "'" + weekday_word + "' does not match " + iso_date(date) + ", a " + kWeekdays[weekday(date)]);
  }
  fields.date = date;
  return fields;
}

Date parse_date(const std::string& text, int first_year) { return parse_date_fields(text, first_year).date; }

void DateTaskConfig::validate() const {
  if (first_year < 1 || first_year > last_year || last_year > 9999 || last_year - first_year >= 100) {
    throw std::invalid_argument(
        "DateTaskConfig: years must satisfy 1 <= first_year <= last_year <= 9999 within 100 years "
        "(two-digit years must be unambiguous), got " +
        std::to_string(first_year) + ".." + std::to_string(last_year));
  }
}

namespace {

std::vector<ParallelExample> dates_from(Rng& rng, std::size_t count, const DateTaskConfig& config, SourceSet& taken) {
  config.validate();
  const long first_day = days_from_civil(Date{config.first_year, 1, 1});
  const auto span = static_cast<std::uint32_t>(days_from_civil(Date{config.last_year, 12, 31}) - first_day + 1);
  const auto draw = [&]() {
    const Date date = civil_from_days(first_day + static_cast<long>(rng.below(span)));
    const auto format = static_cast<DateFormat>(rng.below(static_cast<std::uint32_t>(kDateFormatCount)));
    return ParallelExample{format_date(date, format), iso_date(date)};
  };
  return draw_examples(count, draw, taken, true, "make_date_examples");
}

std::vector<ParallelExample> digits_from(Rng& rng, DigitTask task, std::size_t count, std::size_t min_len,
                                         std::size_t max_len, SourceSet& taken) {
  require_lengths(min_len, max_len, "make_digit_examples");
  const auto draw = [&]() {
    const std::size_t length = min_len + rng.below(static_cast<std::uint32_t>(max_len - min_len + 1));
    std::string digits(length, '0');
    for (char& c : digits) c = static_cast<char>('0' + rng.below(10));
    return ParallelExample{digits, digit_task_target(task, digits)};
  };
  return draw_examples(count, draw, taken, false, "make_digit_examples");
}

}  // namespace

std::vector<ParallelExample> make_date_examples(std::size_t count, const DateTaskConfig& config, std::uint64_t seed,
                                                const std::vector<ParallelExample>* exclude) {
  Rng rng(seed);
  SourceSet taken = sources_of(exclude);
  return dates_from(rng, count, config, taken);
}

TaskSplit make_date_split(std::size_t train_size, std::size_t test_size, const DateTaskConfig& config,
                          std::uint64_t seed) {
  TaskSplit split;
  SourceSet taken;
  Rng train_rng(seed);
  split.train = dates_from(train_rng, train_size, config, taken);
  // `taken` now holds every training source, so the held-out draws skip them.
  Rng test_rng(seed, kHeldOutStream);
  split.test = dates_from(test_rng, test_size, config, taken);
  return split;
}

const char* digit_task_name(DigitTask task) {
  switch (task) {
    case DigitTask::reverse:
      return "reverse";
    case DigitTask::sort:
      return "sort";
    case DigitTask::copy:
      return "copy";
  }
  return "?";
}

DigitTask digit_task_from_name(const std::string& name) {
  if (name == "reverse") return DigitTask::reverse;
  if (name == "sort") return DigitTask::sort;
  if (name == "copy") return DigitTask::copy;
  throw std::invalid_argument("digit task must be \"reverse\", \"sort\" or \"copy\", got \"" + name + "\"");
}

std::string digit_task_target(DigitTask task, const std::string& digits) {
  std::string out = digits;
  if (task == DigitTask::reverse) std::reverse(out.begin(), out.end());
  if (task == DigitTask::sort) std::sort(out.begin(), out.end());
  return out;
}

std::vector<ParallelExample> make_digit_examples(DigitTask task, std::size_t count, std::size_t min_len,
                                                 std::size_t max_len, std::uint64_t seed,
                                                 const std::vector<ParallelExample>* exclude) {
  Rng rng(seed);
  SourceSet taken = sources_of(exclude);
  return digits_from(rng, task, count, min_len, max_len, taken);
}

TaskSplit make_digit_split(DigitTask task, std::size_t train_size, std::size_t test_size, std::size_t min_len,
                           std::size_t max_len, std::size_t test_min_len, std::size_t test_max_len,
                           std::uint64_t seed) {
  require_lengths(test_min_len, test_max_len, "make_digit_split (test lengths)");
  TaskSplit split;
  Rng train_rng(seed);
  SourceSet none;
  split.train = digits_from(train_rng, task, train_size, min_len, max_len, none);
  SourceSet taken = sources_of(&split.train);
  Rng test_rng(seed, kHeldOutStream);
  split.test = digits_from(test_rng, task, test_size, test_min_len, test_max_len, taken);
  return split;
}

}  // namespace attn
