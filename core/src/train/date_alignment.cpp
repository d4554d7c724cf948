#include "attn/train/date_alignment.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

// Attention row `row` against `span`: its mass there and whether its argmax falls inside.
void add_row(const Tensor2& alignment, std::size_t row, const TextSpan& span, FieldAlignment& field) {
  const std::size_t columns = alignment.shape(1);
  double mass = 0;
  std::size_t best = 0;
  for (std::size_t c = 0; c < columns; ++c) {
    if (span.contains(c)) mass += alignment(row, c);
    if (alignment(row, c) > alignment(row, best)) best = c;
  }
  ++field.characters;
  field.mass_sum += mass;
  field.argmax_hits += span.contains(best) ? 1 : 0;
}

}  // namespace

double FieldAlignment::mean_mass() const { return characters ? mass_sum / static_cast<double>(characters) : 0.0; }

double FieldAlignment::argmax_share() const {
  return characters ? static_cast<double>(argmax_hits) / static_cast<double>(characters) : 0.0;
}

void add_date_alignment(const Tensor2& alignment, const DateFields& fields, DateAlignmentReport& report) {
  const std::size_t last = std::max({fields.day.end, fields.month.end, fields.year.end});
  if (alignment.shape(0) < 10 || alignment.shape(1) < last) {
    throw ShapeError("add_date_alignment: alignment " + shape_string(alignment.shape()) +
                     " needs >= 10 rows (YYYY-MM-DD) and >= " + std::to_string(last) + " columns (the date's fields)");
  }
  // A two-digit year writes no century: rows 0..1 have no matching source characters.
  const std::size_t first_year_row = fields.two_digit_year ? 2 : 0;
  report.century_rows_excluded += first_year_row;
  for (std::size_t row = first_year_row; row < 4; ++row) add_row(alignment, row, fields.year, report.year);
  for (std::size_t row = 5; row < 7; ++row) add_row(alignment, row, fields.month, report.month);
  for (std::size_t row = 8; row < 10; ++row) add_row(alignment, row, fields.day, report.day);
  ++report.examples;
}

DateAlignmentReport date_alignment_report(const Seq2SeqModel& model, const std::vector<ParallelExample>& examples,
                                          const ParallelVocabularies& vocabularies, int first_year, std::size_t max_len,
                                          std::size_t batch) {
  if (model.config().attention == AttentionForm::none) {
    throw std::invalid_argument("date_alignment_report: the model has no attention (AttentionForm::none)");
  }
  if (batch == 0) throw std::invalid_argument("date_alignment_report: batch must be >= 1");
  DateAlignmentReport report;
  std::vector<DateFields> fields;
  std::vector<std::vector<int>> ids;
  TokenIds source;
  for (std::size_t begin = 0; begin < examples.size(); begin += batch) {
    const std::size_t count = std::min(batch, examples.size() - begin);
    fields.clear();
    ids.clear();
    std::size_t width = 1;
    for (std::size_t i = 0; i < count; ++i) {
      const std::string& text = examples[begin + i].source;
      ids.push_back(vocabularies.source.encode(text));
      // Character spans index tokens only when every character is one token.
      if (ids.back().size() != text.size()) {
        throw std::invalid_argument("date_alignment_report: source '" + text + "' is not " +
                                    "ASCII characters at the character level");
      }
      fields.push_back(parse_date_fields(text, first_year));
      width = std::max(width, ids.back().size());
    }
    ensure_shape(source, std::array<std::size_t, 2>{count, width});
    std::fill(source.begin(), source.end(), kPadId);
    for (std::size_t i = 0; i < count; ++i) std::copy(ids[i].begin(), ids[i].end(), &source(i, 0));
    const std::vector<Decoded> decoded = model.greedy_batch(source, max_len);
    for (std::size_t i = 0; i < count; ++i) {
      if (vocabularies.target.decode(decoded[i].tokens) != examples[begin + i].target) {
        ++report.wrong;
        continue;
      }
      add_date_alignment(decoded[i].alignment, fields[i], report);
    }
  }
  return report;
}

}  // namespace attn
