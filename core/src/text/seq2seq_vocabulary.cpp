#include "attn/text/seq2seq_vocabulary.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "attn/text/mt_tokenizer.hpp"
#include "attn/text/tokenizer.hpp"
#include "attn/text/utf8.hpp"

namespace attn {

namespace {

const char* const kReserved[] = {"<pad>", "<bos>", "<eos>", "<unk>"};

std::vector<std::string> split_characters(std::string_view text) {
  validate_utf8(text, "<text>");
  std::vector<std::string> tokens;
  tokens.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t begin = pos;
    char32_t code_point;
    decode_utf8(text, pos, code_point);  // cannot fail: validated above
    tokens.emplace_back(text.substr(begin, pos - begin));
  }
  return tokens;
}

}  // namespace

std::string WordTokenizer::description() const {
  if (scheme == Scheme::project) return "the project tokenizer (lowercased)";
  std::string name = mt_language_name(mt.language);
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name + " rules" + (mt.lowercase ? ", lowercased" : "");
}

const char* token_level_name(TokenLevel level) { return level == TokenLevel::character ? "character" : "word"; }

TokenLevel token_level_from_name(const std::string& name) {
  if (name == "character") return TokenLevel::character;
  if (name == "word") return TokenLevel::word;
  throw std::invalid_argument("token level must be \"character\" or \"word\", got \"" + name + "\"");
}

Seq2SeqVocabulary::Seq2SeqVocabulary(TokenLevel level, const WordTokenizer& tokenizer)
    : level_(level), tokenizer_(level == TokenLevel::word ? tokenizer : WordTokenizer{}) {}

Seq2SeqVocabulary::Seq2SeqVocabulary(TokenLevel level, const WordTokenizer& tokenizer, std::vector<std::string> tokens)
    : Seq2SeqVocabulary(level, tokenizer) {
  tokens_ = std::move(tokens);
  for (std::size_t k = 0; k < tokens_.size(); ++k) ids_.emplace(tokens_[k], static_cast<int>(k) + first_token);
}

namespace {

// Token counts in order of first appearance; fit and fit_tokens feed it one text at a time, so
// fitting on texts never holds every token list at once.
class TokenCounts {
 public:
  explicit TokenCounts(std::size_t max_size) {
    if (max_size < Seq2SeqVocabulary::first_token + 1) {
      throw std::invalid_argument(
          "Seq2SeqVocabulary::fit: max_size must be at least 5 (4 reserved ids + 1 token), got " +
          std::to_string(max_size));
    }
  }
  void add(const std::vector<std::string>& tokens) {
    for (const std::string& token : tokens) {
      if (token.find('\n') != std::string::npos) {
        throw std::invalid_argument("Seq2SeqVocabulary::fit: a token contains a line break (it could not be stored)");
      }
      const auto found = index_.find(token);
      if (found != index_.end()) {
        ++counted_[found->second].second;
      } else {
        index_.emplace(token, counted_.size());
        counted_.emplace_back(token, 1);
      }
    }
  }
  // The `keep` most frequent tokens; stable, so equal counts keep their first-appearance order
  // and a training set fixes the ids.
  std::vector<std::string> most_frequent(std::size_t keep) {
    std::stable_sort(counted_.begin(), counted_.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    keep = std::min(counted_.size(), keep);
    std::vector<std::string> tokens;
    tokens.reserve(keep);
    for (std::size_t k = 0; k < keep; ++k) tokens.push_back(std::move(counted_[k].first));
    return tokens;
  }

 private:
  std::unordered_map<std::string, std::size_t> index_;        // token -> position in counted_
  std::vector<std::pair<std::string, std::size_t>> counted_;  // in order of first appearance
};

}  // namespace

Seq2SeqVocabulary Seq2SeqVocabulary::fit(const std::vector<std::string>& texts, TokenLevel level, std::size_t max_size,
                                         const WordTokenizer& tokenizer) {
  TokenCounts counts(max_size);
  const Seq2SeqVocabulary splitter(level, tokenizer);
  for (const std::string& text : texts) counts.add(splitter.split(text));
  return Seq2SeqVocabulary(level, tokenizer, counts.most_frequent(max_size - first_token));
}

Seq2SeqVocabulary Seq2SeqVocabulary::fit_tokens(const std::vector<std::vector<std::string>>& token_lists,
                                                TokenLevel level, std::size_t max_size,
                                                const WordTokenizer& tokenizer) {
  TokenCounts counts(max_size);
  for (const std::vector<std::string>& tokens : token_lists) counts.add(tokens);
  return Seq2SeqVocabulary(level, tokenizer, counts.most_frequent(max_size - first_token));
}

std::vector<std::string> Seq2SeqVocabulary::split(std::string_view text) const {
  if (level_ == TokenLevel::character) return split_characters(text);
  if (tokenizer_.scheme == WordTokenizer::Scheme::mt) return mt_tokenize(text, tokenizer_.mt);
  TokenizerOptions options;
  options.lowercase = true;
  options.strip_html = false;
  options.keep_punctuation = true;
  return tokenize(text, options);
}

std::string Seq2SeqVocabulary::token_description() const {
  return level_ == TokenLevel::character ? "characters" : tokenizer_.description();
}

std::string Seq2SeqVocabulary::join(const std::vector<std::string>& tokens) const {
  if (level_ == TokenLevel::word && tokenizer_.scheme == WordTokenizer::Scheme::mt) {
    MtDetokenizerOptions options;
    options.language = tokenizer_.mt.language;
    return mt_detokenize(tokens, options);
  }
  std::string out;
  for (const std::string& t : tokens) {
    if (level_ == TokenLevel::word && !out.empty()) out += ' ';
    out += t;
  }
  return out;
}

std::vector<int> Seq2SeqVocabulary::encode(std::string_view text, bool add_bos_eos) const {
  return encode_tokens(split(text), add_bos_eos);
}

std::vector<int> Seq2SeqVocabulary::encode_tokens(const std::vector<std::string>& pieces, bool add_bos_eos) const {
  std::vector<int> ids;
  ids.reserve(pieces.size() + 2);
  if (add_bos_eos) ids.push_back(bos);
  for (const std::string& piece : pieces) ids.push_back(id(piece));
  if (add_bos_eos) ids.push_back(eos);
  return ids;
}

std::string Seq2SeqVocabulary::decode(const std::vector<int>& ids) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (const int i : ids) {
    if (i == eos) break;
    const std::string t = token(i);  // range-checked, PAD and BOS too
    if (i != pad && i != bos) tokens.push_back(t);
  }
  return join(tokens);
}

