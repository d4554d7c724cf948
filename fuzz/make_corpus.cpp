// Writes the seed corpora fuzz/corpus/<target>/ for the libFuzzer targets: small valid inputs of
// each format (and a few near misses), so fuzzing starts from the interesting structure instead
// of from nothing. Run by `node scripts/fuzz.mjs --seed-corpus`; its output is committed.
// Adding a target: add fuzz/fuzz_<target>.cpp and one line to kSeeds below.
//
// Every seed of a target whose first byte is a mode (see the target) is written with that byte.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "attn/data/builtin_reviews.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/sentiment_model.hpp"
#include "attn/models/seq2seq.hpp"
#include "fuzz_support.hpp"
#include "support/archive_writer.hpp"

namespace {

using fuzz::Bytes;
using Seeds = std::vector<std::pair<std::string, Bytes>>;

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }
Bytes with_mode(std::uint8_t mode, Bytes rest) {
  rest.insert(rest.begin(), mode);
  return rest;
}

Seeds csv_seeds() {
  const std::string basic = "review,sentiment\n\"A good, \"\"fine\"\" film\",positive\nawful plot,negative\n";
  return {{"header_defaults", with_mode(0, text(basic))},
          {"header_by_name_crlf_bom",
           with_mode(8 | 16, text("\xef\xbb\xbfid,review,sentiment\r\n1,great,pos\r\n2,\"multi\nline\",neg\r\n"))},
          {"no_header", with_mode(1, text("loved it,1\nhated it,0\n"))},
          {"index_columns", with_mode(2 | 4 | (1u << 3) | (0u << 5), text("text,label\nok,1\nbad,0\n"))},
          {"bad_label", with_mode(0, text("text,label\nfine,maybe\n"))},
          {"unterminated_quote", with_mode(0, text("text,label\n\"never ends,1\n"))}};
}

Seeds tsv_seeds() {
  return {{"header", text("sentence\tlabel\nA lovely film\t1\nTerrible\t0\n")},
          {"crlf_words", text("great fun\tpositive\r\nboring\tneg\r\n\r\n")},
          {"tabs_inside", text("a\tb\tc\t1\nd\t0\n")},
          {"invalid_utf8", text("caf\xe9\t1\nok\t0\n")}};
}

// The positive file, a NUL byte, the negative file (fuzz_sentence_files splits there).
Seeds sentence_files_seeds() {
  const auto pair = [](const std::string& positive, const std::string& negative) {
    return text(positive + std::string(1, '\0') + negative);
  };
  return {{"two_files", pair("a warm film\nwitty and kind\n", "dull\nan empty shell\n")},
          {"crlf_bom_trailing_blank", pair("\xef\xbb\xbfgood\r\n\r\n", "bad\r\n")},
          {"blank_between", pair("good\n\nfine\n", "bad\n")},
          {"same_sentences", pair("good\nfine\n", "good\nfine\n")},
          {"invalid_utf8", pair("caf\xe9\n", "ok\n")}};
}

std::string aclimdb_tar() {
  test_archive::TarBuilder tar;
  tar.add("aclImdb/", "", '5');
  tar.add("aclImdb/train/pos/0_9.txt", "A wonderful film.<br /><br />Loved it.");
  tar.add("aclImdb/train/neg/1_2.txt", "Dull and far too long.");
  tar.add("aclImdb/test/pos/2_8.txt", "Great acting.");
  tar.add("aclImdb/test/neg/3_1.txt", "Awful.");
  tar.add("aclImdb/train/unsup/4_0.txt", "skipped");
  tar.add_gnu_long_name("aclImdb/train/pos/" + std::string(120, 'x') + ".txt", "long name, kept");
  tar.add_pax_path("aclImdb/train/neg/5_3.txt", "pax path");
  const Bytes b = tar.finish();
  return std::string(b.begin(), b.end());
}

Seeds aclimdb_seeds() {
  const Bytes tar = text(aclimdb_tar());
  return {{"targz_train", with_mode(0, test_archive::gzip_fixed(tar))},
          {"targz_test", with_mode(2, test_archive::gzip_fixed(tar))},
          {"tar_train", with_mode(1, tar)},
          {"tar_test", with_mode(3, tar)},
          {"bomb_zeros", with_mode(0, test_archive::gzip_fixed(Bytes(1 << 20, 0)))}};
}

Seeds tokenizer_seeds() {
  return {{"html", with_mode(3, text("I <b>loved</b> it!<br /><br />Don't miss 'it'. a < b <3"))},
          {"unicode", with_mode(1, text("Ça VA? ΣΊΣΥΦΟΣ Привет it’s 映画が好き\xc2\xa0x\xe3\x80\x80y 😀"))},
          {"punctuation", with_mode(7, text("wow!!! (really?) -- \"yes\"; rock'n'roll..."))},
          {"overlong", with_mode(1, text("a\xc0\xafz"))},
          {"surrogate", with_mode(1, text("a\xed\xa0\x80z"))},
          {"cut_short", with_mode(1, text("abc\xe2\x82"))}};
}

Seeds mt_text_seeds() {
  // Mode: bit 0 lowercase, bits 1-2 language (0 generic, 1 english, 2 french).
  return {
      {"french",
       with_mode(
           4 | 1,
           text("L\xe2\x80\x99homme n'a-t-il pas dit\xc2\xa0: \xc2\xab\xe2\x80\xafQu'est-ce ?\xe2\x80\xaf\xc2\xbb"))},
      {"english", with_mode(2, text("I'm sure he doesn't know, can't we ask \"why\"? It's 5:30 p.m. -- boys' club"))},
      {"decomposed",
       with_mode(4, text("e\xcc\x81te\xcc\x81 a\xcc\xa3\xcc\x82 \xce\xb9\xcd\x84 \xcc\x81x &quot;3.5&amp;2-3"))},
      {"invalid", with_mode(0, text("caf\xc3 ok"))}};
}

