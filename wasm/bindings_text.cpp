// Embind bindings for text preparation (core/include/attn/text/): the IMDB-style vocabulary and
// Keras' pad_sequences, for the course's exercises. Conversion only: every computation happens in
// attn_core. See attn_engine.d.ts for the JS-side types.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>
#include <vector>

#include "attn/text/sequences.hpp"
#include "attn/text/vocabulary.hpp"
#include "convert.hpp"

namespace attn::wasm {
namespace {

// A JS array of arrays -> rows of items, each item read by read(value, "name[i][j]").
template <class Item, class Read>
std::vector<std::vector<Item>> read_rows(const val& rows, const std::string& name, Read read) {
  if (!val::global("Array").call<bool>("isArray", rows)) throw std::invalid_argument(name + " must be an array");
  std::vector<std::vector<Item>> out(rows["length"].as<std::size_t>());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const val row = rows[i];
    const std::string where = name + "[" + std::to_string(i) + "]";
    if (!val::global("Array").call<bool>("isArray", row)) throw std::invalid_argument(where + " must be an array");
    const std::size_t n = row["length"].as<std::size_t>();
    for (std::size_t j = 0; j < n; ++j) out[i].push_back(read(row[j], where + "[" + std::to_string(j) + "]"));
  }
  return out;
}

std::vector<std::vector<std::string>> to_token_lists(const val& docs, const std::string& name) {
  return read_rows<std::string>(docs, name, [](const val& token, const std::string& where) {
    if (!token.isString()) throw std::invalid_argument(where + " must be a string");
    return token.as<std::string>();
  });
}

std::vector<std::vector<std::int32_t>> to_id_lists(const val& seqs, const std::string& name) {
  return read_rows<std::int32_t>(seqs, name, [](const val& id, const std::string& where) {
    const double x = id.isNumber() ? id.as<double>() : -1;
    return static_cast<std::int32_t>(whole_number(x, where, 2147483647.0));
  });
}

template <class Rows>
val to_js_rows(const Rows& rows) {
  val out = val::array();
  for (const auto& row : rows) {
    val js = val::array();
    for (const auto id : row) js.call<void>("push", static_cast<double>(id));
    out.call<void>("push", js);
  }
  return out;
}

PadMode pad_mode(const std::string& mode, const char* name) {
  if (mode == "pre") return PadMode::pre;
  if (mode == "post") return PadMode::post;
  throw std::invalid_argument(std::string(name) + " must be 'pre' or 'post', got '" + mode + "'");
}

// imdbEncode(trainDocs [N][tokens], numWords, reviews [M][tokens]) -> ids [M][tokens + 1]:
// Vocabulary::fit(trainDocs, numWords), then encode every review with <start>.
val js_imdb_encode(const val& train_docs, double num_words, const val& reviews) {
  return guarded([&] {
    const Vocabulary vocabulary =
        Vocabulary::fit(to_token_lists(train_docs, "trainDocs"), whole_number(num_words, "numWords", 1e7));
    std::vector<std::vector<std::int32_t>> encoded;
    for (const auto& review : to_token_lists(reviews, "reviews")) encoded.push_back(vocabulary.encode(review));
    return to_js_rows(encoded);
  });
}

// padSequences(seqs [N][ragged], maxlen, padding, truncating, value) -> {ids [N][maxlen], mask [N][maxlen]}
val js_pad_sequences(const val& seqs, double maxlen, const std::string& padding, const std::string& truncating,
                     double value) {
  return guarded([&] {
    const std::size_t n = whole_number(maxlen, "maxlen", 1e6);
    const auto ids = to_id_lists(seqs, "seqs");
    check_value_count({static_cast<double>(ids.size()), maxlen}, "padSequences: N × maxlen");
    const PaddedBatch batch = pad_sequences(ids, n, pad_mode(padding, "padding"), pad_mode(truncating, "truncating"),
                                            static_cast<std::int32_t>(whole_number(value, "value", 2147483647.0)));
    std::vector<std::vector<std::int32_t>> id_rows(batch.ids.shape(0)), mask_rows(batch.mask.shape(0));
    for (std::size_t r = 0; r < id_rows.size(); ++r) {
      for (std::size_t t = 0; t < batch.ids.shape(1); ++t) {
        id_rows[r].push_back(batch.ids(r, t));
        mask_rows[r].push_back(batch.mask(r, t));
      }
    }
    val out = val::object();
    out.set("ids", to_js_rows(id_rows));
    out.set("mask", to_js_rows(mask_rows));
    return out;
  });
}

}  // namespace
}  // namespace attn::wasm

EMSCRIPTEN_BINDINGS(text) {
  using namespace attn::wasm;
  emscripten::function("imdbEncode", &js_imdb_encode);
  emscripten::function("padSequences", &js_pad_sequences);
}
