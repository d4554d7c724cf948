#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "attn/data/review_loaders.hpp"
#include "attn/random.hpp"
#include "support/archive_writer.hpp"
#include "support/fixture_files.hpp"

using attn::CsvOptions;
using attn::DataError;
using attn::LabelledText;
using attn::LoadLimits;
using attn::MemorySource;
using namespace test_archive;

namespace {

std::vector<LabelledText> csv(const std::string& text, const CsvOptions& options = {}) {
  MemorySource source(text.data(), text.size(), "reviews.csv");
  return attn::load_csv(source, options);
}

std::string csv_error(const std::string& text, const CsvOptions& options = {}) {
  try {
    csv(text, options);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<LabelledText> tsv(const std::string& text) {
  MemorySource source(text.data(), text.size(), "sentences.tsv");
  return attn::load_tsv(source);
}

std::string tsv_error(const std::string& text) {
  try {
    tsv(text);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<LabelledText> archive(const Bytes& gz, const std::string& split = "train", const LoadLimits& limits = {},
                                  const attn::ProgressFn& progress = {}) {
  MemorySource source(gz.data(), gz.size(), "imdb.tar.gz");
  return attn::load_aclimdb_archive(source, split, limits, progress);
}

std::string archive_error(const Bytes& gz, const LoadLimits& limits = {}) {
  try {
    archive(gz, "train", limits);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

Bytes small_archive(const std::string& top = "aclImdb") {
  TarBuilder b;
  const std::string root = top.empty() ? "" : top + "/";
  if (!top.empty()) b.add(root, "", '5');
  b.add(root + "README", "not a review");
  b.add(root + "train/pos/0_9.txt", "Great film.");
  b.add(root + "train/unsup/1_0.txt", "unlabelled");
  b.add(root + "train/neg/2_2.txt", "Dull film.");
  b.add(root + "train/neg/notes.md", "not a review either");
  b.add(root + "test/pos/3_8.txt", "test review");
  return gzip_fixed(b.finish());
}

}  // namespace

TEST_CASE("review_loaders.aclimdb_fixture_archives") {
  for (const char* name : {"mini_aclimdb_gnu.tar.gz", "mini_aclimdb_pax.tar.gz"}) {
    INFO(name);
    const Bytes gz = test_fixtures::read(name);
    MemorySource source(gz.data(), gz.size(), name);
    const auto train = attn::load_aclimdb_archive(source, "train");
    REQUIRE(train.size() == 4);  // unsup/ and imdb.vocab skipped; archive (sorted) order
    CHECK(train[0].text == "Terrible. Boring plot.");
    CHECK(train[0].label == 0);
    CHECK(train[0].origin == std::string(name) + ":aclImdb/train/neg/2_1.txt");
    CHECK(train[1].text == "Long name negative review.");  // the 143-character path
    CHECK(train[1].label == 0);
    CHECK(train[2].label == 1);
    CHECK(train[3].text == "Caf\xc3\xa9 scenes were great <br /><br />really.");
    CHECK(train[3].label == 1);
    MemorySource again(gz.data(), gz.size(), name);
    const auto test = attn::load_aclimdb_archive(again, "test");
    REQUIRE(test.size() == 2);
    CHECK(test[0].text == "test negative");
    CHECK(test[1].text == "test positive");
  }
}

TEST_CASE("review_loaders.aclimdb_any_leading_folder_or_none") {
  for (const std::string top : {"aclImdb", "imdb_reviews_v1", ""}) {
    INFO(top);
    const auto train = archive(small_archive(top));
    REQUIRE(train.size() == 2);
    CHECK(train[0].text == "Great film.");
    CHECK(train[0].label == 1);
    CHECK(train[1].text == "Dull film.");
    CHECK(train[1].label == 0);
    CHECK(archive(small_archive(top), "test").size() == 1);
  }
  TarBuilder deep;  // two leading folders is not the aclImdb layout
  deep.add("a/b/train/pos/0_9.txt", "x");
  CHECK(archive_error(gzip_fixed(deep.finish())) ==
        "imdb.tar.gz: no reviews found: expected files like aclImdb/train/pos/*.txt and aclImdb/train/neg/*.txt");
  CHECK_THROWS_AS(archive(small_archive(), "dev"), std::invalid_argument);
}

TEST_CASE("review_loaders.aclimdb_limits_and_bad_text") {
  TarBuilder big;
  big.add("aclImdb/train/pos/0_9.txt", std::string(3000, 'a'));
  LoadLimits limits;
  limits.max_example_bytes = 2048;
  CHECK(archive_error(gzip_fixed(big.finish()), limits) ==
        "imdb.tar.gz:aclImdb/train/pos/0_9.txt: review is 3000 bytes, larger than the limit of 2048 bytes");

  TarBuilder latin1;
  latin1.add("aclImdb/train/pos/0_9.txt", "caf\xe9");
  CHECK(archive_error(gzip_fixed(latin1.finish())) ==
        "imdb.tar.gz:aclImdb/train/pos/0_9.txt:1: invalid UTF-8 (byte 0xe9 at column 4) in the review; save the file "
        "as UTF-8");

  LoadLimits few;
  few.max_examples = 1;
  CHECK(archive_error(small_archive(), few) == "imdb.tar.gz: more than 1 examples (the limit)");

  LoadLimits tight;
  tight.max_decompressed_bytes = 4096;
  CHECK(archive_error(small_archive(), tight) ==
        "imdb.tar.gz: decompressed size exceeds the limit of 4096 bytes (zip bomb?)");

  CHECK(archive_error(bytes_of("plain text, not gzip")) ==
        "imdb.tar.gz: not a gzip file (it does not start with the bytes 1f 8b)");
}

TEST_CASE("review_loaders.aclimdb_every_truncation_throws") {
  const Bytes gz = small_archive();
  for (std::size_t cut = 0; cut < gz.size(); ++cut) {
    INFO("cut at " << cut);
    CHECK_THROWS_AS(archive(Bytes(gz.begin(), gz.begin() + static_cast<std::ptrdiff_t>(cut))), DataError);
  }
  // Same with stored blocks (the tar bytes appear verbatim, so cuts land inside tar headers).
  TarBuilder b;
  b.add("aclImdb/train/pos/0_9.txt", "Great film.");
  b.add("aclImdb/train/neg/1_1.txt", "Dull.");
  const Bytes tar = b.finish();
  const Bytes stored = gzip_member(deflate_stored(tar, 700), tar);
  REQUIRE(archive(stored).size() == 2);
  for (std::size_t cut = 0; cut < stored.size(); ++cut) {
    CHECK_THROWS_AS(archive(Bytes(stored.begin(), stored.begin() + static_cast<std::ptrdiff_t>(cut))), DataError);
  }
}

TEST_CASE("review_loaders.corrupt_archives_throw_data_error") {
  // Stored blocks put tar headers verbatim in the stream, so flips hit the tar parser before the
  // gzip CRC; fixed-Huffman flips hit the inflater. Either way: a result or a DataError.
  TarBuilder b;
  b.add("aclImdb/train/pos/0_9.txt", "Great film.");
  b.add("aclImdb/train/neg/1_1.txt", "Dull.");
  const Bytes tar = b.finish();
  attn::Rng rng(11);
  int caught = 0;
  for (const Bytes& gz : {gzip_member(deflate_stored(tar), tar), gzip_fixed(tar)}) {
    for (int trial = 0; trial < 400; ++trial) {
      Bytes bad = gz;
      bad[rng.below(static_cast<std::uint32_t>(bad.size()))] ^= static_cast<std::uint8_t>(1u << rng.below(8));
      try {
        const auto examples = archive(bad);
        CHECK(examples.size() == 2);  // the flip hit an ignored header field (e.g. MTIME)
      } catch (const DataError&) {
        ++caught;
      }
    }
  }
  CHECK(caught > 700);
}

TEST_CASE("review_loaders.progress_reports") {
  TarBuilder b;
  for (int i = 0; i < 600; ++i)
    b.add("aclImdb/train/" + std::string(i % 2 ? "pos" : "neg") + "/" + std::to_string(i) + "_5.txt",
          "review " + std::to_string(i));
  const Bytes gz = gzip_fixed(b.finish());
  std::vector<attn::LoadProgress> reports;
  const auto examples = archive(gz, "train", {}, [&](const attn::LoadProgress& p) { reports.push_back(p); });
  CHECK(examples.size() == 600);
  REQUIRE(reports.size() == 3);  // after 256, 512, and at the end
  CHECK(reports[0].examples == 256);
  CHECK(reports[1].examples == 512);
  CHECK(reports[0].bytes_read <= reports[1].bytes_read);
  CHECK(reports[2].examples == 600);
  CHECK(reports[2].bytes_read == gz.size());
  CHECK(reports[2].bytes_total == gz.size());
}

TEST_CASE("review_loaders.looks_like_gzip") {
  const std::uint8_t gz[] = {0x1f, 0x8b, 8, 0};
  const std::uint8_t other[] = {'P', 'K', 3, 4};
  CHECK(attn::looks_like_gzip(gz, 4));
  CHECK(attn::looks_like_gzip(gz, 2));
  CHECK_FALSE(attn::looks_like_gzip(gz, 1));
  CHECK_FALSE(attn::looks_like_gzip(other, 4));
  const std::uint8_t wrong_method[] = {0x1f, 0x8b, 7};
  CHECK_FALSE(attn::looks_like_gzip(wrong_method, 3));
}

TEST_CASE("review_loaders.aclimdb_folder") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "attn_test_review_loaders";
  fs::remove_all(root);
  auto write = [](const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  };
  write(root / "aclImdb/train/pos/1_9.txt", "second positive");
  write(root / "aclImdb/train/pos/0_8.txt", "first positive");
  write(root / "aclImdb/train/neg/5_1.txt", "negative");
  write(root / "aclImdb/train/neg/skip.md", "not a review");
  write(root / "aclImdb/train/unsup/7_0.txt", "unlabelled");
  const auto from_root = attn::load_aclimdb_folder((root / "aclImdb").string(), "train");
  REQUIRE(from_root.size() == 3);
  CHECK(from_root[0].text == "first positive");  // sorted names, pos then neg
  CHECK(from_root[1].text == "second positive");
  CHECK(from_root[2].label == 0);
  CHECK(from_root[2].origin == (root / "aclImdb/train/neg/5_1.txt").string());
  const auto from_split = attn::load_aclimdb_folder((root / "aclImdb/train").string(), "train");
  CHECK(from_split.size() == 3);
  CHECK_THROWS_WITH_AS(attn::load_aclimdb_folder((root / "aclImdb/test").string(), "test"),
                       ((root / "aclImdb/test").string() + ": folder not found").c_str(), DataError);
  CHECK_THROWS_AS(attn::load_aclimdb_folder(root.string(), "train"), DataError);  // no train/ directly inside
  fs::remove_all(root);
}

TEST_CASE("review_loaders.file_source_errors") {
  CHECK_THROWS_WITH_AS(attn::FileSource("/nonexistent/reviews.csv"),
                       "/nonexistent/reviews.csv: cannot open the file: No such file or directory", DataError);
  CHECK_THROWS_WITH_AS(attn::FileSource("/tmp"), "/tmp: is a folder, not a file", DataError);
  attn::FileSource real(test_fixtures::path("hello.txt"));
  CHECK(real.size() == 13);
}

TEST_CASE("review_loaders.csv_rfc4180") {
  // Quoted commas, doubled quotes, a newline inside quotes, CRLF line ends, a BOM, a blank line.
  const std::string text =
      "\xEF\xBB\xBFid,review,sentiment\r\n"
      "1,\"Great, really great\",positive\r\n"
      "2,\"He said \"\"meh\"\"\",NEGATIVE\r\n"
      "\r\n"
      "3,\"two\nlines\",pos\r\n"
      "4,plain text,0\r\n"
      "5,,1";  // no final newline, empty text
  const auto rows = csv(text);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].text == "Great, really great");
  CHECK(rows[0].label == 1);
  CHECK(rows[0].origin == "reviews.csv:2");
  CHECK(rows[1].text == "He said \"meh\"");
  CHECK(rows[1].label == 0);
  CHECK(rows[2].text == "two\nlines");
  CHECK(rows[2].origin == "reviews.csv:5");  // line 4 was blank
  CHECK(rows[3].text == "plain text");
  CHECK(rows[3].label == 0);
  CHECK(rows[3].origin == "reviews.csv:7");  // the quoted newline moved it down a line
  CHECK(rows[4].text.empty());
  CHECK(rows[4].label == 1);
}

TEST_CASE("review_loaders.csv_column_choice") {
  const std::string text = "Text,Label,Sentence\nkept,neg,ignored\n";
  CHECK(csv(text)[0].text == "kept");  // "text" comes before "sentence" in the defaults
  CsvOptions by_name;
  by_name.text_column = "SENTENCE";
  CHECK(csv(text, by_name)[0].text == "ignored");
  CsvOptions by_index;
  by_index.text_index = 2;
  by_index.label_index = 1;
  CHECK(csv(text, by_index)[0].text == "ignored");
  CsvOptions missing;
  missing.label_column = "stars";
  CHECK(csv_error(text, missing) ==
        "reviews.csv:1: no label column named 'stars' (the header has: Text, Label, Sentence)");
  CHECK(csv_error("a,b\nx,1\n") ==
        "reviews.csv:1: no text column: expected one of review, text, sentence, content (the header has: a, b)");
  CsvOptions no_header;
  no_header.has_header = false;
  const auto rows = csv("good movie,1\nbad movie,0\n", no_header);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].origin == "reviews.csv:1");
  CHECK(rows[1].label == 0);
}

TEST_CASE("review_loaders.csv_errors_name_the_line") {
  std::string text = "review,sentiment\n";
  for (int line = 2; line < 14; ++line) text += "fine,positive\n";
  CHECK(csv_error(text + "hmm,maybe\n") ==
        "reviews.csv:14: label 'maybe' is not one of positive, negative, pos, neg, 1, 0");
  CHECK(csv_error("review,sentiment\nok,1\n\"never closed,1\nmore,0\n") ==
        "reviews.csv:3: unterminated quoted field (the quote opens on this line)");
  CHECK(csv_error("review,sentiment\nok,1\na,b,1\n") == "reviews.csv:3: expected 2 fields, found 3");
  CHECK(csv_error("review,sentiment\n\"quoted\"x,1\n") ==
        "reviews.csv:2: unexpected character after a closing quote (quotes inside a field must be doubled)");
  CHECK(csv_error("") == "reviews.csv: the file is empty");
  CHECK(csv_error("\xEF\xBB\xBF\r\n\n") == "reviews.csv: the file is empty");
  CHECK(csv_error("review,sentiment\n") == "reviews.csv: the file has a header but no rows");
  CHECK(csv_error("review,sentiment\n\xff\xfe,1\n") ==
        "reviews.csv:2: invalid UTF-8 (byte 0xff at column 1) in the text; save the file as UTF-8");
  CsvOptions small;
  small.limits.max_example_bytes = 10;
  CHECK(csv_error("review,sentiment\n\"" + std::string(50, 'x') + "\",1\n", small) ==
        "reviews.csv:2: quoted field is longer than the limit of 10 bytes (an unterminated quote?)");
}

TEST_CASE("review_loaders.binary_files_are_not_text") {
  // A gzip stream, a PNG and a UTF-16 CSV read as CSV or TSV: one sentence, none of their bytes.
  std::string gzip("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
  attn::Rng rng(3, 0);
  for (int i = 0; i < 300; ++i) gzip += static_cast<char>(rng.below(256));
  const std::string png = std::string("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 16) + std::string(40, '\x01');
  const std::string not_text =
      ": this is not a text file (its first bytes are binary); a review file is CSV or TSV text saved as UTF-8, and "
      "an aclImdb archive is a .tar.gz";
  CHECK(csv_error(gzip) == "reviews.csv" + not_text);
  CHECK(csv_error(png) == "reviews.csv" + not_text);
  CHECK(tsv_error(gzip) == "sentences.tsv" + not_text);
  CHECK(csv_error(std::string("\xff\xfer\0e\0v\0", 8)) ==
        "reviews.csv: the file is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8");
  // Text stays text: Latin-1 accents are a UTF-8 error on their line, tabs and form feeds are fine,
  // and a file longer than the sniffed head reads whole.
  CHECK(csv_error("review,sentiment\ncaf\xe9,1\n") ==
        "reviews.csv:2: invalid UTF-8 (byte 0xe9 at column 4) in the text; save the file as UTF-8");
  std::string long_text = "review,sentiment\n";
  for (int i = 0; i < 200; ++i) long_text += "\"a\tfine\ffilm " + std::to_string(i) + "\",1\nawful,0\n";
  CHECK(csv(long_text).size() == 400);
}

TEST_CASE("review_loaders.tsv") {
  const auto with_header = tsv("sentence\tlabel\na fine film\t1\r\n\nawful\tnegative\n");
  REQUIRE(with_header.size() == 2);
  CHECK(with_header[0].text == "a fine film");
  CHECK(with_header[0].origin == "sentences.tsv:2");
  CHECK(with_header[1].label == 0);
  CHECK(with_header[1].origin == "sentences.tsv:4");
  const auto no_header = tsv("great\t1\nbad\t0");
  REQUIRE(no_header.size() == 2);
  CHECK(no_header[0].text == "great");
  CHECK(tsv_error("great\t1\nbad\t2\n") ==
        "sentences.tsv:2: label '2' is not one of positive, negative, pos, neg, 1, 0");
  CHECK(tsv_error("great\t1\nno tab here\n") ==
        "sentences.tsv:2: expected 'sentence<TAB>label' but the line has no tab");
  CHECK(tsv_error("\n\n") == "sentences.tsv: the file is empty");
  CHECK(tsv_error("sentence\tlabel\n") == "sentences.tsv: the file has a header but no rows");
}

TEST_CASE("review_loaders.check_two_classes") {
  const std::vector<LabelledText> positives = {{"a", 1, "x:1"}, {"b", 1, "x:2"}};
  CHECK_THROWS_WITH_AS(attn::check_two_classes(positives, "reviews.csv"),
                       "only positive examples were found in reviews.csv; a classifier needs both classes", DataError);
  const std::vector<LabelledText> negatives = {{"a", 0, "x:1"}};
  CHECK_THROWS_WITH_AS(attn::check_two_classes(negatives, "r.tsv"),
                       "only negative examples were found in r.tsv; a classifier needs both classes", DataError);
  CHECK_THROWS_AS(attn::check_two_classes({}, "r.tsv"), DataError);
  CHECK_NOTHROW(attn::check_two_classes({{"a", 0, "x:1"}, {"b", 1, "x:2"}}, "r.tsv"));
}

namespace {
std::vector<LabelledText> sentences(const std::string& positive, const std::string& negative,
                                    const std::string& positive_name = "rt.pos",
                                    const std::string& negative_name = "rt.neg") {
  MemorySource pos(positive.data(), positive.size(), positive_name);
  MemorySource neg(negative.data(), negative.size(), negative_name);
  return attn::load_sentence_files(pos, neg);
}

std::string sentences_error(const std::string& positive, const std::string& negative,
                            const std::string& positive_name = "rt.pos", const std::string& negative_name = "rt.neg") {
  try {
    sentences(positive, negative, positive_name, negative_name);
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("review_loaders.sentence_files_label_each_line_by_its_file") {
  // A BOM, CRLF ends and trailing blank lines are accepted; tabs and commas are part of the text.
  const auto examples = sentences(
      "\xEF\xBB\xBF"
      "a moving, tender film\r\nwitty\tand warm\r\n\r\n",
      "dull and slow\nan empty shell\nlifeless\n\n \n");
  REQUIRE(examples.size() == 5);
  CHECK(examples[0].text == "a moving, tender film");
  CHECK(examples[0].label == 1);
  CHECK(examples[0].origin == "rt.pos:1");
  CHECK(examples[1].text == "witty\tand warm");
  CHECK(examples[2].label == 0);
  CHECK(examples[2].origin == "rt.neg:1");
  CHECK(examples[4].text == "lifeless");
  CHECK(examples[4].origin == "rt.neg:3");
  attn::check_two_classes(examples, "the two files");

  std::vector<attn::LoadProgress> seen;
  const std::string pos(3000, 'a'), neg = "b\n";
  std::string many;
  for (int i = 0; i < 300; ++i) many += "good film\n";
  MemorySource p(many.data(), many.size(), "p.txt");
  MemorySource n(neg.data(), neg.size(), "n.txt");
  attn::load_sentence_files(p, n, {}, [&](const attn::LoadProgress& x) { seen.push_back(x); });
  REQUIRE(!seen.empty());
  CHECK(seen.back().examples == 301);
  CHECK(seen.back().bytes_read == many.size() + neg.size());
  CHECK(seen.back().bytes_total == many.size() + neg.size());
}

TEST_CASE("review_loaders.sentence_files_refuse_what_is_not_the_layout") {
  CHECK(sentences_error("", "bad\n") == "rt.pos: the file is empty; expected one positive sentence per line");
  CHECK(sentences_error("good\n", "\n  \n") ==
        "rt.neg: the file holds only blank lines; expected one negative sentence per line");
  CHECK(sentences_error("good\n\nfine\n", "bad\n").rfind("rt.pos:2: the line is blank", 0) == 0);
  CHECK(sentences_error("good\n", "bad\nd\xE9j\xE0 vu\n") ==
        "rt.neg:2: invalid UTF-8 (byte 0xe9 at column 2) in the sentence; save the file as UTF-8");
  CHECK(sentences_error(std::string("\xFF\xFEg\0o\0", 6), "bad\n").find("rt.pos: the file is UTF-16") == 0);
  CHECK(sentences_error("good\nfine\n", "good\nfine\n") ==
        "rt.pos and rt.neg hold the same sentences: pick one file per class (the same file twice?)");
  CHECK(sentences_error("good\n", "bad\n", "same.txt", "same.txt") ==
        "the positive and the negative sentences are both read from same.txt; pick one file per class");
  LoadLimits limits;
  limits.max_line_bytes = 8;
  const std::string long_line = "a very long sentence\n", neg = "bad\n";
  MemorySource p(long_line.data(), long_line.size(), "p.txt");
  MemorySource n(neg.data(), neg.size(), "n.txt");
  CHECK_THROWS_WITH_AS(attn::load_sentence_files(p, n, limits), doctest::Contains("p.txt:1: line is longer"),
                       DataError);
}
