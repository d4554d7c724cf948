// Hostile and broken user input through the whole `attn` command line (the same loaders and
// model-file readers the wasm API uses): every case must end with exit code 1 (2 for bad
// settings) and a message that says what is wrong and where, never a crash, a hang or a
// silently accepted file. Unit-level checks of each reader live in its own test file; the fuzz
// targets in fuzz/ explore the same readers with arbitrary bytes.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "attn/data/builtin_reviews.hpp"
#include "attn/data/review_files.hpp"
#include "attn/io/flat_json.hpp"
#include "attn/io/model_file.hpp"
#include "attn/models/sentiment_model.hpp"
#include "attn/random.hpp"
#include "cli.hpp"
#include "support/archive_writer.hpp"
#include "support/fixture_files.hpp"
#include "support/processes.hpp"

using test_archive::Bytes;

namespace {

using Result = attn::test::CliResult;
using attn::test::run_attn;

// A file in the temp folder, removed when the test case ends.
class TempFile {
 public:
  TempFile(const std::string& name, const Bytes& content)
      : path_((std::filesystem::temp_directory_path() / ("attn-test-hostile-" + name)).string()) {
    std::ofstream f(path_, std::ios::binary);
    f.write(reinterpret_cast<const char*>(content.data()), static_cast<std::streamsize>(content.size()));
  }
  TempFile(const std::string& name, const std::string& content)
      : TempFile(name, Bytes(content.begin(), content.end())) {}
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `attn train --data <file> --model bow` and returns the result.
Result train_on(const TempFile& file) {
  return run_attn({"train", "--data", file.path(), "--model", "bow", "--epochs", "1"});
}

Bytes random_bytes(std::size_t n, std::uint64_t seed) {
  attn::Rng rng(seed, 7);
  Bytes out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng.below(256));
  return out;
}

Bytes mini_aclimdb() {
  test_archive::TarBuilder tar;
  for (int i = 0; i < 4; ++i) {
    tar.add("aclImdb/train/pos/" + std::to_string(i) + "_9.txt", "A wonderful film, loved it.");
    tar.add("aclImdb/train/neg/" + std::to_string(i) + "_1.txt", "Dull and awful.");
    tar.add("aclImdb/test/pos/" + std::to_string(i) + "_8.txt", "Great fun.");
    tar.add("aclImdb/test/neg/" + std::to_string(i) + "_2.txt", "Terrible.");
  }
  return test_archive::gzip_fixed(tar.finish());
}

// The message must appear in stderr, and the run must fail with `code`.
void check_fails(const Result& r, const std::string& message, int code = 1) {
  CAPTURE(r.err);
  CHECK(r.code == code);
  CHECK(r.err.find(message) != std::string::npos);
}

}  // namespace

TEST_CASE("hostile_inputs.empty_files") {
  const TempFile csv("empty.csv", std::string());
  check_fails(train_on(csv), csv.path() + ": the file is empty");
  const TempFile tsv("empty.tsv", std::string("\n\n  \n"));
  check_fails(train_on(tsv), tsv.path() + ": the file is empty");
  const TempFile header_only("header_only.csv", std::string("review,sentiment\n"));
  check_fails(train_on(header_only), header_only.path() + ": the file has a header but no rows");
  const TempFile gz("empty.tar.gz", test_fixtures::read("empty.txt.gz"));  // gzip -9 of nothing
  check_fails(train_on(gz), gz.path() + ": truncated tar archive: missing the end-of-archive blocks");
}

TEST_CASE("hostile_inputs.one_class_only") {
  const TempFile csv("positive_only.csv", std::string("review,sentiment\ngreat,positive\nsuperb,pos\nlovely,1\n"));
  check_fails(train_on(csv),
              "only positive examples were found in " + csv.path() + "; a classifier needs both classes");
  const TempFile tsv("negative_only.tsv", std::string("awful\t0\nbad\tneg\n"));
  check_fails(train_on(tsv),
              "only negative examples were found in " + tsv.path() + "; a classifier needs both classes");
}