Seeds model_file_seeds() {
  attn::TextPipelineConfig pipeline_config;
  pipeline_config.num_words = 40;
  pipeline_config.maxlen = 12;
  attn::TextPipeline pipeline(pipeline_config);
  std::vector<attn::LabelledText> train = attn::builtin_split(false);
  train.resize(20);
  pipeline.fit(train);

  attn::ClassifierConfig recurrent;
  recurrent.embed_dim = 4;
  recurrent.units = 3;
  recurrent.attention_dim = 3;
  attn::ClassifierConfig transformer = recurrent;
  transformer.encoder = attn::EncoderKind::transformer;
  transformer.heads = 2;
  transformer.ff_dim = 6;
  transformer.max_len = 12;
  transformer.positional = attn::PositionalKind::learned;

  const Bytes lstm = attn::save_sentiment_model(attn::make_sentiment_model(pipeline, recurrent, 1));
  const Bytes trans = attn::save_sentiment_model(attn::make_sentiment_model(pipeline, transformer, 2));
  return {{"bilstm_as_is", with_mode(0, lstm)},
          {"bilstm_crc_fixed", with_mode(1, lstm)},
          {"transformer_crc_fixed", with_mode(1, trans)},
          {"truncated", with_mode(0, Bytes(lstm.begin(), lstm.begin() + static_cast<long>(lstm.size() / 2)))}};
}

Seeds flat_json_seeds() {
  return {{"config",
           text("{\"model\": \"sequence_classifier\", \"vocab_size\": 5000, \"dropout\": 0.1, \"causal\": false}")},
          {"escapes", text("{\"a\\\"b\": \"tab\\tnew\\nline \\u00e9 \\ud83d\\ude00\", \"n\": -1.5e-3}")},
          {"empty", text("{}")},
          {"nested", text("{\"a\": {\"b\": 1}}")},
          {"numbers", text("{\"big\": 1e308, \"tiny\": 5e-324, \"neg\": -0, \"int\": 1073741824}")}};
}

Seeds parallel_text_seeds() {
  return {{"tatoeba_three_columns", text("Go.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org\nHi.\tSalut !\tx\n")},
          {"two_columns_crlf", text("\xef\xbb\xbfI see.\tJe comprends.\r\nRun!\tCours !\r\n")},
          {"no_tab", text("just a sentence\nok\tfine\n")},
          {"empty_side", text("\ttarget only\nsource only\t\n")},
          {"invalid_utf8", text("caf\xe9\tcoffee\n")},
          {"zip_archive", Bytes{'P', 'K', 3, 4, 20, 0, 0, 0, 'f', 'r', 'a', '.', 't', 'x', 't'}},
          {"nul_bytes", text(std::string("Go.\tVa !\nHi.\tSa") + std::string(1, '\0') + "lut\n")}};
}

Seeds seq2seq_model_file_seeds() {
  Bytes files[3];
  const attn::AttentionForm forms[3] = {attn::AttentionForm::bahdanau, attn::AttentionForm::luong,
                                        attn::AttentionForm::none};
  for (int i = 0; i < 3; ++i) {
    attn::Seq2SeqConfig config;
    config.source_vocab = 9;
    config.target_vocab = 7;
    config.embed = 3;
    config.units = 2;
    config.attention_dim = 3;
    config.attention = forms[i];
    config.score = forms[i] == attn::AttentionForm::luong ? attn::ScoreKind::general : attn::ScoreKind::additive;
    files[i] =
        attn::save_seq2seq(attn::Seq2SeqModel(config, static_cast<std::uint64_t>(i + 1)), "{\"task\":\"reverse\"}");
  }
  return {
      {"bahdanau_as_is", with_mode(0, files[0])},
      {"bahdanau_crc_fixed", with_mode(1, files[0])},
      {"luong_crc_fixed", with_mode(1, files[1])},
      {"none_crc_fixed", with_mode(1, files[2])},
      {"truncated", with_mode(0, Bytes(files[0].begin(), files[0].begin() + static_cast<long>(files[0].size() / 2)))}};
}

// target -> its seeds: one line per target.
const std::vector<std::pair<std::string, std::function<Seeds()>>> kSeeds = {
    {"fuzz_csv", csv_seeds},
    {"fuzz_tsv", tsv_seeds},
    {"fuzz_sentence_files", sentence_files_seeds},
    {"fuzz_aclimdb_archive", aclimdb_seeds},
    {"fuzz_tokenizer", tokenizer_seeds},
    {"fuzz_mt_text", mt_text_seeds},
    {"fuzz_model_file", model_file_seeds},
    {"fuzz_flat_json", flat_json_seeds},
    {"fuzz_parallel_text", parallel_text_seeds},
    {"fuzz_seq2seq_model_file", seq2seq_model_file_seeds},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_corpus <corpus folder>\n");
    return 2;
  }
  namespace fs = std::filesystem;
  for (const auto& [target, make] : kSeeds) {
    const fs::path folder = fs::path(argv[1]) / target.substr(5);  // "fuzz_csv" -> corpus/csv
    fs::create_directories(folder);
    for (const auto& [name, bytes] : make()) {
      std::ofstream out(folder / name, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
  }
  return 0;
}
