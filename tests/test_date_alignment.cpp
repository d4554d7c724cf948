#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attn/train/date_alignment.hpp"

using namespace attn;

TEST_CASE("date_alignment.hand_built_alignments_give_known_numbers") {
  DateAlignmentReport report;
  // 1) "03/05/79" (0 0, 3 1, / 2, 0 3, 5 4, / 5, 7 6, 9 7) + one padded column 8; 11 rows
  //    ("1979-05-03" + EOS). Spans: day [0, 2), month [3, 5), year [6, 8), two-digit year.
  const DateFields short_year = parse_date_fields("03/05/79", 1950);
  Tensor2 a = xt::zeros<float>({11, 9});
  a(0, 8) = 1;  // century rows: anywhere, never counted
  a(1, 8) = 1;
  a(2, 6) = 0.8f, a(2, 0) = 0.2f;                  // year: mass 0.8, argmax 6 in
  a(3, 7) = 0.3f, a(3, 2) = 0.7f;                  //       mass 0.3, argmax 2 ('/') out
  a(5, 3) = 0.5f, a(5, 4) = 0.5f;                  // month: mass 1.0, argmax 3 in
  a(6, 4) = 0.4f, a(6, 7) = 0.6f;                  //        mass 0.4, argmax 7 (year) out
  a(8, 0) = 0.4f, a(8, 1) = 0.2f, a(8, 3) = 0.4f;  // day: mass 0.6, tie 0 / 3 -> first (0) in
  a(9, 1) = 1;                                     //      mass 1.0, argmax in
  add_date_alignment(a, short_year, report);
  CHECK(report.century_rows_excluded == 2);
  CHECK(report.year.characters == 2);
  CHECK(report.year.mean_mass() == doctest::Approx(0.55));  // (0.8 + 0.3) / 2
  CHECK(report.year.argmax_share() == doctest::Approx(0.5));
  CHECK(report.month.mean_mass() == doctest::Approx(0.7));  // (1.0 + 0.4) / 2
  CHECK(report.month.argmax_share() == doctest::Approx(0.5));
  CHECK(report.day.mean_mass() == doctest::Approx(0.8));  // (0.6 + 1.0) / 2
  CHECK(report.day.argmax_share() == doctest::Approx(1.0));

  // 2) "Thursday, May 3rd 1979": year [18, 22), month [10, 13), day [14, 15); every measured row
  //    entirely on its field (year digit k on column 18 + k, month on 'M', day on '3').
  const DateFields long_year = parse_date_fields("Thursday, May 3rd 1979", 1950);
  Tensor2 b = xt::zeros<float>({11, 22});
  for (std::size_t k = 0; k < 4; ++k) b(k, 18 + k) = 1;
  b(4, 0) = b(7, 0) = b(10, 0) = 1;  // hyphens and EOS: not measured
  b(5, 10) = b(6, 12) = 1;
  b(8, 14) = b(9, 14) = 1;
  add_date_alignment(b, long_year, report);
  CHECK(report.examples == 2);
  CHECK(report.century_rows_excluded == 2);  // 4-digit years exclude nothing
  CHECK(report.year.characters == 6);
  CHECK(report.year.mean_mass() == doctest::Approx(0.85));        // (0.8 + 0.3 + 4) / 6
  CHECK(report.year.argmax_share() == doctest::Approx(5.0 / 6));  // (1 + 4) / 6
  CHECK(report.month.characters == 4);
  CHECK(report.month.mean_mass() == doctest::Approx(0.85));     // (1.0 + 0.4 + 2) / 4
  CHECK(report.month.argmax_share() == doctest::Approx(0.75));  // (1 + 2) / 4
  CHECK(report.day.mean_mass() == doctest::Approx(0.9));        // (0.6 + 1.0 + 2) / 4
  CHECK(report.day.argmax_share() == doctest::Approx(1.0));
}

TEST_CASE("date_alignment.empty_report_and_shape_errors") {
  const DateAlignmentReport empty;
  CHECK(empty.year.mean_mass() == 0);
  CHECK(empty.day.argmax_share() == 0);
  DateAlignmentReport report;
  const DateFields fields = parse_date_fields("03/05/79", 1950);
  const Tensor2 too_few_rows = xt::zeros<float>({9, 8});
  CHECK_THROWS_WITH_AS(
      add_date_alignment(too_few_rows, fields, report),
      "add_date_alignment: alignment [9, 8] needs >= 10 rows (YYYY-MM-DD) and >= 8 columns (the date's fields)",
      ShapeError);
  const Tensor2 too_few_columns = xt::zeros<float>({10, 7});
  CHECK_THROWS_AS(add_date_alignment(too_few_columns, fields, report), ShapeError);
  CHECK(report.examples == 0);
}

TEST_CASE("date_alignment.report_counts_every_example_of_a_model") {
  const std::vector<ParallelExample> examples = make_date_examples(20, {}, 3);
  const ParallelVocabularies vocabularies = fit_vocabularies(examples, TokenLevel::character, 1000, 1000);
  Seq2SeqConfig config;
  config.source_vocab = vocabularies.source.size();
  config.target_vocab = vocabularies.target.size();
  config.embed = 4, config.units = 4, config.attention_dim = 4;
  const Seq2SeqModel model(config, 1);
  // Untrained: every decoding is measured or counted wrong, none twice.
  const DateAlignmentReport r = date_alignment_report(model, examples, vocabularies, 1950, 12, 7);
  CHECK(r.examples + r.wrong == examples.size());
  config.attention = AttentionForm::none;
  const Seq2SeqModel plain(config, 1);
  CHECK_THROWS_WITH_AS(date_alignment_report(plain, examples, vocabularies, 1950, 12),
                       "date_alignment_report: the model has no attention (AttentionForm::none)",
                       std::invalid_argument);
}