TEST_CASE("hostile_inputs.labels_outside_the_accepted_set") {
  // Accepted: positive, negative, pos, neg, 1, 0 in any case and with spaces around.
  const TempFile fine("labels.csv",
                      std::string("review,sentiment\na good film,POSITIVE\na bad film, Neg \ngood film,1\n"
                                  "bad film,0\ngood,pos\nbad,negative\n"));
  CHECK(train_on(fine).code == 0);
  for (const std::string label : {"2", "-1", "yes", "true", "0.5", "positif", ""}) {
    CAPTURE(label);
    const TempFile csv("bad_label.csv", "review,sentiment\ngood,1\nbad," + label + "\n");
    check_fails(train_on(csv),
                csv.path() + ":3: label '" + label + "' is not one of positive, negative, pos, neg, 1, 0");
  }
  // A runaway label is cut short in the message.
  const TempFile tsv("long_label.tsv", "fine\t1\nnot fine\t" + std::string(100, 'x') + "\n");
  check_fails(train_on(tsv), tsv.path() + ":2: label '" + std::string(40, 'x') + "...' is not one of");
}

TEST_CASE("hostile_inputs.a_line_above_the_stated_bound") {
  // LoadLimits::max_line_bytes (1 MiB + 4096 by default) bounds one CSV record or TSV line, so a
  // 1 GB line is refused after that many bytes; a line just inside the bound is accepted.
  const std::size_t bound = attn::LoadLimits{}.max_line_bytes;
  CHECK(bound == (1u << 20) + 4096);
  const std::string long_tsv_line = std::string(bound + 1 - 2, 'a') + "\t1";
  const TempFile tsv("long_line.tsv", "fine\t0\n" + long_tsv_line + "\n");
  check_fails(train_on(tsv), tsv.path() + ":2: line is longer than the limit of 1052672 bytes");
  // A CSV record whose fields are each within the review bound but together exceed the line bound.
  const std::string field(600000, 'b');
  const TempFile csv("long_record.csv", "review,sentiment,note\ngood,1,x\n" + field + ",0," + field + "\n");
  check_fails(train_on(csv), csv.path() + ":3: line is longer than the limit of 1052672 bytes");
  // One review above max_example_bytes (1 MiB) inside a line that fits.
  const TempFile big_review("big_review.tsv", "fine\t0\n" + std::string((1u << 20) + 1, 'c') + "\t1\n");
  check_fails(train_on(big_review), big_review.path() + ":2: sentence is longer than the limit of 1048576 bytes");
}

TEST_CASE("hostile_inputs.binary_garbage") {
  const Bytes garbage = random_bytes(5000, 1);
  const TempFile csv("garbage.csv", garbage);
  CHECK(train_on(csv).code == 1);
  const TempFile tsv("garbage.tsv", garbage);
  CHECK(train_on(tsv).code == 1);
  // Garbage behind a gzip signature is reported as a broken gzip stream, not read as text.
  Bytes fake_gz = garbage;
  fake_gz[0] = 0x1f, fake_gz[1] = 0x8b, fake_gz[2] = 8, fake_gz[3] = 0;
  const TempFile gz("garbage.tar.gz", fake_gz);
  const Result r = train_on(gz);
  CHECK(r.code == 1);
  CHECK(r.err.find(gz.path()) != std::string::npos);
  // NUL bytes say the file is not text (a binary or UTF-16 file): one clear message, no garbage.
  const TempFile nul("nul.csv", std::string("review,sentiment\na\0b\x01 film,1\nc\0d film,0\n", 40));
  const Result with_nul = train_on(nul);
  CHECK(with_nul.code == 1);
  CHECK(with_nul.err.find("not a text file") != std::string::npos);
  // A stray control character inside a review is still valid UTF-8 text.
  const TempFile control("control.csv", std::string("review,sentiment\nab\x01 film,1\ncd film,0\n"));
  CHECK(train_on(control).code == 0);
  // A file of the wrong kind: the name says nothing and the bytes are not gzip.
  const TempFile unknown("garbage.bin", garbage);
  CHECK(train_on(unknown).code == 1);
}

TEST_CASE("hostile_inputs.invalid_utf8") {
  const TempFile csv("latin1.csv", std::string("review,sentiment\ngood,1\ncaf\xe9 cr\xe8me,0\n"));
  check_fails(train_on(csv),
              csv.path() + ":3: invalid UTF-8 (byte 0xe9 at column 4) in the text; save the file as UTF-8");
  const TempFile tsv("surrogate.tsv", std::string("good\t1\nbad \xed\xa0\x80 text\t0\n"));
  check_fails(train_on(tsv), tsv.path() + ":2: invalid UTF-8 (byte 0xed at column 5) in the sentence");
  const TempFile overlong("overlong.tsv", std::string("good\t1\n\xc0\xaf\t0\n"));
  check_fails(train_on(overlong), overlong.path() + ":2: invalid UTF-8 (byte 0xc0 at column 1) in the sentence");
}

