// Does a trained date model (models/seq2seq.hpp on the `dates` task of data/seq2seq_tasks.hpp)
// look at the right place? For each field of the ISO output "YYYY-MM-DD", the attention that its
// characters put on the source characters of the same field ("Thursday, May 3rd 1979": the
// month's "05" should read "May", the day's "03" the "3").
//
// Legend: Tx source characters (= tokens: the vocabularies are character level and every date
// format is ASCII), rows = decoder steps of one decoding (>= 10: the ISO characters, then EOS).
//
// Output rows measured: year 0..3, month 5..6, day 8..9 (the hyphens 4 and 7 and EOS are not).
// A two-digit-year source ("03/05/79") has no characters for the century "19" / "20", so rows 0
// and 1 of such examples are left out (counted in century_rows_excluded); its rows 2..3 are
// measured against the two year digits.
#pragma once

#include <cstddef>
#include <vector>

#include "attn/data/parallel_text.hpp"
#include "attn/data/seq2seq_tasks.hpp"
#include "attn/models/seq2seq.hpp"
#include "attn/tensor.hpp"

namespace attn {

// Sums over the measured output characters of one field.
struct FieldAlignment {
  std::size_t characters = 0;   // output characters (alignment rows) measured
  double mass_sum = 0;          // Σ over them of the attention on the field's source span
  std::size_t argmax_hits = 0;  // of them, rows whose largest weight lies in the span (first on ties)

  // Mean attention mass on the matching span (0 when nothing was measured).
  double mean_mass() const;
  // Share of characters whose argmax lies in the matching span (0 when nothing was measured).
  double argmax_share() const;
};

struct DateAlignmentReport {
  std::size_t examples = 0;               // decodings measured (those equal to the ISO target)
  std::size_t wrong = 0;                  // decodings that differ from the target: not measured
  std::size_t century_rows_excluded = 0;  // rows 0..1 of two-digit-year sources
  FieldAlignment year, month, day;
};

// Adds one decoding: alignment [rows >= 10, Tx'] (Tx' >= the source's length; padded columns
// allowed), fields from parse_date_fields on its source. Throws ShapeError naming
// "add_date_alignment" when there are fewer than 10 rows or a span ends past Tx'.
void add_date_alignment(const Tensor2& alignment, const DateFields& fields, DateAlignmentReport& report);

// Greedy-decodes every example's source (batches of `batch`, at most max_len steps) and adds the
// alignment of every exact decoding. Sources must parse with parse_date_fields(·, first_year) and
// be ASCII (std::invalid_argument otherwise); the model needs attention (std::invalid_argument for
// AttentionForm::none).
DateAlignmentReport date_alignment_report(const Seq2SeqModel& model, const std::vector<ParallelExample>& examples,
                                          const ParallelVocabularies& vocabularies, int first_year, std::size_t max_len,
                                          std::size_t batch = 256);

}  // namespace attn