std::vector<std::string> Seq2SeqVocabulary::tokens_of(const std::vector<int>& ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (const int i : ids) out.push_back(token(i));
  return out;
}

std::string Seq2SeqVocabulary::token(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= size()) {
    throw std::invalid_argument("Seq2SeqVocabulary::token: id " + std::to_string(id) + " is outside [0, " +
                                std::to_string(size()) + ")");
  }
  return id < first_token ? kReserved[id] : tokens_[static_cast<std::size_t>(id - first_token)];
}

int Seq2SeqVocabulary::id(const std::string& token) const {
  const auto found = ids_.find(token);
  return found == ids_.end() ? unk : found->second;
}

void Seq2SeqVocabulary::write_json(FlatJson& json, const std::string& prefix) const {
  std::string joined;
  for (const std::string& t : tokens_) {
    if (!joined.empty()) joined += '\n';
    joined += t;
  }
  json.set(prefix + "level", token_level_name(level_)).set(prefix + "tokens", joined);
  write_tokenizer_json(json, prefix);
}

void Seq2SeqVocabulary::write_tokenizer_json(FlatJson& json, const std::string& prefix) const {
  if (level_ == TokenLevel::word && tokenizer_.scheme == WordTokenizer::Scheme::mt) {
    json.set(prefix + "tokenizer", "mt")
        .set(prefix + "tokenizer_version", static_cast<double>(kMtTokenSchemeVersion))
        .set(prefix + "language", mt_language_name(tokenizer_.mt.language))
        .set(prefix + "lowercase", tokenizer_.mt.lowercase);
  }
}

namespace {

// The WordTokenizer of a record: none written is the project scheme (files from before it was stored).
WordTokenizer read_tokenizer(const FlatJson& json, const std::string& prefix) {
  WordTokenizer tokenizer;
  if (!json.has(prefix + "tokenizer")) return tokenizer;
  const auto fail = [&](const std::string& key, const std::string& what) {
    throw std::invalid_argument("vocabulary \"" + prefix + key + "\": " + what);
  };
  const std::string scheme = json.get_string(prefix + "tokenizer");
  if (scheme != "mt") fail("tokenizer", "unknown tokenizer \"" + scheme + "\" (this build knows \"mt\")");
  const double version = json.get_number(prefix + "tokenizer_version");
  if (version != kMtTokenSchemeVersion) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "the file's tokens follow version %g of the mt tokenizer's rules; this build splits text by version "
                  "%d (retrain the model, or use the build that wrote it)",
                  version, kMtTokenSchemeVersion);
    fail("tokenizer_version", text);
  }
  tokenizer.scheme = WordTokenizer::Scheme::mt;
  try {
    tokenizer.mt.language = mt_language_from_name(json.get_string(prefix + "language"));
  } catch (const std::invalid_argument& e) {
    fail("language", e.what());
  }
  tokenizer.mt.lowercase = json.get_bool(prefix + "lowercase");
  return tokenizer;
}

}  // namespace

Seq2SeqVocabulary Seq2SeqVocabulary::read_json(const FlatJson& json, const std::string& prefix) {
  TokenLevel level;
  try {
    level = token_level_from_name(json.get_string(prefix + "level"));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("vocabulary \"" + prefix + "level\": " + e.what());
  }
  const std::string joined = json.get_string(prefix + "tokens");
  std::vector<std::string> tokens;
  std::unordered_map<std::string, int> seen;
  std::size_t start = 0;
  while (!joined.empty() && start <= joined.size()) {
    std::size_t end = joined.find('\n', start);
    if (end == std::string::npos) end = joined.size();
    std::string token = joined.substr(start, end - start);
    if (token.empty())
      throw std::invalid_argument("vocabulary \"" + prefix + "tokens\": empty token at id " +
                                  std::to_string(first_token + tokens.size()));
    if (!seen.emplace(token, 0).second)
      throw std::invalid_argument("vocabulary \"" + prefix + "tokens\": duplicate token '" + token + "'");
    tokens.push_back(std::move(token));
    start = end + 1;
  }
  if (level != TokenLevel::word && json.has(prefix + "tokenizer"))
    throw std::invalid_argument("vocabulary \"" + prefix + "tokenizer\": a character-level vocabulary has none");
  return Seq2SeqVocabulary(level, read_tokenizer(json, prefix), std::move(tokens));
}

}  // namespace attn