TEST_CASE("hostile_inputs.truncated_and_corrupted_archives") {
  const Bytes archive = mini_aclimdb();
  const TempFile whole("mini.tar.gz", archive);
  REQUIRE(train_on(whole).code == 0);
  for (std::size_t keep : {std::size_t{5}, std::size_t{30}, archive.size() / 2, archive.size() - 1}) {
    CAPTURE(keep);
    const TempFile cut("cut.tar.gz", Bytes(archive.begin(), archive.begin() + static_cast<long>(keep)));
    check_fails(train_on(cut), cut.path() + ": truncated gzip stream");
  }
  Bytes flipped = archive;
  flipped[flipped.size() - 6] ^= 0x01;  // inside the CRC-32 trailer
  const TempFile bad_crc("bad_crc.tar.gz", flipped);
  check_fails(train_on(bad_crc), bad_crc.path() + ": gzip CRC-32 mismatch in member 1");
}

TEST_CASE("hostile_inputs.gzip_bomb_stops_at_the_stated_bound") {
  // 16 entries of 512 KiB of zeros (8 MiB) compress to ~65 KB; the loaders stop decompressing
  // at LoadLimits::max_decompressed_bytes (2 GiB by default; 1 MiB here, to keep the test fast)
  // with a message naming the bound. (One entry declaring more than the bound is refused from
  // its header alone, before any of it is inflated.)
  test_archive::TarBuilder tar;
  tar.add("aclImdb/train/pos/0_9.txt", "fine");
  for (int i = 0; i < 16; ++i) tar.add("aclImdb/zeros" + std::to_string(i) + ".bin", std::string(512u << 10, '\0'));
  const Bytes bomb = test_archive::gzip_fixed(tar.finish());
  CHECK(bomb.size() < 100000);
  attn::MemorySource source(bomb.data(), bomb.size(), "bomb.tar.gz");
  attn::LoadLimits limits;
  limits.max_decompressed_bytes = 1 << 20;
  std::string message;
  try {
    attn::load_review_file(source, attn::ReviewFormat::aclimdb_archive, "train", limits);
  } catch (const attn::DataError& e) {
    message = e.what();
  }
  CHECK(message == "bomb.tar.gz: decompressed size exceeds the limit of 1048576 bytes (zip bomb?)");
  CHECK(attn::LoadLimits{}.max_decompressed_bytes == 2ull << 30);
}

namespace {

// A small trained-from-nothing sentiment model file (the values do not matter here).
Bytes tiny_model_file() {
  attn::TextPipelineConfig pipeline_config;
  pipeline_config.num_words = 30;
  pipeline_config.maxlen = 10;
  attn::TextPipeline pipeline(pipeline_config);
  std::vector<attn::LabelledText> train = attn::builtin_split(false);
  train.resize(10);
  pipeline.fit(train);
  attn::ClassifierConfig config;
  config.embed_dim = 4;
  config.units = 3;
  config.attention_dim = 3;
  return attn::save_sentiment_model(attn::make_sentiment_model(pipeline, config, 1));
}

void fix_crc(Bytes& file) {
  const std::uint32_t crc = attn::crc32(file.data(), file.size() - 4);
  for (int i = 0; i < 4; ++i) file[file.size() - 4 + i] = static_cast<std::uint8_t>(crc >> (8 * i));
}

// The file with its config JSON replaced by `config` (lengths and checksum made consistent).
Bytes with_config(const Bytes& file, const std::string& config) {
  const attn::ModelFile parsed = attn::read_model(file);
  const std::size_t old_length = parsed.config_json.size();
  Bytes out(file.begin(), file.begin() + 12);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(config.size() >> (8 * i)));
  out.insert(out.end(), config.begin(), config.end());
  out.insert(out.end(), file.begin() + 16 + static_cast<long>(old_length), file.end());
  fix_crc(out);
  return out;
}

Result predict_with(const TempFile& model) {
  return run_attn({"predict", "--model-file", model.path(), "--text", "fine"});
}

}  // namespace

TEST_CASE("hostile_inputs.damaged_and_foreign_model_files") {
  const Bytes good = tiny_model_file();
  const TempFile ok("ok.model", good);
  REQUIRE(predict_with(ok).code == 0);

  const TempFile cut("cut.model", Bytes(good.begin(), good.begin() + static_cast<long>(good.size() - 9)));
  check_fails(predict_with(cut), "truncated");
  Bytes flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  const TempFile flip("flipped.model", flipped);
  check_fails(predict_with(flip), "checksum");
  // Another version of the format (checksum made valid, so only the version is wrong).
  Bytes future = good;
  future[8] = 2;
  fix_crc(future);
  const TempFile version("future.model", future);
  check_fails(predict_with(version), "version 2");
  // Another architecture: the file's tensors are a BiLSTM's, its configuration a Transformer's.
  const attn::ModelFile parsed = attn::read_model(good);
  attn::FlatJson json = attn::FlatJson::parse(parsed.config_json);
  attn::ClassifierConfig transformer = attn::ClassifierConfig::from_json(json.get_string("classifier"));
  transformer.encoder = attn::EncoderKind::transformer;
  transformer.heads = 2;
  transformer.ff_dim = 4;
  transformer.max_len = 10;
  json.set("classifier", transformer.to_json());
  const TempFile other("other_arch.model", with_config(good, json.dump()));
  check_fails(predict_with(other), "this file holds a model of another architecture");
  // A configuration claiming a 1 GiB embedding (within the configuration's own bounds) for a file
  // of a few hundred floats is refused before anything is allocated.
  attn::ClassifierConfig huge =
      attn::ClassifierConfig::from_json(attn::FlatJson::parse(parsed.config_json).get_string("classifier"));
  huge.vocab_size = 65536;
  huge.embed_dim = 4096;
  json.set("classifier", huge.to_json());
  const TempFile hostile("huge.model", with_config(good, json.dump()));
  check_fails(predict_with(hostile), "its configuration describes a model larger than the");
  // Beyond the configuration's bounds: 2^30 × 4096 values would also wrap wasm32's size_t.
  huge.vocab_size = 1u << 30;
  json.set("classifier", huge.to_json());
  const TempFile wrapping("wrapping.model", with_config(good, json.dump()));
  check_fails(predict_with(wrapping),
              "ClassifierConfig: vocab_size must be a whole number from 4 to 4194304, got 1073741824");
  // Regression (found by fuzz_model_file): a NaN weight behind a valid checksum loaded, then
  // every prediction failed inside softmax. The loader now refuses it, naming the tensor. The
  // last float of the last tensor sits just before the CRC-32.
  Bytes nan_weight = good;
  const std::uint8_t quiet_nan[4] = {0x00, 0x00, 0xc0, 0x7f};  // 0x7fc00000, little-endian
  std::copy(quiet_nan, quiet_nan + 4, nan_weight.end() - 8);
  fix_crc(nan_weight);
  CHECK_THROWS_WITH_AS(attn::load_sentiment_model(nan_weight),
                       ("this sentiment model holds non-finite parameter values (NaN or Inf) in '" +
                        parsed.tensors.back().name + "'; it cannot predict")
                           .c_str(),
                       attn::ModelFileError);
  const TempFile nan_model("nan.model", nan_weight);
  check_fails(predict_with(nan_model), "holds non-finite parameter values");
  // Not a model file at all.
  const TempFile csv("not_a_model.model", std::string("review,sentiment\ngood,1\n"));
  CHECK(predict_with(csv).code == 1);
}

TEST_CASE("hostile_inputs.hyperparameters_out_of_range") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--maxlen", "0"}, "attn train: --maxlen must be a whole number from 1 to 100000, got '0'"},
      {{"--vocab", "3"}, "attn train: --vocab must be a whole number from 5 to 4194304, got '3'"},
      {{"--lr", "0"}, "attn train: --lr must be a finite number > 0, got '0'"},
      {{"--lr", "-0.001"}, "attn train: --lr must be a finite number > 0, got '-0.001'"},
      {{"--lr", "nan"}, "attn train: --lr must be a finite number > 0, got 'nan'"},
      {{"--lr", "inf"}, "attn train: --lr must be a finite number > 0, got 'inf'"},
      {{"--batch", "0"}, "attn train: --batch must be a whole number from 1 to 65536, got '0'"},
      {{"--batch", "-4"}, "attn train: --batch must be a whole number from 1 to 65536, got '-4'"},
      {{"--embed", "0"}, "attn train: --embed must be a whole number"},
      {{"--dropout", "1"}, "attn train: --dropout must be"},
      {{"--model", "transformer", "--heads", "3"},
       "attn train: invalid model configuration: heads (3) must divide embed_dim (32)"},
      {{"--model", "transformer", "--heads", "0"}, "attn train: --heads must be a whole number"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    std::vector<std::string> args = {"train", "--data", "builtin"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const Result r = run_attn(args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind(c.message, 0) == 0);
  }
}
